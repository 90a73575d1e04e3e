"""The `vikinger` command: simulate games, soak the two engines against each other, benchmark
them (`vikinger bench`, benchmark.py), replay and draw games (pictures_cli.py),
run tournaments between bots (arena_cli.py) and play against them (play.py), and generate
MCTS self-play data (distributed_cli.py)."""

import argparse
import importlib
import os
import statistics
import sys
import time

from . import arena_cli, benchmark, differential, pictures_cli, play
from . import distributed, distributed_cli
from .training import cli as training_cli

ENGINES = {"fast": "vikinger_fast", "ref": "vikinger_ref"}


def _engine(name):
    return importlib.import_module(ENGINES[name])


def simulate(args):
    """Random games through the engine's rollouts; prints outcome statistics."""
    vk = _engine(args.engine)
    game = vk.Game(num_players=args.players)
    start = time.perf_counter()
    result = distributed_cli.rollouts(vk, game, args)
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


def soak(args):
    """Seeded random games through both engines, compared after every action (differential.py);
    stops at the first difference and exits 1 (2 when an engine crashed a worker process)."""
    configs = [c for c in differential.CONFIGURATIONS if args.players in (None, c.num_players)]
    games = differential.schedule(configs, args.seed, args.games, full_every=args.full_every)
    jobs = args.jobs or os.cpu_count() or 1
    print(f"soak: {args.games} games of {', '.join(map(str, configs))}, seeds {args.seed}.."
          f"{args.seed + args.games - 1}, {ENGINES['ref']} against {ENGINES['fast']}, "
          f"{jobs} jobs", flush=True)
    start = last_report = time.perf_counter()
    played = 0
    try:
        for count, found in differential.run((ENGINES["ref"], ENGINES["fast"]), games, jobs):
            played += count
            if found:
                print(f"DIFFERENCE in {found.config} seed {found.seed} (after {played} games, "
                      f"{time.perf_counter() - start:.1f} s):\n{found}\n"
                      f"replay: differential.play({ENGINES['ref']}, {ENGINES['fast']}, "
                      f"{found.config!r}, {found.seed})", flush=True)
                return 1
            if played < args.games and time.perf_counter() - last_report >= args.report_every:
                last_report = time.perf_counter()
                print(f"  {played}/{args.games} games, {last_report - start:.0f} s", flush=True)
    except differential.WorkerCrash as crash:
        print(f"CRASH: {crash}", flush=True)
        return 2
    seconds = time.perf_counter() - start
    print(f"{played} games, no difference: {seconds:.1f} s ({played / max(seconds, 1e-9):.1f} "
          f"games/s)")
    return 0


def build_parser():
    parser = argparse.ArgumentParser(prog="vikinger", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    sim = commands.add_parser("simulate", help="play random games and print statistics")
    sim.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    sim.add_argument("--games", type=int, default=1000)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--engine", choices=tuple(ENGINES), default="fast")
    distributed_cli.add_arguments(sim, distributed.ROLLOUT_SHARD)
    sim.set_defaults(run=simulate)
    soak_ = commands.add_parser("soak", help="compare the two engines over many seeded games")
    soak_.add_argument("--games", type=int, default=1000)
    soak_.add_argument("--seed", type=int, default=0, help="game i uses seed SEED + i")
    soak_.add_argument("--players", type=int, choices=(2, 3, 4),
                       help="only this player count (default: every configuration in turn)")
    soak_.add_argument("--jobs", type=int, default=0,
                       help="worker processes (default: one per core)")
    soak_.add_argument("--full-every", type=int, default=20, metavar="K",
                       help="games whose seed K divides compare every field at every step (0: "
                            "none); the others the cheap fields, and their final state in full")
    soak_.add_argument("--report-every", type=float, default=60.0, metavar="SECONDS",
                       help="print progress this often")
    soak_.set_defaults(run=soak)
    benchmark.add_parser(commands)
    pictures_cli.add_parsers(commands)
    arena_cli.add_parser(commands)
    play.add_parser(commands)
    distributed_cli.add_selfplay_parser(commands)
    training_cli.add_parser(commands)
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
