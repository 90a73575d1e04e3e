"""vikinger arena --resume (docs/arena.md "Long runs"): a run stopped by a signal keeps its
finished games in games.jsonl and finishes with --resume into the files of an unbroken run; a
journal of another run, or one changed by hand, is refused before anything is written."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from vikinger_fast import arena, distributed
from vikinger_fast.arena import journal
from vikinger_fast.cli import main

# A user bot that is slow only when asked, so the run to stop takes seconds and the reference
# run does not; its moves depend on its seed alone.
SLOW_BOT = """
import os, random, time

class Slow:
    def __init__(self, game, seed):
        self.rng = random.Random(seed)
        self.pause = float(os.environ.get("ARENA_TEST_PAUSE", "0"))

    def step(self, state):
        time.sleep(self.pause)
        return self.rng.choice(state.legal_actions())
"""
BOTS = ["arena_slow:Slow", "greedy", "random"]
ARGS = ["--players", "2", "--games", "4", "--seed", "11", "--no-progress"]


def _files(folder):
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def _game_lines(path):
    return sum(1 for line in path.read_text().splitlines()[1:] if line)


@pytest.fixture
def bots_here(tmp_path, monkeypatch):
    (tmp_path / "arena_slow.py").write_text(SLOW_BOT)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("stop, jobs", [(signal.SIGINT, "1"), (signal.SIGTERM, "2")])
def test_a_stopped_run_resumes_into_the_unbroken_runs_files(bots_here, stop, jobs):
    tmp_path = bots_here
    assert main(["arena", *BOTS, *ARGS, "--out", str(tmp_path / "whole")]) == 0
    env = dict(os.environ)
    env["ARENA_TEST_PAUSE"] = "0.004"  # about half a second a game
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(tmp_path), env.get("PYTHONPATH")]))
    command = [sys.executable, "-m", "vikinger_fast.cli", "arena", *BOTS, *ARGS]
    out = tmp_path / "stopped"
    child = subprocess.Popen(
        [*command, "--out", str(out), "--jobs", jobs],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    book = out / journal.NAME
    deadline = time.monotonic() + 120
    while not (book.exists() and _game_lines(book) >= 2) and time.monotonic() < deadline:
        assert child.poll() is None, child.communicate()
        time.sleep(0.05)
    child.send_signal(stop)
    _, err = child.communicate(timeout=120)
    assert child.returncode == 130, err
    assert "--resume plays the rest" in err
    kept = _game_lines(book)
    assert 2 <= kept < 12 and not (out / "results.json").exists()

    # The same command with --resume: only the missing games are played.
    done = subprocess.run(
        [*command, "--out", str(out), "--resume"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert f"resuming: {kept} of 12 games kept" in done.stdout
    whole, resumed = _files(tmp_path / "whole"), _files(out)
    assert resumed.keys() == whole.keys()
    for name in whole:
        if name != journal.NAME:  # its lines are in the order the games ended
            assert resumed[name] == whole[name], name
    lines = lambda files: sorted(files[journal.NAME].decode().splitlines())  # noqa: E731
    assert lines(resumed) == lines(whole)


def _stopped_copy(tmp_path, cut):
    """A finished run's folder cut back to a journal of its first `cut` games, as if stopped."""
    out = tmp_path / "run"
    assert main(["arena", "random", "greedy", *ARGS, "--out", str(out)]) == 0
    reference = _files(out)
    text = (out / journal.NAME).read_text().splitlines(keepends=True)
    for name in ("results.json", "results.csv", "games.csv"):
        (out / name).unlink()
    (out / journal.NAME).write_text("".join(text[: cut + 1]))
    return out, reference, text


def _resume(out, *extra):
    return main(["arena", "random", "greedy", *ARGS, "--out", str(out), "--resume", *extra])


def test_a_line_cut_short_is_played_again(tmp_path):
    out, reference, text = _stopped_copy(tmp_path, 2)
    with open(out / journal.NAME, "a") as book:
        book.write(text[3][: len(text[3]) // 2])  # the stop came in the middle of a line
    assert _resume(out) == 0
    assert _files(out) == reference


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda line: line.replace('"fame": [', '"fame": [1'), "line 3 (game 1): record field"),
        (
            lambda line: line.replace('{"game": 1,', '{"game": 99,'),
            "game 99 is not in the schedule",
        ),
        (None, "game 0 is there twice"),
        (lambda line: line.replace('"name": "greedy"', '"name": "mcts"'), "its record's players"),
        (lambda line: "[1, 2]\n", "not a game line"),
        (lambda line: "{\n", "line 3"),
    ],
)
def test_a_changed_journal_is_refused_and_left_alone(tmp_path, capsys, change, message):
    out, _, text = _stopped_copy(tmp_path, 3)
    text[2] = change(text[2]) if change else text[1]
    (out / journal.NAME).write_text("".join(text[:4]))
    before = _files(out)
    with pytest.raises(SystemExit) as stop:
        _resume(out)
    assert stop.value.code == 2
    assert message in capsys.readouterr().err
    assert _files(out) == before


@pytest.mark.parametrize(
    "argv, message",
    [
        (["random", "greedy", "--seed", "12"], "its seed is 11, this run's 12"),
        (["random", "greedy", "--games", "6"], "its deals is 2, this run's 3"),
        (["greedy", "random"], "its entrants is ['random', 'greedy']"),
        (["random", "greedy", "--engine", "ref"], "its engine is 'fast', this run's 'ref'"),
    ],
)
def test_another_runs_journal_is_refused(tmp_path, capsys, argv, message):
    out, _, _ = _stopped_copy(tmp_path, 2)
    before = _files(out)
    base = ["--players", "2", "--games", "4", "--seed", "11", "--no-progress"]
    with pytest.raises(SystemExit):
        main(["arena", *base, *argv, "--out", str(out), "--resume"])
    assert message in capsys.readouterr().err
    assert _files(out) == before


def test_resume_needs_a_journal_and_excludes_force(tmp_path, capsys):
    with pytest.raises(SystemExit):
        _resume(tmp_path / "nothing")
    assert "has no games.jsonl" in capsys.readouterr().err
    out, _, _ = _stopped_copy(tmp_path, 2)
    with pytest.raises(SystemExit):
        _resume(out, "--force")
    assert "choose one" in capsys.readouterr().err
    (out / journal.NAME).write_text('{"format": "something else"}\n')
    with pytest.raises(SystemExit):
        _resume(out)
    assert "not a journal of vikinger arena" in capsys.readouterr().err
    # Without --resume, a stopped run's folder is refused, and the error says what to do.
    with pytest.raises(SystemExit):
        main(["arena", "random", "greedy", *ARGS, "--out", str(out)])
    assert "--resume to finish" in capsys.readouterr().err


def test_the_plot_may_not_overwrite_the_journal(tmp_path, capsys):
    pytest.importorskip("matplotlib", reason="the plot extra is not installed")
    out, _, _ = _stopped_copy(tmp_path, 2)
    before = _files(out)
    with pytest.raises(SystemExit):
        _resume(out, "--plot", str(out / journal.NAME))
    assert "is the input" in capsys.readouterr().err
    assert _files(out) == before


def test_a_finished_run_resumes_to_the_same_files(tmp_path):
    out, reference, _ = _stopped_copy(tmp_path, 12)
    assert _resume(out) == 0
    assert _files(out) == reference


def test_done_games_are_not_played_again_in_processes_or_shards():
    texts = ["random", "greedy", "mcts:iterations=5"]
    whole = arena.run("fast", texts, 2, 5, 1)
    done = {n: whole[n] for n in (0, 3, 4)}
    seen = []
    again = arena.run(
        "fast", texts, 2, 5, 1, jobs=2, done=done, on_game=lambda n, g: seen.append(n)
    )
    assert again == whole and sorted(seen) == [1, 2, 5]
    seen.clear()
    sharded = distributed.arena(
        "fast",
        texts,
        2,
        5,
        1,
        shard_size=2,
        executor=distributed.LocalProcesses(2),
        done=done,
        on_game=lambda n, g: seen.append(n),
    )
    assert sharded == whole and sorted(seen) == [1, 2, 5]


def test_journal_lines_are_the_games_records(tmp_path):
    out, _, text = _stopped_copy(tmp_path, 12)
    header = json.loads(text[0])
    assert header["format"] == journal.FORMAT
    assert header["run"] == {
        "engine": "fast",
        "entrants": ["random", "greedy"],
        "players": 2,
        "modules": "none",
        "seed": 11,
        "deals": 2,
    }
    first = json.loads(text[1])
    assert first["game"] == 0 and first["record"]["seed"] == arena.chance_seed(11, 0)
