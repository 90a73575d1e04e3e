"""The endgame benchmark (`vikinger endgame`, docs/learning.md "The endgame benchmark"): how
close a bot's moves come to the exact ones in solved round-6 positions.

The positions are a versioned file in the package (data/endgame-v1.json.gz), rebuilt
deterministically by `make_positions(seed)` (`vikinger endgame --make`): games between bots of
SOURCES drawn per seat, and from each game up to KEEP_PER_GAME of its round-6 decision nodes with
no chance ahead (with more than one legal action) drawn from its solvable tail (back from the end
to the first node the solver does not finish within SOLVER_NODES nodes) where the solver
(docs/search.md "Solver") values every legal action within SOLVER_NODES nodes and not all actions
are worth the same. A second file, data/endgame-critical-v1.json.gz (`--critical`), holds
critical positions alone, drawn the same way from other games. A third,
data/endgame-hard-v1.json.gz (`--hard`, two players), holds critical positions the learned
player's solver gives up on, each action labelled by the mover's result alone (HARD_FROM,
HARD_NODES, HARD_SOURCES). A position keeps its state in the engine's own format (`serialize`,
base64), the legal actions and the mover's exact margin after each: u = 64 * Fame + gold - the
best other player's, under best play after the action (two players: alpha-beta; three or four:
max^n, each player maximizing its own margin).

Per bot and number of players: the margin-optimal share (the bot's action has the best margin),
the mean regret in Fame (best margin - the action's margin, over 64), and the result-changing
blunders on the critical positions (a file labelled by results: the blunders alone). The
mover's result after an action is a win (u > 0), a shared win (u = 0) or a loss (u < 0); a
position is critical when not every action gives the same result, and a blunder is an action
whose result is worse than the best action's. Shares come with Wilson 95 % intervals. The
positions are a yardstick only: nothing is chosen or tuned on them.
"""

import base64
import gzip
import json
import pathlib
import time
from collections.abc import Callable, Iterator, Sequence
from types import ModuleType
from typing import Any, Optional

import numpy as np

from .. import arena
from ..arena.ratings import wilson
from ..distributed.executors import Executor, LocalProcesses, Shard
from ..safety import outputs

FORMAT = "vikinger-endgame/1"
DATA = pathlib.Path(__file__).resolve().parent / "data" / "endgame-v1.json.gz"
# The critical positions alone (`make_positions(critical=True)`): the main file holds few (10, 4
# and 14 of its 200 per count), too few to tell a blunder rate of 5 % from one of 0 or 20 %.
CRITICAL_DATA = DATA.with_name("endgame-critical-v1.json.gz")
# The hard positions (`make_positions(hard=True)`, two players): critical positions whose result
# solve gives up within HARD_FROM nodes, AZBot's default root budget (vikinger_ref.az_bot), so
# that the learned player's solver cannot play them and its search must. Exact margins are out
# of reach there, so each action is labelled with the mover's result alone (win, shared win,
# loss; result solves within HARD_NODES nodes).
HARD_DATA = DATA.with_name("endgame-hard-v1.json.gz")
HARD_FROM = 200_000
HARD_NODES = 3_000_000
HARD_TRIES_PER_GAME = 6  # candidates tried per game (each that is hard costs a solve or more)
# Their games: the learned player's self-play, whose games stay close to the end. In games of
# SOURCES (random and greedy seats, lopsided games) a hard position was seldom critical: one kept
# in 30 games against about one in four games of self-play (docs/learning.md "The hard positions").
HARD_SOURCES = ("az:simulations=50,solver_nodes=0",)
# The training loop's own critical positions (`vikinger train`'s endgame columns), of another
# seed: what a run is steered by is never the yardstick it is reported on.
LOOP_DATA = DATA.with_name("endgame-loop-v1.json.gz")
# The bots whose games the positions come from, drawn per seat.
SOURCES = ("az:simulations=50,solver_nodes=0", "mcts:iterations=300", "greedy", "random")
SOLVER_NODES = 300_000  # per solve while building the file
# The files of this format were built with the last scoring's trips listed tile by tile, and
# before two players' last scoring was solved player by player (docs/search.md), which changed
# the node counts the budget above is met in. "tiles" is the nearest listing there is now (the
# same values as by counts in more nodes): a rebuild gives the first game's positions of each
# file again (tested) and may draw others from later games (docs/learning.md).
TRIPS = "tiles"
TRIES_PER_GAME = 4  # candidate positions tried per game
CRITICAL_TRIES_PER_GAME = 8  # in a critical file: candidates the mover does not lose, per game
KEEP_PER_GAME = 3
# With an executor (`--jobs`): games built at a time while making a file, positions a shard
# while scoring (small enough that two workers share a row's 200 positions).
GAMES_PER_BATCH = 16
POSITIONS_PER_SHARD = 25
FAME = 64  # a margin's units per Fame
PLAYERS = (2, 3, 4)


def _round(state: Any) -> int:
    return int(state.to_dict()["round"])


def _final_margins(state: Any) -> list[int]:
    totals = [FAME * fame + gold for fame, gold in zip(state.scores(), state.gold())]
    return [t - max(o for j, o in enumerate(totals) if j != i) for i, t in enumerate(totals)]


def _after_each_action(
    state: Any, solve: Callable[[Any], Optional[int]], at_end: Callable[[int], int]
) -> Optional[list[int]]:
    """`solve(child)` after each legal action (in legal_actions order), `at_end(the mover's
    margin)` where the action ends the game; None where a solve gives up or a chance node
    follows."""
    mover = state.current_player()
    values = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        if child.is_terminal():
            values.append(at_end(_final_margins(child)[mover]))
            continue
        value = None if child.is_chance_node() else solve(child)
        if value is None:
            return None
        values.append(value)
    return values


def action_margins(engine: ModuleType, state: Any, max_nodes: int) -> Optional[list[int]]:
    """The mover's exact margin after each legal action (in legal_actions order), or None when a
    solve needs more than max_nodes nodes or meets a chance node."""
    mover = state.current_player()

    def solve(child: Any) -> Optional[int]:
        solved = engine.solve_endgame(child, max_nodes, trips=TRIPS)
        return None if solved is None else int(solved["margins"][mover])

    return _after_each_action(state, solve, int)


def action_results(engine: ModuleType, state: Any, max_nodes: int) -> Optional[list[int]]:
    """The mover's result (1 win, 0 shared win, -1 loss) after each legal action under best
    play (result solves, trips by counts), or None when one needs more than max_nodes nodes or
    meets a chance node."""
    mover = state.current_player()

    def solve(child: Any) -> Optional[int]:
        solved = engine.solve_endgame_result(child, max_nodes)
        return None if solved is None else int(solved["results"][mover])

    return _after_each_action(state, solve, _result)


def _hard_labels(engine: ModuleType, state: Any) -> Optional[list[int]]:
    """The results after each action of a hard critical position, else None: the result solve
    gives up within HARD_FROM nodes, finishes within HARD_NODES with the mover not losing (where
    the best action loses no action can do worse), and not every action gives that result."""
    if engine.solve_endgame_result(state, HARD_FROM) is not None:
        return None
    root = engine.solve_endgame_result(state, HARD_NODES)
    if root is None or root["results"][state.current_player()] < 0:
        return None
    results = action_results(engine, state, HARD_NODES)
    return results if results is not None and len(set(results)) > 1 else None


def _candidates(state: Any) -> bool:
    return (
        not state.is_chance_node()
        and not state.is_terminal()
        and _round(state) == 6
        and len(state.legal_actions()) > 1
    )


def critical(margins: Sequence[int]) -> bool:
    """Whether the mover's result (win, shared win, loss) depends on the action."""
    return len({_result(m) for m in margins}) > 1


def _game_positions(
    engine: ModuleType,
    players: int,
    seed: int,
    number: int,
    only_critical: bool = False,
    hard: bool = False,
) -> list[dict[str, Any]]:
    """The kept positions of game `number` for `players` players; `only_critical`: the critical
    ones alone, tried among up to CRITICAL_TRIES_PER_GAME candidates the mover does not lose
    under best play (where the best action loses, no action can do worse: not critical);
    `hard`: hard critical ones (_hard_labels) among HARD_TRIES_PER_GAME of every candidate."""
    rng = np.random.default_rng([seed, players, number])
    game = engine.Game(players)
    sources = HARD_SOURCES if hard else SOURCES
    specs = [sources[int(rng.integers(len(sources)))] for _ in range(players)]
    bots = [
        arena.make_bot(arena.parse_spec(spec), engine, game, int(rng.integers(1 << 62)))
        for spec in specs
    ]
    state = game.new_initial_state()
    found = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_random_chance(rng)
            continue
        if _candidates(state):
            found.append(state.clone())
        state.apply_action(bots[state.current_player()].step(state))
    if hard:
        return _hard_positions(engine, found, rng, specs, number)
    # The solvable tail: from the last candidate back to the first the solver gives up on (an
    # earlier one has more ahead of it, and seldom solves).
    solvable, values = [], []
    for candidate in reversed(found):
        solved = engine.solve_endgame(candidate, SOLVER_NODES, trips=TRIPS)
        if solved is None:
            break
        solvable.append(candidate)
        values.append(int(solved["margins"][candidate.current_player()]))
    order = [int(index) for index in rng.permutation(len(solvable))]
    if only_critical:
        order = [i for i in order if values[i] >= 0][:CRITICAL_TRIES_PER_GAME]
    else:
        order = order[:TRIES_PER_GAME]
    kept: list[dict[str, Any]] = []
    for index in order:
        candidate = solvable[index]
        margins = action_margins(engine, candidate, SOLVER_NODES)
        if margins is None or len(set(margins)) == 1:
            continue
        if only_critical and not critical(margins):
            continue
        kept.append(_record(candidate, number, specs, {"margins": margins}))
        if len(kept) == KEEP_PER_GAME:
            break
    return kept


def _record(
    state: Any, number: int, specs: Sequence[str], labels: dict[str, list[int]]
) -> dict[str, Any]:
    """A position of the file: its game, source bot, mover, state, actions and `labels`."""
    return {
        "players": state.get_game().num_players,
        "game": number,
        "source": specs[state.current_player()],
        "mover": state.current_player(),
        "state": base64.b64encode(state.serialize()).decode("ascii"),
        "actions": state.legal_actions(),
        **labels,
    }


def _hard_positions(
    engine: ModuleType, found: Sequence[Any], rng: Any, specs: Sequence[str], number: int
) -> list[dict[str, Any]]:
    kept: list[dict[str, Any]] = []
    for index in rng.permutation(len(found))[:HARD_TRIES_PER_GAME]:
        candidate = found[int(index)]
        results = _hard_labels(engine, candidate)
        if results is not None:
            kept.append(_record(candidate, number, specs, {"results": results}))
            if len(kept) == KEEP_PER_GAME:
                break
    return kept


def _engine_name(engine: ModuleType) -> str:
    return next(name for name, module in arena.ENGINES.items() if module == engine.__name__)


def _game_shard(payload: tuple[str, int, int, int, bool, bool]) -> list[dict[str, Any]]:
    engine_name, players, seed, number, only_critical, hard = payload
    engine = arena.engine_module(engine_name)
    return _game_positions(engine, players, seed, number, only_critical, hard)


def _games(
    engine: ModuleType,
    players: int,
    seed: int,
    numbers: range,
    kind: tuple[bool, bool],
    executor: Optional[Executor],
) -> Iterator[list[dict[str, Any]]]:
    """The kept positions of each game of `numbers`, in order; `kind`: (only_critical, hard)."""
    if executor is None:
        for number in numbers:
            yield _game_positions(engine, players, seed, number, *kind)
        return
    name = _engine_name(engine)
    shards = [
        Shard(_game_shard, (name, players, seed, n, *kind), 1, f"{players} players, game {n}")
        for n in numbers
    ]
    done = dict(executor.run(shards))
    for index in range(len(shards)):
        yield done[index]


def make_positions(
    seed: int,
    per_count: int,
    engine: ModuleType,
    players: Sequence[int] = PLAYERS,
    progress: Optional[Callable[[int, int], None]] = None,
    only_critical: bool = False,
    executor: Optional[Executor] = None,
    hard: bool = False,
) -> dict[str, Any]:
    """The benchmark's file contents: `per_count` positions for each number of players, from
    games 0, 1, ... until enough were kept (the same for the same seed and engine results);
    `only_critical`: critical positions alone (the file says "critical": true); `hard`: hard
    critical positions labelled by results (two players; the file says "hard": its budgets);
    `executor` (e.g. LocalProcesses(2)): the games in its workers, the same file."""
    if hard and any(count != 2 for count in players):
        raise ValueError("hard positions are for two players (labelled by result solves)")
    positions: list[dict[str, Any]] = []
    for count in players:
        kept: list[dict[str, Any]] = []
        number = 0
        while len(kept) < per_count:
            # One game at a time, or GAMES_PER_BATCH by the executor: the games are kept in
            # their order and those past the one that fills the count are dropped, so the file
            # is the same either way.
            batch = 1 if executor is None else GAMES_PER_BATCH
            numbers = range(number, number + batch)
            kind = (only_critical, hard)
            for found in _games(engine, count, seed, numbers, kind, executor):
                kept.extend(found[: per_count - len(kept)])
                number += 1
                if progress is not None:
                    progress(count, len(kept))
                if len(kept) == per_count:
                    break
        positions.extend(kept)
    data = {
        "format": FORMAT,
        "seed": seed,
        "sources": list(SOURCES),
        "solver_nodes": SOLVER_NODES,
        "positions": positions,
    }
    if only_critical or hard:  # the main file as it was: the same bytes from its seed
        data["critical"] = True
    if hard:
        data.update(
            sources=list(HARD_SOURCES), solver_nodes=HARD_NODES, hard={"gives_up_within": HARD_FROM}
        )
    return data


def save_positions(data: dict[str, Any], path: Any) -> None:
    """Writes `data` as gzip'd JSON with a fixed timestamp (the same bytes for the same data),
    whole or not at all (a stop during the write leaves no half file)."""
    text = json.dumps(data, separators=(",", ":"), sort_keys=True).encode("utf-8")
    outputs.write_atomic(str(path), gzip.compress(text, mtime=0))


def load_positions(path: Any = DATA) -> dict[str, Any]:
    """The benchmark file at `path` (ValueError for a file of another format)."""
    try:
        with gzip.open(path, "rb") as source:
            data = json.loads(source.read())
    except (OSError, EOFError, json.JSONDecodeError) as error:
        raise ValueError(f"{path}: not an endgame benchmark file ({error})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"{path}: not a {FORMAT} file")
    return data


def state_of(engine: ModuleType, position: dict[str, Any]) -> Any:
    """The position's state in `engine` (deserialized from the engine's format)."""
    game = engine.Game(position["players"])
    return game.deserialize_state(base64.b64decode(position["state"]))


def _result(margin: int) -> int:
    return (margin > 0) - (margin < 0)  # the mover's win, shared win or loss


def score_moves(positions: Sequence[dict[str, Any]], moves: Sequence[int]) -> dict[str, Any]:
    """The statistics of `moves` (one per position, in order). Positions labelled by results
    alone (a hard file) count blunders; their margin-optimal share and regret are None."""
    optimal = blunders = critical_count = 0
    regret = 0.0
    by_margins = all("margins" in position for position in positions)
    for position, move in zip(positions, moves):
        values = position["margins"] if by_margins else _results(position)
        best = max(values)
        mine = values[position["actions"].index(move)]
        optimal += mine == best
        regret += (best - mine) / FAME
        if critical(values):
            critical_count += 1
            blunders += _result(mine) < _result(best)
    n = len(positions)
    return {
        "positions": n,
        "optimal": optimal if by_margins else None,
        "optimal_share": (optimal / n if n else 0.0) if by_margins else None,
        "optimal_interval": wilson(optimal / n if n else 0.0, n) if by_margins else None,
        "mean_regret": (regret / n if n else 0.0) if by_margins else None,
        "critical": critical_count,
        "blunders": blunders,
        "blunder_share": blunders / critical_count if critical_count else 0.0,
        "blunder_interval": wilson(
            blunders / critical_count if critical_count else 0.0, critical_count
        ),
    }


def _results(position: dict[str, Any]) -> list[int]:
    """The mover's result after each action: the position's results, or its margins' signs."""
    if "results" in position:
        return list(position["results"])
    return [_result(margin) for margin in position["margins"]]


def score_bot(
    make: Callable[[Any, int], Any],
    positions: Sequence[dict[str, Any]],
    engine: ModuleType,
    seed: int = 0,
) -> dict[str, Any]:
    """The moves of the bots `make(game, seed)` makes in `positions` (all of one number of
    players), a new bot for each, of seed arena.bot_seed(seed, i, 0) at position i, scored by
    score_moves, with the mean seconds a move (the step alone). Why a seed per position: with
    one seed the first random draw would be the same at every position, and a random or
    tie-breaking bot would pick by the same pattern everywhere instead of at random."""
    return _scores(positions, *_play(make, positions, engine, seed))


def _scores(
    positions: Sequence[dict[str, Any]], moves: Sequence[int], seconds: float
) -> dict[str, Any]:
    """score_moves with the players and the mean seconds a move."""
    result = score_moves(positions, moves)
    result.update(players=positions[0]["players"], seconds_per_move=seconds / len(positions))
    return result


def _play(
    make: Callable[[Any, int], Any],
    positions: Sequence[dict[str, Any]],
    engine: ModuleType,
    seed: int,
    first: int = 0,
) -> tuple[list[int], float]:
    """The moves of score_bot's bots in `positions`, the first being the file's position
    `first` of its count, and the seconds of their steps."""
    game = engine.Game(positions[0]["players"])
    moves = []
    seconds = 0.0
    for i, position in enumerate(positions, first):
        bot = make(game, arena.bot_seed(seed, i, 0))
        state = state_of(engine, position)
        start = time.perf_counter()
        moves.append(bot.step(state))
        seconds += time.perf_counter() - start
    return moves, seconds


def run_bot(
    spec: str, positions: Sequence[dict[str, Any]], engine: ModuleType, seed: int = 0
) -> dict[str, Any]:
    """score_bot of the arena bot `spec`, the spec in the result."""
    parsed = arena.parse_spec(spec)
    result = score_bot(
        lambda game, bot_seed: arena.make_bot(parsed, engine, game, bot_seed),
        positions,
        engine,
        seed,
    )
    result["spec"] = spec
    return result


def _moves_shard(payload: tuple[str, str, list[dict[str, Any]], int, int]) -> Any:
    engine_name, spec, positions, seed, first = payload
    engine = arena.engine_module(engine_name)
    parsed = arena.parse_spec(spec)
    return _play(
        lambda game, bot_seed: arena.make_bot(parsed, engine, game, bot_seed),
        positions,
        engine,
        seed,
        first,
    )


def run_bots(
    rows: Sequence[tuple[str, Sequence[dict[str, Any]]]],
    engine_name: str,
    seed: int = 0,
    executor: Optional[Executor] = None,
) -> Iterator[dict[str, Any]]:
    """run_bot of each (spec, positions) row, yielded in order as each row is done; the
    positions in shards of POSITIONS_PER_SHARD run by `executor` (default: this process). Each
    position's bot has its own seed, so the moves do not depend on the executor (bots bounded
    by time get what the machine gives them)."""
    executor = executor or LocalProcesses(1)
    shards: list[Shard] = []
    row_shards: list[range] = []  # each row's shard numbers
    for spec, positions in rows:
        if not positions:
            raise ValueError(f"no positions to score {spec!r} on")
        start = len(shards)
        for first in range(0, len(positions), POSITIONS_PER_SHARD):
            chunk = list(positions[first : first + POSITIONS_PER_SHARD])
            what = (
                f"{spec}, {chunk[0]['players']} players, positions {first}-{first + len(chunk) - 1}"
            )
            shards.append(
                Shard(_moves_shard, (engine_name, spec, chunk, seed, first), len(chunk), what)
            )
        row_shards.append(range(start, len(shards)))
    done: dict[int, tuple[list[int], float]] = {}
    next_row = 0
    for number, moves_seconds in executor.run(shards):
        done[number] = moves_seconds
        while next_row < len(rows) and all(n in done for n in row_shards[next_row]):
            spec, positions = rows[next_row]
            mine = row_shards[next_row]
            moves = [move for n in mine for move in done[n][0]]
            scored = _scores(positions, moves, sum(done[n][1] for n in mine))
            scored["spec"] = spec
            yield scored
            next_row += 1


def by_players(data: dict[str, Any], players: int, limit: Optional[int]) -> list[dict[str, Any]]:
    """The file's positions of `players` players, the first `limit` of them (all when None)."""
    chosen = [p for p in data["positions"] if p["players"] == players]
    return chosen if limit is None else chosen[:limit]


TABLE_HEADER = (
    "| bot | players | positions | margin-optimal [95 %] | mean regret (Fame) "
    "| blunders / critical [95 %] | s/move |\n"
    "|---|---|---|---|---|---|---|"
)


def table_row(r: dict[str, Any]) -> str:
    """One result of run_bot as a row of the Markdown table under TABLE_HEADER (positions
    labelled by results alone: "-" for the margin-optimal share and the regret)."""
    b_low, b_high = r["blunder_interval"]
    if r["optimal_share"] is None:
        optimal, regret = "-", "-"
    else:
        low, high = r["optimal_interval"]
        optimal = f"{r['optimal_share']:.3f} [{low:.3f}, {high:.3f}]"
        regret = f"{r['mean_regret']:.2f}"
    return (
        f"| `{r['spec']}` | {r['players']} | {r['positions']} | {optimal} | {regret} | "
        f"{r['blunders']} / {r['critical']} = {r['blunder_share']:.3f} "
        f"[{b_low:.3f}, {b_high:.3f}] | {r['seconds_per_move']:.3f} |"
    )
