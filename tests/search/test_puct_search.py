"""PuctSearch (docs/neural.md): the same trees in both engines for a deterministic evaluator over
positions of every phase and module set, PUCT's choices computed by hand, virtual loss, root
noise, tree reuse, and bad evaluator outputs leaving the search usable.
"""

import math
import time

import numpy as np
import pytest


from search_positions import (
    every_configuration,
    first_decision,
    past_chance,
    position_pairs,
    random_history,
    replay,
)

A = 2036


class Projection:
    """A deterministic evaluator with varied outputs: fixed random projections of the
    observation (float32, the same numbers in both engines since the observations are)."""

    def __init__(self, width, num_players, seed=0):
        rng = np.random.default_rng(seed)
        self.w_logits = rng.standard_normal((width, 16)).astype(np.float32) * 0.05
        self.w_actions = rng.standard_normal((16, A)).astype(np.float32)
        self.w_values = rng.standard_normal((width, num_players)).astype(np.float32) * 0.05
        self.calls = []

    def __call__(self, observations, legal):
        self.calls.append(len(observations))
        logits = np.tanh(observations @ self.w_logits) @ self.w_actions
        raw = observations @ self.w_values
        values = np.exp(raw - raw.max(axis=1, keepdims=True))
        values /= values.sum(axis=1, keepdims=True)
        return logits.astype(np.float32), values.astype(np.float32)


def uniform(num_players):
    def evaluate(observations, legal):
        rows = len(observations)
        return (
            np.zeros((rows, A), np.float32),
            np.full((rows, num_players), 1.0 / num_players, np.float32),
        )

    return evaluate


def run_both(engines, pairs_states, evaluator_of, batch_size=16, **kwargs):
    results = []
    for engine, states in zip(engines, pairs_states):
        search = engine.PuctSearch(states, **kwargs)
        evaluator = evaluator_of(search)
        search.run(evaluator, batch_size)
        assert search.done
        results.append((search.results(), evaluator))
    return results


def test_twin_over_positions_of_every_phase_and_module_set(engines):
    pairs = position_pairs(engines, 24, seed=31, decision=True, max_steps=900)
    assert {"trip", "trip_target", "auction", "buy", "viking"} <= {p[1].phase for p in pairs}
    assert 6 in {p[1].round for p in pairs}
    by_game = {}
    for (n, flags), ref_state, fast_state in pairs:
        by_game.setdefault((n, tuple(sorted(flags.items()))), ([], []))
        by_game[(n, tuple(sorted(flags.items())))][0].append(ref_state)
        by_game[(n, tuple(sorted(flags.items())))][1].append(fast_state)
    phases = set()
    for (n, _), (ref_states, fast_states) in by_game.items():
        phases |= {s.phase for s in ref_states}
        out = run_both(
            engines,
            (ref_states, fast_states),
            lambda s: Projection(s.observation_size, n),
            simulations=24,
            seed=5,
            c_base=19652.0,
        )
        (ref_results, ref_eval), (fast_results, fast_eval) = out
        assert ref_results == fast_results
        assert ref_eval.calls == fast_eval.calls
        for result in fast_results:
            assert sum(result["visits"]) == 24
            assert math.isclose(sum(result["priors"]), 1.0)
    assert len(phases) >= 3, phases


def test_twin_in_every_configuration(engines):
    """One mid-game root in each of the 96 configurations (2-4 players x 32 module sets)."""
    for index, n, flags, history in every_configuration(engines[0], 96, 600):
        results = []
        for engine in engines:
            search = engine.PuctSearch(
                [replay(engine, n, flags, history)], simulations=6, seed=index, c_base=500.0
            )
            search.run(Projection(search.observation_size, n, seed=index % 5), 4)
            results.append(search.results())
        assert results[0] == results[1], (n, flags, history)


def test_twin_with_dirichlet_noise_virtual_loss_and_tree_reuse(engines):
    pairs = position_pairs(engines, 3, seed=7, decision=True)
    n, flags = pairs[0][0]
    searches = [
        engine.PuctSearch(
            [pair[1 + k] for pair in pairs if pair[0] == (n, flags)],
            simulations=16,
            seed=9,
            dirichlet_alpha=0.3,
            dirichlet_fraction=0.25,
            virtual_loss=3,
        )
        for k, engine in enumerate(engines)
    ]
    evaluators = [Projection(s.observation_size, n, seed=2) for s in searches]
    for search, evaluator in zip(searches, evaluators):
        search.run(evaluator, 5)
    assert searches[0].results() == searches[1].results()
    # Play the most visited action of tree 0 (and its chance with one seed), reuse the tree.
    reused = []
    for k, (engine, search) in enumerate(zip(engines, searches)):
        result = search.results()[0]
        state = [pair[1 + k] for pair in pairs if pair[0] == (n, flags)][0].clone()
        state.apply_action(result["actions"][int(np.argmax(result["visits"]))])
        past_chance(state, 0)
        if state.is_terminal():
            pytest.skip("the game ended")  # not reached with these seeds
        reused.append(search.advance(0, state))
        search.run(evaluators[k], 5)
    assert reused[0] == reused[1]
    assert searches[0].results() == searches[1].results()


@pytest.fixture
def opening(engine):
    return first_decision(engine)


def test_puct_choices_by_hand(engine, opening):
    """Priors softmax(logits); constant value v = 0.05 for everyone. With c fixed at c_init,
    score(a) = Q(a) + c * P(a) * sqrt(N) / (1 + n(a)) and Q(a) = v for visited a."""
    legal = opening.legal_actions()
    k = len(legal)
    assert k >= 3
    logits_row = np.zeros(A, np.float32)
    logits_row[legal[1]] = 1.0  # P(legal[1]) = e / (e + k - 1), the others 1 / (e + k - 1)

    def evaluate(observations, mask):
        rows = len(observations)
        return np.tile(logits_row, (rows, 1)), np.full((rows, 3), 0.05, np.float32)

    c, v = 1.0, float(np.float32(0.05))
    prior = [math.exp(float(logits_row[a])) / (math.e + k - 1) for a in legal]
    visits = [0] * k
    for sims in range(1, 6):
        search = engine.PuctSearch([opening], simulations=sims, c_init=c)
        search.run(evaluate, 1)
        # The same selection on paper (N counts the root's own evaluation).
        total = 1 + sum(visits)
        scores = [
            (v if visits[i] else 0.0) + c * prior[i] * math.sqrt(total) / (1 + visits[i])
            for i in range(k)
        ]
        visits[scores.index(max(scores))] += 1
        assert search.results()[0]["visits"] == visits
    # On paper, with k = 11 and D = e + 10: legal[1] (prior e / D) wins while 0.05 + e sqrt(N) /
    # (1 + n) / D beats sqrt(N) / D: at N = 1, 2, 3; at N = 4 it gets 0.05 + 1.359 / D = 0.1569
    # against 2 / D = 0.1573 for legal[0] (the first of the equal others); at N = 5 legal[2]
    # (2.236 / D = 0.1758) beats legal[1] (0.1695) and legal[0] (0.1379).
    assert k == 11 and visits[:4] == [1, 3, 1, 0] and sum(visits) == 5


def test_virtual_loss_spreads_one_tree_over_a_batch(engine, opening):
    """One tree, one batch: each descent adds a virtual visit of value 0, so the next descent of
    the same batch sees n = 1, Q = 0 on the edge taken and goes elsewhere."""
    search = engine.PuctSearch([opening], simulations=3, c_init=1.0)
    observations, legal = search.gather(8)
    assert len(observations) == 1  # the root alone: its own evaluation first
    n = 3
    search.backup(np.zeros((1, A), np.float32), np.full((1, n), 1 / 3, np.float32))
    observations, legal = search.gather(8)
    assert len(observations) == 3  # three different children, no collision
    assert observations.dtype == np.float32 and legal.dtype == np.bool_
    assert observations.shape == (3, search.observation_size) and legal.shape == (3, A)
    search.backup(np.zeros((3, A), np.float32), np.full((3, n), 1 / 3, np.float32))
    assert search.done
    assert search.results()[0]["visits"][:3] == [1, 1, 1]
    assert search.gather(8)[0].shape == (0, search.observation_size)


BAD_OUTPUTS = [
    (lambda lg, v: (lg.astype(np.float64), v), TypeError, "logits must be float32, not float64"),
    (
        lambda lg, v: (lg[:, :5], v),
        ValueError,
        "logits must have shape ({rows}, 2036), not ({rows}, 5)",
    ),
    (
        lambda lg, v: (lg[:1], v[:1]),
        ValueError,
        "logits must have shape ({rows}, 2036), not (1, 2036)",
    ),
    (
        lambda lg, v: (lg, v[:, :1]),
        ValueError,
        "values must have shape ({rows}, 3), not ({rows}, 1)",
    ),
    (lambda lg, v: (lg.tolist(), v), TypeError, "logits must be a numpy.ndarray, not list"),
    (lambda lg, v: (lg, np.full_like(v, np.nan)), ValueError, "values row 0 is not finite"),
    (lambda lg, v: [lg, v], TypeError, "evaluator must return (logits, values), not list"),
]


@pytest.mark.parametrize("bad, error, message", BAD_OUTPUTS)
def test_bad_evaluator_outputs_leave_the_search_usable(engines, bad, error, message):
    outcomes = []
    for engine in engines:
        state = engine.Game(3).new_initial_state()
        while state.is_chance_node():
            state.apply_random_chance(4)
        search = engine.PuctSearch([state, state.clone()], simulations=8)
        good = uniform(3)
        search.run(good, 4)
        search.new_search()
        rows = []

        def broken(observations, legal):
            rows.append(len(observations))
            return bad(*good(observations, legal))

        with pytest.raises(error) as caught:
            search.run(broken, 4)
        assert str(caught.value) == message.format(rows=rows[0])
        assert search.pending == 0
        search.run(good, 4)
        assert search.done
        outcomes.append(search.results())
    assert outcomes[0] == outcomes[1]


def test_nonfinite_logits_only_matter_where_legal(engine, opening):
    search = engine.PuctSearch([opening], simulations=2)
    observations, legal = search.gather()
    logits = np.where(legal, 0.0, -np.inf).astype(np.float32)
    search.backup(logits, np.full((1, 3), 1 / 3, np.float32))  # -inf on illegal: fine
    observations, legal = search.gather()
    logits = np.zeros((len(legal), A), np.float32)
    first = int(np.flatnonzero(legal[0])[0])
    logits[0, first] = np.inf
    with pytest.raises(ValueError, match=f"^logits row 0 is not finite at legal action {first}$"):
        search.backup(logits, np.full((len(legal), 3), 1 / 3, np.float32))
    search.backup(np.zeros_like(logits), np.full((len(legal), 3), 1 / 3, np.float32))
    assert search.done


def test_an_evaluator_exception_reaches_the_caller_unchanged(engine, opening):
    class Boom(Exception):
        pass

    error = Boom("the model is on fire")

    def raising(observations, legal):
        raise error

    search = engine.PuctSearch([opening], simulations=4)
    with pytest.raises(Boom) as caught:
        search.run(raising)
    assert caught.value is error
    assert search.pending == 0
    search.run(uniform(3))
    assert sum(search.results()[0]["visits"]) == 4


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        ({"simulations": 0}, ValueError, "simulations must be >= 1"),
        ({"simulations": 1.5}, TypeError, "simulations must be an int, not float"),
        ({"simulations": 4, "c_init": -1.0}, ValueError, "c_init must be finite and >= 0"),
        (
            {"simulations": 4, "dirichlet_fraction": 2},
            ValueError,
            "dirichlet_fraction must be in [0, 1]",
        ),
        ({"simulations": 4, "virtual_loss": -1}, ValueError, "virtual_loss must be >= 0"),
        ({"simulations": 4, "c_base": "x"}, TypeError, "c_base must be a number, not str"),
    ],
)
def test_bad_arguments(engine, opening, kwargs, error, message):
    with pytest.raises(error, match="^" + message.replace("[", r"\[").replace("]", r"\]") + "$"):
        engine.PuctSearch([opening], **kwargs)


def test_bad_roots(engine, opening):
    with pytest.raises(ValueError, match=r"^states must not be empty$"):
        engine.PuctSearch([], simulations=1)
    with pytest.raises(
        ValueError,
        match=r"^PuctSearch needs decision nodes, states\[1\] is a "
        r"chance node$",
    ):
        engine.PuctSearch([opening, engine.Game(3).new_initial_state()], simulations=1)
    with pytest.raises(TypeError, match=r"^states must be a sequence of State, not generator$"):
        engine.PuctSearch((s for s in [opening]), simulations=1)
    assert engine.PuctSearch(np.array([opening, opening], dtype=object), simulations=1).pending == 0
    with pytest.raises(TypeError, match=r"^every item of states must be a State, not int$"):
        engine.PuctSearch([opening, 3], simulations=1)
    with pytest.raises(ValueError, match=r"^states must all be of one game$"):
        two = engine.Game(2).new_initial_state()
        while two.is_chance_node():
            two.apply_random_chance(0)
        engine.PuctSearch([opening, two], simulations=1)


def test_numpy_integers_are_ints(engine, opening):
    search = engine.PuctSearch([opening], simulations=np.int64(3), seed=np.uint64(2))
    search.run(uniform(3), np.int32(4))
    assert sum(search.results()[0]["visits"]) == 3


def test_pending_leaves_block_gather_until_backup_or_cancel(engine, opening):
    search = engine.PuctSearch([opening], simulations=3)
    search.gather()
    message = "^gather: the leaves of the last gather wait for backup \\(or cancel\\)$"
    with pytest.raises(ValueError, match=message):
        search.gather()
    search.cancel()
    assert search.pending == 0 and not search.done
    search.run(uniform(3))
    assert search.done


def test_tree_reuse_keeps_the_subtree_in_both_engines(engines):
    """advance to the child of the most visited action keeps its visits (the root's own and its
    edges'), and the next search adds to them, the same in both engines."""
    outs = []
    for engine in engines:
        state = first_decision(engine)
        search = engine.PuctSearch([state], simulations=30, seed=2)
        evaluator = Projection(search.observation_size, 3)
        search.run(evaluator, 4)
        result = search.results()[0]
        child = state.clone()
        child.apply_action(result["actions"][result["visits"].index(max(result["visits"]))])
        assert not child.is_chance_node()  # a child of the root without chance between
        reused = search.advance(0, child)
        kept = sum(search.results()[0]["visits"])
        search.run(evaluator, 4)
        outs.append((reused, kept, search.results()))
        assert reused and kept > 0 and sum(search.results()[0]["visits"]) == kept + 30
        assert not search.advance(0, state)  # not a child: a new tree
        assert sum(search.results()[0]["visits"]) == 0
    assert outs[0] == outs[1]


def test_playout_values_are_the_playouts_mean_returns_in_both_engines(engines):
    # docs/neural.md "Mixed leaf values": row r, playout j uses stream seed + r * count + j,
    # which is the numbering of playouts_batch; the result is relative to each leaf's mover.
    history = random_history(engines[0], 2, {}, 11, 40, decision=True)
    states = [replay(engine, 2, {}, history) for engine in engines]
    got = []
    for engine, state in zip(engines, states):
        search = engine.PuctSearch([state], simulations=20, seed=4)
        search.run(uniform(2), 4)  # expand the root, so that the next gather has 4 leaves
        search.new_search()
        search.gather(4)
        got.append((search.playout_values(3, 2**64 - 5), search))
    (ref_values, ref_search), (fast_values, _) = got
    # The reference's leaves, read from its tree (the C++ search does not hand them out).
    leaves = [ref_search._trees[0].pending[i][1].state for i in range(4)]
    assert ref_values.dtype == np.float32 and ref_values.shape == (4, 2)
    assert np.array_equal(ref_values, fast_values)
    ref = engines[0]
    returns = ref.playouts_batch(leaves, 3, 2**64 - 5)["returns"]  # (4, 3, 2)
    for r, leaf in enumerate(leaves):
        mover = leaf.current_player()
        mean = returns[r].sum(axis=0) / 3
        assert ref_values[r].tolist() == [np.float32(mean[(mover + k) % 2]) for k in range(2)]


@pytest.mark.parametrize(
    "count, error, message",
    [
        (0, ValueError, "count must be in 1..4096, not 0"),
        (4097, ValueError, "count must be in 1..4096, not 4097"),
        (2**70, ValueError, f"count must be in 1..4096, not {2**70}"),
        (1.0, TypeError, "count must be an int, not float"),
        (True, TypeError, "count must be an int, not bool"),
    ],
)
def test_bad_playout_values_arguments(engine, opening, count, error, message):
    search = engine.PuctSearch([opening], simulations=2)
    with pytest.raises(error, match="^" + message + "$"):
        search.playout_values(count, 0)
    with pytest.raises(TypeError, match="^seed must be an int, not str$"):
        search.playout_values(1, "0")
    assert search.playout_values(2, 0).shape == (0, 3)  # nothing gathered: no rows


def test_result_arrays_are_the_results_over_the_action_space(engines):
    """result_arrays holds results() at the legal actions' ids and 0 elsewhere, the same in both
    engines (the Gumbel root too: its improved policy and selected action)."""
    pairs = position_pairs(engines, 3, seed=5, decision=True)
    for (n, flags), ref_state, fast_state in pairs:
        arrays = []
        for engine, state in zip(engines, (ref_state, fast_state)):
            search = engine.PuctSearch([state, state.clone()], simulations=12, seed=3, gumbel=True)
            search.run(Projection(search.observation_size, n), 5)
            out = search.result_arrays()
            for i, result in enumerate(search.results()):
                actions = result["actions"]
                assert out["legal"][i].tolist() == [a in actions for a in range(A)]
                for key in ("visits", "priors", "q", "improved_policy"):
                    assert out[key][i, actions].tolist() == result[key]
                    assert not out[key][i, ~out["legal"][i]].any()
                assert out["value"][i].tolist() == result["value"]
                assert out["network_value"][i] == result["network_value"]
                assert out["selected"][i] == result["selected"]
            arrays.append(out)
        assert arrays[0].keys() == arrays[1].keys()
        for key, value in arrays[0].items():
            assert value.dtype == arrays[1][key].dtype and value.shape == arrays[1][key].shape
            assert np.array_equal(value, arrays[1][key]), key


def test_run_stops_gathering_once_max_time_has_passed(engine, opening):
    """With max_time no batch starts after that many seconds: an evaluator slower than the
    budget is called once, and the search is left unfinished; without a deadline (1e9 seconds
    or more) it runs to the end."""
    calls = []
    players = opening.get_game().num_players

    def slow(observations, legal):
        calls.append(len(observations))
        time.sleep(0.3)
        return uniform(players)(observations, legal)

    search = engine.PuctSearch([opening], simulations=50)
    search.run(slow, 4, max_time=0.2)
    assert calls == [1] and not search.done
    search.run(uniform(players), 4, max_time=1e9)
    assert search.done and sum(search.results()[0]["visits"]) == 50
    with pytest.raises(ValueError, match="^max_time must be > 0, not 0$"):
        search.run(slow, 4, max_time=0)
    with pytest.raises(TypeError, match="^max_time must be a number, not str$"):
        search.run(slow, 4, max_time="1")


def test_advance_finds_the_child_by_its_position_not_its_object(engines):
    """A state equal to a child of the root (SamePosition), made from the child's bytes, keeps
    the child's subtree in both engines."""
    outs = []
    for engine in engines:
        state = first_decision(engine)
        search = engine.PuctSearch([state], simulations=20, seed=1)
        search.run(Projection(search.observation_size, 3), 4)
        child = state.clone()
        child.apply_action(search.results()[0]["selected"])
        assert not child.is_chance_node()  # a child of the root without chance between
        copy = state.get_game().deserialize_state(child.serialize())
        assert copy is not child and copy == child
        outs.append((search.advance(0, copy), search.results()))
    assert outs[0][0] and outs[0] == outs[1]
