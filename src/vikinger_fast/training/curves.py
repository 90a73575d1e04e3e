"""Learning curves (docs/learning.md "Curves"): `curves.csv`, one row per iteration (losses,
samples, times, evaluation shares with their intervals), and `curves.png` drawn from it with
matplotlib (the `plot` extra) when it is installed."""

import csv
import io
import os
from typing import Any, Dict, List

from ..safety import files, outputs

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
)


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
    figure, (losses, shares) = plt.subplots(1, 2, figsize=(10, 4))
    x = [int(r["iteration"]) for r in rows]
    for key in ("loss", "policy_loss", "value_loss"):
        losses.plot(x, [float(r[key]) for r in rows], label=key)
    losses.set_xlabel("iteration")
    losses.set_title("training loss (mean over the iteration's steps)")
    losses.legend()
    drawn = False
    for key in ("search_vs_greedy", "search_vs_mcts", "policy_vs_greedy"):
        points = [
            (int(r["iteration"]), float(r[key]), float(r[key + "_low"]), float(r[key + "_high"]))
            for r in rows
            if r[key]
        ]
        if points:
            xs, ys, lows, highs = zip(*points)
            shares.errorbar(
                xs,
                ys,
                yerr=[[y - lo for y, lo in zip(ys, lows)], [hi - y for y, hi in zip(ys, highs)]],
                label=key,
                capsize=3,
                marker="o",
            )
            drawn = True
    shares.set_ylim(0, 1)
    shares.set_xlabel("iteration")
    shares.set_title("win share (95 % Wilson interval)")
    if drawn:
        shares.legend()
    figure.tight_layout()
    png = io.BytesIO()
    figure.savefig(png, format="png", dpi=100)
    plt.close(figure)
    outputs.write_atomic(os.path.join(run, "curves.png"), png.getvalue())
    return True
