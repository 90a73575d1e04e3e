"""Whole games on both engines: one random game driven from Python, `rollouts` on one and two
threads, and one `VectorGame.step` of a batch. The C++ engine plays more games per call than the
reference, so read throughput from `extra_info` (games or steps per call) and the mean time."""

import random

import pytest

# Games per rollouts call: enough for C++ to be timed well, few enough for the reference.
ROLLOUT_GAMES = {"vikinger_fast": 2000, "vikinger_ref": 1}
BATCH_SIZE = {"vikinger_fast": 256, "vikinger_ref": 8}


@pytest.mark.benchmark(group="full random game")
def test_full_random_game(benchmark, engine):
    """The Python-driven loop: legal_actions, a uniform choice, apply_action (chance nodes too:
    this loop times the API, so chance outcomes are chosen uniformly among the legal ones)."""
    game = engine.Game(num_players=2)
    rng = random.Random(0)

    def play():
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
            steps += 1
        return steps

    assert benchmark(play) > 144  # at least the 144 chance nodes of six rounds


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.benchmark(group="rollouts")
def test_rollouts(benchmark, engine, threads):
    game = engine.Game(num_players=2)
    games = ROLLOUT_GAMES[engine.__name__]
    benchmark.extra_info["games"] = games
    result = benchmark(engine.rollouts, game, games, 0, threads=threads)
    assert result["returns"].sum() == pytest.approx(games)  # B8.9 one win per game


@pytest.mark.benchmark(group="VectorGame step")
def test_vector_game_step(benchmark, engine):
    """One step of the batch with the first legal action of every environment."""
    batch = BATCH_SIZE[engine.__name__]
    env = engine.VectorGame(engine.Game(num_players=2), batch, 0)
    benchmark.extra_info["batch_size"] = batch

    def step():
        return env.step(env.legal_actions_mask().argmax(axis=1))

    done = benchmark(step)
    assert done.shape == (batch,)
