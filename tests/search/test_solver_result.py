"""solve_endgame_result (docs/search.md "Solver"): who wins under best play, not by how much
(two players, alpha-beta with the window (-1, 1)): the signs of the exact margins, an action of
the best result, fewer nodes, the same in both engines, and the errors of solve_endgame."""

import pytest

from search_positions import replay
from test_solver import endgames


def _sign(value):
    return (value > 0) - (value < 0)


def test_the_result_is_the_sign_of_the_exact_margins_in_both_engines(engines):
    ref, fast = engines
    checked = 0
    for history in endgames(2, 6, max_back=6):
        a = ref.solve_endgame_result(replay(ref, 2, {}, history), 20_000)
        state = replay(fast, 2, {}, history)
        b = fast.solve_endgame_result(state, 20_000)
        assert a == b and a is not None
        exact = fast.solve_endgame(state, 10**6)
        assert a["results"] == [_sign(m) for m in exact["margins"]]
        assert a["nodes"] <= exact["nodes"]
        # Its action reaches that result for the mover.
        mover = state.current_player()
        child = state.clone()
        child.apply_action(a["action"])
        if child.is_terminal():
            share = child.returns()[mover]
            after = 1 if share == 1.0 else 0 if share > 0 else -1
        else:
            after = _sign(fast.solve_endgame(child, 10**6)["margins"][mover])
        assert after == a["results"][mover]
        checked += 1
    assert checked == 6


def test_numpy_ints_are_budgets_too(engine):
    import numpy as np

    state = replay(engine, 2, {}, endgames(2, 1, max_back=1)[0])
    assert engine.solve_endgame_result(state, np.int64(10**6)) == engine.solve_endgame_result(
        state, 10**6
    )


def test_it_gives_up_past_its_budget(engine):
    state = replay(engine, 2, {}, endgames(2, 1, max_back=1)[0])
    full = engine.solve_endgame_result(state, 10**6)
    assert full is not None and full["nodes"] > 1
    assert engine.solve_endgame_result(state, full["nodes"] - 1) is None
    assert engine.solve_endgame_result(state, full["nodes"]) == full


def test_three_players_are_refused_alike(engines):
    for engine in engines:
        state = replay(engine, 3, {}, endgames(3, 1, max_back=1)[0])
        with pytest.raises(ValueError, match=r"solve_endgame_result is for two players"):
            engine.solve_endgame_result(state, 1000)


@pytest.mark.parametrize(
    "nodes, error, message",
    [
        (0, ValueError, "max_nodes must be > 0, not 0"),
        (-1, ValueError, "max_nodes must be >= 0, not -1"),
        (1.5, TypeError, "max_nodes must be an int"),
    ],
)
def test_bad_budgets_are_refused_alike(engines, nodes, error, message):
    for engine in engines:
        state = replay(engine, 2, {}, endgames(2, 1, max_back=1)[0])
        with pytest.raises(error, match=message):
            engine.solve_endgame_result(state, nodes)


def test_a_node_before_round_6_is_refused_alike(engines):
    for engine in engines:
        state = engine.Game(2).new_initial_state()
        with pytest.raises(ValueError, match="solve_endgame_result needs a decision node"):
            engine.solve_endgame_result(state, 1000)
