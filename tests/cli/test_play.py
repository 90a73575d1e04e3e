"""vikinger play driven through a pseudo-terminal (pexpect): a whole game to the end, wrong
input, undo, hint, save, the moves in words and in notation (docs/arena.md "vikinger play"). The
real program runs, as a person would run it."""

import re
import sys

import pytest

from vikinger_fast import records

pexpect = pytest.importorskip("pexpect", reason="the test extra is not installed")

PROMPT = "\r\n> "
# A decision in the notation of docs/actions.md, as words mode never prints it.
NOTATION = re.compile(r"\b(buy|start|ship|tile|viking|trip|target|reveal|draw):[a-z0-9]")


def _start(*argv):
    child = pexpect.spawn(
        sys.executable,
        ["-m", "vikinger_fast.cli", "play", *argv],
        encoding="utf-8",
        timeout=60,
        dimensions=(50, 200),
    )
    child.expect(PROMPT)
    return child


def _say(child, line):
    """Type a line; the program's answer up to the next prompt."""
    child.sendline(line)
    child.expect(PROMPT)
    return child.before


def _moves(screen):
    """The numbered moves listed last on the screen (--notation): {number: string}."""
    listing = screen[screen.rindex("your moves:") :]
    return {int(n): s for n, s in re.findall(r"(\d+)\. (\S+)", listing)}


def _sentences(screen):
    """The numbered moves listed last on the screen (in words): {number: sentence}."""
    listing = screen[screen.rindex("your moves:") :]
    return {int(n): s.strip() for n, s in re.findall(r"(?m)^ +(\d+)\. (.+)$", listing)}


@pytest.mark.parametrize("engine", ["fast", "ref"])
def test_a_whole_game_by_always_typing_1_ends_and_exits(tmp_path, engine):
    saved = tmp_path / "end.json"
    child = _start("--engine", engine, "--seed", "4", "--bots", "random", "--save", str(saved))
    screen, decisions = child.before, 0
    while True:
        assert "you are player 0; your moves:" in screen and not NOTATION.search(screen)
        child.sendline("1")
        decisions += 1
        assert decisions < 500
        if child.expect([PROMPT, pexpect.EOF]) == 1:
            break
        screen = child.before
    # The end: the scores and the winner, the record written, and the program gone.
    end = child.before
    assert "game over: player 0 (you) Fame" in end and "winner" in end
    assert "where the Fame came from" in end and "Traceback" not in end
    assert end.rstrip().endswith("bye") and "> " not in end[end.index("game over") :]
    assert not NOTATION.search(end[: end.index("game over")])
    child.close()
    assert child.exitstatus == 0
    record = records.load(saved)
    assert record["result"]["terminal"] and record["seed"] == 4
    assert record["players"] == [{"name": "human", "params": {}}, {"name": "random", "params": {}}]
    assert sum(m["player"] == 0 for m in record["moves"]) == decisions


def test_the_moves_in_words_and_notation_typed_as_before():
    child = _start("--seed", "1", "--bots", "greedy", "--hint-iterations", "50")
    first = child.before
    # The round's chance in words, where the game stands, and the moves as sentences.
    assert "chance: tiles revealed onto the wheel (B4.1): " in first
    assert "Vikings drawn from the bag (B4.2): " in first
    assert "Round 1 of 6: buying groups from the wheel (B5); you (player 0) are to move" in first
    sentences = _sentences(first)
    assert sentences[1].startswith("buy the group at price 0 (wheel space ")
    assert not NOTATION.search(first)
    hint = _say(child, "hint")
    number = int(re.search(r"hint: (\d+)\. buy the group at price \d+ .* \(MCTS, 50", hint)[1])
    assert sentences[number] in hint
    # A number, then the notation, still work; what happened is told in words.
    second = _say(child, "1")
    assert "you buy the group at price 0 (wheel space " in second
    start = _say(child, "start:fisherman")
    assert "you lay your start tile (a left piece) in row 5 (fishermen), column 1 (B6.0)" in start
    said = second + start
    for _ in range(10):  # on to the bot's first purchase
        if "player 1 (greedy) buys the group" in said:
            break
        said += _say(child, "1")
    assert "player 1 (greedy) buys the group at price " in said
    assert not NOTATION.search(said.replace("start:fisherman", ""))  # (the echo of the input)
    child.sendline("quit")
    child.expect("bye")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_bad_input_undo_hint_save(tmp_path):
    child = _start("--seed", "1", "--bots", "greedy", "--hint-iterations", "50", "--notation")
    first = child.before
    moves = _moves(first)
    assert moves[1].startswith("buy:")
    assert "not a move or a command: 'fly away'" in _say(child, "fly away")
    assert f"no move number {len(moves) + 1}: choose 1..{len(moves)}" in _say(
        child, str(len(moves) + 1)
    )
    assert "type a move number" in _say(child, "")
    assert "nothing to undo" in _say(child, "undo")
    assert "save needs a file name" in _say(child, "save")
    assert "could not save" in _say(child, f"save {tmp_path / 'no' / 'such' / 'dir.json'}")
    assert "undo" in _say(child, "help")
    hint = _say(child, "hint")
    number, string, share = re.search(
        r"hint: (\d+)\. (\S+) \(MCTS, 50 iterations: (\d+)% of", hint
    ).groups()
    assert moves[int(number)] == string and 0 < int(share) <= 100
    # A move by its string, then undo back to the same decision and the same listing.
    second = _say(child, moves[2])
    assert f"you: {moves[2]}" in second and "chance: reveal:" in first
    board_before = first[first.index("Round") : first.index("your moves:")]
    undone = _say(child, "undo")
    assert undone[undone.index("Round") : undone.index("your moves:")] == board_before
    _say(child, moves[2])  # the same chance again after the undo
    saved = tmp_path / "game.json"
    assert "saved" in _say(child, f"save {saved}")
    record = records.load(saved)
    assert [m["string"] for m in record["moves"] if m["player"] == 0] == [moves[2]]
    assert not record["result"]["terminal"]
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_bad_options_are_argparse_errors():
    child = pexpect.spawn(
        sys.executable,
        ["-m", "vikinger_fast.cli", "play", "--bots", "mcts:depth=2"],
        encoding="utf-8",
        timeout=60,
    )
    child.expect(pexpect.EOF)
    child.close()
    assert "bot spec 'mcts:depth=2': unknown parameter 'depth'" in child.before
    assert child.exitstatus == 2
    # --save is checked before the game, not after it
    child = pexpect.spawn(
        sys.executable,
        ["-m", "vikinger_fast.cli", "play", "--save", "/no/such/folder/game.json"],
        encoding="utf-8",
        timeout=60,
    )
    child.expect(pexpect.EOF)
    child.close()
    assert "--save /no/such/folder/game.json: the folder /no/such/folder does not exist" in (
        child.before
    )
    assert child.exitstatus == 2


def test_ctrl_c_leaves_cleanly():
    child = _start("--seed", "2")
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert "interrupted: bye" in child.before and "Traceback" not in child.before
    assert child.exitstatus == 130


def test_legend_named_rows_and_the_reason_for_an_illegal_move():
    child = _start("--seed", "1", "--bots", "greedy", "--notation")
    moves = _moves(child.before)
    legend = _say(child, "legend")
    for words in (
        "0:L/fisherman$0",
        "F fisherman (row 5)",
        "B boatsman",
        "tile:rRcC",
        "docs/rules.md",
    ):
        assert words in legend
    assert "docs/rules.md" in _say(child, "rules")
    # well-formed but illegal: the rule that forbids it, not "not a move"
    assert "tile:r1c3 is not legal now: now is buying groups from the wheel (B5)" in _say(
        child, "tile:r1c3"
    )
    # the first purchase asks for the start row, which may be typed by its name
    screen = _say(child, moves[1])
    assert "start:r5" in _moves(screen).values()
    assert "you: start:r5" in _say(child, "start:fisherman")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
