"""`vikinger selfplay`: MCTS self-play games as training data (docs/distributed.md "Self-play
data")."""

import argparse
import os
import sys
import time
from typing import Any

from .. import arena, distributed, module_sets
from .. import selfplay_data
from ..distributed import selfplay
from ..safety import flags, outputs
from . import common
from .sharding import add_arguments, executor, outcome


def add_parser(commands: Any) -> argparse.ArgumentParser:
    parser = commands.add_parser(
        "selfplay",
        help="MCTS self-play games as training data (.npz shards + manifest)",
        description=selfplay.__doc__.split("\n\n")[0],
    )
    parser.add_argument("--games", type=flags.int_in(1, 10_000_000), required=True)
    common.add_out(
        parser,
        "output folder (new or empty)",
        "write into a non-empty --out folder (one without a manifest)",
        required=True,
    )
    common.add_seed(parser)
    common.add_players(parser, default=2)
    common.add_modules(parser)
    common.add_engine(parser)
    parser.add_argument(
        "--iterations", type=flags.ITERATIONS, default=200, help="MCTS iterations a move"
    )
    parser.add_argument("--uct-c", type=flags.UCT_C, default=1.4)
    parser.add_argument("--leaf", choices=("playout", "evaluation"), default="playout")
    parser.add_argument("--solver-nodes", type=flags.SOLVER_NODES, default=0)
    parser.add_argument(
        "--sample-moves",
        type=flags.MOVES,
        default=30,
        metavar="K",
        help="the first K decisions of a game are drawn in proportion to the "
        "visits, later ones are the most visited action (default 30)",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_arguments(parser, distributed.ARENA_SHARD)
    parser.set_defaults(run=lambda args: run(args, parser))
    return parser


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    if args.games < 1:
        parser.error(f"--games must be >= 1, not {args.games}")
    manifest_path = os.path.join(args.out, selfplay_data.MANIFEST)
    if os.path.exists(manifest_path):  # the sharper message first, as generate() says it
        parser.error(
            f"{manifest_path} exists: that folder holds a finished run; choose another folder"
        )
    try:  # before any game is played
        outputs.check_output_folder(args.out, force=args.force, what="--out")
    except outputs.OutputError as error:
        parser.error(str(error))
    mcts = {
        "iterations": args.iterations,
        "uct_c": args.uct_c,
        "leaf": args.leaf,
        "solver_nodes": args.solver_nodes,
    }
    print(
        f"selfplay: {args.games} games, {args.players} players, modules "
        f"{module_sets.name(args.modules)}, engine "
        f"{arena.ENGINES[args.engine]}, MCTS {args.iterations} iterations, seed {args.seed}, "
        f"shards of {args.shard_size}",
        flush=True,
    )
    start = time.perf_counter()
    with outcome("no manifest written (the folder is unfinished)"), executor(args) as chosen:
        try:
            manifest = selfplay.generate(
                args.out,
                args.games,
                args.seed,
                players=args.players,
                engine=args.engine,
                mcts=mcts,
                sample_moves=args.sample_moves,
                shard_size=args.shard_size,
                executor=chosen,
                progress=not args.no_progress,
                options=module_sets.game_options(args.modules),
            )
        except (FileExistsError, ValueError, TypeError) as error:
            parser.error(str(error))
        except OSError as error:
            print(f"vikinger selfplay: {error}", file=sys.stderr)
            sys.exit(1)
    seconds = time.perf_counter() - start
    print(
        f"{args.games} games, {manifest['samples']} samples in {len(manifest['shards'])} "
        f"shards, {seconds:.1f} s ({args.games / max(seconds, 1e-9):.2f} games/s): "
        f"{args.out}"
    )
    return 0
