"""The formats of docs/state.md (and the additions of docs/advanced.md): dict, bytes, hash,
observation, text. Expected values are written out by hand from the documents."""

import copy
import json
import pickle
import struct

import numpy as np
import pytest

from positions import (
    BUY,
    COLOURS,
    PHASES,
    PRINTED,
    REVEAL,
    SPECIALS,
    START_GOLD,
    TARGET,
    TRIP_ALL,
    build_state,
    group,
    player,
    score,
    scoring_table,
)

TOP_KEYS = [
    "version",
    "num_players",
    "options",
    "round",
    "phase",
    "start_player",
    "purchases",
    "scoring_index",
    "stacks",
    "bag",
    "drawn",
    "removed",
    "discarded_tiles",
    "wheel",
    "pending",
    "trip",
    "auction",
    "special_stack",
    "display",
    "special_removed",
    "players",
    "history",
]
PLAYER_KEYS = [
    "gold",
    "fame",
    "start_row",
    "mainland",
    "ships",
    "rows",
    "vikings",
    "specials",
    "buildings",
]
OPTIONS = {
    "auction": False,
    "draw13": False,
    "offer_by_colour": False,
    "weak_boatsmen": False,
    "special_tiles": False,
}
PLAYER_BYTES = 4 + 4 + 1 + 6 + 64 + 5 * 64  # 399
PLAYERS_AT = 7 + 10 + 6 + 6 + 6 + 1 + 24 + 4 + 3  # 67, after an empty trip queue
PLAYER_BLOCK = 1545


def initial_dict(n):
    zeros = dict.fromkeys(COLOURS, 0)
    return {
        "version": 2,
        "num_players": n,
        "options": OPTIONS,
        "round": 1,
        "phase": "reveal_tile",
        "start_player": 0,
        "purchases": 0,
        "scoring_index": 0,
        "stacks": PRINTED,
        "bag": dict.fromkeys(COLOURS, 13),
        "drawn": zeros,
        "removed": zeros,
        "discarded_tiles": 0,
        "wheel": [None] * 12,
        "pending": None,
        "trip": None,
        "auction": None,
        "display": [None] * 4,
        "special_removed": dict.fromkeys(SPECIALS, 0),
        "players": [
            {
                "gold": START_GOLD[n],
                "fame": 10,
                "start_row": None,
                "mainland": zeros,
                "ships": "",
                "rows": [""] * 5,
                "vikings": [[]] * 5,
                "specials": dict.fromkeys(SPECIALS, 0),
                "buildings": [None] * 4,
            }
        ]
        * n,
        "history": [],
    }


def special_stack_at(n):
    """Offset of the 14 special-stack bytes: after the players and the 6 auction bytes."""
    return 5 + PLAYERS_AT + PLAYER_BYTES * n + 6


def initial_bytes(n):
    """The special-stack bytes are left 0 here: see test_initial_bytes."""
    position = bytes([n, 0, 1, 0, 0, 0, 0]) + bytes([17, 5, 5, 5, 5, 21, 3, 4, 4, 3])
    position += bytes([13] * 6) + bytes(6) + bytes(6) + bytes([0])  # bag, drawn, removed, disc.
    position += bytes([255] * 24)  # empty wheel
    position += bytes([255, 255, 0, 0]) + bytes([0, 0, 0])  # no pending, no trip
    for _ in range(n):
        position += struct.pack("<ii", START_GOLD[n], 10) + bytes(1 + 6 + 64 + 320)
    # docs/advanced.md: no auction (high 65535; leader, turn, passed 0), the special stack,
    # an empty display, nothing removed; per player no specials, no buildings
    position += bytes([0]) + struct.pack("<H", 65535) + bytes(3) + bytes(14) + bytes([255] * 4)
    position += bytes(14) + bytes(22 * n)
    return b"VKNG" + bytes([2]) + position + struct.pack("<I", 0)


def viking_phase(engine):
    """Player 0 bought a middle piece with a warrior: placed at once on r1c2, phase viking.

    Round 1, purchase 9: the 8 groups bought before are exactly the players' 8 tiles and 8
    Vikings, so nothing is added to the position (positions.position_dict)."""
    p0 = player(gold=12, fame=7, mainland="F2 B1 N1", ships="gyr", rows={1: "L"})
    p1 = player(gold=3, fame=0, mainland="G3", rows={3: "L*12", 5: "L12"})
    wheel = {0: group("1", "W"), 5: group("R", "B"), 8: group("R", "B"), 11: group("R", "B")}
    state = build_state(engine, [p0, p1], round=1, wheel=wheel)
    state.apply_action(BUY(0))
    return state


def mix(x):
    m = 2**64 - 1
    x = (x + 0x9E3779B97F4A7C15) & m
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & m
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & m
    return x ^ (x >> 31)


def documented_hash(data, history_length):
    p = data[5 : len(data) - 4 - 2 * history_length]
    h = len(p)
    for i in range(0, len(p), 8):
        h = mix(h ^ int.from_bytes(p[i : i + 8].ljust(8, b"\0"), "little"))
    return h


# --- to_dict ------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4])
def test_initial_dict_and_its_key_order(engine, n):
    d = engine.Game(num_players=n).new_initial_state().to_dict()
    assert list(d) == TOP_KEYS
    # docs/advanced.md says "empty or zero when a module is off" and also requires 25 special
    # tiles in all: the stack's counts are not pinned here, only its keys.
    special_stack = d.pop("special_stack")
    assert d == initial_dict(n)
    assert list(d["options"]) == list(OPTIONS)
    assert list(d["stacks"]) == list(PRINTED)
    for name in ("bag", "drawn", "removed"):
        assert list(d[name]) == list(COLOURS)
    assert list(special_stack) == list(SPECIALS)
    for p in d["players"]:
        assert list(p) == PLAYER_KEYS
        assert list(p["mainland"]) == list(COLOURS)


def test_pending_and_wheel_key_order(engine):
    d = viking_phase(engine).to_dict()
    assert list(d["pending"]) == ["tile", "viking", "cell"]
    assert d["pending"] == {"tile": "middle1", "viking": "warrior", "cell": [1, 2]}
    assert list(d["wheel"][5]) == ["tile", "viking"]


def _plain(value):
    """Only int, bool, str, None, list and dict (docs/state.md), recursively."""
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_plain(v) for v in value)
    return value is None or type(value) in (int, bool, str)


def test_to_dict_is_json_serializable(engine):
    states = [engine.Game(num_players=3).new_initial_state(), viking_phase(engine)]
    for state in states:
        d = state.to_dict()
        assert _plain(d)
        assert json.loads(json.dumps(d)) == d
        assert state.get_game().state_from_dict(json.loads(json.dumps(d))) == state


# --- bytes --------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 4])
def test_initial_bytes(engine, n):
    data = engine.Game(num_players=n).new_initial_state().serialize()
    assert isinstance(data, bytes)
    assert data[:5] == b"VKNG\x02"
    expected = initial_bytes(n)
    assert len(data) == len(expected)
    at = special_stack_at(n)
    assert data[:at] + data[at + 14 :] == expected[:at] + expected[at + 14 :]


def test_bytes_of_a_position(engine):
    state = viking_phase(engine)
    data = state.serialize()
    assert data[:5] == b"VKNG\x02"
    p = data[5:]
    assert list(p[:7]) == [2, 0, 1, PHASES.index("viking"), 0, 8, 0]
    assert list(p[36:38]) == [255, 255]  # space 0 bought
    assert list(p[46:48]) == [5, 5]  # space 5: right piece, boatsman
    assert list(p[60:64]) == [1, 4, 1, 2]  # pending middle1, warrior, r1c2
    assert list(p[64:67]) == [0, 0, 0]  # no trip
    p0, p1 = PLAYERS_AT, PLAYERS_AT + PLAYER_BYTES
    assert struct.unpack_from("<ii", p, p0) == (12, 7)
    assert p[p0 + 8] == 1  # start row
    assert list(p[p0 + 9 : p0 + 15]) == [2, 0, 0, 1, 0, 1]  # mainland F2 N1 B1
    assert list(p[p0 + 15 : p0 + 19]) == [2, 3, 1, 0]  # ships g y r
    assert p[p0 + 79] == 1  # r1c1: left piece
    assert struct.unpack_from("<ii", p, p1) == (3, 0)
    assert p[p1 + 8] == 3
    cells = p1 + 79 + 2 * 64
    assert list(p[cells : cells + 4]) == [1 + 16, 2, 3, 0]  # r3: L with a scout, 1, 2
    cells = p1 + 79 + 4 * 64
    assert list(p[cells : cells + 4]) == [1, 2, 3, 0]  # r5: L 1 2
    assert p[35] == 0  # nothing discarded
    assert data[-6:] == struct.pack("<IH", 1, BUY(0))  # history [0]


def test_bytes_hold_negative_fame(engine):
    table = score(engine, 6, [player(fame=1, ships="yb", mainland="W3", rows={1: "L"})])
    seat = table.seats[0]
    data = table.state.serialize()
    at = 5 + PLAYERS_AT + seat * PLAYER_BYTES
    assert struct.unpack_from("<ii", data, at) == (0, -7)
    assert table.state.get_game().deserialize_state(data) == table.state


def test_pickle_copy_and_deepcopy(engine):
    state = viking_phase(engine)
    for twin in (
        pickle.loads(pickle.dumps(state)),
        copy.copy(state),
        copy.deepcopy(state),
        state.clone(),
    ):
        assert twin == state and twin is not state
        assert twin.get_game() == state.get_game()
        twin.apply_action(341)
        assert twin != state
    assert state.to_dict()["phase"] == "viking"


# --- hash_key -----------------------------------------------------------------------------------


def test_hash_key_follows_the_documented_mix(engine):
    for state in (engine.Game(num_players=2).new_initial_state(), viking_phase(engine)):
        key = state.hash_key()
        assert type(key) is int and 0 <= key < 2**64
        assert key == documented_hash(state.serialize(), len(state.history()))


def test_hash_key_equal_states_equal_keys_changed_position_other_key(engine):
    state = viking_phase(engine)
    assert state.clone().hash_key() == state.hash_key()
    same = state.get_game().state_from_dict(state.to_dict())
    assert same.hash_key() == state.hash_key()
    d = state.to_dict()
    d["history"] = []  # same position, other history
    other_history = state.get_game().state_from_dict(d)
    assert other_history != state and other_history.hash_key() == state.hash_key()
    on_tile, to_mainland = state.clone(), state.clone()
    on_tile.apply_action(340)
    to_mainland.apply_action(341)
    assert len({state.hash_key(), on_tile.hash_key(), to_mainland.hash_key()}) == 3
    first = engine.Game(num_players=2).new_initial_state()
    second = first.clone()
    first.apply_action(REVEAL("left"))
    second.apply_action(REVEAL("right"))
    assert first.hash_key() != second.hash_key()


# --- observation_tensor ---------------------------------------------------------------------------


def test_observation_of_the_initial_state(engine):
    game = engine.Game(num_players=2)
    state = game.new_initial_state()
    obs = state.observation_tensor(0)
    assert obs.dtype == np.float32 and obs.shape == game.observation_shape()
    assert obs.shape == (294 + 1545 * 2 + 80 + 22 * 2,)
    assert list(obs[0:6]) == [1, 0, 0, 0, 0, 0]  # round 1
    assert obs[6] == 1 and obs[7:22].sum() == 0  # phase reveal_tile
    assert obs[22:26].sum() == 0  # chance: nobody to move
    assert list(obs[26:30]) == [1, 0, 0, 0]  # start player in slot 0
    assert obs[31:247].sum() == 0  # empty wheel
    assert list(obs[247:257]) == [17, 5, 5, 5, 5, 21, 3, 4, 4, 3]
    assert list(obs[257:263]) == [13] * 6
    for slot in (0, 1):
        block = 294 + PLAYER_BLOCK * slot
        assert list(obs[block + 1542 : block + 1545]) == [30, 10, 0]
    assert list(state.observation_tensor(1)[26:30]) == [0, 1, 0, 0]  # relative slots


def test_observation_offsets_of_a_position(engine):
    state = viking_phase(engine)
    obs = state.observation_tensor(1)  # slot 0 = player 1, slot 1 = player 0
    assert obs[0] == 1
    assert obs[6 + PHASES.index("viking")] == 1 and obs[6:22].sum() == 1
    assert list(obs[22:26]) == [0, 1, 0, 0]  # player 0 to move is slot 1 for observer 1
    assert list(obs[26:30]) == [0, 1, 0, 0]
    assert obs[30] == 8  # purchases
    space5 = 31 + 18 * 5
    assert obs[space5] == 1 and obs[space5 + 1 + 5] == 1 and obs[space5 + 11 + 5] == 1
    assert obs[space5 + 1 : space5 + 17].sum() == 2
    assert [obs[31 + 18 * s + 17] for s in (5, 8, 11)] == [0, 3, 6]  # space 0 gone: low 5
    assert obs[31:49].sum() == 0  # space 0 empty
    assert obs[269 + 1] == 1 and obs[269:279].sum() == 1  # pending middle1
    assert obs[279 + 4] == 1 and obs[279:285].sum() == 1  # pending warrior
    assert list(obs[285:287]) == [1, 2]
    assert obs[287:294].sum() == 0  # no trip

    slot0, slot1 = 294, 294 + PLAYER_BLOCK
    assert list(obs[slot0 + 1542 : slot0 + 1545]) == [3, 0, 1]  # player 1
    r3c1 = slot0 + ((3 - 1) * 64 + 0) * 4
    assert list(obs[r3c1 : r3c1 + 8]) == [1, 0, 0, 1, 0, 1, 0, 0]  # L + scout, middle
    assert list(obs[slot0 + 1536 : slot0 + 1542]) == [0, 3, 0, 0, 0, 0]
    assert list(obs[slot1 + 1536 : slot1 + 1545]) == [2, 0, 0, 1, 0, 1, 12, 7, 1]  # player 0
    ships = slot1 + 1280
    assert list(obs[ships : ships + 16]) == [0, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0]
    assert list(obs[slot1 : slot1 + 4]) == [1, 0, 0, 0]  # r1c1: start tile

    mine = state.observation_tensor(0)
    assert list(mine[22:26]) == [1, 0, 0, 0]
    assert list(mine[294 + 1542 : 294 + 1545]) == [12, 7, 1]


# --- str ------------------------------------------------------------------------------------------

EMPTY_BOARD = [
    "  ships     |",
    "  warrior   |",
    "  noble     |",
    "  scout     |",
    "  goldsmith |",
    "  fisherman |",
]


def test_text_of_the_initial_state(engine):
    text = str(engine.Game(num_players=2).new_initial_state())
    assert text.split("\n") == [
        "Round 1/6 | phase reveal_tile | start player 0 | chance",
        "Wheel: empty",
        "Stacks: L=17 1=5 2=5 3=5 4=5 R=21 r=3 g=4 y=4 b=3",
        "Bag: F=13 G=13 S=13 N=13 W=13 B=13 | drawn: F=0 G=0 S=0 N=0 W=0 B=0",
        "Player 0: gold 30, fame 10, mainland F=0 G=0 S=0 N=0 W=0 B=0",
        *EMPTY_BOARD,
        "Player 1: gold 30, fame 10, mainland F=0 G=0 S=0 N=0 W=0 B=0",
        *EMPTY_BOARD,
    ]


def test_text_of_a_position(engine):
    assert str(viking_phase(engine)).split("\n") == [
        "Round 1/6 | phase viking | start player 0 | player 0 to move",
        "Wheel: 5:R/boatsman$0 8:R/boatsman$3 11:R/boatsman$6",
        "Stacks: L=16 1=2 2=3 3=5 4=5 R=18 r=2 g=3 y=3 b=3",
        "Bag: F=11 G=10 S=12 N=12 W=12 B=9 | drawn: F=0 G=0 S=0 N=0 W=0 B=0",
        "Pending: tile 1, viking warrior, cell r1c2",
        "Player 0: gold 12, fame 7, mainland F=2 G=0 S=0 N=1 W=0 B=1",
        "  ships     |g y r",
        "  warrior   |L 1 .",
        "  noble     |. . .",
        "  scout     |. . .",
        "  goldsmith |. . .",
        "  fisherman |. . .",
        "Player 1: gold 3, fame 0, mainland F=0 G=3 S=0 N=0 W=0 B=0",
        "  ships     |. . .",
        "  warrior   |. . .",
        "  noble     |. . .",
        "  scout     |L*1 2",
        "  goldsmith |. . .",
        "  fisherman |L 1 2",
    ]


# --- a trip in progress ---------------------------------------------------------------------------


def test_trip_in_dict_bytes_observation_and_text(engine):
    p = player(mainland="B1 S2", rows={3: "L*123"})  # free tiles r3c2, r3c3, r3c4
    table = scoring_table(engine, 2, [p]).finish()
    state = table.state
    state.apply_action(TRIP_ALL("scout"))
    state.apply_action(TARGET(3, 2))  # one scout left, c3 or c4
    assert state.to_dict()["trip"] == {"queue": [["scout", 1]], "last_col": 2}
    data = state.serialize()
    assert list(data[5 + 64 : 5 + 69]) == [1, 2, 1, 2, 1]  # present, last_col, 1 entry: scout x1
    assert struct.unpack_from("<ii", data, 5 + 69) == (0, 0)  # seat 0 (the dummy) follows
    seat = table.seats[0]
    obs = state.observation_tensor(seat)
    assert list(obs[287:294]) == [0, 0, 1, 0, 0, 0, 2]
    assert list(obs[22:26]) == [1, 0, 0, 0]  # the scorer is to move
    lines = str(state).split("\n")
    assert lines[0] == f"Round 2/6 | phase trip_target | start player 1 | player {seat} to move"
    assert lines[4] == "Trip: S×1 from c2"
    assert lines[5].startswith("Player 0: ")
