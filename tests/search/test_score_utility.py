"""The score utility in the search (docs/neural.md "Score-aware values"): with score_utility = w
every value backed up is (1 - w) * win share + w * (score + 1) / 2 per seat: the score head's
score at a network leaf, tanh(margin / 8 Fame) at a terminal node, a solved leaf and the end of
a playout. Both engines compute the same bits and build the same trees; w = 0 is the search of
before; bad weights and networks without a score head get the same errors in both engines."""

import math
import random

import numpy as np
import pytest

from endgame_positions import shipped, solved_children
from evaluators import constant
from search_positions import by_game, position_pairs, replay
from vikinger_ref.mlp import SCORE_HEAD_NEEDED, MLPEvaluator

WEIGHT = 0.3


def score_networks(engines, game_args, **random_args):
    """The Network of one random MLP with a score head in each engine, and the MLP."""
    game = engines[0].Game(game_args[0], **game_args[1])
    mlp = MLPEvaluator.random(game, score=True, **random_args)
    return [engine.Network(mlp) for engine in engines], mlp


def utility(win_share, score, weight):
    """The blend written out by hand: (1 - w) * win share + w * (score + 1) / 2."""
    return (1.0 - weight) * float(win_share) + weight * (float(score) + 1.0) / 2.0


def squashed(fame, gold, seat):
    """tanh of the seat's margin in Fame over 8, from the final Fame and gold."""
    totals = [64 * f + g for f, g in zip(fame, gold)]
    margin = totals[seat] - max(t for k, t in enumerate(totals) if k != seat)
    return math.tanh(margin / 64 / 8)


def test_network_scores_are_the_same_bits_and_close_to_the_float_head(engines):
    pairs = position_pairs(engines, 30, seed=4, decision=True, max_steps=900)
    for (n, flags), states in by_game(pairs).items():
        nets, mlp = score_networks(engines, (n, dict(flags)), hidden=(32, 32), seed=n)
        assert all(net.has_score_head for net in nets)
        for ref_state, fast_state in zip(*states):
            ref_scores, fast_scores = nets[0].scores(ref_state), nets[1].scores(fast_state)
            assert fast_scores.dtype == np.float32 and ref_scores.tobytes() == fast_scores.tobytes()
            row = np.asarray(fast_state.observation_tensor(fast_state.current_player()), np.float32)
            assert np.abs(mlp.scores(row[None])[0] - fast_scores).max() <= 0.01
        assert nets[0].shifts == nets[1].shifts and len(nets[0].shifts) == 2 + 3


@pytest.mark.parametrize("playouts", [0, 3])
def test_a_network_leaf_backs_up_the_blend_of_its_heads(engine, playouts):
    """One simulation: the root is the one leaf, so its network_value is its backed-up value for
    the mover: the blend of the network's win share and score, mixed with the playouts' blends
    (each playout's returns and final margin) in float32."""
    game = engine.Game(3)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_random_chance(11)
    mlp = MLPEvaluator.random(game, hidden=(24,), seed=8, score=True)
    net = engine.Network(mlp)
    search = engine.PuctSearch([state], simulations=1, score_utility=WEIGHT)
    assert search.run_batch(net, 4, playouts=playouts, playout_weight=0.25, playout_seed=77) == 1
    _, values = net.evaluate(state)
    expected = np.float32(utility(values[0], net.scores(state)[0], WEIGHT))
    if playouts:
        mover = state.current_player()
        out = engine.playouts(state, playouts, 77)
        played = sum(
            utility(
                out["returns"][j][mover], squashed(out["scores"][j], out["gold"][j], mover), WEIGHT
            )
            for j in range(playouts)
        )
        w = np.float32(0.25)
        expected = (np.float32(1) - w) * expected + w * np.float32(played / playouts)
    assert search.results()[0]["network_value"] == float(expected)


def last_decisions(fast, players, count, seed):
    """Histories of decision nodes with a terminal child: the last decision of random games."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = fast.Game(players).new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_random_chance(rng.getrandbits(64))
                continue
            children = [state.clone() for _ in state.legal_actions()]
            for child, action in zip(children, state.legal_actions()):
                child.apply_action(action)
            if any(child.is_terminal() for child in children):
                found.append(state.history())
                break
            state.apply_action(rng.choice(state.legal_actions()))
    return found


@pytest.mark.parametrize("players", [2, 4])
def test_a_terminal_node_backs_up_the_blend_of_its_returns_and_margin(engines, players):
    ref, fast = engines
    checked = 0
    for history in last_decisions(fast, players, 3, seed=players):
        results = []
        for engine in engines:
            state = replay(engine, players, {}, history)
            search = engine.PuctSearch([state], simulations=24, seed=3, score_utility=WEIGHT)
            search.run(constant(players), 8)
            results.append(search.results()[0])
        assert results[0] == results[1]
        state = replay(fast, players, {}, history)
        mover = state.current_player()
        for action, visits, q in zip(results[1]["actions"], results[1]["visits"], results[1]["q"]):
            child = state.clone()
            child.apply_action(action)
            if visits == 0 or not child.is_terminal():
                continue
            score = squashed(child.scores(), child.gold(), mover)
            assert q == pytest.approx(utility(child.returns()[mover], score, WEIGHT), rel=1e-12)
            checked += 1
    assert checked >= 3


@pytest.mark.parametrize("players", [2, 3])
def test_a_solved_leaf_backs_up_the_blend_of_its_exact_margin(engines, players):
    ref, fast = engines
    checked = 0
    pairs = zip(shipped(ref, players, 3, max_nodes=20_000), shipped(fast, players, 3, 20_000))
    for (ref_state, position), (fast_state, _) in pairs:
        results = []
        for engine, state in ((ref, ref_state), (fast, fast_state)):
            search = engine.PuctSearch(
                [state], simulations=40, seed=5, solver_nodes=20_000, score_utility=WEIGHT
            )
            search.run(constant(players), 8)
            results.append(search.results()[0])
        assert results[0] == results[1]
        for action, q, margin in solved_children(fast, fast_state, position, results[1], 20_000):
            expected = utility(1.0 if margin > 0 else 0.0, math.tanh(margin / 512), WEIGHT)
            assert q == pytest.approx(expected, rel=1e-12), (action, margin)
            checked += 1
    assert checked >= 3


@pytest.mark.parametrize("gumbel", [False, True])
def test_both_engines_build_the_same_trees_with_the_score_utility(engines, gumbel):
    pairs = position_pairs(engines, 12, seed=29, decision=True, max_steps=900)
    for (n, flags), states in by_game(pairs).items():
        nets, _ = score_networks(engines, (n, dict(flags)), hidden=(16, 16), seed=n)
        results = []
        for engine, roots, net in zip(engines, states, nets):
            search = engine.PuctSearch(
                roots, simulations=16, seed=2, gumbel=gumbel, score_utility=0.45
            )
            search.run(net, 6, playouts=2, playout_weight=0.5, playout_seed=13)
            results.append(search.results())
        assert results[0] == results[1], (n, flags)


def test_playout_values_are_the_blend_of_each_playout(engines):
    """playout_values with the score utility on: each playout's returns and final margin
    blended, then averaged; the same bits in both engines."""
    outs = []
    for engine in engines:
        state = engine.Game(2).new_initial_state()
        while state.is_chance_node():
            state.apply_random_chance(3)
        search = engine.PuctSearch([state], simulations=1, score_utility=WEIGHT)
        search.gather(1)
        outs.append(search.playout_values(4, 21))
        played = engine.playouts(state, 4, 21)
        mover = state.current_player()
        expected = [
            sum(
                utility(
                    played["returns"][j][seat],
                    squashed(played["scores"][j], played["gold"][j], seat),
                    WEIGHT,
                )
                for j in range(4)
            )
            / 4
            for seat in (mover, 1 - mover)
        ]
        assert outs[-1][0] == pytest.approx(expected, abs=1e-7)
    assert outs[0].tobytes() == outs[1].tobytes()


def test_a_zero_weight_is_the_search_of_before(engines):
    """score_utility=0 and a score head the search does not read: the trees of a network
    without one, in both engines."""
    pairs = position_pairs(engines, 6, seed=31, decision=True)
    for (n, flags), states in by_game(pairs).items():
        game = engines[0].Game(n, **dict(flags))
        scored = MLPEvaluator.random(game, hidden=(16,), seed=4, score=True)
        plain = MLPEvaluator.random(game, hidden=(16,), seed=4)
        for engine, roots in zip(engines, states):
            results = []
            for mlp, options in ((plain, {}), (scored, {"score_utility": 0.0})):
                search = engine.PuctSearch(roots, simulations=10, seed=6, **options)
                search.run(engine.Network(mlp), 4, playouts=1, playout_seed=2)
                results.append(search.results())
            assert results[0] == results[1]


@pytest.mark.parametrize(
    "value, error, message",
    [
        (-0.1, ValueError, r"score_utility must be in \[0, 1\]"),
        (1.5, ValueError, r"score_utility must be in \[0, 1\]"),
        (float("nan"), ValueError, r"score_utility must be in \[0, 1\]"),
        (True, TypeError, "score_utility must be a number, not bool"),
        ("0.2", TypeError, "score_utility must be a number, not str"),
    ],
)
def test_a_bad_score_utility_is_refused_alike(engines, value, error, message):
    for engine in engines:
        state = engine.Game(2).new_initial_state()
        while state.is_chance_node():
            state.apply_random_chance(1)
        with pytest.raises(error, match=message):
            engine.PuctSearch([state], simulations=4, score_utility=value)


def test_a_network_without_a_score_head_is_refused_alike(engines):
    for engine in engines:
        game = engine.Game(2)
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_random_chance(1)
        net = engine.Network(MLPEvaluator.random(game, hidden=(8,)))
        assert not net.has_score_head
        with pytest.raises(ValueError, match="^these weights have no score head$"):
            net.scores(state)
        search = engine.PuctSearch([state], simulations=4, score_utility=0.5)
        for call in (lambda: search.run(net, 4), lambda: search.run_batch(net, 4)):
            with pytest.raises(ValueError) as caught:
                call()
            assert str(caught.value) == SCORE_HEAD_NEEDED
        assert search.pending == 0


def test_a_score_head_too_large_for_integers_is_refused_alike(engines):
    """The score head is quantized by the value head's rule: a head whose sums could overflow
    int32 at every scale is refused by name in both engines."""
    game = engines[0].Game(2)
    mlp = MLPEvaluator.random(game, hidden=(64,), seed=1, score=True)
    mlp.score = (np.full_like(mlp.score[0], 32767.0), mlp.score[1])
    messages = set()
    for engine in engines:
        with pytest.raises(ValueError) as caught:
            engine.Network(mlp)
        messages.add(str(caught.value))
    assert messages == {"score: the weights are too large for the integer network"}


def test_the_reference_reads_both_heads_of_a_leaf_in_one_pass(engines, monkeypatch):
    # The reference's search with a score utility computes a leaf's hidden layers once for its
    # values and its score (as the C++ does), not once per head.
    ref = engines[0]
    game = ref.Game(num_players=2)
    network = ref.Network(MLPEvaluator.random(game, score=True, hidden=(16,), seed=3))
    state = game.new_initial_state()
    rng = np.random.default_rng(5)
    while state.is_chance_node():
        state.apply_random_chance(rng)
    search = ref.PuctSearch([state], simulations=8, score_utility=WEIGHT)
    passes = []
    hidden = type(network)._hidden
    monkeypatch.setattr(
        type(network), "_hidden", lambda self, state: passes.append(1) or hidden(self, state)
    )
    leaves = search.run_batch(network, 4)
    assert leaves > 0 and len(passes) == leaves
