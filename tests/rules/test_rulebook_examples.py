"""The rulebook's worked examples, docs/rules.md B9.1-B9.3, reproduced number by number.

Each board is built to show exactly what the example describes and nothing that scores besides
(how a constructed position gets scored: `positions.scoring_table`). The expected totals are
written as sums of the rulebook's numbers, in the rulebook's order.
"""

from positions import player, score

# B9.1 "Nessi", a large scoring (round 4: the board holds more tiles than 2 rounds deal). Columns:
#   ships   b   r   g   g   .   .      blue and red repelled by warriors r1c1, r1c2;
#   row 1   W   W   .   .   .   .      the green ships (cols 3, 4) reach row 3
#   row 2   N   N   N*  .   .   .      * threatened
#   row 3   S   S   S*  S*  S   S
#   row 4   G   G   G   -   G   .      - tile without a Viking
#   row 5   F   -   F   F   -   F
NESSI = player(
    gold=5,
    fame=10,
    ships="brgg",
    rows={
        1: "L*R*",
        2: "L*1*R*",
        3: "L*1*2*3*4*R*",
        4: "L*1*2*3R*",
        5: "L*12*3*4R*",
    },
)


def test_b9_1_large_scoring_nessi(engine):
    table = score(engine, 4, [NESSI])
    fame = 10 + (
        3  # warriors repel a blue ship: +3 Fame
        + 4  # three nobles, one threatened by a green ship
        + 4  # six scouts, two threatened
        + 3  # four goldsmiths under scouts, one of them under a threatened scout
        + 2  # four fishermen under scouts, two under threatened scouts
    )
    gold = 5 + (
        3  # ... and a red ship: +3 gold
        + 12  # four unthreatened goldsmiths
    )
    assert table.fame() == [fame]
    assert table.gold() == [gold]


# B9.2 "Ungeheuer" and "Tester", final scoring (round 6).
# Ungeheuer: ships yellow c1, green c2, red c3, none repelled (no warrior). Five completed
# islands: row 5 "L12R" (4 tiles, a fisherman on each) and "LR" in rows 1-4; the nobles (row 2)
# and scouts (row 3) stand in threatened columns, so the round-6 large scoring gives nothing.
# 23 Vikings: 4 fishermen, 2 scouts, 2 nobles on islands; 4 boatsmen, 3 fishermen, 4 scouts,
# 4 nobles on the mainland (their rows are full: no trip is possible).
UNGEHEUER = player(
    gold=46,
    fame=10,
    ships="ygr",
    mainland="B4 F3 S4 N4",
    start_row=5,
    rows={1: "LR", 2: "L*R*", 3: "L*R*", 4: "LR", 5: "L*1*2*R*"},
)
# Tester: no ship, no boatsman. Five completed islands: row 5 "L12R" + "LR", rows 1-3 "LR".
# 23 Vikings: 5 fishermen on row 5, 9 warriors and 9 goldsmiths on the mainland.
TESTER = player(
    gold=14,
    fame=10,
    mainland="W9 G9",
    start_row=5,
    rows={1: "LR", 2: "LR", 3: "LR", 5: "L*1*2*R*L*R"},
)


def test_b9_2_final_scoring_ungeheuer_and_tester(engine):
    table = score(engine, 6, [UNGEHEUER, TESTER])
    ungeheuer = 10 + (
        -2  # yellow ship not repelled; red and green cost 3 + 5 = 8 gold (46 -> 38)
        + 7  # 38 gold left -> 7 Fame, 3 gold kept
        + 10  # four boatsmen, alone the most
        + 7  # five completed islands, tied for most with Tester
        + 5  # longest island 4 tiles, as for Tester
        - 3  # four fishermen feed 20 of 23 Vikings
    )
    tester = 10 + (
        +2  # 14 gold -> 2 Fame, 4 kept (not part of the rulebook example)
        + 7  # five completed islands, tied
        + 5  # longest island 4 tiles
        + 4  # five fishermen feed 25 of 23
    )
    assert table.fame() == [ungeheuer, tester]
    assert table.gold() == [3, 4]
    assert table.state.is_terminal()
    assert [table.state.returns()[s] for s in table.seats] == [1.0, 0.0]


# B9.3 feeding: 23 Vikings each, nothing else scores (no ship, no completed island, no boatsman,
# gold below 5).
FIVE_FISHERMEN = player(gold=4, mainland="W9 N9", rows={5: "L*1*2*3*4*"})
THREE_FISHERMEN = player(gold=4, mainland="S10 G10", rows={5: "L*1*2*"})


def test_b9_3_feeding(engine):
    table = score(engine, 6, [FIVE_FISHERMEN, THREE_FISHERMEN])
    assert table.fame() == [10 + 4, 10 - 8]
    assert table.gold() == [4, 4]
