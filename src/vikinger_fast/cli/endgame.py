"""`vikinger endgame`: bots against the exact values of solved round-6 positions (docs/learning.md
"The endgame benchmark"; the positions and scores are vikinger_fast.benchmarks.endgame)."""

import argparse
import os
import sys
import time
from typing import Any

from .. import arena, distributed
from ..benchmarks import endgame
from ..safety import flags, json_limits, outputs
from . import common, sharding

DEFAULT_BOTS = ("az:simulations=200", "azpolicy", "mcts:iterations=1000", "greedy", "random")


def _players(text: str) -> list[int]:
    try:
        chosen = sorted({int(part) for part in text.split(",") if part.strip()})
    except ValueError:
        chosen = []
    if not chosen or any(p not in endgame.PLAYERS for p in chosen):
        raise ValueError(f"--players takes 2, 3 and/or 4 separated by commas, not {text!r}")
    return chosen


def make(args: argparse.Namespace) -> int:
    """--make PATH: the positions file rebuilt from --seed with the fast engine."""
    try:
        outputs.check_output_file(args.make, what="--make")
    except outputs.OutputError as error:
        print(f"vikinger endgame: {error}", file=sys.stderr)
        return 2
    start = time.perf_counter()

    def progress(players: int, kept: int) -> None:
        print(f"\r{players} players: {kept} of {args.per_count}", end="", flush=True)

    with sharding.outcome():
        data = endgame.make_positions(
            args.seed,
            args.per_count,
            arena.engine_module("fast"),
            args.players,
            progress,
            only_critical=args.critical,
            executor=distributed.LocalProcesses(args.jobs) if args.jobs > 1 else None,
            hard=args.hard,
        )
    endgame.save_positions(data, args.make)
    print(
        f"\n{len(data['positions'])} positions (seed {args.seed}) in "
        f"{time.perf_counter() - start:.0f} s: {args.make}"
    )
    return 0


def run(args: argparse.Namespace) -> int:
    try:
        args.players = _players(args.players or ("2" if args.hard else "2,3,4"))
        if args.critical and args.hard:
            raise ValueError("--critical and --hard choose different files: give one")
        if args.hard and args.players != [2]:
            raise ValueError("--hard positions are for two players: give --players 2")
    except ValueError as error:
        print(f"vikinger endgame: {error}", file=sys.stderr)
        return 2
    if args.make:
        return make(args)
    engine = arena.engine_module(args.engine)
    try:
        if (args.critical or args.hard) and args.data:
            chosen = "--critical" if args.critical else "--hard"
            raise ValueError(
                f"{chosen} chooses the shipped {chosen[2:]} positions: give it or --data"
            )
        if args.json:
            outputs.check_output_file(args.json, what="--json")
        shipped = (
            endgame.HARD_DATA
            if args.hard
            else endgame.CRITICAL_DATA
            if args.critical
            else endgame.DATA
        )
        data = endgame.load_positions(args.data or shipped)
        for spec in args.bots:  # for every game: a model= may fit one number of players only
            for players in args.players:
                arena.check_spec(spec, engine, players)
    except (outputs.OutputError, ValueError) as error:
        print(f"vikinger endgame: {error}", file=sys.stderr)
        return 2
    load = os.getloadavg()[0]
    which = "hard " if args.hard else "critical " if args.critical else ""
    print(
        f"endgame: {args.data or f'the shipped {which}positions'} ({data['format']}, seed "
        f"{data['seed']}), engine {arena.ENGINES[args.engine]}, bot seed {args.seed}",
        flush=True,
    )
    print(endgame.TABLE_HEADER, flush=True)
    rows = [
        (spec, positions)
        for spec in args.bots
        for players in args.players
        if (positions := endgame.by_players(data, players, args.limit))
    ]
    results = []
    with sharding.outcome():
        executor = distributed.LocalProcesses(args.jobs)
        for result in endgame.run_bots(rows, args.engine, args.seed, executor):
            results.append(result)
            print(endgame.table_row(result), flush=True)
    print(f"load average {load:.2f} before, {os.getloadavg()[0]:.2f} after")
    if args.json:
        outputs.write_atomic(args.json, json_limits.dumps_strict(results, indent=2) + "\n")
    return 0


def add_parser(commands: Any) -> argparse.ArgumentParser:
    parser = common.add_bots_command(
        commands,
        "endgame",
        help="score bots against the exact values of solved round-6 positions",
        description="Score bots on the shipped solved round-6 positions: margin-optimal share, "
        "mean regret in Fame, result-changing blunders (docs/learning.md).\n\nbots:\n",
    )
    parser.add_argument("bots", nargs="*", default=list(DEFAULT_BOTS), help="bot specs")
    parser.add_argument(
        "--players", help="numbers of players, e.g. 2 or 2,3 (default 2,3,4; with --hard 2)"
    )
    parser.add_argument(
        "--limit", type=flags.positive_int, help="the first N positions per number of players"
    )
    common.add_seed(parser, help="the bots' seed (with --make: the positions' seed)")
    common.add_engine(parser)
    parser.add_argument("--data", metavar="PATH", help="another positions file (of --make)")
    parser.add_argument("--json", metavar="PATH", help="also write the results to PATH")
    parser.add_argument(
        "--make",
        metavar="PATH",
        help="rebuild the positions file from --seed (fast engine) into PATH instead",
    )
    parser.add_argument(
        "--critical",
        action="store_true",
        help="the shipped critical positions (each has an action that changes the mover's "
        "result); with --make: build a file of critical positions alone",
    )
    parser.add_argument(
        "--hard",
        action="store_true",
        help="the shipped hard positions (2 players: critical ones the learned player's solver "
        "gives up on, each action labelled win, shared win or loss); with --make: build a file "
        "of hard positions",
    )
    parser.add_argument(
        "--per-count",
        type=flags.positive_int,
        default=200,
        help="with --make: positions per number of players (default 200)",
    )
    common.add_jobs(
        parser,
        "worker processes for the bots' moves, or with --make for the games (the results do "
        "not depend on it, save a bot's given time a move)",
    )
    parser.set_defaults(run=run)
    return parser
