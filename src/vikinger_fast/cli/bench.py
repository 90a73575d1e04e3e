"""`vikinger bench`: one fixed workload, measured in one run, printed as a table
(docs/benchmarks.md; the rows are vikinger_fast.benchmarks)."""

import argparse
import os
import sys
import time
from typing import Any

from .. import module_sets
from ..benchmarks import SIZES, build_info, hardware, measure, table
from ..pictures import plots
from ..safety import flags, json_limits, outputs
from . import common


def run(args: argparse.Namespace) -> int:
    if args.plot and not plots.available():
        print(f"vikinger bench: {plots.PLOT_HINT}", file=sys.stderr)
        return 3
    try:  # the outputs are checked before minutes of measuring, not after
        for flag, path, check in (
            ("--json", args.json, outputs.check_output_file),
            ("--plot", args.plot, outputs.check_plot_file),  # a suffix matplotlib writes
        ):
            if path:
                check(path, what=flag)
    except outputs.OutputError as error:
        print(f"vikinger bench: {error}", file=sys.stderr)
        return 2
    repeats = args.repeats or SIZES["repeats"][1 if args.quick else 0]
    info = {"hardware": hardware(), "build": build_info(), "quick": args.quick, "repeats": repeats}
    if args.modules is not None:
        info["modules"] = module_sets.name(args.modules)
    hw = info["hardware"]
    print(
        f"vikinger bench: {hw['cpu']}, {hw['cores']} cores, {hw['machine']}, Python "
        f"{hw['python']}; build {info['build']['build_type']} "
        f"({info['build']['compiler']}, flags: {info['build']['flags'] or 'none'}; "
        f"fused playout's bit select: {info['build']['fused_bit_select']})"
        f"{'; --quick' if args.quick else ''}",
        flush=True,
    )
    if args.modules is not None:
        print(
            f"--modules {info['modules']}: the module rows measure this set at 2, 3 and 4 "
            "players against the 2-player base game; the other rows measure the base game, "
            "which their targets are for",
            flush=True,
        )
    start = time.perf_counter()
    results = measure(args, repeats)
    info["seconds"] = time.perf_counter() - start
    info["results"] = results
    info["load_average_after"] = os.getloadavg()[0]
    # The busier moment of the two names the load in the missed rows (benchmarks/verdicts.py).
    results["load"] = {
        "average": max(hw["load_average"], info["load_average_after"]),
        "cores": hw["cores"],
    }
    print(table(results))
    # Other processes on the machine slow every row down: say how busy it was.
    print(
        f"measured in {info['seconds']:.0f} s, best of {info['repeats']} repetitions; load "
        f"average {hw['load_average']:.2f} before, {info['load_average_after']:.2f} after "
        f"(on {hw['cores']} cores)"
    )
    if args.json:
        outputs.write_atomic(
            args.json,
            json_limits.dumps_strict(json_limits.non_finite_as_text(info), indent=2) + "\n",
        )
    if args.plot:
        plots.plot_bench(results, args.plot)
    return 0


_positive_int = flags.int_in(1, 1000)


def add_parser(commands: Any) -> None:
    bench = commands.add_parser(
        "bench",
        help="measure both engines (and peers) in one run",
        description="Time one fixed workload on vikinger_fast, vikinger_ref, its Cython build "
        "and OpenSpiel, and print the rates against their targets (docs/benchmarks.md).",
    )
    bench.add_argument("--quick", action="store_true", help="a small workload (CI smoke test)")
    bench.add_argument("--json", metavar="PATH", help="also write every number to PATH")
    bench.add_argument(
        "--plot",
        metavar="FILE",
        help="also chart the rows against their targets and peers (.png, .svg, "
        ".pdf; needs the plot extra)",
    )
    bench.add_argument(
        "--no-cython", action="store_true", help="skip the Cython-compiled reference"
    )
    bench.add_argument("--no-peers", action="store_true", help="skip OpenSpiel")
    bench.add_argument(
        "--repeats",
        type=_positive_int,
        metavar="N",
        help="repetitions of every fast row, the best one counted (default 3, "
        "1 with --quick; the 1- and 2-thread rollouts alternate N + 2 "
        "times); more give steadier numbers on a busy or shared machine",
    )
    common.add_modules(
        bench,
        default=None,
        help="the set of the module rows (default: the base game, each module alone, all "
        "five); the other rows measure the base game",
    )
    bench.set_defaults(run=run)
