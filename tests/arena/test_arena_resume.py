"""vikinger arena --resume (docs/arena.md "Long runs"): a run stopped by a signal keeps its
finished games in games.jsonl and finishes with --resume into the files of an unbroken run; a
journal of another run, or one changed by hand, is refused before anything is written."""

import json
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

from slow_bot import SLOW_BOT
from vikinger_fast import arena, distributed
from vikinger_fast.arena import journal
from vikinger_fast.cli import main


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


COMMAND = [sys.executable, "-m", "vikinger_fast.cli", "arena", *BOTS, *ARGS]


def _slow_env(tmp_path):
    env = dict(os.environ)
    env["ARENA_TEST_PAUSE"] = "0.004"  # about half a second a game
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(tmp_path), env.get("PYTHONPATH")]))
    return env


def _stop_after_two_games(tmp_path, extra, book, stop):
    """(stdout, stderr) of `vikinger arena` with `extra` flags, stopped by `stop` once its
    journal `book` holds two games; it must exit 130."""
    child = subprocess.Popen(
        [*COMMAND, *extra],
        cwd=tmp_path,
        env=_slow_env(tmp_path),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    while not (book.exists() and _game_lines(book) >= 2) and time.monotonic() < deadline:
        assert child.poll() is None, child.communicate()
        time.sleep(0.05)
    child.send_signal(stop)
    out, err = child.communicate(timeout=120)
    assert child.returncode == 130, err
    return out, err


def _resume_child(tmp_path, folder):
    """The stopped run in `folder` finished by the same command with --out folder --resume."""
    return subprocess.run(
        [*COMMAND, "--out", str(folder), "--resume"],
        cwd=tmp_path,
        env=_slow_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.parametrize("stop, jobs", [(signal.SIGINT, "1"), (signal.SIGTERM, "2")])
def test_a_stopped_run_resumes_into_the_unbroken_runs_files(bots_here, stop, jobs):
    tmp_path = bots_here
    assert main(["arena", *BOTS, *ARGS, "--out", str(tmp_path / "whole")]) == 0
    out = tmp_path / "stopped"
    book = out / journal.NAME
    _, err = _stop_after_two_games(tmp_path, ["--out", str(out), "--jobs", jobs], book, stop)
    assert "--resume plays the rest" in err
    kept = _game_lines(book)
    assert 2 <= kept < 12 and not (out / "results.json").exists()

    # The same command with --resume: only the missing games are played.
    done = _resume_child(tmp_path, out)
    assert done.returncode == 0, done.stderr
    assert f"resuming: {kept} of 12 games kept" in done.stdout
    whole, resumed = _files(tmp_path / "whole"), _files(out)
    assert resumed.keys() == whole.keys()
    for name in whole:
        if name != journal.NAME:  # its lines are in the order the games ended
            assert resumed[name] == whole[name], name
    lines = lambda files: sorted(files[journal.NAME].decode().splitlines())  # noqa: E731
    assert lines(resumed) == lines(whole)


def test_a_stopped_run_in_a_numbered_default_folder_names_it_to_resume(bots_here):
    """Without --out a second run goes to arena-results-2 (the first keeps its results), and
    its interruption names that folder: the bare --resume would look in arena-results."""
    tmp_path = bots_here
    assert main(["arena", *BOTS, *ARGS]) == 0
    first = _files(tmp_path / "arena-results")
    book = tmp_path / "arena-results-2" / journal.NAME
    out, err = _stop_after_two_games(tmp_path, [], book, signal.SIGINT)
    assert "arena-results holds an earlier run: this one goes to arena-results-2" in out
    assert "the same command with --out arena-results-2 --resume plays the rest" in err
    done = _resume_child(tmp_path, "arena-results-2")
    assert done.returncode == 0, done.stderr
    assert _files(tmp_path / "arena-results") == first
    resumed = _files(tmp_path / "arena-results-2")
    for name in ("results.json", "results.csv", "games.csv"):
        assert resumed[name] == first[name], name
    assert not (tmp_path / "arena-results-3").exists()


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


# --- the journal's chance, its file and the outputs (docs/security.md "Files read") ----------


def _other_deal(record, which):
    """A legal game of the record's seats, game and seed whose chance outcome at the record's
    `which`-th chance node (0: the first) is another one than the seed deals; the moves before
    it are the record's, the rest played by a random hand."""
    import numpy as np

    import vikinger_fast as engine
    from vikinger_fast import records

    moves = record["moves"]
    chance = [i for i, move in enumerate(moves) if move["player"] < 0][which]
    state = records.replay(record, engine, step=chance)
    state.apply_action(next(a for a in state.legal_actions() if a != moves[chance]["action"]))
    rng = np.random.default_rng(5)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_random_chance(rng)
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    other = records.record_from_state(state, players=record["players"], seed=record["seed"])
    return other, chance, moves[chance]["action"]


@pytest.mark.parametrize("which", [0, 5])
def test_a_game_with_other_chance_outcomes_than_its_seed_deals_is_refused(tmp_path, capsys, which):
    out, _, text = _stopped_copy(tmp_path, 3)
    entry = json.loads(text[2])
    other, chance, dealt = _other_deal(entry["record"], which)
    text[2] = json.dumps({"game": entry["game"], "record": other}) + "\n"
    (out / journal.NAME).write_text("".join(text[:4]))
    before = _files(out)
    with pytest.raises(SystemExit) as stop:
        _resume(out)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert f"line 3 (game 1): move {chance} (" in err
    assert f"but seed {entry['record']['seed']} deals {dealt} (" in err
    assert _files(out) == before


def test_a_symbolic_link_in_out_is_never_written_through(tmp_path, capsys):
    out, _, text = _stopped_copy(tmp_path, 2)
    outside = tmp_path / "outside.jsonl"
    outside.write_text("".join(text[:3]))
    (out / journal.NAME).unlink()
    (out / journal.NAME).symlink_to(outside)
    for extra in (["--resume"], ["--force"]):
        with pytest.raises(SystemExit) as stop:
            main(["arena", "random", "greedy", *ARGS, "--out", str(out), *extra])
        assert stop.value.code == 2
        assert f"{journal.NAME} is a symbolic link; refusing" in capsys.readouterr().err
    assert outside.read_text() == "".join(text[:3])
    (out / journal.NAME).unlink()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.rmtree(out / "records")
    (out / "records").symlink_to(elsewhere)
    with pytest.raises(SystemExit):
        main(["arena", "random", "greedy", *ARGS, "--out", str(out), "--force"])
    assert "records is a symbolic link" in capsys.readouterr().err
    assert not os.listdir(elsewhere) and not (out / journal.NAME).exists()


@pytest.mark.parametrize(
    "entry, make, words",
    [
        ("records", lambda path: path.write_text("x"), "records is not a folder"),
        ("results.json", lambda path: path.mkdir(), "results.json is a folder, not a file"),
    ],
)
def test_an_unwritable_output_is_refused_before_the_games(tmp_path, capsys, entry, make, words):
    out = tmp_path / "run"
    out.mkdir()
    make(out / entry)
    with pytest.raises(SystemExit):
        main(["arena", "random", "greedy", *ARGS, "--out", str(out), "--force"])
    assert words in capsys.readouterr().err
    assert not (out / journal.NAME).exists()  # no game was played


def _cli(argv, cwd):
    """A real `vikinger` process (a FIFO would block a plain open for ever: the timeout is
    the guard against a hang, not a measure)."""
    return subprocess.run(
        [sys.executable, "-m", "vikinger_fast.cli", *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
    )


def _one_error_line(done):
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    return done.stderr.strip().splitlines()[-1]


@pytest.mark.parametrize(
    "kind, words",
    [
        ("fifo", "not a regular file (a FIFO)"),
        ("zero", "games.jsonl is a symbolic link; refusing to write through it"),
        ("folder", "games.jsonl is a folder, not a file"),
        ("long line", "line 3 is longer than 1,048,576 bytes"),
        ("huge", "is 2,000,000,000 bytes long; at most 5,242,880 are read"),
    ],
)
def test_a_journal_that_is_no_journal_is_refused_unread(tmp_path, kind, words):
    out, _, text = _stopped_copy(tmp_path, 2)
    book = out / journal.NAME
    if kind in ("fifo", "zero", "folder"):
        book.unlink()
    if kind == "fifo":
        os.mkfifo(book)  # no writer: a plain open() blocks for ever
    elif kind == "zero":
        book.symlink_to("/dev/zero")
    elif kind == "folder":
        book.mkdir()
    elif kind == "long line":
        book.write_text(text[0] + text[1] + " " * journal.MAX_LINE + text[2])
    else:  # sparse: 2 GB never read (4 games: at most 5 lines of 1 MiB)
        with open(book, "r+b") as sparse:
            sparse.truncate(2_000_000_000)
    done = _cli(["arena", "random", "greedy", *ARGS, "--out", str(out), "--resume"], tmp_path)
    line = _one_error_line(done)
    assert words in line and str(out) in line, line


def test_a_journal_of_many_short_lines_stops_at_the_first_bad_one(tmp_path, capsys):
    out, _, text = _stopped_copy(tmp_path, 2)
    (out / journal.NAME).write_text(text[0] + "\n" * 4_000_000)  # 4 MB, within 5 lines' bound
    with pytest.raises(SystemExit):
        _resume(out)
    assert "line 2: a journal line must be JSON" in capsys.readouterr().err


@pytest.mark.parametrize(
    "plot, words",
    [
        ("x.json", "--plot x.json: the name must end in one of .png, .svg"),
        ("x", "--plot x: the name must end in one of"),
        ("missing/x.png", "the folder"),
    ],
)
def test_a_plot_matplotlib_cannot_write_is_refused_before_any_game(tmp_path, plot, words):
    pytest.importorskip("matplotlib", reason="the plot extra is not installed")
    out = tmp_path / "run"
    done = _cli(["arena", "random", "greedy", *ARGS, "--out", str(out), "--plot", plot], tmp_path)
    assert words in _one_error_line(done)
    assert not out.exists()
