"""`vikinger ladder` (cli/ladder.py) on tiny budgets: every built-in bot, every file written, the
tables agree with results.json; and every built-in bot has its one-line description."""

import csv
import dataclasses
import json

import pytest

from vikinger_fast import arena
from vikinger_fast.arena import report
from vikinger_fast.bot_registry import BOTS
from vikinger_fast.cli import ladder, main

TINY = [
    "random",
    "greedy",
    "azpolicy",
    "mcts:iterations=5",
    "puct:simulations=4",
    "az:simulations=4",
]


def test_every_builtin_bot_has_a_description():
    assert set(arena.DESCRIPTIONS) == set(arena.BUILTIN)
    assert all(len(words) > 20 for words in arena.DESCRIPTIONS.values())
    assert all(f"  {name} " in arena.bots_help() for name in arena.BUILTIN)


def test_ladder_writes_the_table_the_chart_and_the_page(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    out = tmp_path / "ladder"
    assert {spec.partition(":")[0] for spec in TINY} == set(arena.BUILTIN)
    code = main(
        ["ladder", *TINY, "--games", "2", "--seed", "3", "--out", str(out), "--no-progress"]
    )
    assert code == 0
    results = json.loads((out / "results.json").read_text())
    assert results["games"] == 15 * 2  # every pair, one deal in both seatings
    assert [e["games"] for e in results["entries"]] == [10] * 6
    with open(out / "ladder.csv", newline="") as source:
        rows = list(csv.DictReader(source))
    assert sorted(r["spec"] for r in rows) == sorted(TINY)
    elos = [float(r["elo"]) for r in rows]
    assert elos == sorted(elos, reverse=True)
    for row in rows:
        assert float(row["elo_low"]) <= float(row["elo"]) <= float(row["elo_high"])
    page = (out / "index.html").read_text()
    command = "vikinger ladder " + " ".join(TINY) + " --games 2 --seed 3"
    assert command in page and command in (out / "ladder.md").read_text()
    assert '<img src="ladder.png"' in page and all(spec in page for spec in TINY)
    assert (out / "ladder.png").read_bytes()[:4] == b"\x89PNG"
    assert "az:simulations=4" in capsys.readouterr().out
    text = (out / "ladder.md").read_text()
    for spec in TINY:  # each row described by its bot's name, whatever its keys
        assert f"- `{spec}`: {BOTS[spec.partition(':')[0]].description}\n" in text


def test_ladder_refuses_a_bad_spec_before_playing(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(["ladder", "random", "mcts:iterations=x", "--out", str(tmp_path / "x")])
    assert "iterations" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize("command", ["arena", "play", "serve", "ladder"])
def test_every_bot_is_named_with_its_description_in_help(command, capsys):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for name, words in arena.DESCRIPTIONS.items():
        assert f"{name} {' '.join(words.split())}" in text, name


def _config(names):
    return {
        "engine": "fast",
        "entrants": names,
        "names": names,
        "players": 2,
        "seed": 0,
        "deals": 1,
    }


def _game(seats, returns):
    return {"seats": seats, "returns": returns, "fame": [10 * r for r in returns]}


def test_equal_elos_share_a_rank_in_every_table(tmp_path):
    """a and b beat c alike and split their own games: one Elo, rank 1= in the markdown and the
    HTML tables, 1 in the CSV; c is third."""
    config = _config(["a", "b", "c"])
    games = [
        _game([0, 1], [1.0, 0.0]),
        _game([1, 0], [1.0, 0.0]),
        _game([0, 2], [1.0, 0.0]),
        _game([2, 0], [0.0, 1.0]),
        _game([1, 2], [1.0, 0.0]),
        _game([2, 1], [0.0, 1.0]),
    ]
    results = report.summarize(config, games)
    a, b, c = results["entries"]
    assert f"{a['rating']:+.0f}" == f"{b['rating']:+.0f}" != f"{c['rating']:+.0f}"
    assert [rank for rank, _ in ladder.ranks(results)] == [1, 1, 3]
    table = ladder.markdown_table(results)
    assert [line.split("|")[1].strip() for line in table.splitlines()[2:]] == ["1=", "1=", "3"]
    ladder.write_ladder(str(tmp_path), results, "vikinger ladder a b c", 1.0)
    page = (tmp_path / "index.html").read_text()
    assert page.count("<tr><td>1=</td>") == 2 and page.count("<tr><td>3</td>") == 1
    with open(tmp_path / "ladder.csv", newline="") as source:
        assert [row["rank"] for row in csv.DictReader(source)] == ["1", "1", "3"]


def test_distinct_elos_are_ranked_one_by_one():
    config = _config(["a", "b"])
    results = report.summarize(config, [_game([0, 1], [1.0, 0.0]), _game([1, 0], [0.0, 1.0])])
    assert ladder.ranks(results) == [(1, False), (2, False)]
    assert "| 1 | `a` |" in ladder.markdown_table(results)


def test_a_bar_or_backtick_in_a_spec_keeps_every_markdown_table_whole(tmp_path):
    """A spec may hold `|` (a model path) or backticks: each row of ladder.md's tables still
    splits into its header's cells (GFM splits on every unescaped `|`), the spec intact."""
    import re

    names = ["puct:model=a|b.npz", "m`x:C", "greedy"]
    games = [_game([0, 1], [1.0, 0.0]), _game([1, 2], [1.0, 0.0]), _game([2, 0], [0.0, 1.0])]
    results = report.summarize(_config(names), games)
    ladder.write_ladder(str(tmp_path), results, "vikinger ladder", 1.0)
    text = (tmp_path / "ladder.md").read_text()
    tables = [
        [line for line in block.splitlines() if line.startswith("|")]
        for block in text.split("\n\n")
        if block.startswith("|")
    ]
    assert len(tables) == 2
    for table in tables:
        widths = {len(re.split(r"(?<!\\)\|", line)) for line in table}
        assert len(widths) == 1, table
    assert "`puct:model=a\\|b.npz`" in text and "``m`x:C``" in text


def test_bare_names_and_one_game_a_pair(tmp_path, monkeypatch, capsys):
    """`vikinger ladder az mcts --games 1`: the names alone play at the registry's default
    budgets (small ones here, to stay quick), and one game a pair is rounded up to one deal, both
    seatings. Each row is described by its bot's name, whatever its keys."""
    pytest.importorskip("matplotlib")
    monkeypatch.setitem(BOTS, "az", dataclasses.replace(BOTS["az"], budget={"simulations": 3}))
    monkeypatch.setitem(BOTS, "mcts", dataclasses.replace(BOTS["mcts"], budget={"time": 0.01}))
    out = tmp_path / "ladder"
    argv = ["ladder", "az", "mcts", "azpolicy", "--games", "1", "--seed", "2"]
    assert main([*argv, "--out", str(out), "--no-progress"]) == 0
    results = json.loads((out / "results.json").read_text())
    assert results["games"] == 3 * 2 and [e["games"] for e in results["entries"]] == [4] * 3
    text = (out / "ladder.md").read_text()
    for name in argv[1:4]:
        assert f"- `{name}`: {BOTS[name].description}\n" in text
    assert "az:simulations=100" not in text and "--games 1 --seed 2" in text
    assert "az" in capsys.readouterr().out


def test_ladder_and_bench_outputs_are_checked_before_any_game(tmp_path, capsys):
    """A link among the ladder's names in --out (its chart would be drawn through it), and a
    bench --plot name matplotlib cannot write: exit 2 before any game or measure."""
    pytest.importorskip("matplotlib")
    out = tmp_path / "ladder"
    out.mkdir()
    outside = tmp_path / "outside.png"
    (out / "ladder.png").symlink_to(outside)
    argv = ["ladder", "random", "greedy", "--games", "2", "--out", str(out), "--force"]
    with pytest.raises(SystemExit) as stop:
        main([*argv, "--no-progress"])
    assert stop.value.code == 2
    assert "ladder.png is a symbolic link; refusing" in capsys.readouterr().err
    assert not outside.exists() and sorted(p.name for p in out.iterdir()) == ["ladder.png"]
    assert main(["bench", "--quick", "--plot", str(tmp_path / "bench.json")]) == 2
    assert "the name must end in one of .png" in capsys.readouterr().err
