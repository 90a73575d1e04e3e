"""scripts/table96.py (docs/learning.md "Networks for every table") on tiny budgets at two
configurations: one arena run per table, a markdown row per table with the learned player's
share and interval, and a run stopped in the middle of a table finished by the same command with
the same table. The learned player is `az` on a small random network covering every module set
(made here), as a trained export would be given with model=."""

import os
import pathlib
import re
import subprocess
import sys

from vikinger_ref import Game
from vikinger_ref.mlp import ALL_SETS, MLPEvaluator

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "table96.py"


def _run(out, model, *more):
    argv = [sys.executable, str(SCRIPT), "--out", str(out), "--players", "2", "--games", "4"]
    argv += ["--modules", "none", "--modules", "special_tiles,auction", "--seed", "3"]
    argv += ["--learned", f"az:simulations=3,playouts=0,model={model}"]
    argv += ["--opponent", "mcts:iterations=10", *more]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_two_tables_are_played_and_a_stopped_one_is_finished(tmp_path):
    model = tmp_path / "all.npz"
    MLPEvaluator.random(Game(2), hidden=(16,), seed=1).cover(ALL_SETS).save(model)
    out = tmp_path / "tables"
    _run(out, model)
    table = (out / "table96.md").read_text()
    rows = re.findall(
        r"^\| 2 \| (\S+) \| 4 \| (0\.\d+|1\.000) \| \[[^]]+\] \| 0\.500 \| (\w+) \|$", table, re.M
    )
    assert [r[0] for r in rows] == ["none", "auction,special_tiles"], table
    assert "- 2 players: 2 tables" in table
    assert sorted(os.listdir(out)) == ["2p-auction+special_tiles", "2p-none", "table96.md"]

    # Stopped after the first game of a table: its journal keeps that game, no results yet.
    folder = out / "2p-auction+special_tiles"
    journal = (folder / "games.jsonl").read_text().splitlines(keepends=True)
    assert len(journal) == 5  # the header and 4 games
    (folder / "games.jsonl").write_text("".join(journal[:2]))
    (folder / "results.json").unlink()
    (out / "table96.md").unlink()
    printed = _run(out, model)
    assert "table96: 2p-auction+special_tiles" in printed and "table96: 2p-none" not in printed
    assert (out / "table96.md").read_text() == table
    assert len((folder / "games.jsonl").read_text().splitlines()) == 5
