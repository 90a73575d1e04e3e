"""The scoring questions of unfinished games and the evaluation (docs/search.md "Scoring
questions and the evaluation"): equal between engines on random states, consistent with the
game's own scoring."""

import math

import pytest

from conftest import load_engine
from search_positions import position_pairs, random_history, replay

TRIP_STOP = 342  # docs/actions.md: end the scorer's boatsman trips


def test_questions_and_evaluation_equal_between_engines(engines):
    ref, fast = engines
    for _, a, b in position_pairs(engines, 60, seed=2):
        assert a.final_scoring_gains() == b.final_scoring_gains()
        assert a.pending_scoring_gains() == b.pending_scoring_gains()
        assert ref.evaluate(a) == fast.evaluate(b)  # bit for bit: the same formula


def test_evaluation_is_a_distribution(engine):
    for seed in range(12):
        history = random_history(load_engine("ref"), 2 + seed % 3, {}, seed, 50 * seed)
        values = engine.evaluate(replay(engine, 2 + seed % 3, {}, history))
        assert all(0.0 <= v <= 1.0 for v in values)
        assert math.isclose(sum(values), 1.0)


def test_evaluation_at_the_end_is_the_returns(engine):
    game = engine.Game(2)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_random_chance(5) if state.is_chance_node() else state.apply_action(
            state.legal_actions()[0]
        )
    assert engine.evaluate(state) == state.returns()
    assert state.final_scoring_gains() == [(0, 0), (0, 0)]
    assert state.pending_scoring_gains() == [(0, 0), (0, 0)]


def test_pending_gains_are_what_stopping_trips_pays(engine):
    # B7.2: once the scorer stops its trips, steps 2-6 score its board at once; in rounds 2 and 4
    # nothing else changes its Fame or gold before the next decision.
    ref = load_engine("ref")
    checked = 0
    for seed in range(300):
        history = random_history(ref, 2 + seed % 3, {}, seed, 10_000)
        probe = ref.Game(2 + seed % 3).new_initial_state()
        for k, action in enumerate(history):
            if probe.phase == "trip" and probe.round in (2, 4):
                state = replay(engine, 2 + seed % 3, {}, history[:k])
                scorer = state.current_player()
                expected = state.pending_scoring_gains()[scorer]
                before = (state.scores()[scorer], state.gold()[scorer])
                state.apply_action(TRIP_STOP)
                after = (state.scores()[scorer], state.gold()[scorer])
                assert (after[0] - before[0], after[1] - before[1]) == expected
                checked += 1
                break
            probe.apply_action(action)
        if checked >= 5:
            break
    assert checked >= 5


def test_small_scoring_pays_goldsmith_gold(engine):
    # Pending gains in round 1 are B7.1 only: gold in multiples of 3, never Fame.
    history = random_history(load_engine("ref"), 3, {}, 11, 30)
    state = replay(engine, 3, {}, history)
    assert state.to_dict()["round"] == 1
    assert all(
        fame == 0 and gold >= 0 and gold % 3 == 0 for fame, gold in state.pending_scoring_gains()
    )


def test_evaluate_refuses_a_non_state(engine):
    with pytest.raises(TypeError, match="state must be a State, not int"):
        engine.evaluate(3)
