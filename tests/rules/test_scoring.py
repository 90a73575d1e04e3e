"""Scoring during the game: docs/rules.md B7.0 (threat), B7.1 (small) and B7.2 (large, with trips).

Every position is scored with the dummy-buyer trick of `positions.scoring_table`; the examined
player starts with 0 gold and 10 Fame, so the expected numbers below are the gains, by hand.
"""

import pytest

from positions import (
    BUY,
    LAST_SPACE,
    TARGET,
    TRIP_ALL,
    TRIP_EACH,
    TRIP_STOP,
    colour_counts,
    player,
    score,
    scoring_table,
)


def gains(table):
    """(gold, Fame) of the first examined player minus the start 0 gold / 10 Fame."""
    return table.gold()[0], table.fame()[0] - 10


# --- B7.0 threat, seen through the small scoring (3 gold per unthreatened goldsmith) ---------


def test_b7_0_sail_colour_sets_the_depth_of_the_threat(engine):
    # goldsmiths (row 4) in columns 1..5 under red, green, yellow, blue and no ship
    p = player(ships="rgyb", rows={4: "L*1*2*3*4*"})
    # red reaches row 2, green row 3: safe; yellow row 4, blue row 5: threatened; col 5 safe
    assert gains(score(engine, 1, [p])) == (9, 0)


@pytest.mark.parametrize(
    "row1, gold",
    [
        ("", 0),  # no warrior: blue col 1 and yellow cols 2, 3 threaten all three
        ("L*", 3),  # warrior r1c1 repels the blue ship: its whole column is safe
        ("L*1R*", 6),  # warriors r1c1 and r1c3
        ("L1R", 0),  # island tiles without warriors repel nothing
    ],
)
def test_b7_0_warrior_in_row_1_repels_the_ship_of_its_column(engine, row1, gold):
    p = player(ships="byy", mainland="W3", rows={1: row1, 4: "L*1*2*"})
    assert gains(score(engine, 1, [p])) == (gold, 0)


# --- B7.1 small scoring -------------------------------------------------------------------------


@pytest.mark.parametrize("round_", [1, 3, 5])
def test_b7_1_small_scoring_pays_only_unthreatened_goldsmiths_on_islands(engine, round_):
    # nobles and scouts score nothing now; mainland goldsmiths never score during the game
    p = player(ships="g", mainland="G2 N1", rows={2: "L*1*", 3: "L*", 4: "L*1*2*"})
    table = score(engine, round_, [p])
    assert gains(table) == (9, 0)
    d = table.state.to_dict()
    assert d["round"] == round_ + 1 and d["phase"] == "reveal_tile"
    assert d["start_player"] == round_ % 2  # B3.3


# --- B7.2 large scoring, steps 2-6 --------------------------------------------------------------


@pytest.mark.parametrize("round_", [2, 4])
@pytest.mark.parametrize(
    "row1, gold, fame",
    [
        ("L*1*2*R*", 8, 5),  # all four repelled: red 3 gold, green 5 gold, yellow 2, blue 3 Fame
        ("L*1R*", 3, 2),  # red (col 1) and yellow (col 3) repelled
        ("L1", 0, 0),  # no warrior: nothing
    ],
)
def test_b7_2_repelled_ships_pay_their_value_at_every_large_scoring(
    engine, round_, row1, gold, fame
):
    p = player(ships="rgyb", rows={1: row1})
    assert gains(score(engine, round_, [p])) == (gold, fame)


@pytest.mark.parametrize(
    "row1, gold, fame",
    [
        ("", 0, 4),  # red col 2 and green col 3 threaten nobles r2c2, r2c3: 2 x 2 Fame
        ("L12*", 5, 6),  # warrior r1c3 repels green: +5 gold, noble r2c3 safe
    ],
)
def test_b7_2_nobles_score_2_fame_when_unthreatened(engine, row1, gold, fame):
    p = player(ships=".rg", mainland="N3", rows={1: row1, 2: "L*1*2*3*"})
    assert gains(score(engine, 2, [p])) == (gold, fame)


def test_b7_2_scouts_and_their_two_independent_bonuses(engine):
    p = player(ships="g", rows={3: "L*1*2*3*", 4: "L*1*.R", 5: "L*1*2*"})
    # col 1: scout threatened by green -> nothing, bonus included
    # col 2: 1 + goldsmith r4c2 + fisherman r5c2 = 3
    # col 3: 1 + fisherman r5c3 (r4c3 is empty) = 2
    # col 4: 1 (the r4c4 tile has no goldsmith, r5c4 empty) = 1
    # goldsmiths r4c1 (green reaches row 3 only) and r4c2: 6 gold
    assert gains(score(engine, 2, [p])) == (6, 6)


def test_b7_2_goldsmiths_score_3_gold_when_unthreatened(engine):
    p = player(ships="y", mainland="G2", rows={4: "L*1*2"})  # r4c1 under the yellow ship
    assert gains(score(engine, 2, [p])) == (3, 0)


def test_b7_2_fishermen_score_nothing_during_the_game(engine):
    p = player(rows={5: "L*1*2*"}, mainland="F4")
    assert gains(score(engine, 2, [p])) == (0, 0)


# --- B7.2.1 boatsman trips ----------------------------------------------------------------------


def test_b7_2_trip_options_trip_all_and_trip_each_then_scoring(engine):
    # free tiles: r2c1 (nobles), r3c2..c4 (scouts), r4c1 (goldsmiths, none on the mainland);
    # row 5 is full, so the mainland fisherman cannot move.
    p = player(mainland="B2 S3 N1 F1", rows={2: "L", 3: "L*123", 4: "L", 5: "L*"})
    table = scoring_table(engine, 2, [p]).finish()
    state = table.state
    assert state.to_dict()["phase"] == "trip"
    assert state.current_player() == table.seats[0]  # the start player scores first
    assert state.legal_actions() == [TRIP_STOP, TRIP_ALL("scout"), TRIP_ALL("noble"), TRIP_EACH]

    state.apply_action(TRIP_ALL("scout"))  # 3 scouts, 3 free tiles: every target forced
    d = table.player(0)
    assert d["vikings"][2] == [1, 2, 3, 4]
    assert d["mainland"] == colour_counts("B1 N1 F1")
    assert state.to_dict()["removed"] == colour_counts("B1")
    assert state.to_dict()["phase"] == "trip"
    assert state.legal_actions() == [TRIP_STOP, TRIP_ALL("noble"), TRIP_EACH]

    state.apply_action(TRIP_EACH)  # only the noble can move now
    d = table.player(0)
    assert d["vikings"][1] == [1]
    assert d["mainland"] == colour_counts("F1")
    assert state.to_dict()["removed"] == colour_counts("B2")
    assert state.history() == [BUY(LAST_SPACE), TRIP_ALL("scout"), TRIP_EACH]
    # trips come first, so the moved Vikings score: noble 2, scouts 4 + fisherman bonus r5c1 1
    assert gains(table) == (0, 7)
    assert state.to_dict()["round"] == 3


def test_b7_2_trip_targets_are_chosen_left_to_right(engine):
    p = player(mainland="B1 S2", rows={3: "L*123"})  # free tiles r3c2, r3c3, r3c4
    table = scoring_table(engine, 2, [p]).finish()
    state = table.state
    assert state.legal_actions() == [TRIP_STOP, TRIP_ALL("scout"), TRIP_EACH]
    state.apply_action(TRIP_ALL("scout"))
    d = state.to_dict()
    assert d["phase"] == "trip_target"
    assert d["trip"] == {"queue": [["scout", 2]], "last_col": 0}
    assert table.player(0)["mainland"] == colour_counts("S2")  # queued Vikings wait there
    # 2 to place: c4 would leave no free tile to its right for the second scout
    assert state.legal_actions() == [TARGET(3, 2), TARGET(3, 3)]
    state.apply_action(TARGET(3, 3))  # then c4 is the only target: forced
    d = state.to_dict()
    assert d["trip"] is None
    assert table.player(0)["vikings"][2] == [1, 3, 4]
    assert gains(table) == (0, 3)


def test_b7_2_trip_each_moves_one_of_each_colour_in_colour_order(engine):
    p = player(mainland="B1 F1 S1 N1", rows={2: "L", 3: "L", 5: "L1"})
    table = scoring_table(engine, 2, [p]).finish()
    state = table.state
    state.apply_action(TRIP_EACH)
    d = state.to_dict()
    assert d["trip"] == {"queue": [["fisherman", 1], ["scout", 1], ["noble", 1]], "last_col": 0}
    assert state.legal_actions() == [TARGET(5, 1), TARGET(5, 2)]
    state.apply_action(TARGET(5, 2))  # scout r3c1 and noble r2c1 are forced
    d = table.player(0)
    assert d["vikings"] == [[], [1], [1], [], [2]]
    assert d["mainland"] == colour_counts("")
    assert gains(table) == (0, 2 + 1)  # noble 2, scout 1 (r5c1 holds no fisherman)


def test_b7_2_trip_stop_keeps_boatsmen_and_vikings_on_the_mainland(engine):
    p = player(mainland="B1 N1", rows={2: "L"})
    table = scoring_table(engine, 2, [p]).finish()
    assert table.state.legal_actions() == [TRIP_STOP, TRIP_ALL("noble"), TRIP_EACH]
    table.state.apply_action(TRIP_STOP)
    assert table.player(0)["mainland"] == colour_counts("B1 N1")
    assert table.state.to_dict()["removed"] == colour_counts("")
    assert gains(table) == (0, 0)
    assert table.state.to_dict()["round"] == 3


def test_b7_2_round_6_forbids_trip_stop_while_a_trip_is_possible(engine):
    p = player(mainland="B1 N1", rows={2: "L"})
    table = scoring_table(engine, 6, [p]).finish()
    state = table.state
    assert state.to_dict()["phase"] == "trip"
    assert state.legal_actions() == [TRIP_ALL("noble"), TRIP_EACH]
    with pytest.raises(ValueError):
        state.apply_action(TRIP_STOP)
    state.apply_action(TRIP_EACH)  # r2c1 forced; then large and final scoring
    assert state.is_terminal()
    # noble +2 (B7.2); final: 1 Viking, no fisherman -> -1 (B8.6); no boatsman left (B8.3)
    assert table.fame() == [11]


def test_b7_2_round_6_trips_go_on_while_one_is_possible(engine):
    p = player(mainland="B2 S1 N1", rows={2: "L", 3: "L"})
    table = scoring_table(engine, 6, [p]).finish()
    state = table.state
    assert state.legal_actions() == [TRIP_ALL("scout"), TRIP_ALL("noble"), TRIP_EACH]
    state.apply_action(TRIP_ALL("noble"))
    assert state.legal_actions() == [TRIP_ALL("scout"), TRIP_EACH]  # still no TRIP_STOP
    state.apply_action(TRIP_EACH)
    assert state.is_terminal()
    # noble 2 + scout 1 (B7.2); 2 Vikings, no fisherman: -2 (B8.6); no boatsman left (B8.3)
    assert table.fame() == [10 + 2 + 1 - 2]
    assert state.history() == [BUY(LAST_SPACE), TRIP_ALL("noble"), TRIP_EACH]


def test_b7_2_players_score_one_after_another_from_the_start_player(engine):
    # 3 seats, round 2: start player 1, the dummy (seat 0) buys last; seats 1 and 2 examined
    p = player(mainland="B1 N1", rows={2: "L*1"})
    table = scoring_table(engine, 2, [p, p]).finish()
    state = table.state
    assert table.seats == [1, 2]
    assert state.current_player() == 1 and state.to_dict()["scoring_index"] == 0
    state.apply_action(TRIP_STOP)
    assert state.current_player() == 2 and state.to_dict()["scoring_index"] == 1
    assert table.fame() == [12, 10]  # seat 1 already scored its noble, seat 2 not yet
    state.apply_action(TRIP_STOP)
    assert table.fame() == [12, 12]
    assert state.to_dict()["round"] == 3
