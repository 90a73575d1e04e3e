"""Concurrency: distinct games driven from several Python threads give exactly the results of a
single-thread run (docs/api.md: rollouts and VectorGame.step release the GIL in the C++ engine).

Each worker owns its objects (states, VectorGames, rollout calls); only the `Game` is shared, as
users share it. Every worker returns a transcript of what it saw, and the transcripts of the
concurrent run must equal those of the same workers run one after another. Errors raised in
threads (illegal actions) must leave the worker's objects as they were, as in one thread.
"""

import hashlib
import random
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from gil import python_steps_during

WORKERS = 4


def run_concurrently(workers):
    """Results of `workers` (callables) run at once, each in its own thread, started together."""
    barrier = threading.Barrier(len(workers))

    def start(worker):
        barrier.wait()
        return worker()

    with ThreadPoolExecutor(max_workers=len(workers)) as pool:
        return list(pool.map(start, workers))


def digest(*arrays):
    h = hashlib.sha256()
    for array in arrays:
        h.update(np.ascontiguousarray(array).tobytes())
    return h.hexdigest()


def is_fast(engine):
    return engine.__name__ == "vikinger_fast"


def repeats(engine):
    """Concurrent runs to compare: the reference holds the GIL anyway, one run suffices."""
    return 3 if is_fast(engine) else 1


# --- distinct State objects ----------------------------------------------------------------------


def play_states(engine, game, seed, games):
    """Random games through apply_action / clone / serialize / deserialize / observation, with
    an illegal id tried at every decision node; the transcript hashes every step."""
    rng = random.Random(seed)
    h = hashlib.sha256()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_random_chance(rng.getrandbits(64))
            else:
                legal = state.legal_actions()
                try:
                    state.apply_action(2036)
                except ValueError:
                    pass
                else:
                    raise AssertionError("an illegal id was accepted")
                state = (
                    state.clone()
                    if rng.random() < 0.5
                    else game.deserialize_state(state.serialize())
                )
                state.apply_action(rng.choice(legal))
            h.update(state.serialize())
        h.update(state.observation_tensor(0).tobytes())
        h.update(repr((state.scores(), state.gold(), state.returns())).encode())
    return h.hexdigest()


def test_distinct_states_from_threads_play_as_in_one_thread(engine):
    game = engine.Game(num_players=3)
    games = 2 if is_fast(engine) else 1
    workers = [lambda k=k: play_states(engine, game, seed=k, games=games) for k in range(WORKERS)]
    alone = [worker() for worker in workers]
    assert len(set(alone)) == WORKERS  # distinct games
    for _ in range(repeats(engine)):
        assert run_concurrently(workers) == alone


# --- rollouts ------------------------------------------------------------------------------------


def rollout_digest(engine, game, seed, num_games, threads):
    out = engine.rollouts(game, num_games, seed, threads=threads)
    return digest(out["scores"], out["gold"], out["returns"], out["length"])


def test_rollouts_from_threads_equal_one_thread(engine):
    game = engine.Game(num_players=2)
    num_games = 60 if is_fast(engine) else 1
    workers = [
        lambda k=k: rollout_digest(engine, game, 1000 * k, num_games, threads=1 + k % 2)
        for k in range(WORKERS)
    ]
    alone = [worker() for worker in workers]
    assert len(set(alone)) == WORKERS
    for _ in range(repeats(engine)):
        assert run_concurrently(workers) == alone
    # The same seed in every thread: identical arrays (no shared state between calls).
    copies = WORKERS if is_fast(engine) else 2
    same = [lambda: rollout_digest(engine, game, 5, num_games, threads=2)] * copies
    assert set(run_concurrently(same)) == {rollout_digest(engine, game, 5, num_games, threads=1)}


def test_rollouts_release_the_gil():
    """While one thread runs a long C++ rollout, this thread keeps running Python."""
    fast = pytest.importorskip("vikinger_fast")
    game = fast.Game(num_players=4)
    ticks = python_steps_during(lambda: fast.rollouts(game, 3000, 1, threads=1))
    assert ticks > 10_000, f"only {ticks} Python steps ran during the rollout"


# --- VectorGame ----------------------------------------------------------------------------------


def drive_vector_game(engine, game, seed, batch, steps):
    """Steps a VectorGame with random legal actions, trying an illegal batch every 7th step;
    the transcript hashes every array the environment shows."""
    env = engine.VectorGame(game, batch, seed)
    rng = np.random.default_rng(seed)
    h = hashlib.sha256()
    for step in range(steps):
        mask = env.legal_actions_mask().copy()
        if step % 7 == 3:
            before = (env.current_player().copy(), mask.copy())
            illegal = np.argmin(mask, axis=1).astype(np.int64)  # a False column in every row
            try:
                env.step(illegal)
            except ValueError:
                pass
            else:
                raise AssertionError("an illegal batch was accepted")
            assert np.array_equal(env.current_player(), before[0])
            assert np.array_equal(env.legal_actions_mask(), before[1])
        choices = [rng.choice(np.flatnonzero(row)) for row in mask]
        done = env.step(np.array(choices, dtype=np.int64)).copy()
        h.update(done.tobytes())
        h.update(env.current_player().tobytes())
        h.update(env.observation_tensor().tobytes())
        if done.any():
            h.update(
                digest(
                    env.final_scores[done],
                    env.final_gold[done],
                    env.final_returns[done],
                    env.final_length[done],
                    env.final_observation[done],
                ).encode()
            )
    return h.hexdigest()


def test_vector_games_from_threads_equal_one_thread(engine):
    game = engine.Game(num_players=2)
    batch, steps = (16, 400) if is_fast(engine) else (2, 60)
    workers = [
        lambda k=k: drive_vector_game(engine, game, seed=100 + k, batch=batch, steps=steps)
        for k in range(WORKERS)
    ]
    alone = [worker() for worker in workers]
    assert len(set(alone)) == WORKERS
    for _ in range(repeats(engine)):
        assert run_concurrently(workers) == alone


def test_vector_games_finish_games_from_threads():
    """Long enough that every environment finishes games while other threads step theirs; the
    finished games are those of one thread."""
    fast = pytest.importorskip("vikinger_fast")
    game = fast.Game(num_players=3)
    workers = [
        lambda k=k: drive_vector_game(fast, game, seed=k, batch=8, steps=700)
        for k in range(WORKERS)
    ]
    alone = [worker() for worker in workers]
    assert run_concurrently(workers) == alone


def test_mixed_workload_from_threads(engine):
    """Rollouts, VectorGame steps and State play at once, as an RL loop with evaluation does."""
    game = engine.Game(num_players=2)
    fast = is_fast(engine)
    workers = [
        lambda: rollout_digest(engine, game, 77, 40 if fast else 1, threads=2),
        lambda: drive_vector_game(
            engine, game, seed=9, batch=8 if fast else 2, steps=200 if fast else 30
        ),
        lambda: play_states(engine, game, seed=3, games=1),
        lambda: rollout_digest(engine, game, 78, 40 if fast else 1, threads=1),
    ]
    alone = [worker() for worker in workers]
    assert run_concurrently(workers) == alone
