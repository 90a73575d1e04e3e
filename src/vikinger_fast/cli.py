"""The `vikinger` command: simulate games (and, as they land, benchmark and soak the engines)."""

import argparse
import importlib
import statistics
import sys
import time

ENGINES = {"fast": "vikinger_fast", "ref": "vikinger_ref"}


def _engine(name):
    return importlib.import_module(ENGINES[name])


def simulate(args):
    """Random games through the engine's rollouts; prints outcome statistics."""
    vk = _engine(args.engine)
    game = vk.Game(num_players=args.players)
    start = time.perf_counter()
    result = vk.rollouts(game, args.games, args.seed)
    seconds = time.perf_counter() - start
    scores, returns, length = result["scores"], result["returns"], result["length"]
    print(f"{args.games} random {args.players}-player games, engine {ENGINES[args.engine]}, "
          f"seed {args.seed}: {seconds:.3f} s ({args.games / max(seconds, 1e-9):,.0f} games/s)")
    print(f"game length (actions, chance included): mean {statistics.fmean(length):.1f}, "
          f"min {min(length)}, max {max(length)}")
    print("seat  mean Fame  min  max  mean gold  win share")
    for p in range(args.players):
        column = [int(v) for v in scores[:, p]]
        print(f"{p:>4}  {statistics.fmean(column):9.2f}  {min(column):3d}  {max(column):3d}  "
              f"{statistics.fmean(result['gold'][:, p]):9.2f}  {statistics.fmean(returns[:, p]):9.3f}")
    return 0


def build_parser():
    parser = argparse.ArgumentParser(prog="vikinger", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    sim = commands.add_parser("simulate", help="play random games and print statistics")
    sim.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    sim.add_argument("--games", type=int, default=1000)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--engine", choices=tuple(ENGINES), default="fast")
    sim.set_defaults(run=simulate)
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
