"""`vikinger simulate`: random games through an engine's rollouts, with outcome statistics."""

import argparse
import statistics
import time
from typing import Any

from .. import arena, distributed, module_sets
from ..safety import flags
from . import common, sharding


def run(args: argparse.Namespace) -> int:
    """Random games through the engine's rollouts; prints outcome statistics."""
    vk = arena.engine_module(args.engine)
    game = vk.Game(num_players=args.players, **module_sets.game_options(args.modules))
    start = time.perf_counter()
    result = sharding.rollouts(vk, game, args)
    seconds = time.perf_counter() - start
    scores, returns, length = result["scores"], result["returns"], result["length"]
    print(
        f"{args.games} random {args.players}-player games, modules "
        f"{module_sets.name(args.modules)}, engine {arena.ENGINES[args.engine]}, seed "
        f"{args.seed}: {seconds:.3f} s ({args.games / max(seconds, 1e-9):,.0f} games/s)"
    )
    print(
        f"game length (actions, chance included): mean {statistics.fmean(length):.1f}, "
        f"min {min(length)}, max {max(length)}"
    )
    print("seat  mean Fame  min  max  mean gold  win share")
    for p in range(args.players):
        column = [int(v) for v in scores[:, p]]
        print(
            f"{p:>4}  {statistics.fmean(column):9.2f}  {min(column):3d}  {max(column):3d}  "
            f"{statistics.fmean(result['gold'][:, p]):9.2f}  {statistics.fmean(returns[:, p]):9.3f}"
        )
    return 0


def add_parser(commands: Any) -> argparse.ArgumentParser:
    parser = commands.add_parser("simulate", help="play random games and print statistics")
    common.add_players(parser, default=2)
    common.add_modules(parser)
    parser.add_argument("--games", type=flags.GAMES, default=1000)
    common.add_seed(parser)
    common.add_engine(parser)
    sharding.add_arguments(parser, distributed.ROLLOUT_SHARD)
    parser.set_defaults(run=run)
    return parser
