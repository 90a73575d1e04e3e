"""The generations' ladder, the anchor and the gate of `vikinger train` (docs/learning.md
"Generations and the gate"): the games and ratings written, the Elo of the first export 0, the
curves' panel, the gate deciding on real games, a resumed run continuing the ladder as an
unbroken one, and --compare-shipped."""

import csv
import json
import os
import shutil
import struct

import numpy as np
import pytest

from vikinger_fast.training import curves, evaluation, generations, loop
from vikinger_fast.training.network import init_params
from vikinger_ref import az_bot

from tiny_training import TINY as _TINY
from tiny_training import tiny as _tiny

TINY = {**_TINY, "ladder_games": 2}


def tiny(**changes):
    return _tiny(**{"ladder_games": 2, **changes})


@pytest.fixture(scope="module")
def ladder_run(tmp_path_factory):
    """Three iterations, each evaluated: three generations."""
    run = str(tmp_path_factory.mktemp("ladder"))
    loop.train(run, 3, tiny(), quiet=True)
    return run


def _text(path):
    with open(path, encoding="utf-8") as source:
        return source.read()


def _png_size(path):
    with open(path, "rb") as png:
        header = png.read(24)
    return struct.unpack(">II", header[16:24])


def test_the_ladder_games_and_ratings_are_written(ladder_run):
    run = ladder_run
    for iteration in range(3):
        assert os.path.exists(os.path.join(run, "ladder", f"iter-{iteration:05d}.json"))
    last = json.loads(_text(os.path.join(run, "ladder", "iter-00002.json")))
    # The best first (the gate's match, eval_games), then the previous export (ladder_games).
    opponents = [p["opponent"] for p in last["pairings"]]
    assert opponents[0] == last["best_before"] and sorted(opponents) == [0, 1]
    for pairing in last["pairings"]:
        assert len(pairing["games"]) == 2  # one deal, both seatings (duplicate)
        first, second = pairing["games"]
        assert first["deal"] == second["deal"] and first["seats"] == second["seats"][::-1]
        assert sorted(first["seats"]) == sorted([2, pairing["opponent"]])
    rows = generations.read_csv(run)
    assert [int(r["iteration"]) for r in rows] == [0, 1, 2]
    # Anchored at the first export: 0 with the interval [0, 0]; the others with intervals.
    assert [float(rows[0][k]) for k in ("elo", "elo_low", "elo_high")] == [0.0, 0.0, 0.0]
    for row in rows[1:]:
        assert float(row["elo_low"]) < float(row["elo"]) < float(row["elo_high"])
    # Games per generation: 0 played 1 (2 games) and 2 (2); 1 played 0 (2) and 2 (2).
    assert [int(r["games"]) for r in rows] == [4, 4, 4]
    # The fit is the arena's Bradley-Terry on every game of the ladder files.
    fitted = generations.fit(run, 2)
    assert [round(r["elo"], 1) for r in fitted] == [float(r["elo"]) for r in rows]


def test_the_curves_carry_the_anchor_the_gate_and_the_elo_panel(ladder_run):
    run = ladder_run
    rows = curves.read(run)
    assert all(r["anchor"] == "shipped az-2p.npz (puct:simulations=4)" for r in rows)
    assert all(0.0 <= float(r["search_vs_anchor"]) <= 1.0 for r in rows)
    assert rows[0]["vs_best"] == "" and rows[0]["best"] == "0"  # the first export is the best
    for row in rows[1:]:
        assert float(row["vs_best_low"]) <= float(row["vs_best"]) <= float(row["vs_best_high"])
    best = json.loads(_text(os.path.join(run, "best.json")))
    assert best["iteration"] == int(rows[-1]["best"])
    with open(os.path.join(run, "best.npz"), "rb") as a:
        with open(generations.model_path(run, best["iteration"]), "rb") as b:
            assert a.read() == b.read()
    # Four panels: losses, shares, the generations' Elo, the exact endgame (20 x 4 inches at 100
    # dpi).
    assert _png_size(os.path.join(run, "curves.png")) == (2000, 400)


def test_the_opponents_are_bounded_and_keep_the_first_and_the_previous():
    for count in (1, 2, 4, 7):
        for n in range(1, 300, 7):
            earlier = list(range(0, 2 * n, 2))
            best = earlier[n // 3]
            chosen = generations.opponents(earlier, best, count)
            # 2, 4, 8, ... back: at most log2(n) + 3 candidates, never more than `count`.
            assert len(chosen) == min(count, len(set(chosen))) <= count
            if n >= 8 and count == 4:
                assert len(chosen) == count
            assert chosen[0] == best and len(set(chosen)) == len(chosen) <= count
            assert set(chosen) <= set(earlier)
            if count >= 3:
                assert earlier[0] in chosen and earlier[-1] in chosen
    assert generations.opponents([], None, 4) == []


def _export(run, iteration, shipped):
    os.makedirs(os.path.join(run, "models"), exist_ok=True)
    path = generations.model_path(run, iteration)
    if shipped:
        shutil.copyfile(os.path.join(az_bot.MODELS, "az-2p.npz"), path)
    else:
        loop.export(init_params(2, (16,), 7), tiny(), path)


@pytest.mark.parametrize("stronger_second", [True, False])
def test_the_gate_replaces_the_best_only_on_a_win(tmp_path, stronger_second):
    # Real games at a tiny budget: the shipped network against an untrained one.
    run = str(tmp_path)
    config = tiny(eval_games=4)
    _export(run, 0, shipped=not stronger_second)
    _export(run, 1, shipped=stronger_second)
    first = generations.evaluate(run, config, 0, None)
    assert first["gate"]["replaced"] and first["best_after"] == 0 and first["opponents"] == []
    second = generations.evaluate(run, config, 1, None)
    gate = second["gate"]
    assert gate["against"] == 0 and gate["games"] == 4
    if stronger_second:
        assert gate["score"] >= 0.55 and gate["replaced"] and second["best_after"] == 1
        assert second["elo"]["elo"] > 0
    else:
        assert gate["score"] < 0.55 and not gate["replaced"] and second["best_after"] == 0
        assert second["elo"]["elo"] < 0
    # The best before a later evaluation comes from the ladder files (not best.json).
    assert generations.best_before(run, 2, stored=None) == second["best_after"]


def test_the_gates_rule_on_given_games():
    def games(wins, losses):
        won = {"seats": [1, 0], "returns": [1.0, 0.0], "fame": [30, 20]}
        lost = {"seats": [0, 1], "returns": [1.0, 0.0], "fame": [30, 20]}
        return [won] * wins + [lost] * losses

    config = tiny(gate=0.55)
    assert generations.gate(config, games(11, 9), 1, 0)["replaced"]  # 0.55
    assert not generations.gate(config, games(10, 10), 1, 0)["replaced"]  # 0.5: not a win
    verdict = generations.gate(tiny(gate=0.75), games(14, 6), 1, 0)
    assert verdict["score"] == 0.7 and not verdict["replaced"] and verdict["games"] == 20
    assert verdict["low"] < 0.7 < verdict["high"]
    assert generations.gate(config, [], 1, None)["replaced"]  # the first export


def test_a_resumed_run_continues_the_ladder_as_an_unbroken_one(ladder_run, tmp_path):
    run = str(tmp_path / "resumed")
    loop.train(run, 2, tiny(), quiet=True)
    loop.train(run, 3, None, quiet=True)
    for iteration in range(3):
        name = os.path.join("ladder", f"iter-{iteration:05d}.json")
        assert _text(os.path.join(run, name)) == _text(os.path.join(ladder_run, name))
    for name in ("generations.csv", "best.json"):
        text = _text(os.path.join(run, name)).replace(run, "RUN")
        assert text == _text(os.path.join(ladder_run, name)).replace(ladder_run, "RUN")


def test_an_old_run_without_the_ladder_settings_resumes_with_the_defaults(tmp_path):
    config = tiny(eval_every=5, ladder_games=8)
    run = str(tmp_path)
    loop.train(run, 1, config, quiet=True)
    fields = json.loads(_text(os.path.join(run, "config.json")))
    for name in ("ladder_opponents", "ladder_games", "gate", "anchor"):
        del fields[name]
    # config.json and the checkpoint as a run from before these settings wrote them.
    old = json.dumps(fields, sort_keys=True)
    with open(os.path.join(run, "config.json"), "w") as out:
        out.write(old + "\n")
    path = os.path.join(run, "checkpoint.npz")
    with np.load(path, allow_pickle=False) as stored:
        arrays = {name: stored[name] for name in stored.files}
    arrays["config"] = np.array(old)
    np.savez(path, **arrays)
    # Nor had it the ladder, generations.csv or the curves' new columns.
    shutil.rmtree(os.path.join(run, "ladder"))
    os.remove(os.path.join(run, "generations.csv"))
    rows = curves.read(run)
    with open(os.path.join(run, "curves.csv"), "w", newline="") as out:
        writer = csv.DictWriter(out, curves.COLUMNS[:17], extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    checkpoint = loop.resume(run)
    assert (checkpoint.config.gate, checkpoint.config.anchor) == (0.55, "shipped")
    assert checkpoint.config.ladder_opponents == 4 and checkpoint.config.ladder_games == 8
    assert generations.best_before(run, 1, stored=None) is None
    # Its best.json is the best the next evaluation gates against, and its export plays.
    assert generations.best_before(run, 1, stored=0) == 0
    loop.train(run, 2, None, quiet=True)
    record = json.loads(_text(os.path.join(run, "ladder", "iter-00001.json")))
    assert record["best_before"] == 0 and [p["opponent"] for p in record["pairings"]] == [0]
    assert [int(r["iteration"]) for r in generations.read_csv(run)] == [0, 1]
    assert [r["anchor"] != "" for r in curves.read(run)] == [False, True]


def test_the_anchor_falls_back_or_is_refused_by_name(tmp_path, base_models):
    label, make = evaluation.anchor(tiny(options=("auction",)))
    assert make is None and label.startswith("none: no shipped network for 2 players")
    assert "modules auction" in label
    label, make = evaluation.anchor(tiny(anchor="mcts:iterations=50"))
    assert label == "mcts:iterations=50" and make is not None
    assert evaluation.anchor(tiny(anchor="none"))[1] is None
    with pytest.raises(ValueError, match="anchor: bot spec 'mcts:speed=3'"):
        tiny(anchor="mcts:speed=3")
    with pytest.raises(ValueError, match="gate must be a finite number in \\[0.5, 1\\]"):
        tiny(gate=0.4)
    # A spec that parses but cannot be built stops the run before any file.
    with pytest.raises(ValueError, match="bot spec 'mcts:iterations=-1'"):
        loop.train(str(tmp_path / "run"), 1, tiny(anchor="mcts:iterations=-1"), quiet=True)
    assert not os.path.exists(tmp_path / "run")


def test_generations_csv_columns(ladder_run):
    with open(os.path.join(ladder_run, "generations.csv"), newline="") as source:
        assert next(csv.reader(source)) == list(generations.COLUMNS)


def test_compare_shipped_plays_the_runs_best_and_gives_the_verdict(ladder_run, capsys):
    from cli_runs import exit_code

    argv = ["train", "--out", ladder_run, "--compare-shipped", "--compare-seed", "5"]
    assert exit_code([*argv, "--compare-games", "2"]) in (0, None)
    out = capsys.readouterr().out
    # An export of a few training steps against the shipped network: not a replacement.
    assert "against the shipped az-2p.npz, both az:simulations=200, 2 games (seed 5)" in out
    assert "it does not replace the shipped network" in out
    assert "needs --compare-seed" in exit_code(argv[:-2])
    assert "trains nothing" in exit_code([*argv, "--iterations", "3"])
    # The rule on given numbers: enough games, the score, the interval's lower end.
    assert evaluation.replaces_shipped(0.6, 0.53, 200)
    assert not evaluation.replaces_shipped(0.6, 0.53, 199)
    assert not evaluation.replaces_shipped(0.54, 0.51, 400)
    assert not evaluation.replaces_shipped(0.56, 0.49, 200)


def test_compare_shipped_needs_a_shipped_network(tmp_path, base_models):
    with pytest.raises(ValueError, match="no shipped network for 2 players with modules auction"):
        evaluation.compare_shipped(tiny(options=("auction",)), "unused.npz", 2, 1)
