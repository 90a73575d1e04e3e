"""The Gumbel MuZero root of PuctSearch (docs/neural.md "Gumbel root"): the improved policy and
the sequential-halving schedule computed by hand, and the same trees in both engines."""

import math

import numpy as np
import pytest

from search_positions import first_decision, position_pairs
from test_puct_search import Projection

A = 2036


@pytest.fixture
def opening(engine):
    return first_decision(engine)


def test_improved_policy_by_hand(engine, opening):
    """Uniform priors over k actions, values (0.2, 0.5, 0.3) relative to each leaf's mover, 4
    simulations among max_considered = 4: P = 2 phases, per = max(1, 4 // (2 * 4)) = 1, so four
    actions get one visit each and the budget is spent. With N = 4, sum over the visited of pi = 4
    / k: v_mix = (v_hat + 4 / (4/k) * (1/k) * sum q) / 5 = (0.2 + sum q) / 5; sigma(q) = (50 +
    1) * q; pi'(a) = exp(sigma(completedQ(a))) / sum (the priors cancel)."""
    k = len(opening.legal_actions())
    relative = np.array([0.2, 0.5, 0.3], np.float32)

    def evaluate(observations, legal):
        rows = len(observations)
        return np.zeros((rows, A), np.float32), np.tile(relative, (rows, 1))

    search = engine.PuctSearch([opening], simulations=4, gumbel={"max_considered": 4}, seed=3)
    search.run(evaluate, 8)
    result = search.results()[0]
    visited = [i for i, v in enumerate(result["visits"]) if v]
    assert sorted(result["visits"], reverse=True)[:5] == [1, 1, 1, 1, 0]
    assert all(result["q"][i] in {float(x) for x in relative} for i in visited)
    v_hat = float(relative[0])
    assert result["network_value"] == v_hat
    v_mix = (v_hat + sum(result["q"][i] for i in visited)) / 5
    completed = [result["q"][i] if i in visited else v_mix for i in range(k)]
    weights = [math.exp(51 * q) for q in completed]
    expected = [w / sum(weights) for w in weights]
    assert result["improved_policy"] == pytest.approx(expected, rel=1e-12)
    assert result["actions"].index(result["selected"]) in visited


def test_sequential_halving_schedule(engine, opening):
    """m = 8 considered, n = 24: P = 3 phases; 8 x max(1, 24 // 24) = 8 visits, then 4 x
    24 // 12 = 2 each (8), then 2 x 24 // 6 = 4 each (8): 24 in all, the visits of the
    survivors 1, 3, 7 and the last selected among the two of the final phase."""
    search = engine.PuctSearch([opening], simulations=24, gumbel={"max_considered": 8}, seed=11)
    search.run(Projection(search.observation_size, 3), 5)
    result = search.results()[0]
    assert sorted(v for v in result["visits"] if v) == [1, 1, 1, 1, 3, 3, 7, 7]
    selected = result["actions"].index(result["selected"])
    assert result["visits"][selected] == 7


def test_twin_gumbel_over_positions(engines):
    pairs = position_pairs(engines, 6, seed=77, decision=True)
    for (n, flags), ref_state, fast_state in pairs:
        results = []
        for engine, state in zip(engines, (ref_state, fast_state)):
            search = engine.PuctSearch(
                [state, state.clone()],
                simulations=20,
                gumbel={"max_considered": 6},
                seed=4,
                c_base=19652.0,
            )
            search.run(Projection(search.observation_size, n, seed=1), 7)
            results.append(search.results())
        assert results[0] == results[1]
        assert sum(results[0][0]["visits"]) == 20


def test_gumbel_and_dirichlet_exclude_each_other(engine, opening):
    with pytest.raises(ValueError, match="^gumbel and dirichlet_alpha exclude each other$"):
        engine.PuctSearch([opening], simulations=4, gumbel=True, dirichlet_alpha=0.3)
    with pytest.raises(ValueError, match="^max_considered must be >= 1$"):
        engine.PuctSearch([opening], simulations=4, gumbel={"max_considered": 0})


def test_gumbel_settings_are_one_keyword(engine, opening):
    """gumbel= takes a bool or a dict of some of the settings; the defaults fill the rest, and
    a bad value or an unknown setting is refused before any tree is made."""
    search = engine.PuctSearch([opening], simulations=8, gumbel={"c_scale": 1.0}, seed=2)
    default = engine.PuctSearch([opening], simulations=8, gumbel=True, seed=2)
    players = opening.get_game().num_players
    for s in (search, default):
        s.run(Projection(s.observation_size, players), 4)
    assert search.results() == default.results()
    narrow = engine.PuctSearch([opening], simulations=8, gumbel={"max_considered": 2}, seed=2)
    narrow.run(Projection(narrow.observation_size, players), 4)
    assert sum(v > 0 for v in narrow.results()[0]["visits"]) == 2
    assert sum(v > 0 for v in default.results()[0]["visits"]) > 2
    with pytest.raises(TypeError, match="^gumbel must be a bool or a dict of settings, not int$"):
        engine.PuctSearch([opening], simulations=4, gumbel=1)
    with pytest.raises(TypeError, match="^gumbel must be a bool or a dict of settings, not list$"):
        engine.PuctSearch([opening], simulations=4, gumbel=["max_considered"])
    message = r"^gumbel has no setting 'considered' \(max_considered, c_visit, c_scale\)$"
    with pytest.raises(ValueError, match=message):
        engine.PuctSearch([opening], simulations=4, gumbel={"c_visit": 5.0, "considered": 4})
    with pytest.raises(ValueError, match=r"^gumbel has no setting 3 \("):
        engine.PuctSearch([opening], simulations=4, gumbel={3: 4})
    with pytest.raises(TypeError, match="^c_visit must be a number, not str$"):
        engine.PuctSearch([opening], simulations=4, gumbel={"c_visit": "high"})
    with pytest.raises(TypeError, match="^max_considered must be an int, not float$"):
        engine.PuctSearch([opening], simulations=4, gumbel={"max_considered": 2.0})
