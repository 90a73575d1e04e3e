"""A real SIGINT sent to a child process running a call (tests/api/test_interrupt.py,
tests/neural/test_puct_bot.py); the child imports the engine the `engine_name` fixture of
tests/conftest.py names. And the `vikinger` commands stopped by SIGINT and SIGTERM, their
processes followed through /proc (stop_cli, tests/cli/test_interrupts.py)."""

import contextlib
import os
import pathlib
import signal
import subprocess
import sys
import textwrap
import time


ROOT = pathlib.Path(__file__).resolve().parents[2]  # the checkout

CHILD = """
import hashlib, sys, time
import numpy as np
import {engine} as vk

def snapshot(env):
    h = hashlib.sha256()
    for a in (env.legal_actions_mask(), env.observation_tensor(), env.current_player(), env.done,
              env.final_scores, env.final_gold, env.final_returns, env.final_length,
              env.final_observation):
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()

{setup}
print("ready", flush=True)
try:
{body}
except KeyboardInterrupt:
    print("interrupted", time.monotonic(), flush=True)
{after}
    sys.exit(0)
print("finished", flush=True)
sys.exit(3)
"""


def interrupt_child(engine_name, body, setup="", after="", delay=0.5):
    """Runs `body` in a child, sends SIGINT `delay` s after it is ready; returns (latency in s,
    the child's output after the interrupt)."""
    source = CHILD.format(
        engine=engine_name,
        setup=setup,
        body=textwrap.indent(textwrap.dedent(body), "    "),
        after=textwrap.indent(textwrap.dedent(after), "    "),
    )
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join([str(ROOT / "python_ref"), os.environ.get("PYTHONPATH", "")]),
    )
    child = subprocess.Popen(
        [sys.executable, "-c", source],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert child.stdout.readline().strip() == "ready", child.stderr.read()
        time.sleep(delay)
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 0, f"exit {child.returncode}: {out} {err}"
    lines = out.splitlines()
    assert lines[0].startswith("interrupted"), out
    return float(lines[0].split()[1]) - sent, lines[1:]


# --- the `vikinger` commands stopped by signals (tests/cli/test_interrupts.py) -------------------

SIGCGT_TERM = 1 << (signal.SIGTERM - 1)  # in /proc/PID/status SigCgt: SIGTERM has a handler


def _status(pid, key):
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith(key + ":"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        return None
    return None


def descendants(pid):
    """The pids of every process below `pid` (Linux /proc)."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            ppid = _status(entry, "PPid")
            if ppid is not None:
                parents.setdefault(int(ppid), []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def alive(pid):
    """True while `pid` is a process that has not ended (a zombie has ended)."""
    state = _status(pid, "State")
    return state is not None and not state.startswith("Z")


def handling_signals(pid):
    """True once the command's own SIGTERM handler is installed (its main has started)."""
    caught = _status(pid, "SigCgt")
    return caught is not None and int(caught, 16) & SIGCGT_TERM != 0


def _default_sigint():
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def stop_cli(argv, plan, cwd, env=None, ready=None, bound=60.0):
    """`python -m vikinger_fast.cli ARGV` in its own session (so that a Ctrl-C can be sent to
    its process group as a terminal does), stopped by `plan`: [(seconds to wait, signal number,
    to the group?)], the first wait counted from the moment its handler is installed (or
    `ready(child)` is true); a signal due after the command has ended is not sent. Returns
    (exit status, stdout, stderr, the pids of every process it started, those still alive
    `bound` s after the first signal, the number of signals sent)."""
    child = subprocess.Popen(
        [sys.executable, "-m", "vikinger_fast.cli", *argv],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        # Ctrl-C's default action: a run from a shell's background job (which ignores SIGINT,
        # and its children after it) would otherwise test a command that ignores it too.
        preexec_fn=_default_sigint,
    )
    seen, sent, left = set(), 0, []
    try:
        started = time.monotonic()
        while not (ready or handling_signals)(child.pid):
            assert child.poll() is None, _end(child)
            assert time.monotonic() - started < 120, "the command never started"
            time.sleep(0.01)
        first = None
        for wait, signum, group in plan:
            end = time.monotonic() + wait
            while time.monotonic() < end:
                seen.update(descendants(child.pid))
                time.sleep(min(0.02, max(0.0, end - time.monotonic())))
            seen.update(descendants(child.pid))
            if child.poll() is not None:
                break
            first = first or time.monotonic()
            if group:
                os.killpg(child.pid, signum)
            else:
                child.send_signal(signum)
            sent += 1
        deadline = (first or time.monotonic()) + bound
        try:
            out, err = child.communicate(timeout=max(1.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            out, err = "", "(still running)"
        while any(map(alive, seen)) and time.monotonic() < deadline:
            time.sleep(0.05)
        left = [pid for pid in seen | {child.pid} if alive(pid)]
    finally:
        if child.poll() is None or left:
            _end(child)
    return child.returncode, out, err, sorted(seen), left, sent


def _end(child):
    """Kills `child` and whatever of its process group a failing run left behind (holding
    its pipes open); returns what it printed."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(child.pid, signal.SIGKILL)
    try:
        return child.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        return None
