"""`vikinger selfplay`: MCTS self-play games as training data (docs/distributed.md "Self-play
data")."""

import time

from .. import arena, distributed
from ..distributed import selfplay
from .sharding import add_arguments, executor, outcome


def add_parser(commands):
    parser = commands.add_parser(
        "selfplay", help="MCTS self-play games as training data (.npz shards + manifest)",
        description=selfplay.__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument("--out", required=True, metavar="DIR", help="output folder")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--engine", choices=tuple(arena.ENGINES), default="fast")
    parser.add_argument("--iterations", type=int, default=200, help="MCTS iterations a move")
    parser.add_argument("--uct-c", type=float, default=1.4)
    parser.add_argument("--leaf", choices=("playout", "evaluation"), default="playout")
    parser.add_argument("--solver-nodes", type=int, default=0)
    parser.add_argument("--sample-moves", type=int, default=30, metavar="K",
                        help="the first K decisions of a game are drawn in proportion to the "
                             "visits, later ones are the most visited action (default 30)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_arguments(parser, distributed.ARENA_SHARD)
    parser.set_defaults(run=lambda args: run(args, parser))
    return parser


def run(args, parser):
    if args.games < 1:
        parser.error(f"--games must be >= 1, not {args.games}")
    mcts = {"iterations": args.iterations, "uct_c": args.uct_c, "leaf": args.leaf,
            "solver_nodes": args.solver_nodes}
    print(f"selfplay: {args.games} games, {args.players} players, engine "
          f"{arena.ENGINES[args.engine]}, MCTS {args.iterations} iterations, seed {args.seed}, "
          f"shards of {args.shard_size}", flush=True)
    start = time.perf_counter()
    with outcome("no manifest written (the folder is unfinished)"), executor(args) as chosen:
        try:
            manifest = selfplay.generate(
                args.out, args.games, args.seed, players=args.players, engine=args.engine,
                mcts=mcts, sample_moves=args.sample_moves, shard_size=args.shard_size,
                executor=chosen, progress=not args.no_progress)
        except (FileExistsError, ValueError, TypeError) as error:
            parser.error(str(error))
    seconds = time.perf_counter() - start
    print(f"{args.games} games, {manifest['samples']} samples in {len(manifest['shards'])} "
          f"shards, {seconds:.1f} s ({args.games / max(seconds, 1e-9):.2f} games/s): "
          f"{args.out}")
    return 0
