"""Final scoring: docs/rules.md B8.1-B8.9, after the large scoring of round 6.

Positions are scored with the dummy-buyer trick of `positions.scoring_table` (round 6). They are
built so that the round-6 large scoring gives nothing unless a comment says otherwise, and no
boatsman trip is possible. Fame starts at 10 unless given.
"""

import numpy as np
import pytest

from positions import TRIP_EACH, player, score, scoring_table


@pytest.mark.parametrize(
    "ships, row1, gold, fame_gold",
    [
        ("rgyb", "L", 20, (7, 2)),  # 8 gold -> 12 gold, 5 Fame; then 12 gold -> 2 Fame, 2 kept
        ("rg", "L", 5, (7, 0)),  # 8 gold owed, 5 paid, 3 Fame instead
        ("rg", "L*", 4, (9, 2)),  # red repelled: +3 gold at the large scoring and no cost;
        # green costs 5 of 7 gold; the warrior is not fed (-1)
    ],
)
def test_b8_1_ships_not_repelled_cost_their_value(engine, ships, row1, gold, fame_gold):
    table = score(engine, 6, [player(gold=gold, ships=ships, rows={1: row1})])
    assert (table.fame()[0], table.gold()[0]) == fame_gold


@pytest.mark.parametrize(
    "gold, fame_gold", [(0, (10, 0)), (4, (10, 4)), (5, (11, 0)), (38, (17, 3)), (46, (19, 1))]
)
def test_b8_2_one_fame_per_full_5_gold_and_the_rest_stays(engine, gold, fame_gold):
    table = score(engine, 6, [player(gold=gold, rows={1: "L"})])
    assert (table.fame()[0], table.gold()[0]) == fame_gold


@pytest.mark.parametrize(
    "boatsmen, fame",
    [
        (("B3", "B2"), [17, 8]),  # most: +10; every boatsman is an unfed Viking (B8.6)
        (("B3", "B3"), [17, 17]),  # tie: both (B8.7)
        (("", ""), [10, 10]),  # best count 0: nobody (B8.7)
    ],
)
def test_b8_3_boatsmen_majority(engine, boatsmen, fame):
    players = [player(mainland=m, rows={1: "L"}) for m in boatsmen]
    assert score(engine, 6, players).fame() == fame


def test_b8_3_spent_boatsmen_do_not_count(engine):
    spender = player(mainland="B2 N1", rows={2: "L"})  # round 6: must trip, one boatsman left
    keeper = player(mainland="B2", rows={1: "L"})  # nothing to move: keeps both
    table = scoring_table(engine, 6, [spender, keeper]).finish()
    assert table.state.current_player() == table.seats[0]
    table.state.apply_action(TRIP_EACH)
    # spender: noble +2 (B7.2), 1 boatsman < 2 (no bonus), 2 Vikings unfed -2 (B8.6)
    # keeper: 2 boatsmen, the most: +10 (B8.3), 2 Vikings unfed -2
    assert table.fame() == [10 + 2 - 2, 10 + 10 - 2]


def test_b8_4_completed_islands_majority_and_b8_5_longest(engine):
    a = player(rows={1: "LR", 2: "L1R", 3: "L2"})  # 2 completed, longest 3
    b = player(rows={1: "LRLR"})  # 2 completed, longest 2
    c = player(rows={1: "L3.R", 2: "L123"})  # a gap and open ends: none
    assert score(engine, 6, [a, b, c]).fame() == [10 + 7 + 5, 10 + 7, 10]


@pytest.mark.parametrize(
    "rows_a, rows_b, fame",
    [
        ({1: "L1234", 2: "LR"}, {1: "L1R"}, [17, 22]),  # an open island is not counted
        ({1: "L1R"}, {1: "L2R", 2: "LR"}, [15, 22]),  # longest tied at 3: both +5
        ({1: "L1"}, {1: "L"}, [10, 10]),  # nothing completed: no bonus
    ],
)
def test_b8_5_longest_completed_island(engine, rows_a, rows_b, fame):
    assert score(engine, 6, [player(rows=rows_a), player(rows=rows_b)]).fame() == fame


def test_b8_6_feeding_counts_every_viking_and_only_working_fishermen_feed(engine):
    a = player(mainland="W3", rows={5: "L*1*"})  # feeds 10 of 5: +2 x 5
    b = player(ships="b", mainland="W4", rows={5: "L*1*"})  # r5c1 threatened: feeds 5 of 6: -1;
    # the blue ship costs 3 (B8.1)
    c = player(mainland="B2 F1", rows={5: "L*"})  # feeds 5 of 4: +2; boatsmen +10
    assert score(engine, 6, [a, b, c]).fame() == [20, 6, 22]


def test_b8_6_b7_0_a_repelled_ship_neither_costs_nor_starves(engine):
    p = player(ships="b", rows={1: "L*", 5: "L*"})  # warrior r1c1 repels the blue ship
    # large scoring: +3 Fame (B7.2); final: no cost (B8.1); 2 Vikings, 5 meals: +2 x 3 (B8.6)
    assert score(engine, 6, [p]).fame() == [10 + 3 + 6]


@pytest.mark.parametrize(
    "fame, ships, mainland, final",
    [
        (1, "yb", "W3", -7),  # 1 - 2 - 3 (ships) - 3 (unfed)
        (2, "rg", "", -6),  # no gold: 8 Fame instead
    ],
)
def test_b8_8_penalties_may_take_fame_below_zero(engine, fame, ships, mainland, final):
    p = player(fame=fame, ships=ships, mainland=mainland, rows={1: "L"})
    table = score(engine, 6, [p])
    assert table.fame() == [final]
    assert table.gold() == [0]


@pytest.mark.parametrize(
    "fame_gold, returns",
    [
        (((20, 0), (15, 0)), [1.0, 0.0]),  # most Fame
        (((20, 3), (20, 4)), [0.0, 1.0]),  # tie on Fame: most gold left
        (((20, 4), (20, 4)), [0.5, 0.5]),  # still tied: shared win
        (((19, 9), (20, 3)), [1.0, 0.0]),  # 9 gold -> +1 Fame, 4 kept: 20/4 beats 20/3
    ],
)
def test_b8_9_winner_and_tie_break_in_returns(engine, fame_gold, returns):
    players = [player(fame=f, gold=g, rows={1: "L"}) for f, g in fame_gold]
    table = scoring_table(engine, 6, players)
    assert table.state.returns() == [0.0, 0.0, 0.0]  # all 0 before the end
    table.finish()
    state = table.state
    assert [state.returns()[s] for s in table.seats] == returns
    dummy = ({0, 1, 2} - set(table.seats)).pop()
    assert state.returns()[dummy] == 0.0  # the dummy ends with -1 Fame


def test_b8_game_over_state(engine):
    table = score(engine, 6, [player(gold=7, rows={1: "L"}), player(fame=3, rows={1: "L"})])
    state = table.state
    d = state.to_dict()
    assert state.is_terminal() and state.current_player() == engine.TERMINAL
    assert d["phase"] == "game_over" and d["round"] == 6
    assert d["start_player"] == 2  # that of round 6 with 3 players
    assert state.legal_actions() == []
    assert not state.legal_actions_mask().any()
    assert state.scores() == [p["fame"] for p in d["players"]]
    assert state.gold() == [p["gold"] for p in d["players"]]
    assert table.fame() == [11, 3] and table.gold() == [2, 0]
    assert isinstance(state.legal_actions_mask(), np.ndarray)
