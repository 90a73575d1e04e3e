"""Hostile budgets for search and bots (docs/search.md "Budgets"): every time, count and node
budget -- inf, huge, tiny, beyond 64 bits, NaN, negative, numpy numbers -- gets one behaviour,
the same in both engines (result, or error type AND message), and no search is ever silently
skipped."""

import math

import numpy as np
import pytest

from conftest import load_engine

INF = float("inf")
NAN = float("nan")


def _decision(vk, players=2, seed=3):
    state = vk.Game(num_players=players).new_initial_state()
    while state.is_chance_node():
        state.apply_random_chance(seed)
    return state


def _round6_bytes():
    """A round-6 decision node that the solver settles within 2,000 nodes (serialized)."""
    vk = load_engine("fast")  # found by the fast engine; both read its bytes
    state = vk.Game(num_players=2).new_initial_state()
    rng = np.random.default_rng(5)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_random_chance(rng)
            continue
        try:
            if vk.solve_endgame(state, 2000) is not None:
                return state.serialize()
        except ValueError as error:
            assert "round 6" in str(error)
        state.apply_action(state.legal_actions()[0])
    raise AssertionError("no round-6 decision node")


ROUND6 = {}


def _round6(vk):
    if "data" not in ROUND6:
        ROUND6["data"] = _round6_bytes()
    return vk.Game(num_players=2).deserialize_state(ROUND6["data"])


def _outcome(call):
    try:
        return ("ok", call())
    except (TypeError, ValueError, OverflowError) as error:
        return (type(error).__name__, str(error))


def _both(make):
    ref, fast = load_engine("ref"), load_engine("fast")
    return _outcome(lambda: make(ref)), _outcome(lambda: make(fast))


def _mcts_search(kw):
    def make(vk):
        bot = vk.MCTSBot(vk.Game(num_players=2), 7, **kw)
        result = bot.search(_decision(vk))
        shares = [share for _, share in bot.policy(_decision(vk))]
        return result["iterations"], result["visits"], shares

    return make


ITERATION_VALUES = [
    0,
    -1,
    -(2**70),
    2**63,
    2**64,
    10**40,
    INF,
    NAN,
    1e-12,
    2.0,
    True,
    np.bool_(True),
    np.float64(3.0),
    "5",
    None,
]


@pytest.mark.parametrize("value", ITERATION_VALUES, ids=repr)
def test_iterations_refused_alike(value):
    ref, fast = _both(lambda vk: vk.MCTSBot(vk.Game(num_players=2), 0, iterations=value))
    assert ref[0] != "ok" and ref == fast


@pytest.mark.parametrize("value", [np.int8(3), np.uint16(3), np.int64(3), 3])
def test_iterations_numpy_ints_run_alike(value):
    ref, fast = _both(_mcts_search({"iterations": value}))
    assert ref == fast and ref[1][0] == 3 and sum(ref[1][1]) == 3


TIME_VALUES = [0, -1.0, NAN, -INF, -(10**400), True, np.bool_(False), "0.1", 1j]


@pytest.mark.parametrize("value", TIME_VALUES, ids=repr)
def test_max_time_refused_alike(value):
    ref, fast = _both(lambda vk: vk.MCTSBot(vk.Game(num_players=2), 0, max_time=value))
    assert ref[0] in ("TypeError", "ValueError") and ref == fast


@pytest.mark.parametrize("value", [INF, 1e300, 1e9, 10**400, 2**64, np.float64(INF)], ids=repr)
def test_max_time_without_deadline_needs_iterations(value):
    """A time budget of 1e9 s or more sets no deadline: alone it is refused, beside an
    iteration budget the iterations decide (the C++ clock once overflowed and ran 0)."""
    ref, fast = _both(lambda vk: vk.MCTSBot(vk.Game(num_players=2), 0, max_time=value))
    assert ref == fast and ref[0] == "ValueError" and "needs a finite budget" in ref[1]
    # (leaf evaluation: cheap iterations, the budget is what is tested)
    ref, fast = _both(_mcts_search({"iterations": 50, "max_time": value, "leaf": "evaluation"}))
    assert ref == fast and ref[0] == "ok"
    assert ref[1][0] == 50 and sum(ref[1][1]) == 50


@pytest.mark.parametrize("value", [1e-12, 5e-324, np.float32(1e-9), 1e-6], ids=repr)
def test_tiny_max_time_still_searches(engine, value):
    """However small the time, at least one iteration per thread: a policy of finite shares
    summing to 1 (it was NaN in C++ and ZeroDivisionError in the reference)."""
    for threads in (1, 3):
        bot = engine.MCTSBot(
            engine.Game(num_players=2), 1, max_time=value, threads=threads, leaf="evaluation"
        )
        result = bot.search(_decision(engine))
        assert result["iterations"] >= threads and sum(result["visits"]) >= threads
        shares = [share for _, share in bot.policy(_decision(engine))]
        assert all(math.isfinite(s) for s in shares) and math.isclose(sum(shares), 1.0)


def test_tiny_time_with_iterations_runs_the_iterations_or_stops_on_time(engine):
    bot = engine.MCTSBot(engine.Game(num_players=2), 1, iterations=3, max_time=1e-12)
    result = bot.search(_decision(engine))
    assert 1 <= result["iterations"] <= 3


@pytest.mark.parametrize("value", [-1, 2**63, 2**64, 10**30, 1.5, INF, NAN, True, "1"], ids=repr)
def test_solver_nodes_alike(value):
    ref, fast = _both(
        lambda vk: vk.MCTSBot(vk.Game(num_players=2), 0, iterations=2, solver_nodes=value)
    )
    assert ref[0] != "ok" and ref == fast


@pytest.mark.parametrize("value", [0, -1, 2**63, 2**64, 1.0, INF, NAN, True, None], ids=repr)
def test_solve_endgame_budget_refused_alike(value):
    ref, fast = _both(lambda vk: vk.solve_endgame(_round6(vk), value))
    assert ref[0] != "ok" and ref == fast


@pytest.mark.parametrize(
    "value", [np.int64(1), np.int32(10**6), np.uint64(1), 1, 2**63 - 1], ids=repr
)
def test_solve_endgame_accepts_every_int_alike(value):
    """np.int64 was accepted by C++ and refused by the reference: both accept now."""
    ref, fast = _both(lambda vk: vk.solve_endgame(_round6(vk), value))
    assert ref[0] == "ok" and ref == fast


@pytest.mark.parametrize("value", [-1, 2**63, 2**64, 1.0, INF, NAN, True], ids=repr)
def test_playout_and_rollout_counts_refused_alike(value):
    for make in (
        lambda vk: vk.playouts(_decision(vk), value, 0),
        lambda vk: vk.playouts_batch([_decision(vk)], value, 0),
        lambda vk: vk.rollouts(vk.Game(num_players=2), value, 0),
    ):
        ref, fast = _both(make)
        assert ref[0] != "ok" and ref == fast


@pytest.mark.parametrize("value", [0, 1, np.int64(2), np.uint8(1)], ids=repr)
def test_small_playout_and_rollout_counts_alike(value):
    for make in (
        lambda vk: vk.playouts(_decision(vk), value, 0)["scores"].tolist(),
        lambda vk: vk.rollouts(vk.Game(num_players=2), value, 0)["scores"].tolist(),
    ):
        ref, fast = _both(make)
        assert ref[0] == "ok" and ref == fast and len(ref[1]) == int(value)


@pytest.mark.parametrize("threads", [0, -1, 1.0, True, INF], ids=repr)
def test_threads_refused_alike(threads):
    ref, fast = _both(
        lambda vk: vk.MCTSBot(vk.Game(num_players=2), 0, iterations=2, threads=threads)
    )
    assert ref[0] != "ok" and ref == fast


def test_huge_threads_capped_alike():
    ref, fast = _both(_mcts_search({"iterations": 4, "threads": 2**70}))
    assert ref == fast and ref[0] == "ok" and ref[1][0] == 4


PUCT_SETTINGS = [
    {"c_init": 10**400},
    {"c_base": -(10**400)},
    {"dirichlet_alpha": np.timedelta64(1)},
    {"dirichlet_fraction": np.float32(0.5)},
    {"virtual_loss": 2**63},
    {"simulations": -(2**70)},
    {"gumbel": {"c_visit": 10**400}},
    {"gumbel": {"c_scale": True}},
    {"gumbel": {"max_considered": 2**64}},
]


@pytest.mark.parametrize("setting", PUCT_SETTINGS, ids=repr)
def test_puct_search_settings_refused_alike(setting):
    # The settings' checks are the bindings' RealArg and IntArg (bindings/helpers.cc) and the
    # reference's arguments.check_real and check_int64: an int beyond the float range is +-inf
    # for both, a numpy float32 or a timedelta64 no number for either.
    def make(vk):
        return vk.PuctSearch([_decision(vk)], **{"simulations": 2, **setting})

    ref, fast = _both(make)
    assert ref[0] != "ok" and ref == fast
