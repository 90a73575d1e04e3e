"""Advanced modules A1-A3 on constructed positions: docs/rules.md A1 (auction for start player),
A2 (draw of 13), A3 (offer by colour); phases and ids of docs/advanced.md, docs/actions.md.
The order of a round with them (A0) is tests/rules/test_round_order.py.

Every expected number is worked out by hand from the rules in the comments.
"""

import pytest

from positions import BUY, COLOURS, DRAW, REVEAL, build_state, group, player, score

PASS = 674


def BID(k):
    return 675 + k


def REMOVE(colour):
    return 1699 + COLOURS.index(colour)


def OFFER(colour):
    return 1705 + COLOURS.index(colour)


AUCTION = {"auction": True}
TWELVE_DRAWN = "F2 G2 S2 N2 W2 B2"


def auction_state(engine, players, start_player=0):
    """Round 1, phase auction, nothing bid yet (docs/advanced.md: leader = turn = start); A0:
    the round's 12 Vikings are drawn, the wheel is empty."""
    n = len(players)
    return build_state(
        engine,
        players,
        round=1,
        phase="auction",
        start_player=start_player,
        purchases=0,
        options=AUCTION,
        drawn=TWELVE_DRAWN,
        auction={"high": None, "leader": start_player, "passed": [False] * n, "turn": start_player},
    )


def money(state):
    d = state.to_dict()
    return [(p["gold"], p["fame"]) for p in d["players"]]


# --- A1 auction ----------------------------------------------------------------------------------


def test_a1_the_round_opens_with_the_start_players_bid_0_allowed_no_pass(engine):
    """A1: after the 12 Vikings are drawn (A0) the start player bids first, 0 allowed; the
    opening bid cannot be a pass; bids up to gold + Fame (B5.5): 2 players start with 30 gold
    and 10 Fame (B1.5) -> BID 0..40."""
    state = engine.Game(num_players=2, auction=True).new_initial_state()
    for _ in range(12):
        assert state.to_dict()["phase"] == "draw_viking"
        state.apply_action(DRAW("scout"))
    assert state.to_dict()["phase"] == "auction"
    assert state.current_player() == 0
    assert state.legal_actions() == [BID(k) for k in range(41)]
    assert PASS not in state.legal_actions()


def test_a1_raise_or_pass_clockwise_passed_players_are_out_winner_pays_and_starts(engine):
    """A1: p0 (start) opens 2, p1 raises to 4, p2 passes (out), p0 raises to 6, p1 raises to 8
    (its whole gold + Fame), p2 is skipped, p0 passes: p1 is the last bidder, pays 8 -- its 3
    gold first, then 5 Fame (B5.5) -- and becomes start player."""
    state = auction_state(
        engine, [player(gold=5, fame=10), player(gold=3, fame=5), player(gold=20, fame=10)]
    )
    assert state.current_player() == 0
    assert state.legal_actions() == [BID(k) for k in range(16)]  # 5 + 10, no PASS
    state.apply_action(BID(2))
    assert state.current_player() == 1
    assert state.legal_actions() == [PASS] + [BID(k) for k in range(3, 9)]  # above 2, <= 3 + 5
    state.apply_action(BID(4))
    assert state.current_player() == 2
    state.apply_action(PASS)
    assert state.current_player() == 0
    assert state.legal_actions() == [PASS] + [BID(k) for k in range(5, 16)]
    state.apply_action(BID(6))
    assert state.current_player() == 1
    state.apply_action(BID(8))
    assert state.to_dict()["auction"] == {
        "high": 8,
        "leader": 1,
        "passed": [False, False, True],
        "turn": 0,
    }  # p2 is out: skipped
    assert state.current_player() == 0
    state.apply_action(PASS)
    d = state.to_dict()
    assert d["auction"] is None and d["phase"] == "reveal_tile"
    assert d["start_player"] == 1
    assert money(state) == [(5, 10), (0, 0), (20, 10)]


def test_a1_winner_with_enough_gold_pays_only_gold(engine):
    """A1 / B5.5: p1 wins with 7 holding 12 gold: 12 - 7 = 5 gold, Fame untouched."""
    state = auction_state(engine, [player(gold=0, fame=3), player(gold=12, fame=4)])
    state.apply_action(BID(3))  # p0: 3 = all its gold + Fame
    state.apply_action(BID(7))  # p1 raises; p0 cannot raise: PASS is forced
    d = state.to_dict()
    assert d["phase"] == "reveal_tile" and d["start_player"] == 1
    assert money(state) == [(0, 3), (5, 4)]


def test_a1_nobody_raising_keeps_the_start_player_for_0(engine):
    """A1: start player 1 opens 0, p2 and p0 pass: p1 stays start player and pays nothing."""
    state = auction_state(engine, [player(gold=9), player(gold=9), player(gold=9)], start_player=1)
    assert state.current_player() == 1
    state.apply_action(BID(0))
    assert state.current_player() == 2
    state.apply_action(PASS)
    assert state.current_player() == 0
    state.apply_action(PASS)
    d = state.to_dict()
    assert d["phase"] == "reveal_tile" and d["start_player"] == 1
    assert money(state) == [(9, 10)] * 3


def test_a1_bid_capped_by_gold_plus_fame_and_a_broke_bidder_is_forced_out(engine):
    """A1 / B5.5: bids never exceed gold + Fame; p1 with 0 gold and 0 Fame can only pass after
    p0's opening 0 (a forced decision, applied automatically): p0 keeps the role for 0."""
    state = auction_state(engine, [player(gold=1, fame=1), player(gold=0, fame=0)])
    assert state.legal_actions() == [BID(0), BID(1), BID(2)]
    state.apply_action(BID(0))
    d = state.to_dict()
    assert d["phase"] == "reveal_tile" and d["start_player"] == 0
    assert money(state) == [(1, 1), (0, 0)]


@pytest.mark.parametrize("round_", [1, 2])  # small (B7.1) and large (B7.2) scoring
@pytest.mark.parametrize("auction, passes", [(False, True), (True, False)])
def test_a1_replaces_b3_3_the_marker_does_not_pass_after_scoring(engine, round_, auction, passes):
    """B3.3: the marker passes clockwise after the scoring; ⚖ A1: not with the auction on --
    the next round draws its 12 Vikings (A0), then holds an auction led by the same start
    player."""
    table = score(engine, round_, [player(rows={1: "L"})], options={"auction": auction})
    d = table.state.to_dict()
    n = 2
    before = (round_ - 1) % n  # scoring_table's start player
    assert d["round"] == round_ + 1
    assert d["start_player"] == ((before + 1) % n if passes else before)
    if auction:
        assert d["phase"] == "draw_viking" and d["auction"] is None
        for _ in range(12):
            table.state.apply_action(table.state.legal_actions()[0])
        d = table.state.to_dict()
        assert d["phase"] == "auction"
        assert d["auction"] == {
            "high": None,
            "leader": before,
            "passed": [False, False],
            "turn": before,
        }
        assert table.state.current_player() == before


# --- A2 draw of 13 -------------------------------------------------------------------------------

ISLANDS_AND_SHIPS = ["left"] * 4 + ["middle1"] * 2 + ["right"] * 3 + ["ship_red"] * 3


def test_a2_thirteen_draws_then_the_start_player_removes_one_by_colour(engine):
    """A2: 13 draw_viking chance nodes, then the start player's REMOVE for each drawn colour;
    the removed Viking leaves the game (`removed`); then the 12 tiles (A0) and the other 12
    Vikings go on the wheel in colour order (B4.2): F F G S S W W W W B B B."""
    state = engine.Game(num_players=2, draw13=True).new_initial_state()
    draws = ["fisherman"] * 2 + ["goldsmith"] + ["scout"] * 3 + ["warrior"] * 4 + ["boatsman"] * 3
    for i, colour in enumerate(draws):
        assert state.to_dict()["phase"] == "draw_viking", f"draw {i + 1} of 13"
        state.apply_action(DRAW(colour))
    d = state.to_dict()
    assert d["phase"] == "remove_viking"
    assert state.current_player() == d["start_player"] == 0
    assert state.legal_actions() == [
        REMOVE(c) for c in ("fisherman", "goldsmith", "scout", "warrior", "boatsman")
    ]
    state.apply_action(REMOVE("scout"))
    assert state.to_dict()["phase"] == "reveal_tile"
    for kind in ISLANDS_AND_SHIPS:
        state.apply_action(REVEAL(kind))
    d = state.to_dict()
    assert d["phase"] == "buy"
    assert d["removed"] == {
        "fisherman": 0,
        "goldsmith": 0,
        "scout": 1,
        "noble": 0,
        "warrior": 0,
        "boatsman": 0,
    }
    assert d["drawn"] == dict.fromkeys(COLOURS, 0)
    assert [w["viking"] for w in d["wheel"]] == (
        ["fisherman"] * 2 + ["goldsmith"] + ["scout"] * 2 + ["warrior"] * 4 + ["boatsman"] * 3
    )
    assert sum(d["bag"].values()) == 78 - 13
    assert d["bag"]["scout"] == 10


def test_a2_the_remove_decision_is_the_start_players_not_player_0(engine):
    """A2: with start player 1 the 13th draw hands REMOVE to player 1; the wheel is still empty
    (A0), the removal is followed by the tiles, and they by the 12 Vikings."""
    p = player(rows={1: "L"})
    state = build_state(
        engine,
        [p, p],
        round=1,
        phase="draw_viking",
        start_player=1,
        drawn="F3 N4 W5",
        options={"draw13": True},
    )
    state.apply_action(DRAW("noble"))  # the 13th
    assert state.to_dict()["phase"] == "remove_viking"
    assert state.current_player() == 1
    assert state.legal_actions() == [REMOVE("fisherman"), REMOVE("noble"), REMOVE("warrior")]
    state.apply_action(REMOVE("warrior"))
    assert state.to_dict()["phase"] == "reveal_tile"
    for s in range(12):
        state.apply_action(REVEAL("left" if s < 5 else "right" if s < 9 else "ship_red"))
    d = state.to_dict()
    assert d["removed"]["warrior"] == 1
    assert sum(w["viking"] is not None for w in d["wheel"]) == 12
    assert [w["viking"] for w in d["wheel"]] == ["fisherman"] * 3 + ["noble"] * 5 + ["warrior"] * 4


# --- A3 offer by colour --------------------------------------------------------------------------


def offer_wheel():
    """The wheel of round 1's tiles without Vikings (spaces 0-7 L, 8-9 r, 10-11 g)."""
    return {s: group("L" if s < 8 else "r" if s < 10 else "g", None) for s in range(12)}


def offer_state(engine, players, drawn, start_player=0, wheel=None, **options):
    """Round 1 at offer_colour with A3 on; `wheel` defaults to offer_wheel()."""
    wheel = offer_wheel() if wheel is None else wheel
    return build_state(
        engine,
        players,
        round=1,
        phase="offer_colour",
        purchases=0,
        start_player=start_player,
        wheel=wheel,
        drawn=drawn,
        options={"offer_by_colour": True, **options},
    )


def test_a3_colours_picked_clockwise_from_the_start_player_fill_from_space_11_down(engine):
    """A3: drawn F2 G3 S2 W3 B2 (12), start player 1 of 3. p1 picks goldsmith -> spaces
    11, 10, 9; p2 warrior -> 8, 7, 6; p0 fisherman -> 5, 4; p1 again boatsman -> 3, 2; the last
    colour, scout, is forced onto 1, 0. Then phase buy, player 1 (B5.1) to move."""
    p = player(gold=20, rows={1: "L"})
    state = offer_state(engine, [p, p, p], "F2 G3 S2 W3 B2", start_player=1)
    picks = [(1, "goldsmith"), (2, "warrior"), (0, "fisherman"), (1, "boatsman")]
    legal = ["fisherman", "goldsmith", "scout", "warrior", "boatsman"]  # no noble drawn
    for who, colour in picks:
        assert state.to_dict()["phase"] == "offer_colour"
        assert state.current_player() == who
        assert state.legal_actions() == [OFFER(c) for c in legal]
        state.apply_action(OFFER(colour))
        legal.remove(colour)
    d = state.to_dict()
    assert d["phase"] == "buy" and state.current_player() == 1
    assert d["drawn"] == dict.fromkeys(COLOURS, 0)
    assert [w["viking"] for w in d["wheel"]] == (
        ["scout"] * 2 + ["boatsman"] * 2 + ["fisherman"] * 2 + ["warrior"] * 3 + ["goldsmith"] * 3
    )
    # B5.2 on the unsorted wheel: the scout at price 0 has a twin on space 1 -> not buyable;
    # gold 20 + Fame 10 covers every other price 1..11
    assert state.legal_actions() == [BUY(s) for s in range(1, 12)]


def test_a3_partial_offer_fills_from_the_highest_free_space(engine):
    """A3: with goldsmith (3) and warrior (2) already on 11..7, offering noble (4) puts the
    nobles on 6, 5, 4, 3 -- the highest spaces without a Viking."""
    wheel = offer_wheel()
    for s, colour in ((11, "G"), (10, "G"), (9, "G"), (8, "W"), (7, "W")):
        wheel[s] = group(wheel[s]["tile"], colour)
    p = player(rows={1: "L"})
    state = offer_state(engine, [p, p], "F3 N4", wheel=wheel)
    assert state.current_player() == 0  # two colours placed: (0 + 2) % 2
    state.apply_action(OFFER("noble"))  # then the fishermen are forced onto 2, 1, 0
    d = state.to_dict()
    assert [w["viking"] for w in d["wheel"]] == (
        ["fisherman"] * 3 + ["noble"] * 4 + ["warrior"] * 2 + ["goldsmith"] * 3
    )


@pytest.mark.parametrize(
    "gold, fame, legal",
    [
        (20, 10, [5, 9]),  # B5.2: the fisherman on 3 (price 0) has a twin on space 9
        (1, 10, [3, 5, 9]),  # B5.3: 1 gold < prices 2 and 6 -> the 0 group is allowed
        (0, 1, [3]),  # B5.3, and only price <= gold + Fame = 1 otherwise: none
    ],
)
def test_a3_b5_2_and_b5_3_apply_to_the_unsorted_wheel(engine, gold, fame, legal):
    """A3 / B5.2 / B5.3: wheel 3: fisherman, 5: goldsmith, 9: fisherman (not colour-sorted,
    possible only with A3); prices 0, 2, 6 (B4.3)."""
    wheel = {3: group("L", "F"), 5: group("L", "G"), 9: group("r", "F")}
    buyer = player(gold=gold, fame=fame, rows={1: "L"})
    other = player(rows={1: "L"})
    # purchases 9, start player 0 of 2: buyer seat 1
    state = build_state(
        engine, [other, buyer], round=1, wheel=wheel, options={"offer_by_colour": True}
    )
    assert state.current_player() == 1
    assert state.legal_actions() == [BUY(s) for s in legal]


def test_a_colour_split_into_two_blocks_on_the_wheel_is_refused_by_both_engines():
    # A3: a colour is offered whole, so its Vikings form one block of the highest spaces. A
    # real offer_colour position with the first Viking's colour swapped with a later one's
    # (warrior, fisherman, warrior, ...) splits a colour; the reference once accepted it.
    import copy
    import random

    import vikinger_fast
    import vikinger_ref

    options = {"offer_by_colour": True}
    rng = random.Random(0)
    state = vikinger_ref.Game(num_players=2, **options).new_initial_state()
    while True:
        d = state.to_dict()
        vikings = [w["viking"] for w in d["wheel"] if w and w["viking"]]
        if (
            d["phase"] == "offer_colour"
            and len(vikings) >= 3
            and vikings[0] != vikings[1]
            and vikings[1] == vikings[2]
        ):
            break
        if state.is_chance_node():
            state.apply_random_chance(rng.getrandbits(64))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    spaces = [i for i, w in enumerate(d["wheel"]) if w and w["viking"]]
    d["wheel"][spaces[0]]["viking"], d["wheel"][spaces[1]]["viking"] = vikings[1], vikings[0]
    for engine in (vikinger_ref, vikinger_fast):
        with pytest.raises(ValueError) as refused:
            engine.Game(num_players=2, **options).state_from_dict(copy.deepcopy(d))
        assert str(refused.value) == (
            "invalid state: A3 Vikings stand on the highest spaces, one colour block at a time"
        )
