"""`vikinger arena`: a duplicate-format tournament between bot specs (docs/arena.md)."""

import argparse
import math
import os
import shlex
import sys
import time
from typing import Any

from .. import arena, distributed, module_sets
from ..arena import journal
from ..arena import report as arena_report
from . import common, sharding
from ..safety import flags, outputs

DESCRIPTION = """Play every seating permutation of each deal on the same chance stream, between
bots given as specs: a built-in bot with budgets as :key=value (mcts:iterations=200,threads=2,
az:time=0.1), or module.path:ClassName[:key=value,...] for your own bot (built as
ClassName(game, seed, **params), playing through step(state)). Prints a table and writes
results.json, results.csv, games.csv and every game's record to --out, where games.jsonl keeps
each game as it ends: a run stopped at any point finishes with the same command and --resume.
`vikinger ladder` plays every built-in bot against every other. The built-in bots:

"""


def add_parser(commands: Any) -> argparse.ArgumentParser:
    parser = common.add_bots_command(
        commands, "arena", "a tournament between bots (duplicate format)", DESCRIPTION
    )
    parser.add_argument("bots", nargs="+", metavar="SPEC", help="two or more bot specs")
    common.add_players(parser, help="players per game (default: the number of bots, at most 4)")
    common.add_modules(parser)
    parser.add_argument(
        "--games",
        type=flags.int_in(1, 10_000_000),
        default=100,
        help="games per table, rounded up to whole deals (a deal is played "
        "in all players! seatings); default 100",
    )
    common.add_seed(parser, help="seeds every deal and bot")
    common.add_jobs(parser, "worker processes (the results do not depend on it)")
    common.add_engine(parser)
    common.add_out(
        parser,
        "output folder, new or empty (default: arena-results, or arena-results-2, -3, ... when "
        "that holds an earlier run)",
        "write into a non-empty --out folder, replacing the results and records of an earlier "
        "run there",
        numbered="arena-results",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="finish the run stopped in --out: the games of its games.jsonl are kept, the "
        "others played (the same bots, --players, --modules, --seed, --games and --engine)",
    )
    parser.add_argument(
        "--plot", metavar="FILE", help="also draw the results (needs the extra plot: matplotlib)"
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    sharding.add_arguments(parser, distributed.ARENA_SHARD, jobs=False)
    parser.set_defaults(run=lambda args: run(args, parser))
    return parser


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    players = args.players or min(len(args.bots), 4)
    if len(args.bots) < 2:
        parser.error("arena needs at least two bot specs (repeat one to play it against itself)")
    if len(args.bots) < players:
        parser.error(f"--players {players} needs at least {players} bot specs")
    if args.games < 1:
        parser.error(f"--games must be >= 1, not {args.games}")
    if args.jobs < 1:
        parser.error(f"--jobs must be >= 1, not {args.jobs}")
    engine = arena.engine_module(args.engine)
    for text in args.bots:
        try:
            arena.check_spec(text, engine, players, args.modules)
        except ValueError as error:
            parser.error(str(error))
    if args.plot:
        from ..pictures import plots

        if not plots.available():
            print(plots.PLOT_HINT, file=sys.stderr)
            return 3
    if args.resume and args.force:
        parser.error("--resume keeps the games in --out and --force replaces them: choose one")
    deals = arena.deals_for(args.games, players)
    config = {
        "engine": args.engine,
        "entrants": list(args.bots),
        "names": arena.labels(args.bots),
        "players": players,
        "modules": module_sets.name(args.modules),
        "seed": args.seed,
        "deals": deals,
    }
    tasks = arena.jobs_of(args.engine, args.bots, players, args.seed, deals, args.modules)
    # The outputs, and a resumed run's journal, are checked before the games are played, not
    # found unwritable after.
    try:
        numbered = common.out_folder(args, keep=args.resume)
        outputs.check_output_folder(args.out, force=args.force or args.resume, what="--out")
        outputs.check_output_entries(args.out, journal.RUN_FILES, journal.RUN_FOLDERS)
        if args.plot:
            # The picture must not land on the journal a later --resume reads.
            outputs.check_plot_file(args.plot, [journal.path_in(args.out)], what="--plot")
        if args.resume:
            book = journal.resume(args.out, config, tasks, engine)
        else:
            book = journal.start(args.out, config)
    except (OSError, ValueError) as error:
        hint = ""
        if not args.resume and args.out is not None and os.path.isfile(journal.path_in(args.out)):
            hint = " (or --resume to finish the run stopped there)"
        parser.error(f"{error}{hint}")
    if numbered:
        base = args.out_numbered  # a journal without results there: a run stopped half-way
        stopped = os.path.isfile(journal.path_in(base)) and not os.path.exists(
            os.path.join(base, "results.json")
        )
        hint = f" ({base} holds a stopped run: --resume finishes it there)" if stopped else ""
        print(f"{numbered}{hint}", flush=True)
    tables = len(arena.schedule(len(args.bots), players, 1)) // math.factorial(players)
    print(
        f"arena: {len(args.bots)} bots, {players} per game, modules {config['modules']}, "
        f"{tables} table(s) x {deals} deal(s) x {math.factorial(players)} seatings, engine "
        f"{arena.ENGINES[args.engine]}, "
        f"seed {args.seed}, {args.jobs} job(s)",
        flush=True,
    )
    if args.resume:
        print(f"resuming: {len(book.done)} of {len(tasks)} games kept from {book.path}", flush=True)
    # A numbered folder is not the default the same command would take again.
    again = f"--out {shlex.quote(args.out)} --resume" if numbered else "--resume"
    args.again = f"the same command with {again}"
    start = time.perf_counter()
    with book:
        try:
            games = sharding.arena_games(
                args, players, deals, not args.no_progress, done=book.done, on_game=book.add
            )
        except KeyboardInterrupt:
            print(
                f"\ninterrupted: the games finished are kept in {book.path}; {args.again} "
                "plays the rest",
                file=sys.stderr,
            )
            return 130
    seconds = time.perf_counter() - start
    results = arena_report.summarize(config, games)
    try:
        arena_report.write_outputs(args.out, results, games)
    except (OSError, ValueError) as error:
        print(f"vikinger arena: could not write {args.out}: {error}", file=sys.stderr)
        return 1
    print(arena_report.format_table(results))
    print(
        f"{len(games)} games in {seconds:.1f} s; results, games and records in "
        f"{os.path.join(args.out, '')}"
    )
    if args.plot:
        from ..pictures import plots

        plots.plot_tournament(results, args.plot)
        print(f"plot: {args.plot}")
    return 0
