"""Hostile training runs (docs/security.md "Training runs"): every flag, config.json and
best.json are checked before any work starts (one CLI line, no traceback), a run never writes
onto a file it did not create (--force adds the run beside the user's files, never over them),
--resume refuses a setting flag that differs from the run's, by name, and a run folder whose
path holds ':' or ',' evaluates like any other."""

import json
import os
import shutil
import subprocess
import sys

import pytest

from cli_runs import exit_code
from vikinger_fast.training import Checkpoint, TrainConfig, evaluation, loop
from vikinger_fast.training.network import init_params

_IMPORTED_BEFORE = set(sys.modules)
TINY = dict(games=1, shard_games=1, simulations=4, max_considered=4, hidden=(8,), steps=1)
TINY_FLAGS = ["--games", "1", "--shard-games", "1", "--simulations", "4", "--hidden", "8"]


def _exit(argv):
    """exit_code, with a sys.exit(message) printed to stderr with code 1, as the interpreter
    does."""
    code = exit_code(argv)
    if isinstance(code, str):
        print(code, file=sys.stderr)
        return 1
    return code


def _one_line(capsys):
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert "Traceback" not in err and len(err.splitlines()) == 1, err
    return err


@pytest.fixture(scope="module")
def started(tmp_path_factory):
    """A run folder as `vikinger train` leaves it before its first iteration (its optimizer
    state left empty: these tests never reach a training step, and so never import JAX, whose
    threads would make a later test's fork warn)."""
    run = tmp_path_factory.mktemp("started") / "run"
    run.mkdir()
    config = TrainConfig(**TINY)
    (run / "config.json").write_text(config.to_json() + "\n")
    params = init_params(config.players, config.hidden, config.seed, score=config.score_weight > 0)
    Checkpoint(config, 0, 0, params, []).save(str(run / "checkpoint.npz"))
    assert loop.resume(str(run)).iteration == 0
    return str(run)


def _copy_run(started, tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    for name in ("config.json", "checkpoint.npz"):
        shutil.copyfile(os.path.join(started, name), run / name)
    return run


@pytest.mark.parametrize(
    "flag, value",
    [
        ("--iterations", "-1"),
        ("--iterations", "0"),
        ("--learning-rate", "inf"),
        ("--learning-rate", "nan"),
        ("--learning-rate", "0"),
        ("--l2", "-1"),
        ("--value-mix", "1.5"),
        ("--value-mix", "nan"),
        ("--score-weight", "1.5"),
        ("--score-weight", "nan"),
        ("--rescore-nodes", "-1"),
        ("--rescore-nodes", "2e9"),
        ("--endgame-starts", "1.5"),
        ("--endgame-starts", "-0.1"),
        ("--endgame-starts", "nan"),
        ("--games", "0"),
        ("--games", "1e9"),
        ("--seed", "-1"),
        ("--players", "5"),
        ("--jobs", "0"),
        ("--window", "x"),
        ("--modules", "dragons"),
        ("--options", "dragons"),  # the other name of --modules
        ("--gate", "0.4"),
        ("--gate", "nan"),
        ("--ladder-opponents", "0"),
        ("--ladder-games", "0"),
    ],
)
def test_bad_flags_are_one_argparse_line(tmp_path, capsys, flag, value):
    out = tmp_path / "out"
    argv = ["train", "--out", str(out), "--iterations", "1", flag, value]
    assert _exit(argv) == 2
    err = capsys.readouterr().err
    last = err.strip().splitlines()[-1]  # argparse: the usage, then its one error line
    assert "Traceback" not in err and flag in last and "error" in last, err
    assert not out.exists()


@pytest.mark.parametrize(
    "flags, words",
    [
        (["--hidden", "100000"], "hidden must be 1 to 16 layer widths"),
        (["--hidden", ",".join(["8"] * 17)], "hidden must be 1 to 16 layer widths"),
        (["--hidden", "16000,16000"], "its exports must load"),
        (["--hidden", "a,b"], "--hidden must be comma-separated ints"),
        (["--anchor", "mcts:speed=3"], "anchor: bot spec 'mcts:speed=3': unknown parameter"),
        (["--anchor", "mcts:iterations=-1"], "bot spec 'mcts:iterations=-1'"),
        (["--anchor", " "], "anchor must be 'shipped', 'none' or a bot spec"),
    ],
)
def test_bad_settings_stop_the_cli_before_anything_is_written(tmp_path, capsys, flags, words):
    out = tmp_path / "out"
    assert _exit(["train", "--out", str(out), "--iterations", "1", *flags]) not in (0, None)
    assert words in _one_line(capsys)
    assert not out.exists()


TAMPERED_CONFIG = [
    ('{"games": "32"}', "games must be an int in 1..1,000,000, not '32'"),
    ('{"games": true}', "games must be an int"),
    ('{"learning_rate": NaN}', "NaN is not a JSON number"),
    ('{"learning_rate": 1e999}', "learning_rate must be a finite number"),
    ('{"hidden": "128"}', "hidden must be a list"),
    ('{"hidden": [1e6]}', "hidden must be 1 to 16 layer widths"),
    ('{"options": [3]}', "options must be module names"),
    ('{"gate": 0.2}', "gate must be a finite number in [0.5, 1]"),
    ('{"anchor": 3}', "anchor must be 'shipped', 'none' or a bot spec"),
    ("[1, 2]", "not a JSON object"),
    ("[" * 100 + "]" * 100, "nests 100 levels deep"),
]
TAMPERED_BEST = [
    ("not json", "must be JSON"),
    ('{"iteration": 0}', "search_vs_greedy.share must be a number in [0, 1]"),
    (
        '{"search_vs_greedy": {"share": 0.5}, "search_vs_mcts": {"share": "1"}, '
        '"policy_vs_greedy": {"share": 0.5}, "iteration": 0}',
        "search_vs_mcts.share must be a number",
    ),
    (
        '{"search_vs_greedy": {"share": 0.5}, "search_vs_mcts": {"share": 0.5}, '
        '"policy_vs_greedy": {"share": 0.5}, "iteration": -3}',
        "iteration must be an int >= 0",
    ),
]


@pytest.mark.parametrize(
    "name, text, words",
    [("config.json", *case) for case in TAMPERED_CONFIG]
    + [("best.json", *case) for case in TAMPERED_BEST],
)
def test_a_tampered_run_file_is_refused_on_resume(started, tmp_path, capsys, name, text, words):
    """A config.json or best.json that is not a run's: one line naming the file, nothing
    started (the folder holds what it held)."""
    run = _copy_run(started, tmp_path)
    (run / name).write_text(text)
    files = sorted(os.listdir(run))
    assert _exit(["train", "--out", str(run), "--iterations", "1", "--resume"]) not in (0, None)
    message = _one_line(capsys)
    assert words in message and name in message, message
    assert sorted(os.listdir(run)) == files


@pytest.mark.parametrize(
    "text, words",
    [
        ("not json", "must be JSON"),
        ('{"format": "x"}', "not a ladder file (vikinger-ladder/1)"),
        (
            '{"format": "vikinger-ladder/1", "iteration": 0, "best_after": 0, "pairings": {}}',
            "pairings must be a list",
        ),
        (
            '{"format": "vikinger-ladder/1", "iteration": 0, "best_after": 0, "pairings": '
            '[{"opponent": 0, "games": [{"seats": [0], "returns": [1], "fame": [2]}]}]}',
            "a game needs seats, returns and fame of one length",
        ),
    ],
)
def test_a_tampered_ladder_file_is_refused_on_resume(started, tmp_path, capsys, text, words):
    run = _copy_run(started, tmp_path)
    (run / "ladder").mkdir()
    (run / "ladder" / "iter-00000.json").write_text(text)
    assert _exit(["train", "--out", str(run), "--iterations", "1", "--resume"]) not in (0, None)
    message = _one_line(capsys)
    assert words in message and "iter-00000.json" in message, message


def test_resume_refuses_flags_that_differ_by_name(started, tmp_path, capsys):
    run = _copy_run(started, tmp_path)
    argv = ["train", "--out", str(run), "--iterations", "1", "--resume"]
    assert _exit([*argv, "--games", "64"]) not in (0, None)
    message = _one_line(capsys)
    assert "--games 64 differs from the run's games 1" in message
    assert _exit([*argv, "--hidden", "16"]) not in (0, None)
    assert "--hidden (16,) differs from the run's hidden (8,)" in _one_line(capsys)
    assert _exit([*argv, "--modules", "auction"]) not in (0, None)
    assert "--modules 'auction' differs from the run's module set 'none'" in _one_line(capsys)
    assert _exit([*argv, "--force"]) not in (0, None)
    assert "--force starts a new run" in _one_line(capsys)
    assert sorted(os.listdir(run)) == ["checkpoint.npz", "config.json"]


def test_the_same_settings_on_resume_are_accepted(started, tmp_path):
    from vikinger_fast.cli.train import check_resume_flags
    import argparse

    parser = argparse.ArgumentParser()
    commands = parser.add_subparsers()
    from vikinger_fast.cli import train

    train.add_parser(commands)
    args = parser.parse_args(["train", "--out", "x", "--iterations", "1", *TINY_FLAGS])
    check_resume_flags(args, TrainConfig(**TINY))  # no error: the run's own values
    # --options is the other name of --modules; a set in any order is the run's set.
    with_modules = TrainConfig(**TINY, options=("auction", "special_tiles"))
    for flag in ("--modules", "--options"):
        args = parser.parse_args(
            ["train", "--out", "x", "--iterations", "1", flag, "special_tiles,auction"]
        )
        assert args.options == ("auction", "special_tiles")
        check_resume_flags(args, with_modules)


def test_no_test_here_imports_jax():
    """The tests above never start training: JAX stays out of this process (see started)."""
    assert "jax" not in sys.modules or "jax" in _IMPORTED_BEFORE


def test_a_new_run_never_writes_onto_the_users_files(tmp_path, capsys):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    argv = ["train", "--out", str(out), "--iterations", "1", *TINY_FLAGS]
    assert _exit(argv) not in (0, None)
    assert "is not empty" in _one_line(capsys)
    (out / "curves.csv").write_text("my own curves")
    assert _exit([*argv, "--force"]) not in (0, None)
    assert "holds 'curves.csv', a name the run writes" in _one_line(capsys)
    assert (out / "curves.csv").read_text() == "my own curves"
    assert sorted(os.listdir(out)) == ["curves.csv", "notes.txt"]
    (out / "curves.csv").unlink()
    loop.check_new_run(str(out), force=True)  # beside the user's files, none of its names
    file = tmp_path / "file"
    file.write_text("x")
    with pytest.raises(ValueError, match="is a file, not a folder"):
        loop.check_new_run(str(file))


@pytest.mark.parametrize("name", ["a:b", "a,b=c", "mcts:iterations=1"])
def test_paths_with_any_characters_evaluate(tmp_path, name):
    """The model's path goes to the bots' constructors, never into a bot spec."""
    config = TrainConfig(**TINY, eval_games=2, eval_simulations=2)
    folder = tmp_path / name
    folder.mkdir()
    model = str(folder / "iter-00000.npz")
    loop.export(init_params(2, (8,), 0), config, model)
    result = evaluation.evaluate(config, model, seed=1)
    assert sorted(result) == sorted(evaluation.MATCHES)
    assert all(0 <= entry["share"] <= 1 and entry["games"] == 2 for entry in result.values())


@pytest.mark.parametrize("name", ["a:b", "a,b=c"])
def test_paths_with_any_characters_play_the_ladder(tmp_path, name):
    from vikinger_fast.training import generations

    config = TrainConfig(**TINY, eval_games=2, eval_simulations=2, ladder_games=2)
    run = str(tmp_path / name)
    os.makedirs(os.path.join(run, "models"))
    for iteration in (0, 1):
        loop.export(init_params(2, (8,), iteration), config, generations.model_path(run, iteration))
    generations.evaluate(run, config, 0, None)
    assert generations.evaluate(run, config, 1, None)["gate"]["games"] == 2


def test_best_json_written_by_a_run_reads_back(started, tmp_path):
    run = _copy_run(started, tmp_path)
    best = {
        name: {"share": 0.5, "low": 0.1, "high": 0.9, "games": 2} for name in evaluation.MATCHES
    }
    (run / "best.json").write_text(json.dumps({**best, "iteration": 0, "model": "m:odel,x"}))
    assert loop.read_best(str(run))["iteration"] == 0


# --- the run's files are opened as regular files only (docs/security.md "Files read") ---------


@pytest.fixture(scope="module")
def played(started, tmp_path_factory):
    """The started run with its iteration 0's self-play finished, as a run stopped in its
    training steps leaves it: a resume reads that iteration's shards."""
    from vikinger_fast.training import replay

    run = tmp_path_factory.mktemp("played") / "run"
    shutil.copytree(started, run)
    replay.generate(str(run), TrainConfig(**TINY), None, 0)
    return run


@pytest.mark.parametrize(
    "name, kind, words",
    [
        ("shard-00000.npz", "fifo", "shard-00000.npz: not a regular file (a FIFO)"),
        ("shard-00000.npz", "zero", "shard-00000.npz: not a regular file (a character device)"),
        ("shard-00000.npz", "missing", "shard-00000.npz: no such file"),
        ("shard-00000.npz", "folder", "shard-00000.npz: not a regular file (a folder)"),
        ("manifest.json", "fifo", "manifest.json: not a regular file (a FIFO)"),
        ("manifest.json", "zero", "manifest.json: not a regular file (a character device)"),
        ("../../curves.csv", "fifo", "curves.csv: not a regular file (a FIFO)"),
        ("../../best.json", "zero", "best.json: not a regular file (a character device)"),
        ("../../checkpoint.npz", "fifo", "checkpoint.npz: not a regular file (a pipe)"),
        ("../../checkpoint.npz", "zero", "checkpoint.npz: not a regular file (a device)"),
    ],
)
def test_a_run_file_that_is_no_file_stops_the_resume_in_one_line(
    played, tmp_path, name, kind, words
):
    """Replaced by a FIFO (a plain open blocks for ever), a link to /dev/zero (a plain read
    fills memory), removed or a folder: one line naming it from a real `vikinger train
    --resume`, before any work."""
    run = tmp_path / "run"
    shutil.copytree(played, run)
    path = run / "selfplay" / "iter-00000" / name
    if path.exists():
        path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "zero":
        path.symlink_to("/dev/zero")
    elif kind == "folder":
        path.mkdir()
    before = sorted(str(p.relative_to(run)) for p in run.rglob("*"))
    done = subprocess.run(
        [sys.executable, "-m", "vikinger_fast.cli", "train", "--out", str(run)]
        + ["--iterations", "1", "--resume", "--no-progress"],
        capture_output=True,
        text=True,
        timeout=300,  # the guard against a hang (a FIFO), not a measure
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert done.stderr.startswith("vikinger train: ") and words in done.stderr, done.stderr
    assert sorted(str(p.relative_to(run)) for p in run.rglob("*")) == before


def test_a_shard_that_is_no_file_is_refused_by_the_loader_too(played, tmp_path):
    """Between the resume's check and the read (a shard replaced while the run goes on): the
    loader itself refuses, one ValueError."""
    from vikinger_fast.training import replay

    run = tmp_path / "run"
    shutil.copytree(played, run)
    shard = run / "selfplay" / "iter-00000" / "shard-00000.npz"
    shard.unlink()
    os.mkfifo(shard)
    with pytest.raises(ValueError, match="shard-00000.npz: not a regular file"):
        replay.load_iteration(str(run), 0)
