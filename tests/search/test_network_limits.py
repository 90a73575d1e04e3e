"""The integer network at the limits of what it accepts (docs/neural.md "The network's input
range"): positions with gold and Fame up to what state_from_dict accepts (2^30 - 1) give the same
features, logits, values and moves in both engines (the C++ sums the first layer in int64 where
int32 could overflow, the reference reads gold and Fame exactly, not through float32); weights
beyond what the quantization can hold are refused by name, in double, with the same message in
both engines, at load and at Network(...), whether or not the MLP's own checks ran."""

import functools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import load_engine
from search_positions import random_history, replay
from vikinger_ref import OPTION_NAMES, az_bot
from vikinger_ref.dict_reader import MAX_MONEY
from vikinger_ref.mlp import MLPEvaluator
from vikinger_ref.network import BIAS_LIMIT, WEIGHT_LIMIT
from vikinger_ref.network_features import FEATURE_SETS, OBSERVATION_V1

ALL_MODULES = {name: True for name in OPTION_NAMES}
# (num_players, flags, history) of mid-game decision nodes, base game and every module.
BASES = [
    (n, flags, random_history(load_engine("ref"), n, flags, seed, steps, decision=True))
    for n, flags, seed, steps in (
        (2, {}, 1, 120),
        (3, {}, 2, 300),
        (4, {}, 3, 500),
        (2, ALL_MODULES, 4, 200),
        (4, ALL_MODULES, 5, 400),
    )
]
MONEY = st.one_of(
    st.integers(0, MAX_MONEY),
    st.sampled_from([0, 1, 2**15, 2**24, 2**24 + 1, 2**30 - 2, MAX_MONEY]),
)


def both():
    return load_engine("ref"), load_engine("fast")


@functools.lru_cache(maxsize=None)
def random_mlp(n, modules, kind, features=OBSERVATION_V1):
    """A random MLP of the game reading `features`; "heavy": its first layer at the largest
    weights (15.99, s = 11) and biases (2^19) it can hold, so the int32 sums of the first layer
    reach 2^31 - 1 at an L1 norm of the features of about 2^15."""
    game = load_engine("ref").Game(n, **dict(modules))
    mlp = MLPEvaluator.random(game, hidden=(24, 8), seed=n, features=features)
    if kind == "heavy":
        rng = np.random.default_rng(n)
        w, b = mlp.layers[0]
        signs = np.where(rng.random(w.shape) < 0.5, -1.0, 1.0).astype(np.float32)
        bias_signs = np.where(rng.random(b.shape) < 0.5, -1.0, 1.0).astype(np.float32)
        mlp.layers[0] = (np.float32(15.99) * signs, np.float32(2**19) * bias_signs)
    return mlp


def money_states(base, money):
    """The decision node `base` in both engines with the players' gold and Fame set to `money`,
    read back through each engine's state_from_dict."""
    n, flags, history = base
    ref, _ = both()
    d = replay(ref, n, flags, history).to_dict()
    for player, (gold, fame) in zip(d["players"], money):
        player["gold"], player["fame"] = gold, fame
    return [engine.Game(n, **flags).state_from_dict(d) for engine in both()]


def same_outputs(mlp, states):
    """The features and the evaluation of both engines' Networks, compared bit for bit."""
    outputs = []
    for engine, state in zip(both(), states):
        network = engine.Network(mlp)
        outputs.append((*network.features(state), *network.evaluate(state)))
    for ref_out, fast_out in zip(*outputs):
        assert ref_out.dtype == fast_out.dtype and ref_out.tobytes() == fast_out.tobytes()
    return outputs[0]


@settings(max_examples=40, deadline=None)
@given(
    which=st.integers(0, len(BASES) - 1),
    money=st.lists(st.tuples(MONEY, MONEY), min_size=4, max_size=4),
    kind=st.sampled_from(["random", "heavy"]),
    features=st.sampled_from(FEATURE_SETS),
)
def test_gold_and_fame_up_to_the_limit_give_the_same_bits(which, money, kind, features):
    n, flags, _ = BASES[which]
    states = money_states(BASES[which], money)
    index, value, logits, values = same_outputs(
        random_mlp(n, tuple(sorted(flags.items())), kind, features), states
    )
    # The input is the position's integers: every player's gold and Fame exactly.
    assert sorted(value[value >= 2**24].tolist()) == sorted(
        m for pair in money[:n] for m in pair if m >= 2**24
    )
    assert np.isfinite(logits).all() and np.isclose(values.sum(), 1.0)


@settings(max_examples=30, deadline=None)
@given(gold=st.integers(2**15 - 3000, 2**15 + 3000), which=st.sampled_from([0, 3]))
def test_the_first_layer_is_exact_on_both_sides_of_the_int32_bound(gold, which):
    """A heavy first layer: with gold around 2^15 its int32 sums reach 2^31 - 1, where the C++
    goes over to int64; the bits stay the reference's."""
    n, flags, _ = BASES[which]
    states = money_states(BASES[which], [(gold, 7)] * n)
    same_outputs(random_mlp(n, tuple(sorted(flags.items())), "heavy"), states)


@pytest.mark.parametrize("which", [0, 1, 2])
@pytest.mark.parametrize("money", [(MAX_MONEY, MAX_MONEY), (MAX_MONEY, 0), (0, MAX_MONEY)])
def test_the_shipped_bots_play_the_same_move_at_the_limit(which, money):
    """AZBot and PolicyNetBot on the shipped networks (evaluated as the integer network) play the
    same moves in both engines on positions at the money limit."""
    n, flags, _ = BASES[which]
    states = money_states(BASES[which], [money] * n)
    moves = []
    for engine, state in zip(both(), states):
        game = engine.Game(n)
        policy = engine.PolicyNetBot(game)
        search = engine.AZBot(game, 3, simulations=12)
        moves.append((policy.step(state), policy.policy(state), search.step(state)))
    assert moves[0] == moves[1]
    assert moves[0][0] in states[0].legal_actions()


BOUND_VALUES = st.one_of(
    st.sampled_from([1.0, 15.99, 16.0, WEIGHT_LIMIT, BIAS_LIMIT, 2**39, 1e12, 1e13, 3e38]),
    st.floats(WEIGHT_LIMIT - 1, WEIGHT_LIMIT + 1, width=32),
    st.floats(BIAS_LIMIT - 1, BIAS_LIMIT + 1, width=32),
    st.floats(2**19 - 1, 2**19 + 1, width=32),
)
ARRAYS = ["w0", "b0", "w1", "b1", "policy_w", "policy_b", "value_w", "value_b"]


def set_value(mlp, name, value):
    """`mlp` (a copy) with the first entry of the array `name` set to `value`."""
    copy = MLPEvaluator.__new__(type(mlp))
    copy.__dict__.update(mlp.__dict__)
    copy.layers = [(w.copy(), b.copy()) for w, b in mlp.layers]
    copy.policy = tuple(a.copy() for a in mlp.policy)
    copy.value = tuple(a.copy() for a in mlp.value)
    if name.startswith(("policy", "value")):
        head, kind = name.split("_")
        array = getattr(copy, head)[kind == "b"]
    else:
        array = copy.layers[int(name[1:])][name[0] == "b"]
    array.reshape(-1)[0] = value
    return copy


def network_outcome(engine, mlp, state):
    """(shifts, output bytes) of engine.Network(mlp) on `state`, or (type, message) refused."""
    try:
        network = engine.Network(mlp)
    except (TypeError, ValueError) as error:
        return type(error), str(error)
    return network.shifts, [a.tobytes() for a in network.evaluate(state)]


class Unchecked(MLPEvaluator):
    """An MLP whose own checks do nothing: the Networks must check what they scale themselves."""

    def check_weights(self):
        pass


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(ARRAYS), value=BOUND_VALUES, sign=st.sampled_from([1, -1]))
def test_weights_near_the_bounds_are_taken_or_refused_alike(name, value, sign):
    mlp = random_mlp(2, (), "random")
    states = money_states(BASES[0], [(30, 40)] * 2)
    stored = np.float32(sign * value)
    limit = BIAS_LIMIT if name.startswith("b") or name.endswith("_b") else WEIGHT_LIMIT
    refusal = (
        ValueError,
        f"{name} must lie within [-{limit}, {limit}] (what the integer network can hold)",
    )
    for cls in (MLPEvaluator, Unchecked):
        changed = set_value(mlp, name, stored)
        changed.__class__ = cls
        outcomes = [network_outcome(e, changed, s) for e, s in zip(both(), states)]
        assert outcomes[0] == outcomes[1], (name, stored, cls)
        if abs(float(stored)) > limit:
            assert outcomes[0] == refusal
        elif isinstance(outcomes[0][0], list):
            assert np.isfinite(np.frombuffer(outcomes[0][1][0], np.float32)).all()
    # The MLP's own checks (at load and construction) refuse the same arrays.
    arrays = (load_engine("ref").Game(2), changed.layers, changed.policy, changed.value)
    if abs(float(stored)) > limit:
        with pytest.raises(ValueError, match=f"^{name} must lie within"):
            MLPEvaluator(*arrays)
    else:
        MLPEvaluator(*arrays)


def test_a_non_finite_value_past_the_mlp_checks_is_refused_alike():
    states = money_states(BASES[0], [(30, 40)] * 2)
    for value in (np.nan, np.inf, -np.inf):
        changed = set_value(random_mlp(2, (), "random"), "b1", value)
        changed.__class__ = Unchecked
        outcomes = [network_outcome(e, changed, s) for e, s in zip(both(), states)]
        assert (
            outcomes[0]
            == outcomes[1]
            == (
                ValueError,
                f"b1 must lie within [-{BIAS_LIMIT}, {BIAS_LIMIT}] (what the integer network can "
                "hold)",
            )
        )
        changed.__class__ = MLPEvaluator
        for engine in both():
            with pytest.raises(ValueError, match="^the MLP's weights must be finite$"):
                engine.Network(changed)


def test_the_shipped_networks_are_far_inside_the_limits():
    ref = load_engine("ref")
    for n in (2, 3, 4):
        mlp = MLPEvaluator.load(az_bot.shipped_model(ref.Game(n)), ref.Game(n))
        for w, b in [*mlp.layers, mlp.policy, mlp.value]:
            assert np.abs(w).max() < WEIGHT_LIMIT / 1000 and np.abs(b).max() < BIAS_LIMIT / 1000
