"""Robustness sweeps of the calls (test_robustness_reading.py: of reading states back): every
entry point refuses bad input with the documented error, names the
problem, behaves the same in both engines, and leaves the state exactly as it was.

test_errors.py checks the documented cases one by one on constructed positions. This file sweeps
them: every action id at a position of every phase, every key and every value of full state
dicts, every truncation and every byte of the bytes, tampered pickles, and odd Python values at
every call, with the two engines compared on the same input (docs/api.md "Errors",
docs/state.md).
"""

import decimal
import enum
import fractions
import random

import numpy as np
import pytest
from positions import MAX_CHANCE_OUTCOMES, NUM_DISTINCT_ACTIONS
from refusals import ALL_FLAGS, CONFIGS, HUGE_IDS, error_of, raises, states_by_phase

# --- apply_action: every id, every phase --------------------------------------------------------

# First and last id of every block of docs/actions.md, and their neighbours.
BLOCK_EDGES = (
    0,
    9,
    10,
    15,
    16,
    29,
    11,
    12,
    16,
    17,
    19,
    20,
    339,
    340,
    341,
    342,
    343,
    347,
    348,
    349,
    353,
    354,
    673,
    674,
    675,
    1698,
    1699,
    1704,
    1705,
    1710,
    1711,
    1714,
    1715,
    1716,
    2035,
)


def ids_to_try(config, legal):
    """Every id for 2 players; else block edges, the neighbours of legal ids and a sample."""
    if config == "2p":
        return [*range(-3, NUM_DISTINCT_ACTIONS + 3), *HUGE_IDS]
    sample = random.Random(config).sample(range(NUM_DISTINCT_ACTIONS), 150)
    near = {a + d for a in legal for d in (-1, 1)}
    return sorted(
        {*BLOCK_EDGES, *(e + 1 for e in BLOCK_EDGES), *sample, *near, -1, NUM_DISTINCT_ACTIONS}
    ) + list(HUGE_IDS)


@pytest.mark.parametrize("config", list(CONFIGS))
def test_every_illegal_id_is_refused_naming_it_and_changes_nothing(engine, config):
    for phase, state in states_by_phase(engine, config).items():
        before, history = state.serialize(), state.history()
        legal = set(state.legal_actions())
        for action in ids_to_try(config, legal):
            if action in legal:
                continue
            error = error_of(lambda: state.apply_action(action))
            assert type(error) is ValueError, (phase, action, error)
            message = str(error)
            assert str(action) in message, message
            assert (phase in message) if phase != "game_over" else ("over" in message), message
        assert state.serialize() == before and state.history() == history, phase
        for action in legal:
            after = state.clone()
            after.apply_action(action)
            assert after.history() == history + [action]


def test_ids_of_another_phase_are_refused(engine):
    states = states_by_phase(engine, "2p")
    legal_at = {phase: set(state.legal_actions()) for phase, state in states.items()}
    for phase, state in states.items():
        before = state.serialize()
        foreign = set().union(*legal_at.values()) - legal_at[phase]
        for action in sorted(foreign):
            raises(lambda: state.apply_action(action), ValueError, action)
        assert state.serialize() == before
    # A decision id that is a chance id too is read in the space of the node (docs/actions.md).
    reveal, buy = states["reveal_tile"], states["buy"]
    assert 0 in legal_at["buy"] or 0 in legal_at["reveal_tile"]
    raises(lambda: reveal.apply_action(340), ValueError, 340, "reveal_tile")
    raises(lambda: buy.apply_action(MAX_CHANCE_OUTCOMES + 1000), ValueError, "buy")


@pytest.mark.parametrize("config", list(CONFIGS))
def test_game_over_refuses_every_action(engine, config):
    state = states_by_phase(engine, config)["game_over"]
    before = state.serialize()
    assert state.is_terminal() and state.legal_actions() == [] and state.chance_outcomes() == []
    assert not state.legal_actions_mask().any()
    for action in [0, 9, 29, 340, 342, 2035, -1, 2036, 2**64, np.int64(0), np.uint8(3)]:
        raises(lambda: state.apply_action(action), ValueError, "over")
    for seed in (0, 1, np.random.default_rng(1)):
        raises(lambda: state.apply_random_chance(seed), ValueError)
    for wrong in (1.0, "0", None, True):  # the type is checked first (docs/api.md)
        raises(lambda: state.apply_action(wrong), TypeError)
    assert state.serialize() == before
    assert sum(state.returns()) == pytest.approx(1.0)


# --- odd Python values --------------------------------------------------------------------------


class Indexable:
    """Not an int, but usable as one (operator.index): accepted like an int."""

    def __init__(self, value):
        self.value = value

    def __index__(self):
        return self.value


class Colour(enum.IntEnum):
    SCOUT = 2


NOT_INTS = {
    "float": 1.0,
    "float-nan": float("nan"),
    "float-inf": float("inf"),
    "str": "0",
    "None": None,
    "bool": True,
    "bool-false": False,
    "numpy-bool": np.bool_(True),
    "numpy-float64": np.float64(2.0),
    "numpy-float32": np.float32(2.0),
    "Decimal": decimal.Decimal(2),
    "Fraction": fractions.Fraction(2),
    "complex": 2 + 0j,
    "list": [2],
    "tuple": (2,),
    "bytes": b"\x02",
    "object": object(),
    "numpy-array-1d": np.array([2]),
    "surrogate-str": "\ud800",
}
INTS = {
    "numpy-int8": np.int8(2),
    "numpy-int16": np.int16(2),
    "numpy-int32": np.int32(2),
    "numpy-int64": np.int64(2),
    "numpy-uint8": np.uint8(2),
    "numpy-uint16": np.uint16(2),
    "numpy-uint32": np.uint32(2),
    "numpy-uint64": np.uint64(2),
    "IntEnum": Colour.SCOUT,
    "__index__": Indexable(2),
}
TYPE_NAMES = {"float": "float", "str": "str", "None": "NoneType", "bool": "bool", "list": "list"}


@pytest.mark.parametrize("name", list(NOT_INTS))
def test_apply_action_refuses_non_ints_naming_the_type(engine, name):
    state = states_by_phase(engine, "2p")["buy"]
    before = state.serialize()
    raises(lambda: state.apply_action(NOT_INTS[name]), TypeError, TYPE_NAMES.get(name, ""))
    raises(lambda: state.action_to_string(NOT_INTS[name]), TypeError)
    assert state.serialize() == before


@pytest.mark.parametrize("name", list(INTS))
def test_integer_likes_are_ids(engine, name):
    """Numpy integers (docs/api.md) and other exact integers are ids, and recorded as int."""
    state = states_by_phase(engine, "2p")["buy"]
    value = INTS[name]
    legal = state.legal_actions()
    target = int(value)
    if target in legal:
        state.apply_action(value)
        assert state.history()[-1] == target and type(state.history()[-1]) is int
    else:
        raises(lambda: state.apply_action(value), ValueError, target)
    assert state.action_to_string(value) == state.action_to_string(target)


@pytest.mark.parametrize(
    "value",
    [np.uint64(2**64 - 1), np.int64(-(2**63)), np.int64(2036), np.int8(-1), np.uint16(65535)],
)
def test_numpy_ids_out_of_range_are_value_errors(engine, value):
    state = states_by_phase(engine, "2p")["buy"]
    before = state.serialize()
    raises(lambda: state.apply_action(value), ValueError, int(value))
    raises(lambda: state.action_to_string(value), ValueError)
    assert state.serialize() == before


@pytest.mark.parametrize("value", [-1, 2036, 2**64, -(2**64), 2**200])
def test_action_to_string_out_of_range(engine, value):
    decision = states_by_phase(engine, "2p")["buy"]
    chance = states_by_phase(engine, "2p")["reveal_tile"]
    raises(lambda: decision.action_to_string(value), ValueError, value)
    raises(lambda: chance.action_to_string(value), ValueError, value)
    raises(lambda: chance.action_to_string(MAX_CHANCE_OUTCOMES), ValueError, MAX_CHANCE_OUTCOMES)


@pytest.mark.parametrize("value", [-1, 2, 3, 2**64, -(2**64), np.int64(5), np.uint64(2**64 - 1)])
def test_observation_player_out_of_range(engine, value):
    state = states_by_phase(engine, "2p")["buy"]
    raises(lambda: state.observation_tensor(value), ValueError, int(value))


@pytest.mark.parametrize(
    "name", ["float", "str", "None", "bool", "numpy-bool", "numpy-float64", "list", "Decimal"]
)
def test_observation_player_of_a_wrong_type(engine, name):
    state = states_by_phase(engine, "2p")["buy"]
    raises(lambda: state.observation_tensor(NOT_INTS[name]), TypeError, TYPE_NAMES.get(name, ""))


def test_observation_player_numpy_int(engine):
    state = states_by_phase(engine, "3p")["buy"]
    for kind in (np.int8, np.int64, np.uint64):
        assert np.array_equal(state.observation_tensor(kind(2)), state.observation_tensor(2))


def test_apply_random_chance_seeds_are_taken_modulo_2_64(engine):
    def outcome(seed):
        state = states_by_phase(engine, "2p")["draw_viking"]
        return state.apply_random_chance(seed), state.serialize()

    for seed in (0, 1, 12345, 2**63, 2**64 - 1):
        assert outcome(seed) == outcome(seed + 2**64) == outcome(np.uint64(seed))
        assert outcome(seed) == outcome(seed - 2**64) == outcome(seed + 5 * 2**64)
    assert outcome(-1) == outcome(2**64 - 1)
    assert outcome(np.int64(-1)) == outcome(2**64 - 1)


@pytest.mark.parametrize(
    "name",
    ["float", "str", "None", "bool", "numpy-bool", "numpy-float64", "list", "Decimal", "object"],
)
def test_apply_random_chance_rng_of_a_wrong_type(engine, name):
    chance = states_by_phase(engine, "2p")["reveal_tile"]
    before = chance.serialize()
    raises(lambda: chance.apply_random_chance(NOT_INTS[name]), TypeError)
    raises(lambda: chance.apply_random_chance(random.Random(1)), TypeError)
    assert chance.serialize() == before


def test_apply_random_chance_at_a_decision_node(engine):
    state = states_by_phase(engine, "2p")["buy"]
    before = state.serialize()
    for rng in (1, np.random.default_rng(0)):
        raises(lambda: state.apply_random_chance(rng), ValueError, "chance")
    assert state.serialize() == before


# --- the same answer from both engines ----------------------------------------------------------

ODD_VALUES = {
    **NOT_INTS,
    **INTS,
    "int": 2,
    "negative": -1,
    "2**64": 2**64,
    "-2**64": -(2**64),
    "2**200": 2**200,
    "dict": {},
    "bytearray": bytearray(b"\x02"),
    "memoryview": memoryview(b"\x02"),
    "numpy-array-0d": np.array(2),
}


def _calls(module, value):
    """Every call that takes one user value, on fresh objects of `module`."""
    game = module.Game(num_players=2)
    states = states_by_phase(module, "2p")
    chance, decision, terminal = states["reveal_tile"], states["buy"], states["game_over"]
    return {
        "Game(num_players=)": lambda: module.Game(num_players=value).num_players,
        "Game(auction=)": lambda: module.Game(num_players=2, auction=value).options,
        "Game(special_tiles=)": lambda: module.Game(num_players=2, special_tiles=value).options,
        "apply_action@chance": lambda: (chance.apply_action(value), chance.serialize()),
        "apply_action@decision": lambda: (decision.apply_action(value), decision.serialize()),
        "apply_action@terminal": lambda: terminal.apply_action(value),
        "action_to_string@chance": lambda: chance.action_to_string(value),
        "action_to_string@decision": lambda: decision.action_to_string(value),
        "string_to_action": lambda: decision.string_to_action(value),
        "observation_tensor": lambda: decision.observation_tensor(value).tolist(),
        "apply_random_chance@chance": lambda: (
            chance.apply_random_chance(value),
            chance.serialize(),
        ),
        "apply_random_chance@decision": lambda: decision.apply_random_chance(value),
        "state_from_dict": lambda: game.state_from_dict(value).serialize(),
        "deserialize_state": lambda: game.deserialize_state(value).serialize(),
    }


def _answer(call):
    try:
        return "ok", call()
    except (ValueError, TypeError) as error:
        return type(error).__name__, str(error)


@pytest.mark.parametrize("name", list(ODD_VALUES))
def test_odd_values_get_the_same_answer_from_both_engines(engines, name):
    ref, fast = engines
    value = ODD_VALUES[name]
    ref_calls, fast_calls = _calls(ref, value), _calls(fast, value)
    for call in ref_calls:
        expected, got = _answer(ref_calls[call]), _answer(fast_calls[call])
        assert got == expected, f"{call}({name}): reference {expected}, fast {got}"


# --- Game parameters ----------------------------------------------------------------------------


@pytest.mark.parametrize("value", [-1, 0, 1, 5, 100, 2**31, 2**64, -(2**64), 2**200])
def test_num_players_out_of_range(engine, value):
    raises(lambda: engine.Game(num_players=value), ValueError, "num_players", value)


@pytest.mark.parametrize("name", ["float", "str", "None", "bool", "numpy-bool", "Decimal", "list"])
def test_num_players_of_a_wrong_type(engine, name):
    raises(lambda: engine.Game(num_players=NOT_INTS[name]), TypeError, "num_players")


@pytest.mark.parametrize("flag", list(ALL_FLAGS))
@pytest.mark.parametrize("value", [1, 0, "yes", None, 1.0, [True]])
def test_flags_must_be_bools(engine, flag, value):
    raises(lambda: engine.Game(num_players=2, **{flag: value}), TypeError, flag)


def test_unknown_keywords_and_extra_positionals(engine):
    raises(lambda: engine.Game(num_players=2, expansion=True), TypeError, "expansion")
    raises(lambda: engine.Game(2, True), TypeError)
    raises(lambda: engine.Game(num_players=2, players=3), TypeError, "players")


# --- string_to_action ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "buy:\u0663",
        "buy:+1",
        "buy: 1",
        "buy:0\x00",
        "buy:0\n",
        "tile:r1c01",
        "auction:bid:-0",
        "auction:bid:5.0",
        "\ud800",
        "buy:0" * 1000,
        "trip:all:",
        ":",
        "buy::0",
        "buy:1e1",
        "auction:bid:99999999999999999999",
    ],
)
def test_string_to_action_refuses_near_misses(engine, text):
    state = states_by_phase(engine, "2p")["buy"]
    raises(lambda: state.string_to_action(text), ValueError)
