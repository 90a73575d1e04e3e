"""The centred score utility (docs/neural.md "Score-aware values"): with score_scale = D > 0 the
score of a margin is tanh((margin - centre) / (64 * D)), the centre the tree root's projected
margin (evaluation's projected boards) and a network leaf's margin read back from its score head.
Both engines build the same trees; each value is the blend written out by hand; a tree starts anew
at advance; bad scales get the same errors in both engines; D = 0 is the score of before."""

import math

import numpy as np
import pytest

import vikinger_ref
from endgame_positions import shipped, solved_children
from evaluators import constant
from search_positions import by_game, position_pairs
from vikinger_ref.evaluation import projected_boards
from vikinger_ref.mlp import MLPEvaluator
from vikinger_ref.solver import HEAD_CLIP

WEIGHT = 0.4
SCALE = 4.0


def utility(win_share, score, weight=WEIGHT):
    return (1.0 - weight) * float(win_share) + weight * (float(score) + 1.0) / 2.0


def centre_of(ref_state):
    """The projected margins of a reference state, written out: 64 * Fame + gold of the boards
    after this round's scoring and B8, minus the best other player's."""
    totals = [64 * b.fame + b.gold for b in projected_boards(ref_state)]
    return [t - max(o for j, o in enumerate(totals) if j != i) for i, t in enumerate(totals)]


def centred(margin, centre, scale=SCALE):
    return math.tanh((margin - centre) / (64 * scale))


def round6_pairs(engines, players, count):
    """(reference state, fast state, position) of shipped endgame positions."""
    ref, fast = engines
    refs = shipped(ref, players, count, max_nodes=20_000)
    fasts = shipped(fast, players, count, max_nodes=20_000)
    return [(r[0], f[0], r[1]) for r, f in zip(refs, fasts)]


@pytest.mark.parametrize("gumbel", [False, True])
def test_both_engines_build_the_same_trees_with_a_centred_score(engines, gumbel):
    pairs = position_pairs(engines, 12, seed=41, decision=True, max_steps=900)
    for (n, flags), states in by_game(pairs).items():
        mlp = MLPEvaluator.random(
            engines[0].Game(n, **dict(flags)), hidden=(16,), seed=n, score=True
        )
        results = []
        for engine, roots in zip(engines, states):
            search = engine.PuctSearch(
                roots, simulations=16, seed=2, gumbel=gumbel, score_utility=0.5, score_scale=2.5
            )
            search.run(engine.Network(mlp), 6, playouts=2, playout_weight=0.5, playout_seed=13)
            results.append(search.results())
        assert results[0] == results[1], (n, flags)


def test_a_network_leaf_backs_up_its_head_margin_centred_on_the_root(engine):
    """One simulation: the root is the one leaf, so its network_value is the blend of its win
    share and tanh((64 * 8 * atanh(score) - centre) / (64 * D)) for the mover."""
    game = engine.Game(2)
    ref_game = vikinger_ref.Game(2)
    state, ref_state = game.new_initial_state(), ref_game.new_initial_state()
    while state.is_chance_node():
        state.apply_random_chance(12)
        ref_state.apply_random_chance(12)
    mlp = MLPEvaluator.random(game, hidden=(24,), seed=8, score=True)
    net = engine.Network(mlp)
    search = engine.PuctSearch([state], simulations=1, score_utility=WEIGHT, score_scale=SCALE)
    assert search.run_batch(net, 4) == 1
    _, values = net.evaluate(state)
    score = float(net.scores(state)[0])
    margin = 512 * math.atanh(max(-HEAD_CLIP, min(HEAD_CLIP, score)))
    mover = state.current_player()
    expected = np.float32(utility(values[0], centred(margin, centre_of(ref_state)[mover])))
    assert search.results()[0]["network_value"] == float(expected)


@pytest.mark.parametrize("players", [2, 3])
def test_a_solved_leaf_and_a_terminal_node_back_up_their_exact_margin_centred(engines, players):
    ref, fast = engines
    checked = 0
    for ref_state, fast_state, position in round6_pairs(engines, players, 3):
        results = []
        for engine, state in ((ref, ref_state), (fast, fast_state)):
            search = engine.PuctSearch(
                [state],
                simulations=40,
                seed=5,
                solver_nodes=20_000,
                score_utility=WEIGHT,
                score_scale=SCALE,
            )
            search.run(constant(players), 8)
            results.append(search.results()[0])
        assert results[0] == results[1]
        centre = centre_of(ref_state)[fast_state.current_player()]
        for action, q, margin in solved_children(fast, fast_state, position, results[1], 20_000):
            expected = utility(1.0 if margin > 0 else 0.0, centred(margin, centre))
            assert q == pytest.approx(expected, rel=1e-12), (action, margin)
            checked += 1
    assert checked >= 3


def test_a_centred_tree_starts_anew_at_advance(engines):
    for engine in engines:
        state = engine.Game(2).new_initial_state()
        while state.is_chance_node():
            state.apply_random_chance(4)
        outcomes = []
        for scale in (0.0, SCALE):
            mlp = MLPEvaluator.random(state.get_game(), hidden=(8,), seed=1, score=True)
            search = engine.PuctSearch(
                [state], simulations=30, seed=1, score_utility=WEIGHT, score_scale=scale
            )
            search.run(engine.Network(mlp), 8)
            child = state.clone()
            child.apply_action(int(search.result_arrays()["selected"][0]))
            while child.is_chance_node():
                child.apply_random_chance(5)
            outcomes.append(search.advance(0, child))
        assert outcomes == [True, False]


@pytest.mark.parametrize(
    "value, error, message",
    [
        (-1.0, ValueError, r"score_scale must be finite and >= 0 \(0: not centred\)"),
        (math.inf, ValueError, r"score_scale must be finite and >= 0 \(0: not centred\)"),
        (math.nan, ValueError, r"score_scale must be finite and >= 0 \(0: not centred\)"),
        (True, TypeError, "score_scale must be a number, not bool"),
        ("4", TypeError, "score_scale must be a number, not str"),
    ],
)
def test_a_bad_score_scale_is_refused_alike(engines, value, error, message):
    for engine in engines:
        state = engine.Game(2).new_initial_state()
        while state.is_chance_node():
            state.apply_random_chance(1)
        with pytest.raises(error, match=message):
            engine.PuctSearch([state], simulations=4, score_utility=0.5, score_scale=value)
