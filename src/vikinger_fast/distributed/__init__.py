"""Seed-sharded work over local processes or a Ray cluster (docs/distributed.md).

Rollouts, playouts, arena games and self-play games are all functions of their seeds, so the work
is cut into shards of consecutive games, each shard computed from its description alone, and the
shards' results put back in order: the merged result is exactly that of one call on one machine,
whichever executor ran the shards, in whatever order they finished.

Two executors run shards: `LocalProcesses(jobs)` (a spawned process pool; `jobs=1` runs them in
the calling process) and `RayCluster(address)` (Ray tasks, retried when a worker dies). Every
function here takes `executor=` (default: one local process) and `progress=` (one bar over all the
shards, in games).
"""

import importlib
import os
import sys
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any, Optional

import numpy as np

from vikinger_ref.arguments import is_integer

from .. import arena as arena_module
from .executors import (
    Executor,
    LocalProcesses,
    RayCluster,
    Shard,
    ShardError,
    import_ray,
    run_shards,
)

# The executors are part of this package's API (docs/distributed.md).
__all__ = [
    "LocalProcesses",
    "RayCluster",
    "Shard",
    "ShardError",
    "import_ray",
    "run_shards",
    "ranges",
    "engine_of",
    "rollouts",
    "playouts",
    "playouts_batch",
    "arena",
    "SEED_MODULUS",
    "ROLLOUT_SHARD",
    "ARENA_SHARD",
]

SEED_MODULUS = 1 << 64
ROLLOUT_SHARD = 20_000  # 0.1-0.2 s of C++ rollouts: ~50x a shard's overhead
ARENA_SHARD = 2  # arena and self-play games take from milliseconds to minutes each


def ranges(total: int, shard_size: int) -> list[tuple[int, int]]:
    """(first, count) of consecutive shards covering 0..total-1."""
    if not is_integer(shard_size) or shard_size < 1:
        raise ValueError(f"shard_size must be an int >= 1, not {shard_size!r}")
    shard_size = int(shard_size)  # numpy ints too
    return [(first, min(shard_size, total - first)) for first in range(0, total, shard_size)]


def engine_of(obj: Any) -> ModuleType:
    """The engine module a Game or State belongs to (vikinger_fast or vikinger_ref)."""
    root = type(obj).__module__.split(".")[0]
    if root not in ("vikinger_fast", "vikinger_ref"):
        raise TypeError(
            f"expected a Game or State of vikinger_fast or vikinger_ref, not {type(obj).__name__}"
        )
    return importlib.import_module(root)


def _seeds(seed: int, first: int, count: int) -> str:
    low = (seed + first) % SEED_MODULUS
    return f"games {first}..{first + count - 1}, seeds {low}..{(low + count - 1) % SEED_MODULUS}"


def _merge(parts: list[Any], empty: Any) -> Any:
    if not parts:
        return empty
    return {key: np.concatenate([part[key] for part in parts]) for key in parts[0]}


# --- rollouts and playouts -------------------------------------------------------------------


def _engine_call_shard(payload: tuple[str, Any, int, int]) -> dict[str, np.ndarray]:
    """A worker's part: `engine.<name>(subject, count, seed)` in the subject's engine."""
    name, subject, count, seed = payload
    owner = subject[0] if name == "playouts_batch" else subject
    return getattr(engine_of(owner), name)(subject, count, seed)


def _check_counts(num: int, seed: int, shard_size: int) -> tuple[int, int, list[tuple[int, int]]]:
    for name, value in (("count", num), ("seed", seed)):
        if not is_integer(value):
            raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if num < 0:
        raise ValueError(f"the number of games must be >= 0, not {num}")
    return int(num), int(seed), ranges(int(num), shard_size)


def _sharded_by_seed(
    name: str,
    subject: Any,
    count: int,
    seed: int,
    shard_size: int,
    executor: Optional[Executor],
    progress: bool,
) -> dict[str, np.ndarray]:
    """`engine.<name>(subject, count, seed)` (rollouts or playouts, the engine of `subject`) in
    shards: shard (first, n) is the call with n and seed + first, which plays games (playouts)
    first..first+n-1 of the single call, so the merged arrays are identical to it."""
    engine = engine_of(subject)
    count, seed, parts = _check_counts(count, seed, shard_size)
    shards = [
        Shard(
            _engine_call_shard,
            (name, subject, n, (seed + first) % SEED_MODULUS),
            n,
            _seeds(seed, first, n),
        )
        for first, n in parts
    ]
    empty = getattr(engine, name)(subject, 0, seed)
    return _merge(run_shards(shards, executor, progress), empty)


def rollouts(
    game: Any,
    num_games: int,
    seed: int,
    *,
    shard_size: int = ROLLOUT_SHARD,
    executor: Optional[Executor] = None,
    progress: bool = False,
) -> dict[str, np.ndarray]:
    """`engine.rollouts(game, num_games, seed)` (the engine of `game`) computed in shards: shard
    (first, count) is `rollouts(game, count, seed + first)`, which plays games first..first+count-1
    of the single call, so the merged arrays are identical to it."""
    return _sharded_by_seed("rollouts", game, num_games, seed, shard_size, executor, progress)


def playouts(
    state: Any,
    num_playouts: int,
    seed: int,
    *,
    shard_size: int = ROLLOUT_SHARD,
    executor: Optional[Executor] = None,
    progress: bool = False,
) -> dict[str, np.ndarray]:
    """`engine.playouts(state, num_playouts, seed)` in shards, identical to the single call
    (playout i is driven by stream seed + i, docs/search.md)."""
    return _sharded_by_seed("playouts", state, num_playouts, seed, shard_size, executor, progress)


def playouts_batch(
    states: Any,
    num_playouts: int,
    seed: int,
    *,
    shard_size: int = ROLLOUT_SHARD,
    executor: Optional[Executor] = None,
    progress: bool = False,
) -> dict[str, np.ndarray]:
    """`engine.playouts_batch(states, num_playouts, seed)` in shards of whole states, about
    `shard_size` playouts each (at least one state), identical to the single call: playout i of
    states[j] uses stream seed + j * num_playouts + i, so the shard of states[first:first+count]
    is playouts_batch of them with seed + first * num_playouts."""
    if not isinstance(states, Sequence) or isinstance(states, (str, bytes)) or not states:
        from .. import _core  # not a list of states: the single call's own error

        return _core.playouts_batch(states, num_playouts, seed)  # type: ignore[arg-type]
    engine = engine_of(states[0])
    empty = engine.playouts_batch(states, 0, seed)  # its checks: types, one game, counts
    num_playouts, seed, _ = _check_counts(num_playouts, seed, shard_size)
    if num_playouts == 0:
        return empty
    per_shard = max(1, shard_size // num_playouts)
    shards = []
    for first, count in ranges(len(states), per_shard):
        low = (seed + first * num_playouts) % SEED_MODULUS
        shards.append(
            Shard(
                _engine_call_shard,
                ("playouts_batch", list(states[first : first + count]), num_playouts, low),
                count * num_playouts,
                f"states {first}..{first + count - 1}, seeds {low}.."
                f"{(low + count * num_playouts - 1) % SEED_MODULUS}",
            )
        )
    return _merge(run_shards(shards, executor, progress), empty)


# --- arena -----------------------------------------------------------------------------------


def _arena_shard(payload: tuple[str, list[Any]]) -> list[dict[str, Any]]:
    search_path, tasks = payload
    # The driver's folder, where a user's bot module may live (arena's specs import from the
    # current folder); on another machine the module must be importable there.
    if search_path and os.path.isdir(search_path) and search_path not in sys.path:
        sys.path.insert(0, search_path)
    return [arena_module.play_game(task) for task in tasks]


def arena(
    engine_name: str,
    texts: Sequence[str],
    players: int,
    seed: int,
    deals: int,
    *,
    shard_size: int = ARENA_SHARD,
    executor: Optional[Executor] = None,
    progress: bool = False,
    done: Optional[Mapping[int, dict[str, Any]]] = None,
    on_game: Optional[arena_module.OnGame] = None,
    modules: Sequence[str] = (),
) -> list[dict[str, Any]]:
    """The games of `arena.run(engine_name, texts, players, seed, deals, modules=modules)`, in
    schedule order, played in shards of `shard_size` consecutive games of those not `done` (as
    arena.run's `done` and `on_game`, on_game called as each shard ends): each game depends on
    its task alone, the module set among it, so the list (and the table and records made from
    it) is the same."""
    tasks = arena_module.jobs_of(engine_name, texts, players, seed, deals, modules)
    done = done or {}
    todo = [number for number in range(len(tasks)) if number not in done]
    shards, numbers = [], []
    for first, count in ranges(len(todo), shard_size):
        part = todo[first : first + count]
        jobs = [tasks[number] for number in part]
        numbers.append(part)
        shards.append(
            Shard(
                _arena_shard,
                (os.getcwd(), jobs),
                count,
                f"games {part[0]}..{part[-1]}: table {jobs[0][4][0]} deal "
                f"{jobs[0][4][1]} to table {jobs[-1][4][0]} deal {jobs[-1][4][1]}, "
                f"seed {seed}",
            )
        )

    def shard_done(index: int, games: list[dict[str, Any]]) -> None:
        for number, game in zip(numbers[index], games):
            if on_game:
                on_game(number, game)

    played: dict[int, dict[str, Any]] = {}
    for part, games in zip(numbers, run_shards(shards, executor, progress, shard_done)):
        played.update(zip(part, games))
    return [done[n] if n in done else played[n] for n in range(len(tasks))]
