"""Every command stops on the first SIGINT or SIGTERM and on every later one (docs/security.md
"Interrupts"): one, two or three signals at random moments (SIGINT to the process or, as a
terminal's Ctrl-C, to its whole process group; SIGTERM to the process; from a burst of a few
milliseconds to seconds apart) sent to the real `vikinger` commands with two worker processes.
Each run must end with exit status 130, its process and every process it started gone within a
bounded time, no "Traceback" and no "Exception ignored" on stderr, no half-written file in its
folders, and, for the commands with --resume, a folder the same command finishes with --resume
(arena) or that --resume reads (train, and endgame --make's partial build)."""

import json
import os
import random
import signal
import subprocess
import sys

import numpy as np
import pytest

from sigint import stop_cli
from slow_bot import SLOW_BOT

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc (Linux)")


ARENA = ["arena", "arena_slow:Slow", "greedy", "--games", "40", "--seed", "5", "--no-progress"]
TRAIN_TINY = [
    *("--games", "2", "--shard-games", "1", "--simulations", "4", "--hidden", "8"),
    *("--steps", "3", "--batch", "32", "--eval-every", "1", "--eval-games", "2"),
    *("--eval-simulations", "4"),
]
# Each command with two workers where it has --jobs, long enough that it is still running
# when the signals come, and the span after its start (its handler installed) in which the
# first signal comes: from its imports to its work (train's include JAX's, seconds).
COMMANDS = {
    "simulate": (["simulate", "--games", "100000000", "--shard-size", "100000"], 4.0),
    "arena": ([*ARENA, "--out", "out"], 5.0),
    "selfplay": (["selfplay", "--games", "10000", "--iterations", "30", "--out", "out"], 5.0),
    "ladder": (["ladder", "random", "greedy", "--games", "100000", "--out", "out"], 5.0),
    "train": (["train", "--out", "out", "--iterations", "100000", *TRAIN_TINY], 15.0),
    "serve": (["serve", "--port", "0", "--dir", "out"], 4.0),
    "endgame": (["endgame", *["arena_slow:Slow"] * 8, "--json", "results.json"], 5.0),
    "endgame-make": (["endgame", "--make", "made.json.gz", "--per-count", "200"], 5.0),
}
BOUND = 60.0  # seconds from the first signal by which every process of the run is gone


def signal_plan(seed, count, span):
    """`count` (wait in s, signal, to the process group?) from `seed`: the first wait in
    [0, span], later ones a burst (under 0.05 s, a double Ctrl-C, while the stop runs), about
    0.1 s (0.05 to 0.2) or up to 2 s, a third each."""
    rng = random.Random(seed)
    plan = []
    for i in range(count):
        spacing = rng.choice([(0.0, 0.05), (0.05, 0.2), (0.2, 2.0)])
        wait = rng.uniform(0.0, span) if i == 0 else rng.uniform(*spacing)
        signum = rng.choice([signal.SIGINT, signal.SIGTERM])
        plan.append((wait, signum, signum == signal.SIGINT and rng.random() < 0.5))
    return plan


def _files(folder):
    return [os.path.join(root, name) for root, _, names in os.walk(folder) for name in names]


def _environment(tmp_path, pause):
    env = dict(os.environ, ARENA_TEST_PAUSE=pause, TMPDIR=str(tmp_path / "scratch"))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(tmp_path), env.get("PYTHONPATH")]))
    return env


def check_arena(tmp_path, out):
    """The journal is whole lines (a last one cut short is allowed: --resume drops it), and the
    same command with --resume finishes the run (stopped before its journal's first line, the
    run left nothing to resume)."""
    if not (out / "games.jsonl").is_file() or not (out / "games.jsonl").stat().st_size:
        return
    lines = (out / "games.jsonl").read_text(encoding="utf-8").split("\n")
    for line in lines[:-2]:
        json.loads(line)
    done = subprocess.run(
        [sys.executable, "-m", "vikinger_fast.cli", *ARENA, "--out", "out", "--resume"],
        cwd=tmp_path,
        env=_environment(tmp_path, "0"),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert (out / "results.json").is_file()


def check_train(tmp_path, out):
    """Either no run was started (a new one may start there) or --resume reads the run."""
    from vikinger_fast.training import loop

    if os.path.exists(out / "config.json"):
        assert loop.resume(str(out)).config.games == 2
    else:
        loop.check_new_run(str(out))


def check_selfplay(tmp_path, out):
    """No manifest (the run is unfinished), and every shard written is whole."""
    assert not (out / "manifest.json").exists()
    for path in out.glob("shard-*.npz"):
        with np.load(path) as shard:
            assert shard.files


def check_endgame_make(tmp_path, out):
    """Either no game was finished, or what was built is a partial build that --resume takes."""
    import vikinger_fast
    from vikinger_fast.benchmarks import endgame, endgame_make

    assert not (tmp_path / "made.json.gz").exists()
    partial = tmp_path / "made.json.gz.partial"
    if partial.exists():
        settings = endgame_make.partial_settings(0, 200, endgame.PLAYERS, False, 0)
        endgame_make.check_partial(endgame_make.load_partial(partial), settings, vikinger_fast)


CHECKS = {
    "arena": check_arena,
    "train": check_train,
    "selfplay": check_selfplay,
    "endgame-make": check_endgame_make,
}


def stop_command(tmp_path, command, seed, count):
    argv, span = COMMANDS[command]
    if command != "serve":
        argv = [*argv, "--jobs", "2"]
    (tmp_path / "arena_slow.py").write_text(SLOW_BOT)
    (tmp_path / "scratch").mkdir()
    plan = signal_plan(seed, count, span)
    code, out, err, started, left, sent = stop_cli(
        argv, plan, tmp_path, env=_environment(tmp_path, "0.004"), bound=BOUND
    )
    print(f"{command}: {sent} signal(s) sent")  # counted over a run with pytest -s
    what = f"{command} {plan}: exit {code}\n{err}"
    assert sent >= 1, f"{what}\nended before the first signal"
    assert code == 130, what
    assert "Traceback" not in err and "Exception ignored" not in err, what
    assert not left, f"{what}\nstill running: {left} of {started}"
    # No temporary file of an atomic write, nor a scratch folder of the shards, left anywhere.
    assert not [p for p in _files(tmp_path) if ".tmp" in os.path.basename(p)], what
    assert not os.listdir(tmp_path / "scratch"), what
    if command in CHECKS and (command == "endgame-make" or (tmp_path / "out").exists()):
        CHECKS[command](tmp_path, tmp_path / "out")


@pytest.mark.parametrize("count", [1, 2, 3])
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_one_two_or_three_signals_stop_every_command(tmp_path, command, count):
    stop_command(tmp_path, command, 10 * sorted(COMMANDS).index(command) + count, count)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(1000, 1008))
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_many_signals_at_random_moments_stop_every_command(tmp_path, command, seed):
    stop_command(tmp_path, command, seed, 1 + seed % 3)


# --- the handler's parts, each in a child process of its own --------------------------------

SWALLOWED = """
import os, signal, time
from vikinger_fast.safety import interrupts

class Finalized:
    def __del__(self):  # the signal's handler runs in here: its exception is swallowed
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)

with interrupts.command():
    try:
        Finalized()
        for _ in range(300):
            time.sleep(0.01)
        print("not stopped")
    except KeyboardInterrupt:
        print("stopped")
"""

# SWALLOWED with a second signal sent from inside the unraisable hook (where the first one's
# KeyboardInterrupt is put off), then the count of signals.
SWALLOWED_THEN_ANOTHER = (
    """
import os, signal, time
from vikinger_fast.safety import interrupts

put_off = interrupts._raise_later
sent = []

def put_off_after_a_second_signal():  # runs in the hook: a second signal comes in there
    if not sent:
        sent.append(1)
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(0.05)
    put_off()

interrupts._raise_later = put_off_after_a_second_signal
"""
    + SWALLOWED
    + "print(interrupts.received())\n"
)

HELD_THEN_LATER = """
import os, signal, time
from vikinger_fast.safety import interrupts

with interrupts.command():
    try:
        with interrupts.held():
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.05)
            print("held")
        print("not stopped")
    except KeyboardInterrupt:
        print("stopped")
        os.kill(os.getpid(), signal.SIGINT)  # a later signal: the cleanup goes on
        time.sleep(0.05)
        print("cleaned up")
print(interrupts.received(), interrupts.exit_status(0))
"""

WORKERS = """
import signal
from concurrent.futures import ProcessPoolExecutor
from vikinger_fast.safety import interrupts

def blocked():
    return signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, [])

def ignored():
    return signal.getsignal(signal.SIGINT) is signal.SIG_IGN and not blocked()

if __name__ == "__main__":
    with ProcessPoolExecutor(1, mp_context=interrupts.worker_context()) as pool:
        starts_blocked = pool.submit(blocked).result()
    with ProcessPoolExecutor(
        1, mp_context=interrupts.worker_context(), initializer=interrupts.ignore_in_worker
    ) as pool:
        print(starts_blocked, pool.submit(ignored).result(), blocked())
"""


def _python(source, tmp_path):
    (tmp_path / "child.py").write_text(source)
    return subprocess.run(
        [sys.executable, str(tmp_path / "child.py")],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )


def test_a_keyboard_interrupt_the_interpreter_swallows_is_raised_again(tmp_path):
    done = _python(SWALLOWED, tmp_path)
    assert (done.returncode, done.stdout) == (0, "stopped\n"), done.stderr
    assert "Exception ignored" not in done.stderr and "Traceback" not in done.stderr


def test_a_signal_during_the_swallowed_ones_hook_is_put_off_too(tmp_path):
    done = _python(SWALLOWED_THEN_ANOTHER, tmp_path)
    assert (done.returncode, done.stdout) == (0, "stopped\n2\n"), done.stderr
    assert "Exception ignored" not in done.stderr and "Traceback" not in done.stderr


def test_held_lines_finish_and_a_later_signal_raises_nothing(tmp_path):
    done = _python(HELD_THEN_LATER, tmp_path)
    assert done.stdout.split("\n") == ["held", "stopped", "cleaned up", "2 130", ""], done.stderr
    assert done.returncode == 0 and not done.stderr


def test_workers_start_with_ctrl_c_blocked_and_then_ignore_it(tmp_path):
    done = _python(WORKERS, tmp_path)
    # Blocked from the start, before any code of the worker runs; then ignored and unblocked;
    # the main process's own mask is as it was.
    assert done.stdout == "True True False\n", done.stderr
