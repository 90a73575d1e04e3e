"""A real SIGINT sent to a child process running a call (tests/api/test_interrupt.py,
tests/neural/test_puct_bot.py); the child imports the engine the `engine_name` fixture of
tests/conftest.py names."""

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
