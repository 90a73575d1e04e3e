"""The endgame solver inside PuctSearch (docs/neural.md "The solver in the search"): a new
round-6 leaf the solver finishes is never evaluated and backs up the exact B8.9 returns, the same
trees in both engines, and the errors of a bad solver_nodes."""

import pytest

from endgame_positions import shipped, solved_children
from evaluators import constant


def root_results(engine, state, solver_nodes, simulations=48):
    players = state.get_game().num_players
    search = engine.PuctSearch([state], simulations=simulations, seed=5, solver_nodes=solver_nodes)
    search.run(constant(players), 8)
    return search.results()[0]


@pytest.mark.parametrize("players", [2, 3])
def test_solved_children_back_up_their_exact_returns_in_both_engines(engines, players):
    ref, fast = engines
    checked = 0
    for (ref_state, position), (fast_state, _) in zip(
        shipped(ref, players, 4, max_nodes=20_000), shipped(fast, players, 4, max_nodes=20_000)
    ):
        result = root_results(fast, fast_state, 20_000)
        assert result == root_results(ref, ref_state, 20_000)
        mover = fast_state.current_player()
        for action, q, margin in solved_children(fast, fast_state, position, result, 20_000):
            # Every visit backed up the same exact return: 1 for a win, 0 for a loss.
            assert q == (1.0 if margin > 0 else 0.0), (action, margin, q, mover)
            checked += 1
    assert checked >= 4


@pytest.mark.parametrize(
    "value, error, message",
    [
        (-1, ValueError, "solver_nodes must be >= 0"),
        (1.5, TypeError, "solver_nodes must be an int, not float"),
        (True, TypeError, "solver_nodes must be an int, not bool"),
        (1 << 63, ValueError, "solver_nodes 9223372036854775808 is too large"),
    ],
)
def test_a_bad_solver_nodes_is_refused_alike(engines, value, error, message):
    for engine in engines:
        state, _ = shipped(engine, 2, 1)[0]
        with pytest.raises(error, match=message):
            engine.PuctSearch([state], simulations=4, solver_nodes=value)
