"""The score utility in the network bots (docs/neural.md "Score-aware values"): AZBot and PuctBot
with score_utility = w search the same trees in both engines on a network with a score head, with
the integer network and with the numpy MLP (whose values become the blend); w = 0, the default,
is the bot of before; a bad w, and w > 0 without a score head, are refused at construction with
the same error in both engines."""

import math

import numpy as np
import pytest

from vikinger_ref import az_bot
from vikinger_ref.mlp import SCORE_HEAD_NEEDED, MLPEvaluator

FAST = {"playouts": 2, "solver_nodes": 0, "batch_size": 4}


def opening(engine, players=2, seed=9):
    state = engine.Game(players).new_initial_state()
    while state.is_chance_node():
        state.apply_random_chance(seed)
    return state


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    """A 2-player weights file with a score head and the same file without it."""
    folder = tmp_path_factory.mktemp("score-models")
    game = az_bot.Game(2)
    paths = {}
    for name, score in (("scored", True), ("plain", False)):
        paths[name] = str(folder / f"{name}.npz")
        MLPEvaluator.random(game, hidden=(32,), seed=5, score=score).save(paths[name])
    return paths


@pytest.mark.parametrize("evaluator", ["network", "numpy"])
def test_azbot_searches_the_same_trees_in_both_engines(engines, models, evaluator):
    results = []
    for engine in engines:
        bot = engine.AZBot(
            engine.Game(2),
            4,
            model=models["scored"],
            evaluator=evaluator,
            simulations=40,
            score_utility=0.25,
            **FAST,
        )
        results.append(bot.search(opening(engine)))
    assert results[0] == results[1]
    assert sum(results[0]["visits"]) == 40


def test_the_weight_changes_the_search(engine, models):
    """The same bot with and without the score utility: the root values differ (the blend is
    applied), and each stays within [0, 1] per seat."""
    values = []
    for weight in (0.0, 0.6):
        bot = engine.AZBot(
            engine.Game(2),
            4,
            model=models["scored"],
            simulations=30,
            score_utility=weight,
            score_scale=0.0,
            score_round=1,
            **FAST,
        )
        values.append(bot.search(opening(engine))["value"])
    assert values[0] != values[1]
    assert all(0.0 <= v <= 1.0 for v in values[1])


@pytest.mark.parametrize("evaluator", ["network", "numpy"])
def test_a_zero_weight_is_the_bot_of_before(engine, models, evaluator):
    results = []
    for name, options in (("plain", {}), ("scored", {"score_utility": 0.0})):
        bot = engine.AZBot(
            engine.Game(2), 7, model=models[name], evaluator=evaluator, simulations=24, **FAST
        )
        bot_with = engine.AZBot(
            engine.Game(2),
            7,
            model=models[name],
            evaluator=evaluator,
            simulations=24,
            **options,
            **FAST,
        )
        results += [bot.search(opening(engine)), bot_with.search(opening(engine))]
    assert all(result == results[0] for result in results)


def test_the_default_is_the_centred_score_of_round_6_with_a_score_head(engine, models):
    """AZBot without score keywords: on a Network with a score head, az_bot's SCORE_UTILITY,
    SCORE_SCALE and SCORE_ROUND; without one (or on the numpy MLP), win shares alone."""
    from endgame_positions import shipped

    final = shipped(engine, 2, 1)[0][0]
    centred = {
        "score_utility": az_bot.SCORE_UTILITY,
        "score_scale": az_bot.SCORE_SCALE,
        "score_round": az_bot.SCORE_ROUND,
    }
    assert centred["score_utility"] > 0 and centred["score_scale"] > 0
    for name, evaluator, explicit in (
        ("scored", "network", centred),
        ("scored", "numpy", {"score_utility": 0.0}),
        ("plain", "network", {"score_utility": 0.0}),
    ):
        results = []
        for options in ({}, explicit):
            bot = engine.AZBot(
                engine.Game(2),
                5,
                model=models[name],
                evaluator=evaluator,
                simulations=24,
                **options,
                **FAST,
            )
            results.append(bot.search(final))
        assert results[0] == results[1], (name, evaluator)


def test_the_numpy_evaluator_returns_the_blend_of_its_heads():
    game = az_bot.Game(3)
    mlp = MLPEvaluator.random(game, hidden=(16,), seed=2, score=True)
    state = opening(az_bot, 3)
    rows = np.asarray(state.observation_tensor(state.current_player()), np.float32)[None]
    logits, values = mlp.with_score_utility(0.4)(rows, None)
    plain_logits, shares = mlp(rows, None)
    scores = mlp.scores(rows)
    assert values.dtype == np.float32 and np.array_equal(logits, plain_logits)
    for k in range(3):
        by_hand = 0.6 * float(shares[0, k]) + 0.4 * (float(scores[0, k]) + 1.0) / 2.0
        assert values[0, k] == np.float32(by_hand)
    with pytest.raises(ValueError) as caught:
        MLPEvaluator.random(game, hidden=(4,)).with_score_utility(0.4)
    assert str(caught.value) == SCORE_HEAD_NEEDED


@pytest.mark.parametrize(
    "bot",
    [
        # The shipped base-game network of 3 players has no score head (az-2p.npz has one).
        lambda e, models: e.AZBot(e.Game(3), 0, simulations=8, score_utility=0.2),
        lambda e, models: e.AZBot(
            e.Game(3), 0, simulations=8, evaluator="numpy", score_utility=0.2
        ),
        lambda e, models: e.AZBot(
            e.Game(2), 0, model=models["plain"], simulations=8, score_utility=1.0
        ),
        lambda e, models: e.PuctBot(e.Game(2), 0, simulations=8, score_utility=0.2),
        lambda e, models: e.PuctBot(
            e.Game(2), 0, simulations=8, evaluator=lambda o, m: None, score_utility=0.2
        ),
        lambda e, models: e.PuctBot(
            e.Game(2),
            0,
            simulations=8,
            evaluator=e.Network(MLPEvaluator.random(e.Game(2), hidden=(4,))),
            score_utility=0.2,
        ),
    ],
)
def test_a_weight_without_a_score_head_is_refused_at_construction(engines, models, bot):
    for engine in engines:
        with pytest.raises(ValueError) as caught:
            bot(engine, models)
        assert str(caught.value) == SCORE_HEAD_NEEDED


@pytest.mark.parametrize(
    "value, error, message",
    [
        (-0.1, ValueError, "score_utility must be in [0, 1], not -0.1"),
        (1.5, ValueError, "score_utility must be in [0, 1], not 1.5"),
        (math.nan, ValueError, "score_utility must be in [0, 1], not nan"),
        (True, TypeError, "score_utility must be a number, not bool"),
        ("0.2", TypeError, "score_utility must be a number, not str"),
    ],
)
def test_a_bad_weight_is_refused_alike(engines, models, value, error, message):
    for engine in engines:
        for make in (engine.AZBot, engine.PuctBot):
            with pytest.raises(error) as caught:
                make(engine.Game(2), 0, model=models["scored"], simulations=8, score_utility=value)
            assert str(caught.value) == message


def test_the_arena_spec_key(engine, models):
    """`score_utility` is a spec key of az and puct (their keyword): refused without a score
    head in the spec's words, played with one."""
    from vikinger_fast import arena

    assert "score_utility" in arena.spec_keys("az") and "score_utility" in arena.spec_keys("puct")
    with pytest.raises(ValueError) as caught:
        arena.check_spec("az:score_utility=0.2", engine, 3)  # az-3p.npz: no score head
    assert str(caught.value) == f"bot spec 'az:score_utility=0.2': {SCORE_HEAD_NEEDED}"
    arena.check_spec("az:score_utility=0.2", engine)  # az-2p.npz has one
    spec = arena.check_spec(f"az:simulations=8,model={models['scored']},score_utility=0.2", engine)
    bot = arena.make_bot(spec, engine, engine.Game(2), 1)
    state = opening(engine)
    assert bot.step(state) in state.legal_actions()
