"""One object shared by many Python threads (docs/api.md "Threads and Ctrl-C").

A VectorGame releases the GIL while it steps; its methods run one at a time (a per-object lock in
both engines), so concurrent callers never see or leave a half-stepped batch. A stepping thread
whose actions went stale (another thread stepped first) gets the ValueError of an illegal action
and changes nothing.
"""

import hashlib
import threading

import numpy as np

THREADS = 8


def first_legal(mask):
    return mask.argmax(axis=1)


def snapshot(env):
    """Everything a caller can read, hashed."""
    h = hashlib.sha256()
    for array in (
        env.legal_actions_mask(),
        env.observation_tensor(),
        env.current_player(),
        env.done,
        env.final_scores,
        env.final_gold,
        env.final_returns,
        env.final_length,
        env.final_observation,
    ):
        h.update(np.ascontiguousarray(array).tobytes())
    return h.hexdigest()


def run_threads(target, count):
    errors = []
    barrier = threading.Barrier(count)

    def run(k):
        barrier.wait()
        try:
            target(k)
        except BaseException as error:  # noqa: BLE001 -- reported to the test below
            errors.append(error)

    threads = [threading.Thread(target=run, args=(k,)) for k in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []


def test_many_threads_stepping_one_vector_game_never_corrupt_it(engine):
    game = engine.Game(3, auction=True, special_tiles=True)
    env = engine.VectorGame(game, 16 if engine.__name__ == "vikinger_ref" else 256, seed=7)
    steps = 6 if engine.__name__ == "vikinger_ref" else 40
    applied = []
    refused = []

    def stepper(k):
        for _ in range(steps):
            actions = first_legal(env.legal_actions_mask())
            try:
                env.step(actions)
                applied.append(1)
            except ValueError as error:
                assert "is not legal in environment" in str(error)
                refused.append(1)

    run_threads(stepper, THREADS)
    assert len(applied) >= 1 and len(applied) + len(refused) == THREADS * steps
    # Still a consistent batch: each environment has a legal action, finite observations, and
    # goes on stepping.
    for _ in range(3):
        mask = env.legal_actions_mask()
        assert mask.any(axis=1).all()
        assert np.isfinite(env.observation_tensor()).all()
        assert set(env.current_player()) <= set(range(game.num_players))
        env.step(first_legal(mask))


def test_readers_beside_one_stepper_see_what_a_single_thread_sees(engine):
    """One thread steps (so the sequence of steps is fixed) while others call the rewriting
    readers: the stepper's transcript equals that of the same steps with no readers (a rewrite
    stores only what changed, so a view is stable between steps)."""
    game = engine.Game(2, draw13=True)
    batch = 8 if engine.__name__ == "vikinger_ref" else 128
    steps = 8 if engine.__name__ == "vikinger_ref" else 60

    def transcript(env):
        seen = []
        for _ in range(steps):
            env.step(first_legal(env.legal_actions_mask()))
            seen.append(snapshot(env))
        return seen

    expected = transcript(engine.VectorGame(game, batch, seed=3))
    env = engine.VectorGame(game, batch, seed=3)
    result = {}
    stop = threading.Event()

    def worker(k):
        if k == 0:
            try:
                result["seen"] = transcript(env)
            finally:
                stop.set()
            return
        while not stop.is_set():
            assert env.legal_actions_mask().shape == (batch, engine.NUM_DISTINCT_ACTIONS)
            env.observation_tensor()
            env.current_player()

    run_threads(worker, 4)
    assert result["seen"] == expected
