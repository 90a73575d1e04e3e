"""Search on both engines: playouts from a mid-game state, MCTS from the opening (playout and
evaluation leaves), GreedyBot's step, and the endgame solver a few purchases from the end. Read
throughput from `extra_info` (playouts or iterations per call) and the mean time."""

import random

import pytest

PLAYOUTS = {"vikinger_fast": 2000, "vikinger_ref": 2}
ITERATIONS = {"vikinger_fast": 5000, "vikinger_ref": 5}


def decision_state(engine, rounds_done=0, seed=4):
    rng = random.Random(seed)
    state = engine.Game(num_players=2).new_initial_state()
    while state.to_dict()["round"] <= rounds_done or state.is_chance_node():
        if state.is_chance_node():
            state.apply_random_chance(rng.getrandbits(64))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.benchmark(group="playouts from round 4")
def test_midgame_playouts(benchmark, engine):
    state = decision_state(engine, rounds_done=3)
    count = PLAYOUTS[engine.__name__]
    benchmark.extra_info["playouts"] = count
    result = benchmark(engine.playouts, state, count, 0)
    assert result["returns"].sum() == pytest.approx(count)


@pytest.mark.parametrize("leaf", ["playout", "evaluation"])
@pytest.mark.benchmark(group="MCTS from the opening")
def test_mcts_search(benchmark, engine, leaf):
    state = decision_state(engine)
    iterations = ITERATIONS[engine.__name__]
    benchmark.extra_info["iterations"] = iterations
    bot = engine.MCTSBot(state.get_game(), 0, iterations=iterations, leaf=leaf)
    result = benchmark(bot.search, state)
    assert sum(result["visits"]) == iterations


@pytest.mark.benchmark(group="GreedyBot step")
def test_greedy_step(benchmark, engine):
    state = decision_state(engine, rounds_done=2)
    bot = engine.GreedyBot(state.get_game(), 0)
    assert benchmark(bot.step, state) in state.legal_actions()


@pytest.mark.benchmark(group="endgame solver")
def test_solver_two_decisions_from_the_end(benchmark, engine):
    rng = random.Random(1)
    state = engine.Game(num_players=2).new_initial_state()
    history = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_random_chance(rng.getrandbits(64))
        else:
            history.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    start = history[-2]
    result = benchmark(engine.solve_endgame, start, 10**6)
    assert result is not None and result["action"] in start.legal_actions()
