"""Building the endgame benchmark's files (`vikinger endgame --make`; what they hold and how
they are scored: endgame.py, docs/learning.md "The endgame benchmark").

`make_positions(seed)` plays games between bots of SOURCES drawn per seat and keeps from each up
to KEEP_PER_GAME of its round-6 decision nodes with no chance ahead and more than one legal
action, drawn from its solvable tail (back from the end to the first node the solver does not
finish within SOLVER_NODES nodes), where the solver values every legal action within
SOLVER_NODES nodes and not all actions are worth the same: the same file from the same seed and
solver results. `only_critical` keeps critical positions alone; `hard=N` builds the hard
positions by version N of their rule (HARD_FROM, HARD_NODES, HARD_SOURCES; endgame.py says what
each version is). A build hands what it has made so far to `checkpoint` after each game (each
batch with an executor), and goes on from such a record with `resume=`, to the same file.
"""

import base64
import binascii
from collections.abc import Callable, Iterator, Sequence
from types import ModuleType
from typing import Any, Optional

import numpy as np

from .. import arena
from ..distributed.executors import Executor, Shard
from .endgame import (
    FAME,
    FORMAT,
    HARD_VERSIONS,
    PLAYERS,
    critical,
    mover_result,
    read_json_gz,
    state_of,
)

# The hard positions' budgets: the root's result solve gives up within HARD_FROM nodes
# (AZBot's default root budget, vikinger_ref.az_bot) and every solve of the labels finishes
# within HARD_NODES.
HARD_FROM = 200_000
HARD_NODES = 3_000_000
HARD_TRIES_PER_GAME = 6  # candidates tried per game (each that is hard costs a solve or more)
# Their games: the learned player's self-play, whose games stay close to the end. In games of
# SOURCES (random and greedy seats, lopsided games) a hard position was seldom critical: one kept
# in 30 games against about one in four games of self-play (docs/learning.md "The hard positions").
HARD_SOURCES = ("az:simulations=50,solver_nodes=0",)
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
GAMES_PER_BATCH = 16  # with an executor (`--jobs`): games built at a time


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


def action_results(
    engine: ModuleType, state: Any, max_nodes: int, solver: Any = None
) -> Optional[list[int]]:
    """The mover's result (1 win, 0 shared win, -1 loss) after each legal action under best
    play (result solves, trips by counts), or None when one needs more than max_nodes nodes or
    meets a chance node; `solver`: an engine.EndgameSolver whose table the solves share (the
    same results, fewer nodes), else a new table per solve."""
    mover = state.current_player()
    solve_result = _result_solve(engine, solver)

    def solve(child: Any) -> Optional[int]:
        solved = solve_result(child, max_nodes)
        return None if solved is None else int(solved["results"][mover])

    return _after_each_action(state, solve, mover_result)


def _result_solve(engine: ModuleType, solver: Any) -> Callable[[Any, int], Any]:
    """The result solve: on a new table per call, or on `solver`'s table (an EndgameSolver)."""
    return engine.solve_endgame_result if solver is None else solver.solve_result


def _hard_labels(engine: ModuleType, state: Any, version: int) -> Optional[list[int]]:
    """The results after each action of a hard critical position, else None: the result solve
    gives up within HARD_FROM nodes (on a new table), finishes within HARD_NODES with the mover
    not losing (where the best action loses no action can do worse), and not every action gives
    that result. Version 1: each solve on a new table; 2: the position's solves on one table."""
    if engine.solve_endgame_result(state, HARD_FROM) is not None:
        return None
    solver = None if version == 1 else engine.EndgameSolver(state.get_game())
    root = _result_solve(engine, solver)(state, HARD_NODES)
    if root is None or root["results"][state.current_player()] < 0:
        return None
    results = action_results(engine, state, HARD_NODES, solver)
    return results if results is not None and len(set(results)) > 1 else None


def _candidates(state: Any) -> bool:
    return (
        not state.is_chance_node()
        and not state.is_terminal()
        and _round(state) == 6
        and len(state.legal_actions()) > 1
    )


def _game_positions(
    engine: ModuleType,
    players: int,
    seed: int,
    number: int,
    only_critical: bool = False,
    hard: int = 0,
) -> list[dict[str, Any]]:
    """The kept positions of game `number` for `players` players; `only_critical`: the critical
    ones alone, tried among up to CRITICAL_TRIES_PER_GAME candidates the mover does not lose
    under best play (where the best action loses, no action can do worse: not critical);
    `hard` (1 or 2, a version of HARD_VERSIONS; 0: not hard): hard critical ones (_hard_labels)
    among HARD_TRIES_PER_GAME of every candidate."""
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
        return _hard_positions(engine, found, rng, specs, number, hard)
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
    engine: ModuleType,
    found: Sequence[Any],
    rng: Any,
    specs: Sequence[str],
    number: int,
    version: int,
) -> list[dict[str, Any]]:
    kept: list[dict[str, Any]] = []
    for index in rng.permutation(len(found))[:HARD_TRIES_PER_GAME]:
        candidate = found[int(index)]
        results = _hard_labels(engine, candidate, version)
        if results is not None:
            kept.append(_record(candidate, number, specs, {"results": results}))
            if len(kept) == KEEP_PER_GAME:
                break
    return kept


def _engine_name(engine: ModuleType) -> str:
    return next(name for name, module in arena.ENGINES.items() if module == engine.__name__)


def _game_shard(payload: tuple[str, int, int, int, bool, int]) -> list[dict[str, Any]]:
    engine_name, players, seed, number, only_critical, hard = payload
    engine = arena.engine_module(engine_name)
    return _game_positions(engine, players, seed, number, only_critical, hard)


def _games(
    engine: ModuleType,
    players: int,
    seed: int,
    numbers: range,
    kind: tuple[bool, int],
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
    hard: int = 0,
    resume: Optional[dict[str, Any]] = None,
    checkpoint: Optional[Callable[[dict[str, Any]], None]] = None,
) -> dict[str, Any]:
    """The benchmark's file contents: `per_count` positions for each number of players, from
    games 0, 1, ... until enough were kept (the same for the same seed and engine results);
    `only_critical`: critical positions alone (the file says "critical": true); `hard` (a
    version of HARD_VERSIONS; 0: not hard): hard critical positions labelled by results (two
    players; the file says "hard": its budgets, and from version 2 its version);
    `executor` (e.g. LocalProcesses(2)): the games in its workers, the same file.
    `checkpoint(record)`: called after each game (each batch with an executor) with what is
    built so far, a record that `resume=` takes to go on from there (check_partial refuses one
    of other settings): the same file as a build never stopped."""
    if isinstance(hard, float) or hard not in (0, *HARD_VERSIONS):  # True is version 1
        raise ValueError(f"hard takes 0 or a version of {HARD_VERSIONS}, not {hard!r}")
    hard = int(hard)
    if hard and any(count != 2 for count in players):
        raise ValueError("hard positions are for two players (labelled by result solves)")
    settings = partial_settings(seed, per_count, players, only_critical, hard)
    record: dict[str, Any] = {
        "format": PARTIAL_FORMAT,
        "settings": settings,
        "positions": [],
        "games": {},
    }
    if resume is not None:
        record = check_partial(resume, settings, engine)
    positions: list[dict[str, Any]] = record["positions"]
    games: dict[str, int] = record["games"]
    for count in players:
        kept = [position for position in positions if position["players"] == count]
        number = games.get(str(count), 0)
        while len(kept) < per_count:
            # One game at a time, or GAMES_PER_BATCH by the executor: the games are kept in
            # their order and those past the one that fills the count are dropped, so the file
            # is the same either way.
            batch = 1 if executor is None else GAMES_PER_BATCH
            numbers = range(number, number + batch)
            kind = (only_critical, hard)
            for found in _games(engine, count, seed, numbers, kind, executor):
                new = found[: per_count - len(kept)]
                kept.extend(new)
                positions.extend(new)  # the counts one after another, as in `players`
                number += 1
                if progress is not None:
                    progress(count, len(kept))
                if len(kept) == per_count:
                    break
            games[str(count)] = number
            if checkpoint is not None:
                checkpoint(record)
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
        rule: dict[str, Any] = {"gives_up_within": HARD_FROM}
        if hard > 1:  # version 1's file says nothing more: the same bytes from its seed
            rule.update(version=hard, table="one per position")
        data.update(sources=list(HARD_SOURCES), solver_nodes=HARD_NODES, hard=rule)
    return data


# --- a build stopped and resumed (`vikinger endgame --make PATH --resume`) ------------------

PARTIAL_FORMAT = "vikinger-endgame-partial/1"
RECORD_KEYS = {"players", "game", "source", "mover", "state", "actions"}


def partial_settings(
    seed: int, per_count: int, players: Sequence[int], only_critical: bool, hard: int
) -> dict[str, Any]:
    """What a partial record must have been built with to be resumed by make_positions."""
    return {
        "seed": int(seed),
        "per_count": int(per_count),
        "players": [int(count) for count in players],
        "critical": bool(only_critical or hard),
        "hard": int(hard),
    }


def check_partial(record: Any, settings: dict[str, Any], engine: ModuleType) -> dict[str, Any]:
    """`record` (a checkpoint of make_positions, e.g. read back from a file) after checking it
    against this build's `settings`: its games counted per number of players, and each of its
    positions a legal state of `engine` from a game already played; ValueError naming the first
    thing wrong (nothing is taken from a record that fails)."""
    if not isinstance(record, dict) or record.get("format") != PARTIAL_FORMAT:
        raise ValueError(f"not a {PARTIAL_FORMAT} record")
    if record.get("settings") != settings:
        theirs = record.get("settings")
        raise ValueError(f"made with other settings ({theirs}), not these ({settings})")
    games, positions = record.get("games"), record.get("positions")
    counts = {str(count) for count in settings["players"]}
    if not isinstance(games, dict) or not set(games) <= counts:
        raise ValueError(f"its games must count games per number of players, not {games!r}")
    if not all(type(n) is int and n >= 0 for n in games.values()):
        raise ValueError(f"its games must be counts of games, not {games!r}")
    if not isinstance(positions, list):
        raise ValueError("its positions must be a list")
    per_count: dict[int, int] = {}
    for index, position in enumerate(positions):
        _check_partial_position(position, games, engine, f"position {index}")
        count = position["players"]
        per_count[count] = per_count.get(count, 0) + 1
        if per_count[count] > settings["per_count"]:
            raise ValueError(f"position {index}: more than {settings['per_count']} of {count}")
    order = [position["players"] for position in positions]
    if order != sorted(order, key=settings["players"].index):
        raise ValueError("its positions are not in the order of the numbers of players")
    return {
        "format": PARTIAL_FORMAT,
        "settings": settings,
        "positions": list(positions),
        "games": dict(games),
    }


def _check_partial_position(
    position: Any, games: dict[str, int], engine: ModuleType, where: str
) -> None:
    if not isinstance(position, dict) or not RECORD_KEYS <= set(position):
        raise ValueError(f"{where}: not a position of the benchmark")
    count, game = position["players"], position["game"]
    if type(count) is not int or str(count) not in games:
        raise ValueError(f"{where}: players {count!r} is not one of this build's")
    if type(game) is not int or not 0 <= game < games[str(count)]:
        raise ValueError(f"{where}: game {game!r} is not one already played")
    try:
        state = state_of(engine, position)
        legal = state.legal_actions()
    except (TypeError, ValueError, binascii.Error) as error:
        raise ValueError(f"{where}: its state does not load ({error})") from None
    if legal != position["actions"] or position["mover"] != state.current_player():
        raise ValueError(f"{where}: its actions or mover are not its state's")


def load_partial(path: Any) -> Any:
    """The record a stopped `--make` left at `path` (checked by make_positions' resume=)."""
    return read_json_gz(path, "a partial endgame build")
