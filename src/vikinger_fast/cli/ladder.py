"""`vikinger ladder`: every built-in bot against every other, two players a game, at fixed small
budgets; Elo (Bradley-Terry) with 95 % intervals as a markdown and a CSV table, a PNG chart and
a static HTML page (docs/arena.md, "The ladder").

The games are the arena's (duplicate format: each deal in both seatings, every pair of bots a
table), and so are the ratings (arena/report.py); this command only picks the field and writes
the pages. The committed ladder, docs/ladder/, is this command's output.
"""

import argparse
import csv
import html
import io
import os
import re
import shlex
import sys
import time
from typing import Any, Iterable, Iterator, List, Optional, Sequence, Tuple

from .. import arena, module_sets
from ..arena import report
from ..bot_registry import BOTS, SHIPPED_NETWORK, shipped_network_covers
from ..safety import flags, json_limits, outputs
from . import common

# Every built-in bot, searches at budgets that keep a game within seconds.
DEFAULT_BOTS = (
    "random",
    "greedy",
    "azpolicy",
    "mcts:iterations=200",
    "puct:simulations=50",
    "az:simulations=50",
)
FILES = ("ladder.md", "ladder.csv", "ladder.png", "index.html", "results.json")
# The default field's learned players: in it where a shipped network covers the module set.
LEARNED = SHIPPED_NETWORK

DESCRIPTION = f"""Play every bot against every other (two players a game, each deal in both
seatings) and rate them: Elo (Bradley-Terry) with 95 % intervals. Writes
{", ".join(FILES)} to --out. The default field:
{" ".join(DEFAULT_BOTS)} (with --modules, without the learned players when no
shipped network covers the set). The built-in bots:

"""


def add_parser(commands: Any) -> argparse.ArgumentParser:
    parser = common.add_bots_command(
        commands,
        "ladder",
        "every built-in bot against every other: Elo table, chart and page",
        DESCRIPTION,
    )
    parser.add_argument(
        "bots", nargs="*", metavar="SPEC", help="the field (default: every built-in bot)"
    )
    parser.add_argument(
        "--games",
        type=flags.int_in(1, 1_000_000),
        default=20,
        help="games per pair of bots, rounded up to whole deals (2 seatings); default 20",
    )
    common.add_modules(parser)
    common.add_seed(parser, help="seeds every deal and bot")
    common.add_jobs(parser, "worker processes (results do not depend on it)")
    common.add_engine(parser)
    common.add_out(
        parser,
        "output folder, new or empty (default: ladder, or ladder-2, -3, ... when that holds an "
        "earlier run)",
        "write into a non-empty --out",
        numbered="ladder",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.set_defaults(run=lambda args: run(args, parser))
    return parser


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from ..pictures import plots

    bots = list(args.bots or default_field(args.modules))
    if len(bots) < 2:
        parser.error("a ladder needs at least two bot specs")
    engine = arena.engine_module(args.engine)
    for text in bots:
        try:
            arena.check_spec(text, engine, 2, args.modules)
        except ValueError as error:
            parser.error(str(error))
    if not plots.available():
        print(plots.PLOT_HINT, file=sys.stderr)
        return 3
    try:
        numbered = common.out_folder(args)
        outputs.check_output_folder(args.out, force=args.force, what="--out")
        outputs.check_output_entries(args.out, FILES)  # no link to write through, no folder
    except outputs.OutputError as error:
        parser.error(str(error))
    if numbered:
        print(numbered, flush=True)
    deals = arena.deals_for(args.games, 2)
    pairs = len(bots) * (len(bots) - 1) // 2
    modules = module_sets.name(args.modules)
    print(
        f"ladder: {len(bots)} bots, {pairs} pairs x {deals} deal(s) x 2 seatings, modules "
        f"{modules}, engine {arena.ENGINES[args.engine]}, seed {args.seed}, {args.jobs} job(s)",
        flush=True,
    )
    start = time.perf_counter()
    try:
        games = arena.run(
            args.engine,
            bots,
            2,
            args.seed,
            deals,
            jobs=args.jobs,
            progress=not args.no_progress,
            modules=args.modules,
        )
    except KeyboardInterrupt:
        print("\ninterrupted: no ladder written", file=sys.stderr)
        return 130
    seconds = time.perf_counter() - start
    config = {
        "engine": args.engine,
        "entrants": bots,
        "names": arena.labels(bots),
        "players": 2,
        "modules": modules,
        "seed": args.seed,
        "deals": deals,
    }
    results = report.summarize(config, games)
    results["title"] = f"ladder: {len(bots)} bots, {len(games)} games, modules {modules}"
    command = "vikinger ladder " + shlex.join(_argv(args, bots))
    os.makedirs(args.out, exist_ok=True)
    write_ladder(args.out, results, command, seconds)
    plots.plot_tournament(results, os.path.join(args.out, "ladder.png"))
    print(markdown_table(results))
    print(
        f"{len(games)} games in {seconds:.1f} s; {', '.join(FILES)} in {os.path.join(args.out, '')}"
    )
    return 0


def default_field(modules: Sequence[str]) -> List[str]:
    """DEFAULT_BOTS, without the learned players when no shipped network covers `modules` at
    two players (they would refuse the table)."""
    if shipped_network_covers(2, modules):
        return list(DEFAULT_BOTS)
    return [text for text in DEFAULT_BOTS if text.partition(":")[0] not in LEARNED]


def _argv(args: argparse.Namespace, bots: Iterable[str]) -> List[str]:
    """The flags that change the result (not --jobs, --out, --force), to print the command."""
    words = [] if list(bots) == default_field(args.modules) else list(bots)
    if args.modules:
        words += ["--modules", module_sets.name(args.modules)]
    words += ["--games", str(args.games), "--seed", str(args.seed)]
    return words + ([] if args.engine == "fast" else ["--engine", args.engine])


def _ranked(results: dict[str, Any]) -> List[dict[str, Any]]:
    return sorted(results["entries"], key=lambda e: -e["rating"])


def ranks(results: dict[str, Any]) -> List[Tuple[int, bool]]:
    """(rank, shared) per entry of _ranked(results): the standard competition ranking of the
    Elo as the tables show it (whole points), so equal Elos share a rank (1, 1, 3)."""
    shown = [f"{e['rating']:+.0f}" for e in _ranked(results)]
    return [(shown.index(elo) + 1, shown.count(elo) > 1) for elo in shown]


def _rank_label(rank: int, shared: bool) -> str:
    """A rank as the markdown and HTML tables write it: `1`, or `1=` when shared."""
    return f"{rank}=" if shared else str(rank)


def _ranked_rows(results: dict[str, Any]) -> Iterator[Tuple[str, dict[str, Any], Any, Any]]:
    """(rank label, entry, Elo interval, win-share interval), best first: a row of the tables."""
    for (rank, shared), e in zip(ranks(results), _ranked(results)):
        yield _rank_label(rank, shared), e, e["rating_interval"], e["win_share_interval"]


def _describe(spec: str) -> str:
    entry = BOTS.get(spec.partition(":")[0])
    return entry.description if entry else "a user's bot"


def md_code(text: str, cell: bool = True) -> str:
    """`text` as a markdown code span that no spec can break: a fence longer than any run of
    backticks in it, line breaks as spaces, and in a table cell `|` written `\\|` (GFM splits cells
    on every unescaped `|`, inside code spans too)."""
    text = text.replace("\r", " ").replace("\n", " ")
    if cell:
        text = text.replace("|", "\\|")
    runs = re.findall("`+", text)
    fence = "`" * (max(map(len, runs), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def markdown_table(results: dict[str, Any]) -> str:
    lines = [
        "| rank | bot | Elo (Bradley-Terry) [95 %] | win share [95 %] | games | mean Fame |",
        "|---:|---|---|---|---:|---:|",
    ]
    for rank, e, (low, high), (s_low, s_high) in _ranked_rows(results):
        lines.append(
            f"| {rank} | {md_code(e['spec'])} | {e['rating']:+.0f} [{low:+.0f}, {high:+.0f}] | "
            f"{e['win_share']:.3f} [{s_low:.3f}, {s_high:.3f}] | {e['games']} | "
            f"{e['mean_fame']:.1f} |"
        )
    return "\n".join(lines)


def _head_to_head(
    results: dict[str, Any],
) -> Tuple[List[List[Optional[float]]], List[str]]:
    """[[row's score share against column, or None]] in ranked order, and the ranked names."""
    order = [results["entries"].index(e) for e in _ranked(results)]
    score, meetings = results["head_to_head"]["score"], results["head_to_head"]["meetings"]
    grid = [
        [score[i][j] / meetings[i][j] if meetings[i][j] else None for j in order] for i in order
    ]
    return grid, [results["entries"][i]["spec"] for i in order]


def write_ladder(folder: str, results: dict[str, Any], command: str, seconds: float) -> None:
    """ladder.md, ladder.csv, index.html and results.json into `folder`."""
    grid, names = _head_to_head(results)
    rows = ["| against: | " + " | ".join(md_code(n) for n in names) + " |"]
    rows.append("|---|" + "---:|" * len(names))
    for name, line in zip(names, grid):
        cells = ["" if v is None else f"{v:.2f}" for v in line]
        rows.append(f"| {md_code(name)} | " + " | ".join(cells) + " |")
    text = (
        f"# The ladder\n\nMade by `{command}` ({results['games']} games, "
        f"{seconds / 60:.1f} minutes). {_module_words(results)} Elo is relative to the field's "
        "mean.\n\n"
        f"{markdown_table(results)}\n\nEach bot's share of the points against each other "
        f"(a win 1, a tie 1/2), row against column:\n\n" + "\n".join(rows) + "\n\nThe bots:\n\n"
    )
    text += "".join(f"- {md_code(spec, cell=False)}: {_describe(spec)}\n" for spec in names)
    outputs.write_atomic(os.path.join(folder, "ladder.md"), text)
    out = io.StringIO(newline="")
    writer = csv.writer(out)
    writer.writerow(["rank", "spec", "elo", "elo_low", "elo_high", "win_share", "games"])
    for (rank, _), e in zip(ranks(results), _ranked(results)):
        writer.writerow(
            [rank, e["spec"], e["rating"], *e["rating_interval"], e["win_share"], e["games"]]
        )
    outputs.write_atomic(os.path.join(folder, "ladder.csv"), out.getvalue())
    outputs.write_atomic(
        os.path.join(folder, "results.json"),
        json_limits.dumps_strict(json_limits.non_finite_as_text(results), indent=1) + "\n",
    )
    outputs.write_atomic(os.path.join(folder, "index.html"), ladder_html(results, command, grid))


def _module_words(results: dict[str, Any]) -> str:
    """The sentence of the pages that names the module set of every game."""
    modules = results.get("modules", module_sets.NONE)
    if modules == module_sets.NONE:
        return "Modules: none (the base game)."
    return f"Modules: {modules} (docs/advanced.md)."


def ladder_html(results: dict[str, Any], command: str, grid: List[List[Optional[float]]]) -> str:
    esc = html.escape
    body = []
    for rank, e, (low, high), (s_low, s_high) in _ranked_rows(results):
        body.append(
            f"<tr><td>{rank}</td><td><code>{esc(e['spec'])}</code><br><small>"
            f"{esc(_describe(e['spec']))}</small></td><td>{e['rating']:+.0f}</td>"
            f"<td>[{low:+.0f}, {high:+.0f}]</td><td>{e['win_share']:.3f} "
            f"[{s_low:.3f}, {s_high:.3f}]</td><td>{e['games']}</td></tr>"
        )
    names = [e["spec"] for e in _ranked(results)]
    head = "".join(f"<th><code>{esc(n)}</code></th>" for n in names)
    cells = [
        f"<tr><th><code>{esc(n)}</code></th>"
        + "".join(f"<td>{'' if v is None else f'{v:.2f}'}</td>" for v in line)
        + "</tr>"
        for n, line in zip(names, grid)
    ]
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Wikinger bots: the ladder</title>
<style>body{{font-family:sans-serif;max-width:980px;margin:24px auto;padding:0 12px}}
table{{border-collapse:collapse;margin:12px 0}}td,th{{border:1px solid #ccc;padding:4px 10px;
text-align:left}}img{{max-width:100%}}small{{color:#555}}</style></head><body>
<h1>The ladder of the built-in bots</h1>
<p>Every bot against every other, two players a game, each deal in both seatings (the
duplicate format of <code>vikinger arena</code>); {results["games"]} games. Elo from a
Bradley-Terry fit on the pairwise results, relative to the field's mean, with 95 % intervals.
{esc(_module_words(results))} Made by <code>{esc(command)}</code>.</p>
<table><tr><th>rank</th><th>bot</th><th>Elo</th><th>95 %</th><th>win share [95 %]</th>
<th>games</th></tr>
{chr(10).join(body)}
</table>
<p><img src="ladder.png" alt="win shares and Elo with their intervals"></p>
<h2>Head to head</h2>
<p>The row's share of the points against the column (a win 1, a tie 1/2).</p>
<table><tr><th></th>{head}</tr>
{chr(10).join(cells)}
</table>
</body></html>
"""
