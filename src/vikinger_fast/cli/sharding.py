"""The sharding flags of `vikinger simulate`, `arena` and `selfplay` (docs/distributed.md):
`--ray [ADDRESS]`, `--shard-size`, `--cpus-per-shard` and `--jobs`, and the executor they ask for.

Without `--ray` the shards run in `--jobs` local processes; `--ray` alone starts a local Ray
cluster on 127.0.0.1 for the run, `--ray ADDRESS` joins a running one ("auto", "HOST:PORT").
Ctrl-C cancels the remote work and exits with status 130; a failed shard prints the error
naming the shard and its games and seeds, and exits 1.
"""

import argparse
import contextlib
import sys
from types import ModuleType
from typing import Any, Iterator, Optional

from .. import arena, distributed
from ..extras import install_hint, installed
from ..safety import flags
from . import common

RAY_HELP = (
    "run the shards on a Ray cluster: alone, a local cluster on 127.0.0.1; or the "
    "ADDRESS of a running one (auto, HOST:PORT); needs the extra ray"
)


def add_arguments(parser: argparse.ArgumentParser, shard_size: int, jobs: bool = True) -> None:
    """The flags shared by the sharded commands (`jobs`: also add --jobs)."""
    add_ray(parser)
    parser.add_argument(
        "--shard-size",
        type=flags.SHARD_SIZE,
        default=shard_size,
        metavar="GAMES",
        help=f"games per shard (default {shard_size}; the results do not depend on it)",
    )
    add_cpus_per_shard(parser, "on Ray, the CPUs each shard reserves (e.g. 2 for mcts:threads=2)")
    if jobs:
        common.add_jobs(
            parser, "local worker processes when not on Ray (the results do not depend on it)"
        )


def add_ray(parser: argparse.ArgumentParser) -> None:
    """--ray [ADDRESS] (`vikinger train` has it too, without shards of its own)."""
    parser.add_argument("--ray", nargs="?", const="local", metavar="ADDRESS", help=RAY_HELP)


def ray_missing(args: argparse.Namespace) -> bool:
    """With --ray and no Ray installed: says so in one line with the install commands (True),
    before the command makes a folder or plays a game (cli.main then exits 3, as for every
    missing extra)."""
    if getattr(args, "ray", None) is None or installed("ray"):
        return False
    print(f"vikinger {args.command}: {install_hint('--ray needs Ray', 'ray')}", file=sys.stderr)
    return True


def add_cpus_per_shard(parser: argparse.ArgumentParser, help: str) -> None:
    parser.add_argument("--cpus-per-shard", type=flags.CPUS, default=1, metavar="N", help=help)


@contextlib.contextmanager
def executor(args: argparse.Namespace) -> Iterator[distributed.Executor]:
    """The executor the flags ask for, closed (a local cluster shut down) afterwards."""
    if args.shard_size < 1:
        sys.exit(f"--shard-size must be >= 1, not {args.shard_size}")
    if args.jobs < 1:
        sys.exit(f"--jobs must be >= 1, not {args.jobs}")
    if args.ray is None:
        yield distributed.LocalProcesses(args.jobs)
        return
    with _connect(args) as cluster:
        yield cluster


def _connect(args: argparse.Namespace) -> distributed.RayCluster:
    """The RayCluster of --ray, or an exit with one line saying why there is none."""
    if args.cpus_per_shard < 1:
        sys.exit(f"--cpus-per-shard must be >= 1, not {args.cpus_per_shard}")
    address = args.ray
    try:
        cluster = distributed.RayCluster(address, cpus_per_shard=args.cpus_per_shard)
    except ImportError as error:
        sys.exit(f"error: {error}")
    except ConnectionError as error:
        sys.exit(f"error: no Ray cluster at {address}: {error}")
    print(f"ray: {cluster.workers} CPUs", file=sys.stderr, flush=True)
    return cluster


@contextlib.contextmanager
def outcome(unfinished: str = "no results written") -> Iterator[None]:
    # What the user sees of an interruption or a failed shard: one line, no traceback.
    try:
        yield
    except KeyboardInterrupt:
        print(f"\ninterrupted: remote work cancelled, {unfinished}", file=sys.stderr)
        sys.exit(130)
    except distributed.ShardError as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(1)


def rollouts(engine: ModuleType, game: Any, args: argparse.Namespace) -> dict[str, Any]:
    """`vikinger simulate`'s games: one rollouts call, or shards when --ray or --jobs ask."""
    if args.ray is None and args.jobs == 1:
        return engine.rollouts(game, args.games, args.seed)
    with outcome(), executor(args) as chosen:
        return distributed.rollouts(
            game, args.games, args.seed, shard_size=args.shard_size, executor=chosen, progress=True
        )


def arena_games(
    args: argparse.Namespace,
    players: int,
    deals: int,
    progress: bool,
    done: Optional[dict[int, dict[str, Any]]] = None,
    on_game: Optional[arena.OnGame] = None,
) -> list[dict[str, Any]]:
    """`vikinger arena`'s games: arena.run in --jobs processes, or shards on Ray (`done` and
    `on_game` as arena.run's)."""
    schedule = (args.engine, args.bots, players, args.seed, deals)
    passed = {"progress": progress, "done": done, "on_game": on_game, "modules": args.modules}
    if args.ray is None:
        # arena.run's own process pool: the same games, game by game; a failing bot is one
        # line naming its game, as on Ray.
        try:
            return arena.run(*schedule, jobs=args.jobs, **passed)
        except arena.GameError as error:
            print(f"error: {error}", file=sys.stderr)
            sys.exit(1)
    if args.shard_size < 1:
        sys.exit(f"--shard-size must be >= 1, not {args.shard_size}")
    kept = f"the games finished are kept in {args.out}; {args.again} plays the rest"
    with outcome(kept), _connect(args) as cluster:
        return distributed.arena(*schedule, shard_size=args.shard_size, executor=cluster, **passed)
