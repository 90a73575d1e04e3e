"""`vikinger endgame`: bots against the exact values of solved round-6 positions (docs/learning.md
"The endgame benchmark"; the positions and scores are vikinger_fast.benchmarks.endgame, the
building of a file endgame_make)."""

import argparse
import contextlib
import os
import sys
import time
from typing import Any

from .. import arena, distributed
from ..benchmarks import endgame, endgame_make
from ..safety import files, flags, json_limits, outputs
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
    """--make PATH: the positions file rebuilt from --seed with the fast engine. What is built
    so far is kept in PATH.partial after each game (each batch of games with --jobs), so a build
    stopped at any point goes on with the same command and --resume."""
    engine = arena.engine_module("fast")
    partial = f"{args.make}.partial"
    hard = args.hard_version if args.hard else 0
    settings = endgame_make.partial_settings(
        args.seed, args.per_count, args.players, args.critical, hard
    )
    try:
        outputs.check_output_file(args.make, what="--make")
        outputs.check_output_file(partial, what="--make's partial build")
        resume = None
        if args.resume:
            try:
                record = endgame_make.load_partial(partial)
            except files.MissingFile:
                raise ValueError(f"--resume: there is no {partial} to go on from") from None
            resume = endgame_make.check_partial(record, settings, engine)
        elif os.path.exists(partial):
            raise ValueError(
                f"{partial} holds a build that was stopped: give --resume to go on with it "
                "(the same --seed, --per-count, --players and file kind), or remove it"
            )
    except (outputs.OutputError, ValueError) as error:
        print(f"vikinger endgame: {error}", file=sys.stderr)
        return 2
    if resume is not None:
        print(
            f"resuming {partial}: {len(resume['positions'])} positions kept, games played "
            f"{', '.join(f'{n} ({p} players)' for p, n in resume['games'].items())}",
            flush=True,
        )
    start = time.perf_counter()

    def progress(players: int, kept: int) -> None:
        print(f"\r{players} players: {kept} of {args.per_count}", end="", flush=True)

    def checkpoint(record: dict[str, Any]) -> None:
        endgame.save_positions(record, partial)

    unfinished = f"the games built so far are in {partial}: the same command with --resume goes on"
    with sharding.outcome(unfinished):
        data = endgame_make.make_positions(
            args.seed,
            args.per_count,
            engine,
            args.players,
            progress,
            only_critical=args.critical,
            executor=distributed.LocalProcesses(args.jobs) if args.jobs > 1 else None,
            hard=hard,
            resume=resume,
            checkpoint=checkpoint,
        )
    endgame.save_positions(data, args.make)
    with contextlib.suppress(FileNotFoundError):  # the build is whole: nothing to resume
        os.remove(partial)
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
        if args.resume and not args.make:
            raise ValueError("--resume goes on with a stopped --make: give --make PATH")
        if args.hard_version is not None and not args.hard:
            raise ValueError("--hard-version chooses a file of --hard positions: give --hard")
        if args.hard_version is None:
            args.hard_version = max(endgame.HARD_VERSIONS)
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
            endgame.hard_data(args.hard_version)
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
    which = f"hard (v{args.hard_version}) " if args.hard else "critical " if args.critical else ""
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
        "--resume",
        action="store_true",
        help="with --make: go on with the build stopped there (PATH.partial, kept after each "
        "game), with the same --seed, --per-count, --players and file kind",
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
        "--hard-version",
        type=int,
        choices=endgame.HARD_VERSIONS,
        help="with --hard: the file of that version, or with --make its rule (default the last)",
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
