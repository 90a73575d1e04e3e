"""Errors: same type, condition and message in both engines (docs/api.md, docs/state.md), state
unchanged."""

import copy
import random

import numpy as np
import pytest

from fuzz.hostile import FixedGenerator  # one Generator stub, shared with the fuzzers
from positions import (
    BUY,
    CHANCE,
    MAX_CHANCE_OUTCOMES,
    NUM_DISTINCT_ACTIONS,
    build_state,
    group,
    player,
    position_dict,
    score,
    used_tiles,
)


def offer_players():
    return [player(gold=20, rows={1: "L", 3: "L*1"}, mainland="F1"), player(rows={2: "L"})]


OFFER = {3: group("L", "F"), 5: group("1", "F"), 8: group("R", "S"), 11: group("r", "B")}


def offer(engine):
    """Player 0 to buy, 4 groups left; the price-0 group (space 3) is refused by B5.2."""
    return build_state(engine, offer_players(), round=1, wheel=OFFER)


def unchanged_after(state, call, error):
    before = state.to_dict()
    with pytest.raises(error):
        call()
    assert state.to_dict() == before


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


# --- state_from_dict ----------------------------------------------------------------------------


def valid_dict(engine):
    return position_dict(engine, offer_players(), round=1, wheel=OFFER)


def test_the_valid_dict_is_accepted(engine):
    d = valid_dict(engine)
    assert engine.Game(num_players=2).state_from_dict(d).to_dict() == d


def _mutate(path, value):
    def change(d):
        *parents, last = path
        target = d
        for key in parents:
            target = target[key]
        target[last] = value

    return change


def _delete(key):
    return lambda d: d.pop(key)


def _shift(name, less, more):
    def change(d):
        d[name][less] -= 1
        d[name][more] += 1

    return change


def _add(path, amount):
    def change(d):
        *parents, last = path
        target = d
        for key in parents:
            target = target[key]
        target[last] += amount

    return change


def _eighteen_left_pieces(d):
    """One more left piece than printed, the total of 72 kept (a discarded tile reappears)."""
    extra = 18 - d["stacks"]["left"] - used_tiles(d)["left"]
    d["stacks"]["left"] += extra
    d["discarded_tiles"] -= extra


MUTATIONS = {
    "missing key": _delete("history"),
    "extra key": _mutate(["extra"], 1),
    "version 3": _mutate(["version"], 3),
    "version 1, before A0": _mutate(["version"], 1),
    "num_players of another game": _mutate(["num_players"], 3),
    "options of another game": _mutate(["options", "auction"], True),
    "missing option": lambda d: d["options"].pop("draw13"),
    "round 7": _mutate(["round"], 7),
    "round 0": _mutate(["round"], 0),
    "round is a bool": _mutate(["round"], True),
    "round is a float": _mutate(["round"], 1.0),
    "unknown phase": _mutate(["phase"], "shopping"),
    "start_player out of range": _mutate(["start_player"], 2),
    "negative gold": _mutate(["players", 0, "gold"], -1),
    "gold is a str": _mutate(["players", 0, "gold"], "20"),
    "gold 2**30": _mutate(["players", 0, "gold"], 2**30),
    "fame -(2**30)": _mutate(["players", 0, "fame"], -(2**30)),
    "fame is a bool": _mutate(["players", 1, "fame"], False),
    "79 Vikings": _add(["bag", "fisherman"], 1),
    "14 fishermen and 12 goldsmiths": _shift("bag", "goldsmith", "fisherman"),
    "73 tiles": _add(["stacks", "left"], 1),
    "18 left pieces": _eighteen_left_pieces,
    "negative mainland": _mutate(["players", 1, "mainland", "noble"], -1),
    "wheel of 11": lambda d: d["wheel"].pop(),
    "one player": lambda d: d["players"].pop(),
    "bad row character": _mutate(["players", 1, "rows", 1], "LX"),
    "five rows of Vikings missing one": lambda d: d["players"][0]["vikings"].pop(),
    "start_row 6": _mutate(["players", 0, "start_row"], 6),
    "ship character": _mutate(["players", 0, "ships"], "x"),
    "negative history": _mutate(["history"], [-1]),
    "history not a list": _mutate(["history"], "0"),
    "pending in phase buy": _mutate(
        ["pending"], {"tile": "left", "viking": "fisherman", "cell": None}
    ),
    "trip in phase buy": _mutate(["trip"], {"queue": [], "last_col": 0}),
}


@pytest.mark.parametrize("name", list(MUTATIONS))
def test_state_from_dict_rejects_a_malformed_dict(engine, name):
    d = valid_dict(engine)
    MUTATIONS[name](d)
    with pytest.raises(ValueError):
        engine.Game(num_players=2).state_from_dict(d)


OTHER = player(rows={1: "L"})  # seat 1 takes the Vikings the round needs (positions.py)
BAD_POSITIONS = {
    "Viking on an empty cell": dict(players=[player(rows={1: "L.*"}), OTHER]),
    "start_row without a left piece there": dict(
        players=[player(rows={1: "L"}, start_row=2), OTHER]
    ),
    "island tiles without a start tile": dict(
        players=[player(rows={1: "L1"}, start_row=None), OTHER]
    ),
    "ships without a start tile": dict(players=[player(ships="r"), OTHER]),
    "land next to sea": dict(players=[player(rows={1: "LL"}), OTHER]),
    "sea next to land": dict(players=[player(rows={1: "LRR"}), OTHER]),
    "right piece in column 1": dict(players=[player(rows={1: "L", 2: "R"}), OTHER]),
    "middle piece in column 1": dict(players=[player(rows={1: "L", 4: "3"}), OTHER]),
    "single ship in column 4": dict(players=[player(ships="...g", rows={1: "L"}), OTHER]),
    "four ships with a gap": dict(players=[player(ships="rgy.b", rows={1: "L"}), OTHER]),
    "Vikings drawn in phase buy": dict(players=[player(rows={1: "L"}), OTHER], drawn="F1"),
    "wheel Viking missing in phase buy": dict(
        players=[player(rows={1: "L"}), OTHER],
        wheel={3: group("L", None), 5: group("1", "F"), 8: group("R", "S"), 11: group("r", "B")},
    ),
    "island_cell for a tile without a legal cell": dict(
        players=[player(rows={r: "LR" for r in range(1, 6)}), OTHER],
        round=3,
        phase="island_cell",
        purchases=8,
        wheel=dict(list(OFFER.items())[1:]),
        pending={"tile": "middle2", "viking": "noble", "cell": None},
    ),
    "trip_target without a trip": dict(
        players=[player(mainland="B1 N1", rows={2: "L"}), OTHER],
        round=2,
        phase="trip_target",
        purchases=12,
        wheel={},
    ),
}


@pytest.mark.parametrize("name", list(BAD_POSITIONS))
def test_state_from_dict_rejects_an_inconsistent_position(engine, name):
    fields = {"round": 1, "wheel": OFFER, **BAD_POSITIONS[name]}
    d = position_dict(engine, fields.pop("players"), **fields)
    with pytest.raises(ValueError):
        engine.Game(num_players=2).state_from_dict(d)


def test_state_from_dict_accepts_a_placement_in_progress(engine):
    """The valid twin of "island_cell for a tile without a legal cell": a left piece fits."""
    d = position_dict(
        engine,
        [player(rows={r: "LR" for r in range(1, 6)}), OTHER],
        round=3,
        phase="island_cell",
        purchases=8,
        wheel=dict(list(OFFER.items())[1:]),
        pending={"tile": "left", "viking": "noble", "cell": None},
    )
    state = engine.Game(num_players=2).state_from_dict(d)
    assert state.legal_actions() == [20 + (r - 1) * 64 + 2 for r in range(1, 6)]


def refusal(call):
    """(error type, message) of `call()`, which must refuse."""
    try:
        call()
    except (ValueError, TypeError) as error:
        return type(error), str(error)
    raise AssertionError("accepted")


@pytest.mark.parametrize("name", list(MUTATIONS))
def test_malformed_dicts_get_the_same_message_from_both_engines(engines, name):
    refused = []
    for engine in engines:
        d = valid_dict(engine)
        MUTATIONS[name](d)
        refused.append(refusal(lambda: engine.Game(num_players=2).state_from_dict(d)))
    assert refused[0] == refused[1]


@pytest.mark.parametrize("name", list(BAD_POSITIONS))
def test_inconsistent_positions_get_the_same_message_from_both_engines(engines, name):
    refused = []
    for engine in engines:
        fields = {"round": 1, "wheel": OFFER, **BAD_POSITIONS[name]}
        d = position_dict(engine, fields.pop("players"), **fields)
        refused.append(refusal(lambda: engine.Game(num_players=2).state_from_dict(d)))
    assert refused[0] == refused[1]


@pytest.mark.parametrize("value", [None, [], "{}", 5])
def test_state_from_dict_needs_a_dict(engine, value):
    with pytest.raises(TypeError):
        engine.Game(num_players=2).state_from_dict(value)


def test_state_from_dict_does_not_keep_the_callers_dict(engine):
    d = valid_dict(engine)
    kept = copy.deepcopy(d)
    state = engine.Game(num_players=2).state_from_dict(d)
    d["players"][0]["gold"] = 99
    d["history"].append(5)
    assert state.to_dict() == kept


# --- deserialize_state --------------------------------------------------------------------------

BAG_FISHERMAN = 5 + 7 + 10  # header, 7 bytes, 10 stacks (docs/state.md)
BAD_BYTES = {
    "wrong magic": lambda b: b"VKNX" + b[4:],
    "unknown version": lambda b: b[:4] + bytes([3]) + b[5:],
    "version 1, before A0": lambda b: b[:4] + bytes([1]) + b[5:],
    "truncated": lambda b: b[:-1],
    "trailing": lambda b: b + b"\x00",
    "empty": lambda b: b"",
    "79 Vikings": lambda b: (
        b[:BAG_FISHERMAN] + bytes([b[BAG_FISHERMAN] + 1]) + b[BAG_FISHERMAN + 1 :]
    ),
    "another number of players": lambda b: b[:5] + bytes([3]) + b[6:],
    "pending row without a pending group": lambda b: b[: 5 + 62] + bytes([1]) + b[5 + 63 :],
    "trip last_col without a trip": lambda b: b[: 5 + 65] + bytes([3]) + b[5 + 66 :],
}


def test_deserialize_round_trips_the_bytes(engine):
    good = offer(engine).serialize()
    assert engine.Game(num_players=2).deserialize_state(good).serialize() == good


@pytest.mark.parametrize("name", list(BAD_BYTES))
def test_deserialize_rejects_bad_bytes(engine, name):
    data = BAD_BYTES[name](offer(engine).serialize())
    with pytest.raises(ValueError):
        engine.Game(num_players=2).deserialize_state(data)


@pytest.mark.parametrize("name", list(BAD_BYTES))
def test_bad_bytes_get_the_same_message_from_both_engines(engines, name):
    refused = []
    for engine in engines:
        data = BAD_BYTES[name](offer(engine).serialize())
        refused.append(refusal(lambda: engine.Game(num_players=2).deserialize_state(data)))
    assert refused[0] == refused[1]


@pytest.mark.parametrize("value", [None, "VKNG", [86, 75, 78, 71, 1]])
def test_deserialize_needs_bytes(engine, value):
    with pytest.raises(TypeError):
        engine.Game(num_players=2).deserialize_state(value)


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


def test_huge_ints_are_named_with_their_value_by_both_engines(engines):
    """Ints beyond 64 bits: the message shows the number itself, as the reference's does."""
    for path, value in (
        (["version"], 2**64),
        (["version"], 2**63),
        (["round"], 2**63),
        (["round"], -(2**64)),
        (["players", 0, "gold"], 2**100),
        (["history"], [2**64]),
    ):
        refused = []
        for engine in engines:
            d = valid_dict(engine)
            _mutate(path, value)(d)
            refused.append(refusal(lambda: engine.Game(num_players=2).state_from_dict(d)))
        assert refused[0] == refused[1]
        assert str(value if type(value) is int else value[0]) in refused[0][1], refused[0]


def test_a_deeply_nested_value_is_a_value_error(engine):
    game = engine.Game(2)
    deep = {}
    inner = deep
    for _ in range(100_000):
        inner["a"] = {}
        inner = inner["a"]
    for key in ("phase", "options", "auction", "wheel", "players", "history"):
        d = game.new_initial_state().to_dict()
        d[key] = deep
        with pytest.raises(ValueError):
            game.state_from_dict(d)
