"""`vikinger soak`: seeded random games through both engines, compared after every action
(differential.py); stops at the first difference."""

import argparse
import os
import time
from typing import Any

from .. import differential, module_sets
from ..safety import flags
from . import common

ENGINES = {"ref": "vikinger_ref", "fast": "vikinger_fast"}


def run(args: argparse.Namespace) -> int:
    """Exits 1 at the first difference (2 when an engine crashed a worker process)."""
    configs = [
        c
        for c in differential.CONFIGURATIONS
        if args.players in (None, c.num_players) and args.modules in (None, c.flags)
    ]
    games = differential.schedule(configs, args.seed, args.games, full_every=args.full_every)
    jobs = args.jobs or os.cpu_count() or 1
    # Dozens of configurations would make a line of thousands of characters: counted instead.
    names = ", ".join(map(str, configs))
    if len(configs) > 3:
        players = sorted({c.num_players for c in configs})
        names = (
            f"{len(configs)} configurations ({'/'.join(map(str, players))} players x module sets)"
        )
    if args.modules is not None:
        names += f" (modules {module_sets.name(args.modules)})"
    print(
        f"soak: {args.games} games of {names}, seeds {args.seed}.."
        f"{args.seed + args.games - 1}, {ENGINES['ref']} against {ENGINES['fast']}, "
        f"{jobs} jobs",
        flush=True,
    )
    start = last_report = time.perf_counter()
    played = 0
    try:
        for count, found in differential.run((ENGINES["ref"], ENGINES["fast"]), games, jobs):
            played += count
            if found:
                print(
                    f"DIFFERENCE in {found.config} seed {found.seed} (after {played} games, "
                    f"{time.perf_counter() - start:.1f} s):\n{found}\n"
                    f"replay: differential.play({ENGINES['ref']}, {ENGINES['fast']}, "
                    f"{found.config!r}, {found.seed})",
                    flush=True,
                )
                return 1
            if played < args.games and time.perf_counter() - last_report >= args.report_every:
                last_report = time.perf_counter()
                print(f"  {played}/{args.games} games, {last_report - start:.0f} s", flush=True)
    except differential.WorkerCrash as crash:
        print(f"CRASH: {crash}", flush=True)
        return 2
    seconds = time.perf_counter() - start
    if played != args.games:
        # A comparison that did not run every game it was asked for proves nothing.
        print(f"ERROR: {played} of {args.games} games were compared", flush=True)
        return 1
    print(
        f"{played} games, no difference: {seconds:.1f} s ({played / max(seconds, 1e-9):.1f} "
        f"games/s)"
    )
    return 0


def add_parser(commands: Any) -> argparse.ArgumentParser:
    parser = commands.add_parser("soak", help="compare the two engines over many seeded games")
    parser.add_argument("--games", type=flags.GAMES, default=1000)
    common.add_seed(parser, help="game i uses seed SEED + i")
    common.add_players(parser, help="only this player count (default: every configuration in turn)")
    common.add_modules(
        parser, default=None, help="only this set (default: each of the 32 sets in turn)"
    )
    parser.add_argument(
        "--jobs",
        type=flags.int_in(0, 1024),
        default=0,
        help="worker processes (default: one per core)",
    )
    parser.add_argument(
        "--full-every",
        type=flags.nonneg_int,
        default=20,
        metavar="K",
        help="games whose seed K divides compare every field at every step (0: "
        "none); the others the cheap fields, and their final state in full",
    )
    parser.add_argument(
        "--report-every",
        type=flags.SECONDS,
        default=60.0,
        metavar="SECONDS",
        help="print progress this often",
    )
    parser.set_defaults(run=run)
    return parser
