"""The offer and the buying: docs/rules.md B4 (wheel) and B5 (buying), on both engines."""

import random

import pytest

from positions import (
    BUY,
    COLOURS,
    DRAW,
    KINDS,
    PRINTED,
    REVEAL,
    START_GOLD,
    TILE,
    build_state,
    group,
    player,
)
from tools.random_games import step_random

REVEALS = [
    "ship_red",
    "left",
    "middle1",
    "ship_blue",
    "right",
    "middle2",
    "middle3",
    "ship_green",
    "middle4",
    "left",
    "right",
    "ship_yellow",
]
# B4.1: islands in reveal order on spaces 0, 1, 2, ...; ships in reveal order on 11, 10, 9, ...
WHEEL_TILES = [
    "left",
    "middle1",
    "right",
    "middle2",
    "middle3",
    "middle4",
    "left",
    "right",
    "ship_yellow",
    "ship_green",
    "ship_blue",
    "ship_red",
]
DRAWS = [
    "boatsman",
    "fisherman",
    "noble",
    "warrior",
    "goldsmith",
    "scout",
    "fisherman",
    "fisherman",
    "boatsman",
    "scout",
    "noble",
    "goldsmith",
]
# B4.2: F3 G2 S2 N2 W1 B2 sorted by colour onto spaces 0..11
WHEEL_VIKINGS = (
    ["fisherman"] * 3
    + ["goldsmith"] * 2
    + ["scout"] * 2
    + ["noble"] * 2
    + ["warrior"]
    + ["boatsman"] * 2
)


def price_seen(state, space, observer=0):
    """The price of `space` in the observation (docs/state.md: wheel block, last slot)."""
    return state.observation_tensor(observer)[31 + 18 * space + 17]


def reveal_and_draw(state):
    for kind in REVEALS:
        state.apply_action(REVEAL(kind))
    for colour in DRAWS:
        state.apply_action(DRAW(colour))
    return state


def test_b4_1_islands_fill_up_from_space_0_and_ships_down_from_11(engine):
    state = engine.Game(num_players=2).new_initial_state()
    state.apply_action(REVEAL("ship_red"))
    wheel = state.to_dict()["wheel"]
    assert wheel[11] == {"tile": "ship_red", "viking": None}
    assert wheel[:11] == [None] * 11
    state.apply_action(REVEAL("left"))
    assert state.to_dict()["wheel"][0] == {"tile": "left", "viking": None}
    for kind in REVEALS[2:]:
        assert state.to_dict()["phase"] == "reveal_tile"
        state.apply_action(REVEAL(kind))
    d = state.to_dict()
    assert [w["tile"] for w in d["wheel"]] == WHEEL_TILES
    assert all(w["viking"] is None for w in d["wheel"])
    assert d["phase"] == "draw_viking"
    expected = dict(PRINTED)
    for kind in REVEALS:
        expected[kind] -= 1
    assert d["stacks"] == expected


def test_b1_4_tile_chance_outcomes_are_remaining_count_over_total(engine):
    state = engine.Game(num_players=3).new_initial_state()
    assert state.is_chance_node() and state.current_player() == engine.CHANCE
    assert state.chance_outcomes() == [(i, PRINTED[k] / 72) for i, k in enumerate(KINDS)]
    assert state.legal_actions() == list(range(10))
    state.apply_action(REVEAL("left"))
    outcomes = dict(state.chance_outcomes())
    assert outcomes[REVEAL("left")] == 16 / 71
    assert outcomes[REVEAL("ship_blue")] == 3 / 71


def test_b4_2_vikings_wait_in_drawn_then_sorted_by_colour_from_space_0(engine):
    state = engine.Game(num_players=2).new_initial_state()
    for kind in REVEALS:
        state.apply_action(REVEAL(kind))
    assert state.chance_outcomes() == [(10 + c, 13 / 78) for c in range(6)]
    for colour in DRAWS[:5]:
        state.apply_action(DRAW(colour))
    d = state.to_dict()
    assert d["phase"] == "draw_viking"
    assert all(w["viking"] is None for w in d["wheel"])
    assert d["drawn"] == {
        "fisherman": 1,
        "goldsmith": 1,
        "scout": 0,
        "noble": 1,
        "warrior": 1,
        "boatsman": 1,
    }
    assert dict(state.chance_outcomes())[DRAW("boatsman")] == 12 / 73
    for colour in DRAWS[5:]:
        state.apply_action(DRAW(colour))
    d = state.to_dict()
    assert [w["viking"] for w in d["wheel"]] == WHEEL_VIKINGS
    assert [w["tile"] for w in d["wheel"]] == WHEEL_TILES
    assert d["drawn"] == dict.fromkeys(COLOURS, 0)
    assert d["bag"] == {
        "fisherman": 10,
        "goldsmith": 11,
        "scout": 11,
        "noble": 11,
        "warrior": 12,
        "boatsman": 11,
    }
    assert d["phase"] == "buy" and state.current_player() == 0


def test_b4_3_b5_1_first_offer_prices_equal_spaces_and_start_player_buys(engine):
    state = reveal_and_draw(engine.Game(num_players=2).new_initial_state())
    assert [price_seen(state, s) for s in range(12)] == list(range(12))
    # B5.2: spaces 0..2 all hold fishermen, so the price-0 group is not for sale
    assert state.legal_actions() == list(range(1, 12))
    state.apply_action(BUY(7))
    d = state.to_dict()
    assert d["players"][0]["gold"] == START_GOLD[2] - 7
    assert d["players"][0]["fame"] == 10
    assert d["wheel"][7] is None
    assert d["pending"] == {"tile": "right", "viking": "noble", "cell": None}
    assert d["phase"] == "start_row"  # B6.0: the first purchase places the start tile
    # B4.3: the wheel did not turn (space 0 still occupied)
    assert price_seen(state, 11) == 11


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_b5_1_buyers_rotate_from_start_player_and_each_buys_12_over_n(engine, num_players):
    rng = random.Random(510 + num_players)
    state = engine.Game(num_players=num_players).new_initial_state()
    while state.to_dict()["round"] == 1:
        d = state.to_dict()
        if d["phase"] == "buy":
            assert state.current_player() == (d["start_player"] + d["purchases"]) % num_players
        step_random(state, rng)
    d = state.to_dict()
    assert d["start_player"] == 1  # B3.3: the marker passed after round 1
    assert d["purchases"] == 0 and d["phase"] == "reveal_tile"
    for p in d["players"]:
        vikings = sum(p["mainland"].values()) + sum(len(v) for v in p["vikings"])
        assert vikings == 12 // num_players  # every purchase brings exactly one Viking
        assert p["start_row"] is not None


# --- B5.2-B5.5 on a constructed wheel ---------------------------------------------------------
# 2 players, round 1, 4 groups left (purchases 8, player 0 to buy): lowest space 3, so the
# prices are space 3 -> 0, 5 -> 2, 8 -> 5, 11 -> 8.


def offer(engine, gold, fame, second_viking="F"):
    wheel = {
        3: group("L", "F"),
        5: group("1", second_viking),
        8: group("R", "S"),
        11: group("r", "B"),
    }
    buyer = player(gold=gold, fame=fame, rows={1: "L"})
    other = player(gold=30, fame=10, rows={1: "L"})
    return build_state(engine, [buyer, other], round=1, wheel=wheel)


def test_b5_2_price_0_group_refused_while_its_colour_is_elsewhere_on_the_wheel(engine):
    state = offer(engine, gold=20, fame=10, second_viking="F")
    assert state.current_player() == 0
    assert state.legal_actions() == [5, 8, 11]


def test_b5_2_price_0_group_allowed_when_its_colour_is_alone(engine):
    state = offer(engine, gold=20, fame=10, second_viking="G")
    assert state.legal_actions() == [3, 5, 8, 11]


@pytest.mark.parametrize(
    "gold, fame, legal",
    [
        (1, 10, [3, 5, 8, 11]),  # gold 1 < 2, 5, 8: override, the others still payable with Fame
        (2, 10, [5, 8, 11]),  # gold 2 pays the price-2 group: no override
        (1, 3, [3, 5]),  # override; 5 and 8 exceed gold + Fame = 4 (B5.5)
        (0, 0, [3]),  # nothing else affordable: the price-0 group is always allowed
    ],
)
def test_b5_3_poverty_override_is_judged_on_gold_alone(engine, gold, fame, legal):
    state = offer(engine, gold=gold, fame=fame, second_viking="F")
    assert state.legal_actions() == legal


def test_b5_4_buying_the_price_0_group_turns_the_wheel(engine):
    state = offer(engine, gold=20, fame=10, second_viking="G")
    state.apply_action(BUY(3))
    assert state.to_dict()["players"][0]["gold"] == 20
    # lowest occupied space is now 5: prices 0, 3, 6
    assert [price_seen(state, s) for s in (5, 8, 11)] == [0, 3, 6]
    assert price_seen(state, 3) == 0  # empty space: all zeros
    state.apply_action(TILE(2, 1))  # left piece in row 2; the fisherman -> mainland
    assert state.current_player() == 1
    assert state.legal_actions() == [5, 8, 11]
    state.apply_action(BUY(8))
    assert state.to_dict()["players"][1]["gold"] == 27


def test_b4_3_buying_another_group_does_not_turn_the_wheel(engine):
    state = offer(engine, gold=20, fame=10, second_viking="G")
    state.apply_action(BUY(8))
    assert state.to_dict()["players"][0]["gold"] == 15
    assert [price_seen(state, s) for s in (3, 5, 11)] == [0, 2, 8]


@pytest.mark.parametrize(
    "gold, fame, space, after",
    [
        (20, 10, 8, (15, 10)),  # gold first
        (2, 10, 8, (0, 7)),  # price 5: 2 gold + 3 Fame
        (1, 1, 5, (0, 0)),  # exactly gold + Fame: Fame reaches 0, not below
        (0, 9, 11, (0, 1)),  # price 8 all from Fame
    ],
)
def test_b5_5_shortfall_is_paid_from_fame(engine, gold, fame, space, after):
    state = offer(engine, gold=gold, fame=fame, second_viking="G")
    state.apply_action(BUY(space))
    p = state.to_dict()["players"][0]
    assert (p["gold"], p["fame"]) == after


def test_b5_5_group_costing_more_than_gold_plus_fame_is_illegal(engine):
    state = offer(engine, gold=1, fame=3, second_viking="G")
    before = state.to_dict()
    assert 8 not in state.legal_actions()
    with pytest.raises(ValueError):
        state.apply_action(BUY(8))
    assert state.to_dict() == before
