"""The first minutes with the `vikinger` command: --version, a description in every --help, and
every built-in bot's name alone a good spec in every command that takes one (docs/arena.md
"Bot specs"), at the default budget of the registry (src/vikinger_fast/bot_registry.py)."""

import dataclasses
import json
import subprocess
import sys

import pytest

import vikinger_fast
from vikinger_fast.bot_registry import BOTS
from vikinger_fast.cli import main


def test_version_prints_the_package_version():
    out = subprocess.run(
        [sys.executable, "-m", "vikinger_fast.cli", "--version"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == f"vikinger {vikinger_fast.__version__}"


def test_bench_help_has_a_description(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["bench", "--help"])
    assert stop.value.code == 0
    # usage, a blank line, then the description before the list of flags
    description = capsys.readouterr().out.split("\n\n")[1]
    assert description.startswith("Time one fixed workload") and "docs/benchmarks.md" in description


def _small_defaults(monkeypatch):
    """The searches' default budgets made tiny, so that a test plays their names alone quickly
    (the real defaults, time=0.1, play on the page and in the terminal tests below)."""
    small = {"mcts": {"iterations": 5}, "puct": {"simulations": 3}, "az": {"simulations": 3}}
    for name, budget in small.items():
        monkeypatch.setitem(BOTS, name, dataclasses.replace(BOTS[name], budget=budget))


def test_arena_plays_every_name_alone(tmp_path, monkeypatch):
    _small_defaults(monkeypatch)
    out = tmp_path / "arena"
    names = list(BOTS)
    argv = ["arena", *names, "--players", "2", "--games", "2", "--seed", "1"]
    assert main([*argv, "--out", str(out), "--no-progress"]) == 0
    results = json.loads((out / "results.json").read_text())
    assert results["entrants"] == names
    players = set()
    for path in (out / "records").iterdir():
        players.update(
            json.dumps(p, sort_keys=True) for p in json.loads(path.read_text())["players"]
        )
    assert {json.loads(p)["name"]: json.loads(p)["params"] for p in players} == {
        name: dict(BOTS[name].budget) for name in names
    }


@pytest.mark.parametrize("name", ["az", "mcts", "puct"])
def test_play_takes_a_name_alone_at_its_real_default(name):
    """`vikinger play --bots az`: the bot of seat 0 plays its opening moves at az:time=0.1."""
    pexpect = pytest.importorskip("pexpect", reason="the test extra is not installed")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "vikinger_fast.cli", "play", "--bots", name, "--seat", "1", "--seed", "4"],
        encoding="utf-8",
        timeout=60,
        dimensions=(50, 200),
    )
    child.expect("\r\n> ")
    shown = child.before
    assert f"({name})" in shown and "bot spec" not in shown and "Traceback" not in shown
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
