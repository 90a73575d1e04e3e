"""Learning curves (docs/learning.md "Curves"): `curves.csv`, one row per iteration (losses,
samples, times, evaluation shares with their intervals, the anchor's share, the gate's score and
the best), and `curves.png` drawn from it and from `generations.csv` (the generations' Elo) with
matplotlib (the `plot` extra) when it is installed."""

import csv
import io
import os
from typing import Any, Dict, List, Optional

from ..safety import files, outputs
from . import evaluation, generations

MAX_BYTES = 64 * 1024 * 1024  # a row is about 300 bytes
COLUMNS = (
    "iteration",
    "step",
    "samples",
    "selfplay_seconds",
    "train_seconds",
    "loss",
    "policy_loss",
    "value_loss",
    "search_vs_greedy",
    "search_vs_greedy_low",
    "search_vs_greedy_high",
    "search_vs_mcts",
    "search_vs_mcts_low",
    "search_vs_mcts_high",
    "policy_vs_greedy",
    "policy_vs_greedy_low",
    "policy_vs_greedy_high",
    "anchor",
    "search_vs_anchor",
    "search_vs_anchor_low",
    "search_vs_anchor_high",
    "vs_best",
    "vs_best_low",
    "vs_best_high",
    "best",
    "score_loss",  # these two after the columns of runs from before them
    "rescored",
    *evaluation.ENDGAME,  # after those
)
SHARES = ("search_vs_greedy", "search_vs_mcts", "policy_vs_greedy", "search_vs_anchor", "vs_best")


def read(run: str) -> List[Dict[str, str]]:
    path = os.path.join(run, "curves.csv")
    if not os.path.exists(path):
        return []
    data = files.read_regular(path, MAX_BYTES)  # a regular file, bounded: nothing blocks
    try:
        return list(csv.DictReader(io.StringIO(data.decode("utf-8"), newline="")))
    except (UnicodeDecodeError, csv.Error) as error:
        raise ValueError(f"{path}: not a CSV file of UTF-8 text ({error})") from None


def write_row(run: str, row: Dict[str, Any]) -> None:
    """Adds (or replaces) the row of row["iteration"] and rewrites the file atomically."""
    rows = [r for r in read(run) if int(r["iteration"]) != int(row["iteration"])]
    rows.append({key: row.get(key, "") for key in COLUMNS})
    rows.sort(key=lambda r: int(r["iteration"]))
    text = io.StringIO(newline="")
    writer = csv.DictWriter(text, COLUMNS)
    writer.writeheader()
    writer.writerows(rows)
    outputs.write_atomic(os.path.join(run, "curves.csv"), text.getvalue())


def plot(run: str) -> bool:
    """curves.png of the run (False when matplotlib is missing or there is nothing to draw)."""
    rows = read(run)
    if not rows:
        return False
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    figure, (losses, shares, ladder, exact) = plt.subplots(1, 4, figsize=(20, 4))
    x = [int(r["iteration"]) for r in rows]
    for key in ("loss", "policy_loss", "value_loss"):
        losses.plot(x, [float(r[key]) for r in rows], label=key)
    losses.set_xlabel("iteration")
    losses.set_title("training loss (mean over the iteration's steps)")
    losses.legend()
    drawn = False
    anchors = [r["anchor"] for r in rows if r.get("anchor")]
    for key in SHARES:
        points = [
            (int(r["iteration"]), float(r[key]), float(r[key + "_low"]), float(r[key + "_high"]))
            for r in rows
            if r.get(key)
        ]
        if points:
            xs, ys, lows, highs = zip(*points)
            shares.errorbar(
                xs,
                ys,
                yerr=[[y - lo for y, lo in zip(ys, lows)], [hi - y for y, hi in zip(ys, highs)]],
                label=f"search vs {anchors[-1]}" if key == "search_vs_anchor" else key,
                capsize=3,
                marker="o",
            )
            drawn = True
    shares.set_ylim(0, 1)
    shares.set_xlabel("iteration")
    shares.set_title("win share (vs_best: score vs the best), 95 % Wilson")
    if drawn:
        shares.legend(fontsize=7)
    if anchors and anchors[-1].startswith("none"):
        shares.text(0.01, 0.01, f"anchor {anchors[-1]}", fontsize=6, transform=shares.transAxes)
    bests = [int(r["best"]) for r in rows if r.get("best")]
    _plot_ladder(ladder, generations.read_csv(run), bests[-1] if bests else None)
    _plot_endgame(exact, rows)
    figure.tight_layout()
    png = io.BytesIO()
    figure.savefig(png, format="png", dpi=100)
    plt.close(figure)
    outputs.write_atomic(os.path.join(run, "curves.png"), png.getvalue())
    return True


def _plot_ladder(axes: Any, rows: List[Dict[str, str]], best: Optional[int]) -> None:
    """The generations' Elo with their 95 % intervals (generations.csv), the first export 0,
    the run's best starred."""
    axes.set_xlabel("iteration of the export")
    axes.set_title("generations' Elo (Bradley-Terry, 95 %), first 0")
    axes.axhline(0.0, color="grey", linewidth=0.5)
    if not rows:
        return
    xs = [int(r["iteration"]) for r in rows]
    ys = [float(r["elo"]) for r in rows]
    lows = [y - float(r["elo_low"]) for y, r in zip(ys, rows)]
    highs = [float(r["elo_high"]) - y for y, r in zip(ys, rows)]
    axes.errorbar(xs, ys, yerr=[lows, highs], capsize=3, marker="o", label="Elo")
    starred = [(x, y) for x, y in zip(xs, ys) if x == best]
    if starred:
        axes.plot(*starred[0], marker="*", markersize=14, color="gold", label="the best")
    axes.legend(fontsize=7)


def _plot_endgame(axes: Any, rows: List[Dict[str, str]]) -> None:
    """The exports on the loop's solved critical positions: margin-optimal and blunder shares
    of the policy and of the search (evaluation.endgame)."""
    axes.set_ylim(0, 1)
    axes.set_xlabel("iteration of the export")
    axes.set_title("exact endgame: critical positions (solver off)")
    drawn = False
    for key in evaluation.ENDGAME:
        points = [(int(r["iteration"]), float(r[key])) for r in rows if r.get(key)]
        if points:
            axes.plot(*zip(*points), marker="o", label=key[len("endgame_") :])
            drawn = True
    if drawn:
        axes.legend(fontsize=7)
