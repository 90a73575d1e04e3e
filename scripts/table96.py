#!/usr/bin/env python3
"""The learned player at every table (docs/learning.md "Networks for every table"): `az` against
`mcts` at each of the 96 configurations, 2 to 4 players times the 32 module sets, each an arena
run (`vikinger arena`: duplicate seating, every deal in all seatings, fixed seed) in its own
folder of --out, and a markdown table of the learned player's win share with its 95 % Wilson
interval per configuration, `table96.md`.

At n players the table seats the learned player and n - 1 copies of the opponent, so its fair
share is 1/n. Resumable: a configuration whose folder holds results.json is read, not played
again; one whose folder holds a journal (games.jsonl) is finished with `vikinger arena --resume`;
the others are started. So a run stopped at any point ends, with the same command, as an
unbroken one.

    python scripts/table96.py --out tables [--games 12] [--seed 0] [--jobs 2]
        [--players 2 --players 3 ...] [--modules none --modules auction ...]
        [--learned az:simulations=50] [--opponent mcts:iterations=200]
"""

import argparse
import json
import os
import sys

from vikinger_fast import arena, module_sets
from vikinger_fast.cli import main as vikinger

LEARNED = "az:simulations=50"
OPPONENT = "mcts:iterations=200"
TABLE = "table96.md"


def folder_name(players, modules):
    """The configuration's folder in --out: `2p-none`, `3p-auction+special_tiles`."""
    return f"{players}p-" + module_sets.name(modules).replace(",", "+")


def arena_args(args, players, modules, folder):
    """The `vikinger arena` command line of one configuration (without --resume)."""
    return [
        "arena",
        args.learned,
        *[args.opponent] * (players - 1),
        "--players",
        str(players),
        "--modules",
        module_sets.name(modules),
        "--games",
        str(args.games),
        "--seed",
        str(args.seed),
        "--jobs",
        str(args.jobs),
        "--engine",
        args.engine,
        "--out",
        folder,
        "--no-progress",
    ]


def play(args, players, modules):
    """The results of one configuration: read when finished, else played (or resumed)."""
    folder = os.path.join(args.out, folder_name(players, modules))
    results = os.path.join(folder, "results.json")
    if not os.path.exists(results):
        argv = arena_args(args, players, modules, folder)
        if os.path.exists(os.path.join(folder, "games.jsonl")):
            argv.append("--resume")
        print(f"table96: {folder_name(players, modules)}", flush=True)
        code = vikinger(argv)
        if code:
            sys.exit(f"table96: {folder}: vikinger arena ended with {code}; rerun to resume")
    with open(results) as f:
        summary = json.load(f)
    expected = (players, module_sets.name(modules), args.seed, args.engine)
    found = (summary["players"], summary["modules"], summary["seed"], summary["engine"])
    if found != expected or summary["entrants"][0] != args.learned:
        sys.exit(f"table96: {results} is of another run ({found}); use another --out")
    return summary


def row(players, modules, summary):
    entry = next(e for e in summary["entries"] if e["name"] == summary["names"][0])
    low, high = entry["win_share_interval"]
    fair = 1 / players
    verdict = "above" if low > fair else "below" if high < fair else "within"
    return {
        "players": players,
        "modules": module_sets.name(modules),
        "games": entry["games"],
        "share": entry["win_share"],
        "low": low,
        "high": high,
        "fair": fair,
        "verdict": verdict,
    }


def markdown(args, rows):
    lines = [
        f"# `{args.learned}` against `{args.opponent}` at every table",
        "",
        f"Written by `python scripts/table96.py` (--games {args.games}, --seed {args.seed}, "
        f"engine {args.engine}). Win share of the learned player with its 95 % Wilson interval; "
        "fair is 1/n at n players; the verdict says whether the interval lies above or below it.",
        "",
        "| players | modules | games | share | 95 % interval | fair | verdict |",
        "|---:|---|---:|---:|---|---:|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['players']} | {r['modules']} | {r['games']} | {r['share']:.3f} | "
            f"[{r['low']:.3f}, {r['high']:.3f}] | {r['fair']:.3f} | {r['verdict']} |"
        )
    lines.append("")
    for players in sorted({r["players"] for r in rows}):
        mine = [r for r in rows if r["players"] == players]
        counts = {v: sum(r["verdict"] == v for r in mine) for v in ("above", "within", "below")}
        mean = sum(r["share"] for r in mine) / len(mine)
        lines.append(
            f"- {players} players: {len(mine)} tables, mean share {mean:.3f}; above fair "
            f"{counts['above']}, within {counts['within']}, below {counts['below']}."
        )
    return "\n".join(lines) + "\n"


def parse(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, help="the folder of the runs and the table")
    parser.add_argument("--games", type=int, default=12, help="games per table (default 12)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="arena worker processes")
    parser.add_argument("--engine", choices=("fast", "ref"), default="fast")
    parser.add_argument(
        "--players", type=int, action="append", choices=(2, 3, 4), help="default 2, 3 and 4"
    )
    parser.add_argument(
        "--modules", action="append", metavar="SET", help="a module set (default all 32)"
    )
    parser.add_argument("--learned", default=LEARNED, help=f"default {LEARNED}")
    parser.add_argument("--opponent", default=OPPONENT, help=f"default {OPPONENT}")
    args = parser.parse_args(argv)
    try:
        sets = [module_sets.parse(s) for s in args.modules or ()] or module_sets.every_set()
        for text in (args.learned, args.opponent):
            arena.parse_spec(text)
    except ValueError as error:
        parser.error(str(error))
    return args, sorted(set(args.players or (2, 3, 4))), sets


def run(argv=None):
    args, players, sets = parse(argv)
    os.makedirs(args.out, exist_ok=True)
    rows = [row(n, s, play(args, n, s)) for n in players for s in sets]
    text = markdown(args, rows)
    with open(os.path.join(args.out, TABLE), "w") as f:
        f.write(text)
    print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(run())
