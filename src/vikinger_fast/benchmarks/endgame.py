"""The endgame benchmark (`vikinger endgame`, docs/learning.md "The endgame benchmark"): how
close a bot's moves come to the exact ones in solved round-6 positions.

The positions are versioned files in the package, each built deterministically from its seed by
endgame_make.make_positions (`vikinger endgame --make`): data/endgame-v1.json.gz, round-6
decision nodes with no chance ahead drawn from games of several bots; a second file,
data/endgame-critical-v1.json.gz (`--critical`), critical positions alone, drawn the same way
from other games; a third, data/endgame-hard-v2.json.gz (`--hard`, two players), critical
positions the learned player's solver gives up on, each action labelled by the mover's result
alone (data/endgame-hard-v1.json.gz is its smaller first version). A position keeps its state
in the engine's own format (`serialize`, base64), the legal actions and the mover's exact margin
after each: u = 64 * Fame + gold - the best other player's, under best play after the action
(two players: alpha-beta; three or four: max^n, each player maximizing its own margin).

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


from .. import arena
from ..arena.ratings import wilson
from ..distributed.executors import Executor, LocalProcesses, Shard
from ..safety import files, json_limits, outputs

FORMAT = "vikinger-endgame/1"
DATA = pathlib.Path(__file__).resolve().parent / "data" / "endgame-v1.json.gz"
# The critical positions alone (`make_positions(only_critical=True)`): the main file holds few
# (10, 4 and 14 of its 200 per count), too few to tell a blunder rate of 5 % from one of 0 or
# 20 %.
CRITICAL_DATA = DATA.with_name("endgame-critical-v1.json.gz")
# The hard positions (`make_positions(hard=N)`, two players): critical positions whose result
# solve gives up within endgame_make.HARD_FROM nodes, AZBot's default root budget, so that the
# learned player's solver cannot play them and its search must. Exact margins are out of reach
# there, so each action is labelled with the mover's result alone (win, shared win, loss;
# result solves within endgame_make.HARD_NODES nodes). Two versions of the rule, each its file:
# 1 solved every position on a new table; 2 solves a position and its children on one
# EndgameSolver table, so the children meet what the root's solve proved (docs/search.md "A
# table kept across solves": about 0.7 times the time a kept position, and the same labels,
# but a child may finish on the shared table that would not on a new one, and so the positions
# kept from a seed differ). `make_positions(hard=N)` builds version N.
HARD_DATA = DATA.with_name("endgame-hard-v2.json.gz")
HARD_V1_DATA = DATA.with_name("endgame-hard-v1.json.gz")
HARD_VERSIONS = (1, 2)
# The training loop's own critical positions (`vikinger train`'s endgame columns), of another
# seed: what a run is steered by is never the yardstick it is reported on.
LOOP_DATA = DATA.with_name("endgame-loop-v1.json.gz")
# Positions a shard while scoring with an executor (`--jobs`): small enough that two workers
# share a row's 200 positions.
POSITIONS_PER_SHARD = 25
FAME = 64  # a margin's units per Fame
PLAYERS = (2, 3, 4)


def hard_data(version: int) -> pathlib.Path:
    """The shipped file of the hard positions of `version` (one of HARD_VERSIONS)."""
    if version not in HARD_VERSIONS:
        raise ValueError(f"no hard positions of version {version!r} (of {HARD_VERSIONS})")
    return HARD_V1_DATA if version == 1 else HARD_DATA


def critical(margins: Sequence[int]) -> bool:
    """Whether the mover's result (win, shared win, loss) depends on the action."""
    return len({mover_result(m) for m in margins}) > 1


def save_positions(data: dict[str, Any], path: Any) -> None:
    """Writes `data` as gzip'd JSON with a fixed timestamp (the same bytes for the same data),
    whole or not at all (a stop during the write leaves no half file)."""
    text = json.dumps(data, separators=(",", ":"), sort_keys=True).encode("utf-8")
    outputs.write_atomic(str(path), gzip.compress(text, mtime=0))


def read_json_gz(path: Any, what: str) -> Any:
    """The gzip'd JSON document at `path`, read as docs/security.md "Files read" says: a regular
    file (a FIFO or a device is refused unread) of at most json_limits.MAX_BYTES, unpacked to
    at most as much (refused when that much is read, not unpacked whole), nested at most
    json_limits.MAX_DEPTH levels; ValueError naming the file otherwise."""
    limit = json_limits.MAX_BYTES
    with files.open_regular(path, limit, f"{path}") as source:
        try:
            raw = gzip.GzipFile(fileobj=source, mode="rb").read(limit + 1)
        except (OSError, EOFError) as error:
            raise ValueError(f"{path}: not {what} ({error})") from None
    if len(raw) > limit:
        raise ValueError(f"{path}: unpacks to more than {limit:,} bytes, not {what}")
    return json_limits.loads_limited(raw, f"{path}")


def load_positions(path: Any = DATA) -> dict[str, Any]:
    """The benchmark file at `path` (ValueError for a file of another format)."""
    data = read_json_gz(path, "an endgame benchmark file")
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"{path}: not a {FORMAT} file")
    return data


def state_of(engine: ModuleType, position: dict[str, Any]) -> Any:
    """The position's state in `engine` (deserialized from the engine's format)."""
    game = engine.Game(position["players"])
    return game.deserialize_state(base64.b64decode(position["state"]))


def mover_result(margin: int) -> int:
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
            blunders += mover_result(mine) < mover_result(best)
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
    return [mover_result(margin) for margin in position["margins"]]


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
