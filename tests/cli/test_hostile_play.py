"""Terminal play never dies on input (docs/arena.md "`vikinger play`"): characters that
str.isdigit() takes but int() refuses, numbers of thousands of digits, and other junk get a
message and the prompt again; the game goes on. Driven through a pseudo-terminal, as a person
types."""

import sys

import pytest

pexpect = pytest.importorskip("pexpect", reason="the test extra is not installed")

PROMPT = "\r\n> "
JUNK = [
    "²",
    "³",
    "١",
    "٣",
    "½",
    "0",
    "-1",
    "+1",
    " 1 1",
    "9" * 5000,
    "1e3",
    "1.0",
    "\x1b[A",
    "buy:",
    "save",
    "undo undo",
    "ß" * 300,
]


@pytest.mark.parametrize("engine", ["fast", "ref"])
def test_junk_input_never_ends_the_game(engine):
    child = pexpect.spawn(
        sys.executable,
        ["-m", "vikinger_fast.cli", "play", "--engine", engine, "--seed", "2"],
        encoding="utf-8",
        timeout=60,
        dimensions=(50, 200),
    )
    child.expect(PROMPT)
    for line in JUNK:
        child.sendline(line)
        child.expect(PROMPT)
        answer = child.before
        assert "Traceback" not in answer and "Error" not in answer, (line, answer)
    assert "you buy" not in child.before
    child.sendline("1")  # the game is still there and plays on
    child.expect(PROMPT)
    assert "you buy the group" in child.before
    child.sendline("quit")
    child.expect("bye")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_hint_with_the_largest_accepted_budget_is_bounded():
    """--hint-iterations is bounded where it is parsed (1e22 used to crash at `hint`)."""
    from vikinger_fast import cli

    for value in ("1e22", str(10**22), "10000001"):
        with pytest.raises(SystemExit) as stop:
            cli.main(["play", "--hint-iterations", value])
        assert stop.value.code == 2


def test_a_user_bot_raising_mid_game_is_one_line(tmp_path):
    (tmp_path / "hostile_play_bot.py").write_text(
        "class Breaks:\n"
        "    def __init__(self, game, seed):\n        pass\n"
        "    def step(self, state):\n        raise RuntimeError('the bot broke')\n"
    )
    child = pexpect.spawn(
        sys.executable,
        ["-m", "vikinger_fast.cli", "play", "--seat", "1", "--bots", "hostile_play_bot:Breaks"],
        cwd=str(tmp_path),
        encoding="utf-8",
        timeout=60,
    )
    child.expect(pexpect.EOF)
    child.close()
    output = child.before
    assert child.exitstatus == 1 and "Traceback" not in output
    assert "error: game " in output and "RuntimeError: the bot broke" in output
