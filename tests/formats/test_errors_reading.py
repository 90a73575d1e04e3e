"""Errors of reading states back (state_from_dict, deserialize_state): same type, condition and
message in both engines (docs/api.md, docs/state.md). The calls: test_errors.py."""

import copy

import pytest
from positions import (
    group,
    player,
    position_dict,
    used_tiles,
)
from refusals import OFFER, offer, refusal, valid_dict

# --- state_from_dict ----------------------------------------------------------------------------


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


# --- hostile values in a dict ------------------------------------------------------------------


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
