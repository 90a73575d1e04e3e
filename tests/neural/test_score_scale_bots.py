"""The centred score utility in the network bots (docs/neural.md "Score-aware values"): AZBot and
PuctBot with score_scale = D > 0 search the same trees in both engines on the integer network; the
scale changes the search; the numpy MLP (which blends before the search knows its root), a scale
without a weight and bad scales are refused at construction with the same error in both engines;
score_scale is a spec key of az and puct."""

import math

import pytest

from vikinger_ref import az_bot
from vikinger_ref.mlp import MLPEvaluator
from vikinger_ref.puct_bot import SCORE_SCALE_NEEDS_NETWORK

FAST = {"playouts": 2, "solver_nodes": 0, "batch_size": 4}


def late_state(engine, seed=9, plies=140):
    """A decision node well into a game (random moves), where margins are far from 0."""
    import random

    rng = random.Random(seed)
    state = engine.Game(2).new_initial_state()
    for _ in range(plies):
        if state.is_chance_node():
            state.apply_random_chance(rng.getrandbits(32))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    while state.is_chance_node():
        state.apply_random_chance(rng.getrandbits(32))
    assert not state.is_terminal()
    return state


@pytest.fixture(scope="module")
def scored(tmp_path_factory):
    path = tmp_path_factory.mktemp("scale-models") / "scored.npz"
    MLPEvaluator.random(az_bot.Game(2), hidden=(32,), seed=5, score=True).save(str(path))
    return str(path)


def test_azbot_searches_the_same_trees_in_both_engines(engines, scored):
    results = []
    for engine in engines:
        bot = engine.AZBot(
            engine.Game(2),
            4,
            model=scored,
            simulations=40,
            score_utility=0.5,
            score_scale=3.0,
            score_round=1,
            **FAST,
        )
        results.append(bot.search(late_state(engine)))
    assert results[0] == results[1]
    assert sum(results[0]["visits"]) == 40


def test_the_scale_changes_the_search(engine, scored):
    values = []
    for scale in (0.0, 2.0):
        bot = engine.AZBot(
            engine.Game(2),
            4,
            model=scored,
            simulations=40,
            score_utility=0.5,
            score_scale=scale,
            score_round=1,
            **FAST,
        )
        values.append(bot.search(late_state(engine))["value"])
    assert values[0] != values[1]
    assert all(0.0 <= v <= 1.0 for v in values[1])


@pytest.mark.parametrize(
    "options, error, message",
    [
        (
            {"score_utility": 0.5, "score_scale": -1.0},
            ValueError,
            "score_scale must be finite and >= 0, not -1.0",
        ),
        (
            {"score_utility": 0.5, "score_scale": math.inf},
            ValueError,
            "score_scale must be finite and >= 0, not inf",
        ),
        (
            {"score_utility": 0.5, "score_scale": math.nan},
            ValueError,
            "score_scale must be finite and >= 0, not nan",
        ),
        (
            {"score_utility": 0.5, "score_scale": True},
            TypeError,
            "score_scale must be a number, not bool",
        ),
        (
            {"score_utility": 0.0, "score_scale": 4.0},
            ValueError,
            "score_scale > 0 needs score_utility > 0 (the score's weight)",
        ),
        (
            {"score_utility": 0.5, "score_scale": 4.0, "evaluator": "numpy"},
            ValueError,
            SCORE_SCALE_NEEDS_NETWORK,
        ),
    ],
)
def test_bad_settings_are_refused_alike(engines, scored, options, error, message):
    for engine in engines:
        with pytest.raises(error) as caught:
            engine.AZBot(engine.Game(2), 0, model=scored, simulations=8, **options)
        assert str(caught.value) == message


def test_puctbot_with_a_weights_file_needs_the_network(engines, scored):
    """PuctBot(model=) runs the numpy MLP: a centred score is refused there, and played with the
    file as a Network."""
    for engine in engines:
        with pytest.raises(ValueError) as caught:
            engine.PuctBot(
                engine.Game(2), 0, model=scored, simulations=8, score_utility=0.5, score_scale=4.0
            )
        assert str(caught.value) == SCORE_SCALE_NEEDS_NETWORK
        network = engine.Network(MLPEvaluator.load(scored, engine.Game(2)))
        bot = engine.PuctBot(
            engine.Game(2), 0, evaluator=network, simulations=8, score_utility=0.5, score_scale=4.0
        )
        state = late_state(engine)
        assert bot.step(state) in state.legal_actions()


def test_the_arena_spec_key(engine, scored):
    from vikinger_fast import arena

    assert "score_scale" in arena.spec_keys("az") and "score_scale" in arena.spec_keys("puct")
    spec = arena.check_spec(
        f"az:simulations=8,model={scored},score_utility=0.5,score_scale=4", engine
    )
    bot = arena.make_bot(spec, engine, engine.Game(2), 1)
    state = late_state(engine)
    assert bot.step(state) in state.legal_actions()


def test_score_round_keeps_earlier_rounds_on_win_shares(engines, scored):
    """score_round=6: a search before round 6 is the bot's without the score utility, one in
    round 6 the bot's with it from round 1; the same in both engines."""
    from endgame_positions import shipped

    common = {"model": scored, "simulations": 30, "score_utility": 0.5, **FAST}
    for engine in engines:
        early = late_state(engine)
        assert early.to_dict()["round"] < 6
        final = shipped(engine, 2, 1)[0][0]
        results = {}
        for name, options in (
            ("round6", {"score_scale": 16.0, "score_round": 6}),
            ("always", {"score_scale": 16.0}),
            ("never", {"score_utility": 0.0}),
        ):
            for label, state in (("early", early), ("final", final)):
                bot = engine.AZBot(engine.Game(2), 3, **{**common, **options})
                results[name, label] = bot.search(state)
        assert results["round6", "early"] == results["never", "early"]
        assert results["round6", "final"] == results["always", "final"]
        assert results["always", "final"] != results["never", "final"]


@pytest.mark.parametrize(
    "value, error, message",
    [
        (0, ValueError, "score_round must be in 1..6, not 0"),
        (7, ValueError, "score_round must be in 1..6, not 7"),
        (True, TypeError, "score_round must be an int, not bool"),
        (6.0, TypeError, "score_round must be an int, not float"),
    ],
)
def test_a_bad_score_round_is_refused_alike(engines, scored, value, error, message):
    for engine in engines:
        with pytest.raises(error) as caught:
            engine.AZBot(engine.Game(2), 0, model=scored, simulations=8, score_round=value)
        assert str(caught.value) == message
