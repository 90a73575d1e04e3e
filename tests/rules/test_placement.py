"""Placing what was bought: docs/rules.md B6.0-B6.4 and the automatic decisions of
docs/actions.md."""

import pytest

from positions import (
    BUY,
    DRAW,
    SHIP,
    START,
    TILE,
    VIKING_ON_TILE,
    VIKING_TO_MAINLAND,
    build_state,
    colour_counts,
    group,
    player,
)

# The board of player 0 in the B6.2 tests (columns from 1; ships do not touch row 1):
#   ships  r g y
#   row 1  L . .            start tile
#   row 2  . . .
#   row 3  L 1 2
#   row 4  . L 1
#   row 5  L . R
BOARD = {1: "L", 3: "L12", 4: ".L1", 5: "L.R"}
# Empty cells touching the mainland or an island tile: r1c2, r2c1, r2c2, r2c3, r3c4, r4c1, r4c4,
# r5c2, r5c4.  (r1c3 touches only a ship, r2c4 only diagonally.)  Edge checks (B6.2c, B2.3):
LEFT_CELLS = [(2, 1), (2, 2), (2, 3), (5, 4)]  # r4c1: its right neighbour L shows sea
MIDDLE_CELLS = [(1, 2), (2, 2), (2, 3), (3, 4), (4, 4), (5, 2)]  # never column 1; r5c4: R left
RIGHT_CELLS = [(1, 2), (2, 2), (2, 3), (3, 4), (4, 4)]  # r5c2: its right neighbour R shows land


def placing(engine, tile, viking="W", board=BOARD, ships="rgy", start_row="auto"):
    """Player 0 to buy the group on space 0 (tile, viking), purchase 9 of round 3.

    Spaces 5, 8, 11 hold right pieces with boatsmen, so player 1 has a real choice next. Player
    0 has no gold: the poverty override (B5.3) makes the price-0 group legal whatever its Viking.
    """
    buyer = player(gold=0, ships=ships, rows=board, start_row=start_row)
    other = player(gold=10, rows={1: "L"})
    wheel = {0: group(tile, viking), 5: group("R", "B"), 8: group("R", "B"), 11: group("R", "B")}
    return build_state(engine, [buyer, other], round=3, wheel=wheel)


@pytest.mark.parametrize(
    "tile, cells", [("L", LEFT_CELLS), ("2", MIDDLE_CELLS), ("R", RIGHT_CELLS)]
)
def test_b6_2_legal_cells_touch_and_match_edges(engine, tile, cells):
    state = placing(engine, tile, viking="B")
    state.apply_action(BUY(0))
    assert state.to_dict()["phase"] == "island_cell"
    assert state.current_player() == 0
    assert state.legal_actions() == sorted(TILE(r, c) for r, c in cells)


def test_b6_2_legal_cells_of_a_board_wider_than_16_columns(engine):
    # B2.2 (rows have no right end): row 3 is a left piece and 17 middle pieces, 18 columns, so
    # the legal cells of rows 2-4 reach past column 16 (legal lists are written 16 columns at a
    # time first, then column by column beyond).
    board = {3: "L" + "1234" * 4 + "1"}
    state = placing(engine, "2", viking="B", board=board, ships="")
    state.apply_action(BUY(0))
    cells = [(3, 19)] + [(r, c) for r in (2, 4) for c in range(2, 19)]  # never column 1 (B2.3)
    assert state.legal_actions() == sorted(TILE(r, c) for r, c in cells)


def test_b6_2_b2_3_only_left_pieces_stand_in_column_1(engine):
    for tile in ("1", "2", "3", "4", "R"):
        state = placing(engine, tile, viking="B", board={3: "L"}, ships="")
        state.apply_action(BUY(0))
        # only r3c2 (right of the start tile): placed at once, nothing in column 1
        assert state.to_dict()["players"][0]["rows"] == ["", "", "L" + tile, "", ""]
    state = placing(engine, "L", viking="B", board={3: "L"}, ships="")
    state.apply_action(BUY(0))
    assert state.legal_actions() == [TILE(1, 1), TILE(2, 1), TILE(4, 1), TILE(5, 1)]


@pytest.mark.parametrize("tile", ["2", "R"])
def test_b6_3_unplaceable_tile_is_discarded_and_viking_goes_to_mainland(engine, tile):
    board = {r: "LR" for r in range(1, 6)}  # every free neighbour is right of a sea edge
    state = placing(engine, tile, viking="N", board=board, ships="")
    discarded = state.to_dict()["discarded_tiles"]
    state.apply_action(BUY(0))
    d = state.to_dict()
    assert d["discarded_tiles"] == discarded + 1
    assert d["players"][0]["rows"] == ["LR"] * 5
    assert d["players"][0]["mainland"] == colour_counts("N1")
    assert d["phase"] == "buy" and d["purchases"] == 9 and d["pending"] is None
    assert state.current_player() == 1
    assert state.history() == [BUY(0)]


def test_b6_3_left_piece_fits_that_board(engine):
    board = {r: "LR" for r in range(1, 6)}
    state = placing(engine, "L", viking="N", board=board, ships="")
    state.apply_action(BUY(0))
    assert state.legal_actions() == [TILE(r, 3) for r in range(1, 6)]


def test_b6_4_viking_in_its_own_row_may_stand_on_the_tile(engine):
    state = placing(engine, "2", viking="N")
    state.apply_action(BUY(0))
    state.apply_action(TILE(2, 2))  # row 2 is the nobles' row
    d = state.to_dict()
    assert d["phase"] == "viking"
    assert d["pending"] == {"tile": "middle2", "viking": "noble", "cell": [2, 2]}
    assert state.legal_actions() == [VIKING_ON_TILE, VIKING_TO_MAINLAND]
    on_tile = state.clone()
    on_tile.apply_action(VIKING_ON_TILE)
    p = on_tile.to_dict()["players"][0]
    assert p["rows"][1] == ".2" and p["vikings"][1] == [2]
    assert p["mainland"]["noble"] == 0
    state.apply_action(VIKING_TO_MAINLAND)
    p = state.to_dict()["players"][0]
    assert p["rows"][1] == ".2" and p["vikings"][1] == []
    assert p["mainland"]["noble"] == 1
    assert state.current_player() == 1


@pytest.mark.parametrize(
    "tile, viking, cell",
    [
        ("2", "N", (1, 2)),  # tile in another row than the noble's
        ("2", "B", (2, 2)),  # boatsmen have no row
    ],
)
def test_b6_4_viking_goes_to_mainland_without_a_decision(engine, tile, viking, cell):
    state = placing(engine, tile, viking=viking)
    state.apply_action(BUY(0))
    state.apply_action(TILE(*cell))
    d = state.to_dict()
    assert d["phase"] == "buy" and d["pending"] is None and state.current_player() == 1
    p = d["players"][0]
    assert p["mainland"] == colour_counts(f"{viking}1")
    assert p["vikings"] == [[], [], [], [], []]
    assert state.history() == [BUY(0), TILE(*cell)]


def test_b6_4_viking_bought_with_a_ship_goes_to_mainland(engine):
    state = placing(engine, "y", viking="W", ships="rgb")
    state.apply_action(BUY(0))
    p = state.to_dict()["players"][0]
    assert p["ships"] == "rgby" and p["mainland"] == colour_counts("W1")


# --- B6.0 the start tile -----------------------------------------------------------------------


def test_b6_0_first_purchase_places_the_start_tile_first(engine):
    state = placing(engine, "R", viking="S", board={}, ships="", start_row=None)
    state.apply_action(BUY(0))
    d = state.to_dict()
    assert d["phase"] == "start_row" and state.current_player() == 0
    assert state.legal_actions() == [START(r) for r in range(1, 6)]
    state.apply_action(START(3))
    # the right piece has one legal cell, r3c2 next to the start tile: placed at once
    d = state.to_dict()
    assert d["players"][0]["start_row"] == 3
    assert d["players"][0]["rows"] == ["", "", "LR", "", ""]
    assert d["phase"] == "viking" and d["pending"]["cell"] == [3, 2]
    assert state.history() == [BUY(0), START(3)]


def test_b6_0_start_tile_comes_before_a_ship_too(engine):
    state = placing(engine, "y", viking="W", board={}, ships="", start_row=None)
    state.apply_action(BUY(0))
    assert state.legal_actions() == [START(r) for r in range(1, 6)]
    state.apply_action(START(5))
    assert state.to_dict()["phase"] == "ship_column"
    assert state.legal_actions() == [SHIP(1), SHIP(2), SHIP(3)]
    assert state.to_dict()["players"][0]["rows"] == ["", "", "", "", "L"]


# --- B6.1 ships --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "ships, legal", [("", [1, 2, 3]), (".r", [1, 3]), ("g.r", [2]), ("..b", [1, 2])]
)
def test_b6_1_first_three_ships_go_to_a_free_column_of_1_to_3(engine, ships, legal):
    state = placing(engine, "y", viking="B", ships=ships)
    state.apply_action(BUY(0))
    if len(legal) > 1:
        assert state.to_dict()["phase"] == "ship_column"
        assert state.legal_actions() == [SHIP(c) for c in legal]
        state.apply_action(SHIP(legal[-1]))
    column = legal[-1]
    expected = list(ships.ljust(3, "."))
    expected[column - 1] = "y"
    assert state.to_dict()["players"][0]["ships"] == "".join(expected).rstrip(".")


@pytest.mark.parametrize("ships", ["rgy", "rgyb", "bbbrr"])
def test_b6_1_later_ships_go_to_the_next_column(engine, ships):
    state = placing(engine, "g", viking="B", ships=ships)
    state.apply_action(BUY(0))
    d = state.to_dict()
    assert d["players"][0]["ships"] == ships + "g"
    assert d["phase"] == "buy" and state.current_player() == 1
    assert state.history() == [BUY(0)]


# --- automatic decisions (docs/actions.md) ------------------------------------------------------


def test_forced_decisions_are_applied_and_not_recorded(engine):
    """The third ship goes to the last free column; the round's last purchase buys itself."""
    buyer = player(gold=10, ships="r.g", rows={1: "L"})
    last = player(gold=10, rows={1: "L"})  # middle piece: only r1c2; fisherman -> mainland
    wheel = {9: group("1", "F"), 11: group("y", "B")}
    state = build_state(engine, [buyer, last], round=1, wheel=wheel)
    fishermen = state.to_dict()["players"][1]["mainland"]["fisherman"]
    state.apply_action(BUY(11))
    d = state.to_dict()
    assert state.history() == [BUY(11)]
    assert d["history"] == [BUY(11)]
    assert d["players"][0]["ships"] == "ryg"
    assert d["players"][1]["rows"][0] == "L1"
    assert d["players"][1]["mainland"]["fisherman"] == fishermen + 1
    # purchase 12 ended round 1: small scoring, marker to player 1 (B3.3), next round's chance
    assert d["round"] == 2 and d["start_player"] == 1 and d["purchases"] == 0
    assert d["phase"] == "reveal_tile" and state.is_chance_node()


def test_chance_nodes_are_never_automatic(engine):
    """Round 6, 5 fishermen drawn: a bag holding only boatsmen still asks for the draw."""
    tiles = ["L"] * 4 + ["R"] * 4 + ["b", "y", "g", "r"]
    wheel = {s: group(t, None) for s, t in enumerate(tiles)}
    players = [
        player(mainland="F8 G13 S9", rows={1: "L"}),
        player(mainland="S4 N13 W13", rows={1: "L"}),
    ]
    state = build_state(engine, players, round=6, phase="draw_viking", wheel=wheel, drawn="F5")
    assert state.is_chance_node() and state.to_dict()["phase"] == "draw_viking"
    assert state.chance_outcomes() == [(DRAW("boatsman"), 1.0)]
    assert state.history() == []
    state.apply_action(DRAW("boatsman"))
    assert state.is_chance_node()
    assert state.to_dict()["drawn"] == colour_counts("F5 B1")
    assert state.history() == [DRAW("boatsman")]
