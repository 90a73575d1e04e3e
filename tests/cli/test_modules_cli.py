"""`--modules SET` in every command (docs/advanced.md "Module sets"): one spelling, the Game
keywords comma-separated, or all, or none (module_sets.py); each command plays, measures or
checks that set and names it in what it prints and writes; a bad name is argparse's one line
listing the valid ones; a record of another set is refused by name; the learned player sits at
every table, and a network of another table is one line naming the tables."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from vikinger_ref import az_bot

from cli_runs import exit_code
from vikinger_fast import module_sets, records

VALID = "valid: auction, draw13, offer_by_colour, weak_boatsmen, special_tiles, all, none"

# Every command that takes --modules, with what it needs besides to get as far as the flag.
COMMANDS = [
    ["simulate"],
    ["soak"],
    ["arena", "random", "random"],
    ["ladder"],
    ["play"],
    ["selfplay", "--games", "1", "--out", "unused"],
    ["replay", "r.json"],
    ["bench"],
    ["train", "--out", "unused", "--iterations", "1"],
]


def _cli(*argv, stdin=None):
    """The real program in a child process: (exit code, stdout, stderr)."""
    done = subprocess.run(
        [sys.executable, "-m", "vikinger_fast.cli", *argv],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return done.returncode, done.stdout, done.stderr


def test_parse_has_one_spelling_for_every_set():
    assert module_sets.parse("special_tiles,auction") == ("auction", "special_tiles")
    assert module_sets.parse(" draw13 ") == ("draw13",)
    assert module_sets.parse("all") == module_sets.OPTION_NAMES
    assert module_sets.parse("none") == ()
    assert module_sets.name(("special_tiles", "auction")) == "auction,special_tiles"
    assert module_sets.name(()) == "none"
    every = {module_sets.name(module_sets.parse(module_sets.name(s))) for s in _all_sets()}
    assert len(every) == 32  # every set has its name, and the name parses back to it
    for text, words in [
        ("dragons", f"unknown module 'dragons' ({VALID})"),
        ("", f"unknown module '' ({VALID})"),
        ("auction,", f"unknown module '' ({VALID})"),
        ("Auction", "unknown module 'Auction'"),
        ("all,auction", "'all' stands alone"),
        ("none,draw13", "'none' stands alone"),
        ("auction,auction", "module 'auction' is named twice"),
    ]:
        with pytest.raises(ValueError) as error:
            module_sets.parse(text)
        assert words in str(error.value), text


def _all_sets():
    names = module_sets.OPTION_NAMES
    return [tuple(n for i, n in enumerate(names) if mask >> i & 1) for mask in range(32)]


def test_a_set_is_the_games_in_both_engines(engines):
    for engine in engines:
        for modules in _all_sets():
            game = engine.Game(num_players=3, **module_sets.game_options(modules))
            assert module_sets.of_game(game) == modules


@pytest.mark.parametrize("before", COMMANDS, ids=lambda argv: argv[0])
@pytest.mark.parametrize("value", ["dragons", "auction,all", "auction,auction"])
def test_a_bad_module_set_is_one_argparse_line(before, value, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert exit_code([*before, "--modules", value]) == 2
    err = capsys.readouterr().err
    last = err.strip().splitlines()[-1]
    assert "Traceback" not in err and "argument --modules" in last and "error" in last, err
    if value == "dragons":
        assert VALID in last
    assert list(tmp_path.iterdir()) == []  # nothing started, nothing written


def test_simulate_plays_the_set(capsys):
    assert (
        exit_code(["simulate", "--games", "40", "--seed", "3", "--modules", "special_tiles"]) == 0
    )
    out = capsys.readouterr().out
    assert "40 random 2-player games, modules special_tiles," in out
    import vikinger_fast as fast

    length = fast.rollouts(fast.Game(num_players=2, special_tiles=True), 40, 3)["length"]
    base = fast.rollouts(fast.Game(num_players=2), 40, 3)["length"]
    assert f"mean {np.mean(length):.1f}," in out and np.mean(length) != np.mean(base)


def test_soak_compares_only_the_set(capsys):
    argv = ["soak", "--games", "2", "--jobs", "1", "--modules", "auction,draw13"]
    assert exit_code(argv) == 0
    out = capsys.readouterr().out
    assert "2 games of 2p-auction-draw13, 3p-auction-draw13, 4p-auction-draw13" in out
    assert "(modules auction,draw13)" in out and "no difference" in out


def test_selfplay_writes_the_sets_games(tmp_path, capsys):
    out = tmp_path / "data"
    argv = ["selfplay", "--games", "1", "--iterations", "4", "--out", str(out), "--no-progress"]
    assert exit_code([*argv, "--modules", "weak_boatsmen"]) == 0
    assert "modules weak_boatsmen" in capsys.readouterr().out
    manifest = json.loads((out / "manifest.json").read_text())
    assert module_sets.of_options(manifest["game"]["options"]) == ("weak_boatsmen",)


def test_play_and_replay_keep_the_set_and_replay_refuses_another(tmp_path):
    saved = tmp_path / "game.json"
    code, out, err = _cli(
        "play", "--modules", "auction", "--seed", "2", stdin=f"save {saved}\nquit\n"
    )
    assert code == 0, err
    assert "play: 2 players, modules auction, you in seat 0, seed 2" in out
    record = records.load(saved)
    assert module_sets.of_options(record["game"]["options"]) == ("auction",)
    code, out, err = _cli("replay", str(saved))
    assert code == 0 and "modules: auction, seed 2" in out, err
    assert _cli("replay", str(saved), "--modules", "auction")[0] == 0
    code, out, err = _cli("replay", str(saved), "--modules", "none")
    assert code == 2 and out == ""
    assert err.strip() == (
        "vikinger replay: record field 'game.options': the record's module set is 'auction', "
        "not --modules 'none'"
    )


BASE_MODEL = os.path.join(az_bot.MODELS, "az-2p.npz")  # the base game's alone


@pytest.mark.parametrize(
    "argv, table",
    [
        (["arena", f"az:model={BASE_MODEL}", "random", "--modules", "auction"], "['auction']"),
        (
            ["play", "--bots", f"azpolicy:model={BASE_MODEL}", "--modules", "special_tiles"],
            "['special_tiles']",
        ),
        (["play", "--hint-bot", f"az:model={BASE_MODEL}", "--modules", "draw13"], "['draw13']"),
        (["ladder", f"azpolicy:model={BASE_MODEL}", "random", "--modules", "all"], "['auc"),
    ],
)
def test_a_network_of_another_table_is_one_line(argv, table, tmp_path):
    if argv[0] != "play":
        argv = [*argv, "--out", str(tmp_path / "x")]
    code, out, err = _cli(*argv)
    last = err.strip().splitlines()[-1]
    assert code == 2 and "Traceback" not in err, err
    assert "weights for 2 players with modules [], the game has 2 with " + table in last, err
    assert "bot spec 'az" in last, err
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize("players, modules", [(2, "auction"), (3, "all"), (4, "special_tiles")])
def test_the_learned_player_plays_at_a_table_with_modules(players, modules, tmp_path):
    """53: `az` sits at every table (the shipped networks cover all 32 sets)."""
    bots = ["az:simulations=4", *["random"] * (players - 1)]
    argv = ["arena", *bots, "--players", str(players), "--modules", modules, "--games", "1"]
    code, out, err = _cli(*argv, "--out", str(tmp_path / "x"), "--no-progress")
    assert code == 0, err
    results = json.loads((tmp_path / "x" / "results.json").read_text())
    assert json.dumps(results).count(module_sets.name(module_sets.parse(modules))) >= 1


def test_bench_measures_the_set_in_its_module_rows(tmp_path, capsys):
    path = tmp_path / "bench.json"
    argv = ["bench", "--quick", "--no-cython", "--no-peers", "--json", str(path)]
    assert exit_code([*argv, "--modules", "auction,special_tiles"]) == 0
    out = capsys.readouterr().out
    assert "--modules auction,special_tiles: the module rows measure this set" in out
    info = json.loads(path.read_text())
    assert info["modules"] == "auction,special_tiles"
    rows = info["results"]["module_rollouts"]
    assert list(rows) == [
        "2p base",
        "2p auction+special_tiles",
        "3p auction+special_tiles",
        "4p auction+special_tiles",
    ]
    assert "C++ rollouts, 4p auction+special_tiles, 1 thread (CPU time)" in out
