"""A record file is not trusted (docs/security.md "Files read"): `records.load`, `vikinger replay`
and `vikinger render` read only a regular file of at most json_limits.MAX_BYTES, through
safety.files, so a FIFO, a link to /dev/zero, a folder or a missing file is one line naming it
(exit code 2, no traceback) and nothing blocks; a record of a megabyte of escaped quotes is refused
as the JSON it is not, in one pass."""

import os
import subprocess
import sys

import pytest

import vikinger_ref
from vikinger_fast import records


def _hostile(tmp_path, kind):
    path = tmp_path / "game.json"
    if kind == "fifo":
        os.mkfifo(path)  # no writer: a plain open() blocks for ever
    elif kind == "zero":
        path.symlink_to("/dev/zero")  # a plain read() fills memory
    elif kind == "folder":
        path.mkdir()
    elif kind == "quotes":
        path.write_text('{"format": "vikinger-record", "moves": ["' + '\\"' * 512 * 1024)
    return path


KINDS = {
    "fifo": "not a regular file (a FIFO)",
    "zero": "not a regular file (a character device)",
    "folder": "not a regular file (a folder)",
    "missing": "no such file",
    "quotes": "a record must be JSON: Unterminated string starting at: line 1 column 41 (char 40)",
}


@pytest.mark.parametrize("kind", KINDS)
def test_load_refuses_a_file_that_is_no_record(tmp_path, kind):
    path = _hostile(tmp_path, kind)
    with pytest.raises(ValueError) as refused:
        records.load(path)
    assert str(refused.value) == f"{path}: {KINDS[kind]}"


@pytest.mark.parametrize("command", ["replay", "render"])
@pytest.mark.parametrize("kind", KINDS)
def test_the_cli_says_so_in_one_line(tmp_path, command, kind):
    path = _hostile(tmp_path, kind)
    argv = [str(path)] + (["-o", str(tmp_path / "out.svg")] if command == "render" else [])
    done = subprocess.run(
        [sys.executable, "-m", "vikinger_fast.cli", command, *argv],
        capture_output=True,
        text=True,
        timeout=300,  # the guard against a hang (a FIFO), not a measure
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    words = "Unterminated string starting at" if kind == "quotes" else KINDS[kind]
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert done.stderr.startswith(f"vikinger {command}: {path}") and words in done.stderr


def test_a_record_read_back_through_the_opener_replays(tmp_path):
    state = vikinger_ref.Game(num_players=2).new_initial_state()
    state.apply_random_chance(3)
    path = tmp_path / "game.json"
    records.save(str(path), state, seed=3)
    link = tmp_path / "link.json"
    link.symlink_to(path)  # a link to a regular file is read: the user's own naming
    assert records.replay(records.load(link), vikinger_ref) == state
