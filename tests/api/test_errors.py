"""Errors of the calls: same type, condition and message in both engines (docs/api.md,
docs/state.md), state unchanged. Reading states back: test_errors_reading.py."""

import random

import numpy as np
import pytest
from positions import (
    BUY,
    CHANCE,
    MAX_CHANCE_OUTCOMES,
    NUM_DISTINCT_ACTIONS,
    player,
    score,
)
from refusals import offer, unchanged_after

from fuzz.hostile import FixedGenerator  # one Generator stub, shared with the fuzzers

# --- apply_action -------------------------------------------------------------------------------


@pytest.mark.parametrize("action", [3, 0, 12, 340, 342, NUM_DISTINCT_ACTIONS, -1, 2**40])
def test_illegal_decision_raises_value_error_and_changes_nothing(engine, action):
    state = offer(engine)
    assert action not in state.legal_actions()
    unchanged_after(state, lambda: state.apply_action(action), ValueError)
    assert state.history() == []


@pytest.mark.parametrize("action", [10, 15, 16, 29, MAX_CHANCE_OUTCOMES, 2035, -1])
def test_illegal_chance_outcome_raises_value_error(engine, action):
    state = engine.Game(num_players=2).new_initial_state()  # reveal_tile: ids 0..9 only
    unchanged_after(state, lambda: state.apply_action(action), ValueError)


@pytest.mark.parametrize("action", ["5", 5.0, None, True, False, np.float64(5), [5]])
def test_action_of_a_wrong_type_raises_type_error(engine, action):
    state = offer(engine)
    unchanged_after(state, lambda: state.apply_action(action), TypeError)


@pytest.mark.parametrize("kind", [np.int64, np.int32, np.uint16])
def test_numpy_integers_are_actions(engine, kind):
    state = offer(engine)
    state.apply_action(kind(BUY(8)))
    assert state.history() == [8]
    assert type(state.history()[0]) is int


def test_apply_after_game_over_raises_value_error(engine):
    state = score(engine, 6, [player(rows={1: "L"})]).state
    assert state.is_terminal()
    for action in (0, 342, 341):
        unchanged_after(state, lambda: state.apply_action(action), ValueError)
    unchanged_after(state, lambda: state.apply_random_chance(1), ValueError)


def test_apply_random_chance_errors(engine):
    state = offer(engine)
    unchanged_after(state, lambda: state.apply_random_chance(1), ValueError)
    chance = engine.Game(num_players=2).new_initial_state()
    for rng in ("1", 1.5, None, random.Random(1), [1]):
        unchanged_after(chance, lambda: chance.apply_random_chance(rng), TypeError)


# --- Game --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, error",
    [
        ({"num_players": 1}, ValueError),
        ({"num_players": 5}, ValueError),
        ({"num_players": 0}, ValueError),
        ({"num_players": "2"}, TypeError),
        ({"num_players": 2.0}, TypeError),
        ({"num_players": True}, TypeError),
        ({"num_players": None}, TypeError),
        ({"num_players": 2, "auction": 1}, TypeError),
        ({"num_players": 2, "special_tiles": "yes"}, TypeError),
        ({"num_players": 2, "expansion": True}, TypeError),
    ],
)
def test_game_parameter_errors(engine, kwargs, error):
    with pytest.raises(error):
        engine.Game(**kwargs)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_game_basics(engine, n):
    game = engine.Game(num_players=n)
    assert game.num_players == n
    assert game.options == {
        "auction": False,
        "draw13": False,
        "offer_by_colour": False,
        "weak_boatsmen": False,
        "special_tiles": False,
    }
    assert game.num_distinct_actions() == 2036
    assert game.max_chance_outcomes() == 30
    assert tuple(game.observation_shape()) == (294 + 1545 * n + 80 + 22 * n,)  # advanced.md
    assert game == engine.Game(num_players=n)
    assert game != engine.Game(num_players=3 if n == 2 else 2)
    assert engine.CHANCE == CHANCE and engine.TERMINAL == -4


# --- action strings ----------------------------------------------------------------------------

DECISION_STRINGS = {
    0: "buy:0",
    11: "buy:11",
    12: "start:r1",
    16: "start:r5",
    17: "ship:c1",
    19: "ship:c3",
    20: "tile:r1c1",
    21: "tile:r1c2",
    84: "tile:r2c1",
    339: "tile:r5c64",
    340: "viking:tile",
    341: "viking:mainland",
    342: "trip:stop",
    343: "trip:all:fisherman",
    347: "trip:all:warrior",
    348: "trip:each",
    349: "trip:one:fisherman",
    353: "trip:one:warrior",
    354: "target:r1c1",
    673: "target:r5c64",
    674: "auction:pass",
    675: "auction:bid:0",
    1698: "auction:bid:1023",
    1699: "remove:fisherman",
    1704: "remove:boatsman",
    1705: "offer:fisherman",
    1710: "offer:boatsman",
    1711: "special:take:0",
    1714: "special:take:3",
    1715: "special:decline",
    1716: "building:r1c1",
    2035: "building:r5c64",
}
CHANCE_STRINGS = {
    0: "reveal:left",
    1: "reveal:middle1",
    4: "reveal:middle4",
    5: "reveal:right",
    6: "reveal:ship_red",
    7: "reveal:ship_green",
    8: "reveal:ship_yellow",
    9: "reveal:ship_blue",
    10: "draw:fisherman",
    12: "draw:scout",
    15: "draw:boatsman",
    16: "display:gold5",
    19: "display:boat",
    24: "display:fish",
    25: "display:treasury",
    26: "display:building1",
    29: "display:building4",
}


def test_decision_strings_round_trip_over_the_whole_space(engine):
    state = offer(engine)
    texts = [state.action_to_string(a) for a in range(NUM_DISTINCT_ACTIONS)]
    assert len(set(texts)) == NUM_DISTINCT_ACTIONS
    assert [state.string_to_action(t) for t in texts] == list(range(NUM_DISTINCT_ACTIONS))
    for action, text in DECISION_STRINGS.items():
        assert texts[action] == text


def test_chance_strings_round_trip_over_the_whole_space(engine):
    state = engine.Game(num_players=2).new_initial_state()
    texts = [state.action_to_string(a) for a in range(MAX_CHANCE_OUTCOMES)]
    assert len(set(texts)) == MAX_CHANCE_OUTCOMES
    assert [state.string_to_action(t) for t in texts] == list(range(MAX_CHANCE_OUTCOMES))
    for action, text in CHANCE_STRINGS.items():
        assert texts[action] == text


def test_string_to_action_reads_either_space_at_any_node(engine):
    decision, chance = offer(engine), engine.Game(num_players=2).new_initial_state()
    for state in (decision, chance):
        assert state.string_to_action("reveal:ship_blue") == 9
        assert state.string_to_action("draw:boatsman") == 15
        assert state.string_to_action("tile:r3c4") == 20 + 2 * 64 + 3
        assert state.string_to_action("trip:stop") == 342


def test_action_to_string_outside_the_node_space(engine):
    decision, chance = offer(engine), engine.Game(num_players=2).new_initial_state()
    for state, bad in (
        (decision, NUM_DISTINCT_ACTIONS),
        (decision, -1),
        (chance, MAX_CHANCE_OUTCOMES),
        (chance, 2035),
        (chance, -1),
    ):
        unchanged_after(state, lambda: state.action_to_string(bad), ValueError)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "buy",
        "buy:12",
        "buy:-1",
        "buy:01",
        " buy:0",
        "buy:0 ",
        "BUY:0",
        "start:r6",
        "start:r0",
        "ship:c4",
        "tile:r6c1",
        "tile:r1c65",
        "tile:r1c0",
        "target:r0c1",
        "trip:all:boatsman",
        "trip:one:boatsman",
        "auction:bid:1024",
        "special:take:4",
        "reveal:ship_purple",
        "draw:boatsmen",
        "display:horn5",
        "viking:nowhere",
    ],
)
def test_string_to_action_rejects_non_action_strings(engine, text):
    state = offer(engine)
    unchanged_after(state, lambda: state.string_to_action(text), ValueError)


@pytest.mark.parametrize("value", [5, None, b"buy:0", ["buy:0"]])
def test_string_to_action_needs_a_str(engine, value):
    state = offer(engine)
    unchanged_after(state, lambda: state.string_to_action(value), TypeError)


# --- observation_tensor -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "observer, error",
    [("0", TypeError), (1.0, TypeError), (None, TypeError), (2, ValueError), (-1, ValueError)],
)
def test_observation_tensor_errors(engine, observer, error):
    state = offer(engine)
    unchanged_after(state, lambda: state.observation_tensor(observer), error)


# --- hostile rngs and integers (docs/api.md "Errors") ------------------------------------------


@pytest.mark.parametrize(
    "value, error, message",
    [
        (-1e6, ValueError, "rng.random() returned -1000000.0, outside [0, 1)"),
        (-0.5, ValueError, "rng.random() returned -0.5, outside [0, 1)"),
        (1.0, ValueError, "rng.random() returned 1.0, outside [0, 1)"),
        (float("nan"), ValueError, "rng.random() returned nan, outside [0, 1)"),
        (float("inf"), ValueError, "rng.random() returned inf, outside [0, 1)"),
        (np.float32(1.0), ValueError, "rng.random() returned np.float32(1.0), outside [0, 1)"),
        ("0.5", TypeError, "rng.random() must return a float, not str"),
        (1, TypeError, "rng.random() must return a float, not int"),
        (True, TypeError, "rng.random() must return a float, not bool"),
        (None, TypeError, "rng.random() must return a float, not NoneType"),
        (np.array([0.5]), TypeError, "rng.random() must return a float, not ndarray"),
    ],
)
def test_out_of_range_rng_values_are_refused_and_change_nothing(engine, value, error, message):
    state = engine.Game(2, special_tiles=True).new_initial_state()
    before = state.serialize()
    with pytest.raises(error) as raised:
        state.apply_random_chance(FixedGenerator(value))
    assert str(raised.value) == message.replace("np.float32(1.0)", repr(np.float32(1.0)))
    assert state.serialize() == before


@pytest.mark.parametrize("value", [0.0, 0.5, np.float32(0.25), np.float64(0.999999)])
def test_in_range_rng_values_draw_the_same_outcome_in_both_engines(engines, value):
    ref, fast = (engine.Game(3).new_initial_state() for engine in engines)
    assert ref.apply_random_chance(FixedGenerator(value)) == fast.apply_random_chance(
        FixedGenerator(value)
    )


class _RaisingIndex:
    def __index__(self):
        raise ZeroDivisionError("a broken __index__")


@pytest.mark.parametrize("value", [_RaisingIndex(), np.timedelta64(3), np.timedelta64(0, "s")])
def test_integer_look_alikes_are_type_errors_with_one_message(engine, value):
    name = type(value).__name__
    state = offer(engine)
    calls = {
        "an action": lambda: state.apply_action(value),
        "player": lambda: state.observation_tensor(value),
        "num_games": lambda: engine.rollouts(engine.Game(2), value, 0),
        "batch_size": lambda: engine.VectorGame(engine.Game(2), value, 0),
        "seed": lambda: engine.VectorGame(engine.Game(2), 1, value),
    }
    for what, call in calls.items():
        with pytest.raises(TypeError) as raised:
            call()
        assert str(raised.value) == f"{what} must be an int, not {name}"
    assert state.history() == []


def test_a_huge_batch_is_refused_before_any_allocation(engine):
    with pytest.raises(ValueError, match="batch_size 18446744073709551616 is too large"):
        engine.VectorGame(engine.Game(2), 2**64, 0)
    with pytest.raises(ValueError, match="is too large"):
        engine.VectorGame(engine.Game(2), (1 << 24) + 1, 0)
