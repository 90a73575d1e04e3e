"""The command-line side of distributed.py: `--ray [ADDRESS]` and `--shard-size` for
`vikinger simulate` and `vikinger arena`, and the `vikinger selfplay` command (docs/distributed.md).

Without `--ray` the shards run in `--jobs` local processes; `--ray` alone starts a local Ray
cluster on 127.0.0.1 for the run, `--ray ADDRESS` joins a running one ("auto", "HOST:PORT").
Ctrl-C cancels the remote work and exits with status 130; a failed shard prints the error
naming the shard and its games and seeds, and exits 1.
"""

import contextlib
import os
import sys
import time

from . import arena, distributed, selfplay
from .safety import flags, outputs

RAY_HELP = ("run the shards on a Ray cluster: alone, a local cluster on 127.0.0.1; or the "
            "ADDRESS of a running one (auto, HOST:PORT); needs the extra ray")


def add_arguments(parser, shard_size, jobs=True):
    """The flags shared by the sharded commands (`jobs`: also add --jobs)."""
    parser.add_argument("--ray", nargs="?", const="local", metavar="ADDRESS", help=RAY_HELP)
    parser.add_argument("--shard-size", type=flags.SHARD_SIZE, default=shard_size, metavar="GAMES",
                        help=f"games per shard (default {shard_size}; the results do not "
                             "depend on it)")
    parser.add_argument("--cpus-per-shard", type=flags.CPUS, default=1, metavar="N",
                        help="on Ray, the CPUs each shard reserves (e.g. 2 for mcts:threads=2)")
    if jobs:
        parser.add_argument("--jobs", type=flags.JOBS, default=1,
                            help="local worker processes when not on Ray (the results do not "
                                 "depend on it)")


@contextlib.contextmanager
def executor(args):
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


def _connect(args):
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
def _outcome(unfinished="no results written"):
    # What the user sees of an interruption or a failed shard: one line, no traceback.
    try:
        yield
    except KeyboardInterrupt:
        print(f"\ninterrupted: remote work cancelled, {unfinished}", file=sys.stderr)
        sys.exit(130)
    except distributed.ShardError as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(1)


def rollouts(engine, game, args):
    """`vikinger simulate`'s games: one rollouts call, or shards when --ray or --jobs ask."""
    if args.ray is None and args.jobs == 1:
        return engine.rollouts(game, args.games, args.seed)
    with _outcome(), executor(args) as chosen:
        return distributed.rollouts(game, args.games, args.seed, shard_size=args.shard_size,
                                    executor=chosen, progress=True)


def arena_games(args, players, deals, progress):
    """`vikinger arena`'s games: arena.run in --jobs processes, or shards on Ray."""
    if args.ray is None:
        # arena.run's own process pool: the same games, game by game; a failing bot is one
        # line naming its game, as on Ray.
        try:
            return arena.run(args.engine, args.bots, players, args.seed, deals, jobs=args.jobs,
                             progress=progress)
        except arena.GameError as error:
            print(f"error: {error}", file=sys.stderr)
            sys.exit(1)
    if args.shard_size < 1:
        sys.exit(f"--shard-size must be >= 1, not {args.shard_size}")
    with _outcome(), _connect(args) as cluster:
        return distributed.arena(args.engine, args.bots, players, args.seed, deals,
                                 shard_size=args.shard_size, executor=cluster,
                                 progress=progress)


def add_selfplay_parser(commands):
    parser = commands.add_parser(
        "selfplay", help="MCTS self-play games as training data (.npz shards + manifest)",
        description=selfplay.__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=flags.int_in(1, 10_000_000), required=True)
    parser.add_argument("--out", required=True, metavar="DIR",
                        help="output folder (new or empty)")
    parser.add_argument("--force", action="store_true",
                        help="write into a non-empty --out folder (one without a manifest)")
    parser.add_argument("--seed", type=flags.seed, default=0)
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--engine", choices=tuple(arena.ENGINES), default="fast")
    parser.add_argument("--iterations", type=flags.ITERATIONS, default=200,
                        help="MCTS iterations a move")
    parser.add_argument("--uct-c", type=flags.UCT_C, default=1.4)
    parser.add_argument("--leaf", choices=("playout", "evaluation"), default="playout")
    parser.add_argument("--solver-nodes", type=flags.SOLVER_NODES, default=0)
    parser.add_argument("--sample-moves", type=flags.MOVES, default=30, metavar="K",
                        help="the first K decisions of a game are drawn in proportion to the "
                             "visits, later ones are the most visited action (default 30)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_arguments(parser, distributed.ARENA_SHARD)
    parser.set_defaults(run=lambda args: run_selfplay(args, parser))
    return parser


def run_selfplay(args, parser):
    if args.games < 1:
        parser.error(f"--games must be >= 1, not {args.games}")
    manifest_path = os.path.join(args.out, selfplay.MANIFEST)
    if os.path.exists(manifest_path):     # the sharper message first, as generate() says it
        parser.error(f"{manifest_path} exists: that folder holds a finished run; choose "
                     "another folder")
    try:     # before any game is played
        outputs.check_output_folder(args.out, force=args.force, what="--out")
    except outputs.OutputError as error:
        parser.error(str(error))
    mcts = {"iterations": args.iterations, "uct_c": args.uct_c, "leaf": args.leaf,
            "solver_nodes": args.solver_nodes}
    print(f"selfplay: {args.games} games, {args.players} players, engine "
          f"{arena.ENGINES[args.engine]}, MCTS {args.iterations} iterations, seed {args.seed}, "
          f"shards of {args.shard_size}", flush=True)
    start = time.perf_counter()
    with _outcome("no manifest written (the folder is unfinished)"), executor(args) as chosen:
        try:
            manifest = selfplay.generate(
                args.out, args.games, args.seed, players=args.players, engine=args.engine,
                mcts=mcts, sample_moves=args.sample_moves, shard_size=args.shard_size,
                executor=chosen, progress=not args.no_progress)
        except (FileExistsError, ValueError, TypeError) as error:
            parser.error(str(error))
        except OSError as error:
            print(f"vikinger selfplay: {error}", file=sys.stderr)
            sys.exit(1)
    seconds = time.perf_counter() - start
    print(f"{args.games} games, {manifest['samples']} samples in {len(manifest['shards'])} "
          f"shards, {seconds:.1f} s ({args.games / max(seconds, 1e-9):.2f} games/s): "
          f"{args.out}")
    return 0
