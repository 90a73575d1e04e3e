"""Ctrl-C during long calls (docs/api.md "Threads and Ctrl-C"): a real SIGINT sent to a child
process running the call. The call must raise KeyboardInterrupt soon (the engine polls every
50 ms; the bound below is loose because this is a liveness check on a shared machine, not a
timing) and leave nothing half-written: an interrupted VectorGame.step leaves the batch exactly
as it was before that step.
"""

import pytest

from sigint import interrupt_child

LIVENESS_BOUND = 2.0  # seconds from SIGINT to the KeyboardInterrupt handler


@pytest.mark.parametrize("threads", [1, 2])
def test_ctrl_c_stops_a_long_rollouts_call(engine_name, threads):
    latency, _ = interrupt_child(
        engine_name, f"vk.rollouts(vk.Game(2), 10**7, seed=0, threads={threads})"
    )
    assert latency < LIVENESS_BOUND


def test_ctrl_c_stops_a_large_vector_game_construction():
    latency, _ = interrupt_child(
        "vikinger_fast", "vk.VectorGame(vk.Game(2), 60_000, seed=0)", delay=0.3
    )
    assert latency < LIVENESS_BOUND


def test_an_interrupted_step_leaves_the_batch_as_before_it(engine_name):
    """Steps a batch until SIGINT; the batch must then equal a fresh one stepped `count` or
    `count + 1` times (the signal may land inside a step, which is undone, or just after one
    whose count was not yet recorded)."""
    batch = 40_000 if engine_name == "vikinger_fast" else 16
    setup = f"""
game = vk.Game(2, special_tiles=True)
env = vk.VectorGame(game, {batch}, seed=11)
env.step(env.legal_actions_mask().argmax(axis=1))  # at least one step before the signal
count = 1
"""
    body = """
while True:
    env.step(env.legal_actions_mask().argmax(axis=1))
    count += 1
"""
    after = f"""
seen = snapshot(env)
replica = vk.VectorGame(game, {batch}, seed=11)
for _ in range(count):
    replica.step(replica.legal_actions_mask().argmax(axis=1))
at_count = snapshot(replica)
replica.step(replica.legal_actions_mask().argmax(axis=1))
print(count, seen == at_count, seen == snapshot(replica), flush=True)
"""
    latency, lines = interrupt_child(engine_name, body, setup=setup, after=after, delay=1.0)
    assert latency < LIVENESS_BOUND
    _, equal_before, equal_after = lines[0].split()
    assert "True" in (equal_before, equal_after)
