"""Advanced modules A4 (weak boatsmen) and A5 (special tiles) on constructed positions:
docs/rules.md A4, A5 and the rules they modify (B7.1, B7.2, B8.2, B8.3, B8.6); docs/advanced.md.

Scoring effects use the dummy-buyer trick of `positions.scoring_table` with the module flags
passed through; every expected number is worked out by hand in the comments.
"""

import pytest

from positions import (
    BUY,
    COLOURS,
    TARGET,
    TILE,
    TRIP_ALL,
    TRIP_EACH,
    TRIP_STOP,
    VIKING_ON_TILE,
    build_state,
    group,
    player,
    score,
    scoring_table,
)

SPECIAL = {"special_tiles": True}
WEAK = {"weak_boatsmen": True}
DECLINE_SPECIAL = 1715


def TRIP_ONE(colour):
    return 349 + COLOURS.index(colour)


def TAKE_SPECIAL(slot):
    return 1711 + slot


def BUILDING(row, col):
    return 1716 + (row - 1) * 64 + (col - 1)


def gains(table, k=0):
    """(gold, Fame) gained by the k-th examined player from 0 gold / 10 Fame."""
    return table.gold()[k], table.fame()[k] - 10


# --- A4 weak boatsmen ----------------------------------------------------------------------------


def trip_table(engine, p, **options):
    """Round 2: the examined player is start player, so it is the first scorer (B7.2)."""
    table = scoring_table(engine, 2, [p], options=options).finish()
    assert table.state.to_dict()["phase"] == "trip"
    assert table.state.current_player() == table.seats[0]
    return table


def test_a4_weak_trip_moves_exactly_one_viking(engine):
    """A4: without a boat only TRIP_ONE (and stop, round 2); the trip moves one noble of three
    onto a chosen free tile; then no boatsman is left: 1 unthreatened noble -> 2 Fame (B7.2.3)."""
    table = trip_table(engine, player(mainland="B1 N3", rows={2: "L1R"}), **WEAK)
    state = table.state
    assert state.legal_actions() == [TRIP_STOP, TRIP_ONE("noble")]
    removed = state.to_dict()["removed"]["boatsman"]
    state.apply_action(TRIP_ONE("noble"))
    assert state.legal_actions() == [TARGET(2, 1), TARGET(2, 2), TARGET(2, 3)]
    state.apply_action(TARGET(2, 3))
    d = table.player(0)
    assert d["vikings"][1] == [3] and d["mainland"]["noble"] == 2 and d["mainland"]["boatsman"] == 0
    assert table.state.to_dict()["removed"]["boatsman"] == removed + 1
    assert gains(table) == (0, 2)


def test_a4_without_the_module_trips_are_full(engine):
    """B7.2 (A4 off): TRIP_ALL and TRIP_EACH, no TRIP_ONE; TRIP_ALL noble moves all 3."""
    table = trip_table(engine, player(mainland="B1 N3", rows={2: "L1R"}))
    state = table.state
    assert state.legal_actions() == [TRIP_STOP, TRIP_ALL("noble"), TRIP_EACH]
    state.apply_action(TRIP_ALL("noble"))  # 3 nobles, 3 free tiles: targets forced
    assert table.player(0)["vikings"][1] == [1, 2, 3]
    assert gains(table) == (0, 6)  # 3 nobles x 2 Fame


def test_a4_a5_boat_allows_trip_all_and_is_spent(engine):
    """A4 + A5 boat: TRIP_ALL / TRIP_EACH become legal; TRIP_ALL noble moves all 3 nobles and
    spends boat and boatsman (specials.boat 1 -> 0, special_removed.boat 0 -> 1): 6 Fame."""
    p = player(mainland="B1 N3", rows={2: "L1R"}, specials={"boat": 1})
    table = trip_table(engine, p, **WEAK, **SPECIAL)
    state = table.state
    assert state.legal_actions() == [TRIP_STOP, TRIP_ALL("noble"), TRIP_EACH, TRIP_ONE("noble")]
    state.apply_action(TRIP_ALL("noble"))
    assert table.player(0)["vikings"][1] == [1, 2, 3]
    assert table.player(0)["specials"]["boat"] == 0
    assert state.to_dict()["special_removed"]["boat"] == 1
    assert gains(table) == (0, 6)


def test_a4_a5_boat_allows_trip_each_one_of_each_colour(engine):
    """A4 + A5 boat, TRIP_EACH: one noble (of 2), one scout, one fisherman go to rows 2, 3, 5.
    Large scoring: noble 2 + scout 1 + 1 (fisherman below in row 5, B7.2.4) = 4 Fame."""
    p = player(mainland="B1 N2 S1 F1", rows={2: "L", 3: "L", 5: "L"}, specials={"boat": 1})
    table = trip_table(engine, p, **WEAK, **SPECIAL)
    table.state.apply_action(TRIP_EACH)  # every queue entry has one free tile
    d = table.player(0)
    assert d["vikings"] == [[], [1], [1], [], [1]]
    assert d["mainland"]["noble"] == 1 and d["specials"]["boat"] == 0
    assert table.state.to_dict()["special_removed"]["boat"] == 1
    assert gains(table) == (0, 4)


def test_a4_weak_trip_keeps_the_boat(engine):
    """A4: TRIP_ONE does not spend a held boat."""
    p = player(mainland="B1 N3", rows={2: "L1R"}, specials={"boat": 1})
    table = trip_table(engine, p, **WEAK, **SPECIAL)
    table.state.apply_action(TRIP_ONE("noble"))
    table.state.apply_action(TARGET(2, 1))
    assert table.player(0)["specials"]["boat"] == 1
    assert table.state.to_dict()["special_removed"]["boat"] == 0
    assert gains(table) == (0, 2)


def test_a5_boat_without_a4_is_not_spent(engine):
    """docs/rules.md: without A4 a boat has no use; a full trip does not spend it."""
    p = player(mainland="B1 N3", rows={2: "L1R"}, specials={"boat": 1})
    table = trip_table(engine, p, **SPECIAL)
    assert table.state.legal_actions() == [TRIP_STOP, TRIP_ALL("noble"), TRIP_EACH]
    table.state.apply_action(TRIP_ALL("noble"))
    assert table.player(0)["specials"]["boat"] == 1
    assert gains(table) == (0, 6)


# --- A5 the take decision ----------------------------------------------------------------------

# Round 1, 2 players, start 0, 9 purchases made: player 1 buys. Prices (B4.3): space 5 -> 0,
# space 7 -> 2, space 9 -> 4 (the most expensive).
THREE_GROUPS = {5: group("R", "F"), 7: group("R", "G"), 9: group("b", "N")}


def take_state(engine, buyer, display, wheel=THREE_GROUPS, **fields):
    return build_state(
        engine,
        [player(rows={1: "L"}), buyer],
        round=1,
        wheel=wheel,
        display=display,
        options=SPECIAL,
        **fields,
    )


@pytest.mark.parametrize("space, takes", [(9, True), (7, False)])
def test_a5_only_the_most_expensive_group_offers_a_special_tile(engine, space, takes):
    """A5: buying the group with the highest price (space 9, price 4) gives phase take_special
    with TAKE_SPECIAL for each occupied display place and DECLINE; space 7 (price 2) does not."""
    state = take_state(engine, player(gold=10, rows={1: "L"}), ["horn", None, "fish", "boat"])
    state.apply_action(BUY(space))
    d = state.to_dict()
    if takes:
        assert d["phase"] == "take_special"
        assert state.legal_actions() == [
            TAKE_SPECIAL(0),
            TAKE_SPECIAL(2),
            TAKE_SPECIAL(3),
            DECLINE_SPECIAL,
        ]
        state.apply_action(TAKE_SPECIAL(2))
        d = state.to_dict()
        assert d["display"] == ["horn", None, None, "boat"]
        assert d["players"][1]["specials"]["fish"] == 1
        assert d["players"][1]["gold"] == 10 - 4
    else:
        assert d["phase"] != "take_special"
        assert d["display"] == ["horn", None, "fish", "boat"]
        assert d["players"][1]["gold"] == 10 - 2


def test_a5_decline_keeps_the_display(engine):
    state = take_state(engine, player(gold=10, rows={1: "L"}), ["horn", None, None, None])
    state.apply_action(BUY(9))
    state.apply_action(DECLINE_SPECIAL)
    d = state.to_dict()
    assert d["display"] == ["horn", None, None, None]
    assert d["players"][1]["specials"]["horn"] == 0


def test_a5_never_with_a_group_bought_at_price_0(engine):
    """A5 / docs/rules.md: the last group is the highest on the wheel but costs 0: no tile."""
    table = scoring_table(
        engine,
        1,
        [player(rows={1: "L"})],
        options=SPECIAL,
        display=["gold5", "horn", "fish", "boat"],
    )
    table.finish()
    d = table.state.to_dict()
    assert d["phase"] == "reveal_tile" and d["round"] == 2  # past the scoring, no decision
    assert d["display"] == ["gold5", "horn", "fish", "boat"]
    assert all(sum(p["specials"].values()) == 0 for p in d["players"])


def test_a5_gold5_pays_5_at_once_and_leaves_the_game(engine):
    """A5 gold5: pay 4 for the group, +5 gold at once: 10 - 4 + 5 = 11; the tile goes to
    special_removed, not to the player's specials."""
    state = take_state(engine, player(gold=10, rows={1: "L"}), ["gold5", None, None, None])
    state.apply_action(BUY(9))
    assert state.legal_actions() == [TAKE_SPECIAL(0), DECLINE_SPECIAL]
    state.apply_action(TAKE_SPECIAL(0))
    d = state.to_dict()
    assert d["players"][1]["gold"] == 11
    assert d["players"][1]["specials"]["gold5"] == 0
    assert d["special_removed"]["gold5"] == 1
    assert d["display"] == [None] * 4
    assert d["phase"] == "ship_column"  # then the bought ship is placed (B6.1)


# --- A5 scoring bonuses during the game --------------------------------------------------------

# Goldsmiths r4c1..c3; the yellow ship in column 3 threatens r4c3 (B7.0): 2 unthreatened.
GOLDSMITHS = dict(ships="..y", rows={4: "L*1*2*"})


@pytest.mark.parametrize("round_", [1, 2])  # small (B7.1) and large (B7.2.5) scoring
@pytest.mark.parametrize(
    "held, gold",
    [
        ({}, 6),  # 3 x 2
        ({"goldsmith1": 1}, 8),  # (3 + 1) x 2
        ({"goldsmith1": 2}, 10),  # (3 + 1 + 1) x 2
        ({"goldsmith2": 1}, 10),  # (3 + 2) x 2
        ({"goldsmith1": 2, "goldsmith2": 1}, 14),  # (3 + 1 + 1 + 2) x 2: they add up
    ],
)
def test_a5_goldsmith_tiles_pay_per_unthreatened_goldsmith_at_every_scoring(
    engine, round_, held, gold
):
    table = score(engine, round_, [player(**GOLDSMITHS, specials=held)], options=SPECIAL)
    assert gains(table) == (gold, 0)


# Nobles, scouts, fishermen in columns 1 and 2; the blue ship in column 2 threatens rows 1-5.
# Unthreatened: noble r2c1 (2), scout r3c1 (1 + 1 for the fisherman r5c1), fisherman r5c1 (0).
FIGURES = dict(ships=".b", rows={2: "L*1*", 3: "L*1*", 5: "L*1*"})


@pytest.mark.parametrize(
    "held, fame",
    [
        ({}, 4),
        ({"noble1": 1}, 5),  # +1 per unthreatened noble
        ({"noble1": 3}, 7),  # three tiles add up
        ({"scout1": 1}, 5),  # +1 per unthreatened scout
        ({"fisherman1": 1}, 5),  # +1 per unthreatened fisherman
        ({"noble1": 2, "scout1": 1, "fisherman1": 1}, 8),
    ],
)
def test_a5_noble_scout_fisherman_tiles_at_large_scoring(engine, held, fame):
    table = score(engine, 2, [player(**FIGURES, specials=held)], options=SPECIAL)
    assert gains(table) == (0, fame)


def test_a5_figure_tiles_give_nothing_at_small_scoring(engine):
    held = {"noble1": 3, "scout1": 1, "fisherman1": 1}
    table = score(engine, 1, [player(**FIGURES, specials=held)], options=SPECIAL)
    assert gains(table) == (0, 0)


# --- A5 final-scoring tiles (round 6) ------------------------------------------------------------


@pytest.mark.parametrize(
    "a, b, fame",
    [
        (dict(mainland="B2"), dict(mainland="B1", specials={"horn": 1}), [18, 19]),  # tie 2-2
        (dict(mainland="B2"), dict(mainland="B1", specials={"horn": 2}), [8, 19]),  # 2 < 3
        (dict(), dict(specials={"horn": 1}), [10, 20]),  # 0 < 1
        (dict(mainland="B1"), dict(specials={"horn": 4}), [9, 20]),  # 1 < 4
    ],
)
def test_a5_horn_counts_as_a_boatsman_for_b8_3(engine, a, b, fame):
    """A5 horn / B8.3 / B8.7: +10 to the most boatsmen, horns counted; ties all score. Each
    boatsman is an unfed Viking (-1, B8.6); a horn is no Viking and is not fed."""
    players = [player(rows={1: "L"}, **a), player(rows={1: "L"}, **b)]
    assert score(engine, 6, players, options=SPECIAL).fame() == fame


@pytest.mark.parametrize(
    "mainland, fish, fame",
    [
        ("N2", False, 10 + 12),  # 4 Vikings, 10 meals: 6 spare x 2
        ("N2", True, 10 + 18),  # fish: 6 spare x 3
        ("N11", False, 10 - 3),  # 13 Vikings, 10 meals: 3 unfed x -1
        ("N11", True, 10 - 3),  # fish changes only the spare meals
    ],
)
def test_a5_fish_pays_3_per_spare_meal(engine, mainland, fish, fame):
    """A5 fish / B8.6: the unthreatened fishermen r5c1, r5c2 feed 2 x 5 = 10 Vikings."""
    p = player(mainland=mainland, rows={5: "L*1*"}, specials={"fish": 1} if fish else {})
    assert score(engine, 6, [p], options=SPECIAL).fame() == [fame]


@pytest.mark.parametrize(
    "gold, treasury, fame_gold",
    [
        (38, False, (17, 3)),  # B8.2: 7 Fame, 3 kept
        (38, True, (22, 2)),  # treasury: 38 = 12 x 3 + 2 -> 12 Fame, 2 kept
        (5, True, (11, 2)),  # 1 Fame, 2 kept
        (2, True, (10, 2)),  # nothing, 2 kept
    ],
)
def test_a5_treasury_one_fame_per_3_gold(engine, gold, treasury, fame_gold):
    p = player(gold=gold, rows={1: "L"}, specials={"treasury": 1} if treasury else {})
    table = score(engine, 6, [p], options=SPECIAL)
    assert (table.fame()[0], table.gold()[0]) == fame_gold


# --- A5 buildings --------------------------------------------------------------------------------


def test_a5_building_replaces_the_only_matching_middle_tile_at_once(engine):
    """A5: the buyer has one middle2 (r2c2, a noble on it): taking building2 replaces it
    without a decision; the Viking stays; the replaced middle tile is discarded."""
    buyer = player(gold=10, rows={1: "L", 2: "L2*"}, start_row=1)
    state = take_state(engine, buyer, ["building2", None, None, None])
    discarded = state.to_dict()["discarded_tiles"]
    state.apply_action(BUY(9))
    state.apply_action(TAKE_SPECIAL(0))
    d = state.to_dict()
    me = d["players"][1]
    assert me["buildings"] == [None, [2, 2], None, None]
    assert me["specials"]["building2"] == 1
    assert me["vikings"][1] == [2]
    assert d["discarded_tiles"] == discarded + 1
    assert d["phase"] == "ship_column"


def test_a5_building_with_several_candidates_is_the_players_choice(engine):
    """A5: middle3 at r2c2 and r3c3: phase building_replace with BUILDING at each."""
    buyer = player(gold=10, rows={1: "L", 2: "L3", 3: "L13"}, start_row=1)
    state = take_state(engine, buyer, [None, "building3", None, None])
    state.apply_action(BUY(9))
    state.apply_action(TAKE_SPECIAL(1))
    assert state.to_dict()["phase"] == "building_replace"
    assert state.legal_actions() == [BUILDING(2, 2), BUILDING(3, 3)]
    state.apply_action(BUILDING(3, 3))
    assert state.to_dict()["players"][1]["buildings"] == [None, None, [3, 3], None]


def test_a5_building_waits_and_replaces_the_next_such_tile_placed(engine):
    """A5: no middle4 yet: building4 waits (held, not placed); the tile bought with it is a
    middle4 and is replaced as soon as it is placed (docs/rules.md: the tile is chosen before
    the placement)."""
    wheel = {5: group("R", "F"), 7: group("R", "G"), 9: group("4", "N")}
    buyer = player(gold=10, rows={1: "L", 2: "L1"}, start_row=1)
    state = take_state(engine, buyer, ["building4", None, None, None], wheel=wheel)
    discarded = state.to_dict()["discarded_tiles"]
    state.apply_action(BUY(9))
    state.apply_action(TAKE_SPECIAL(0))
    d = state.to_dict()
    assert d["players"][1]["specials"]["building4"] == 1
    assert d["players"][1]["buildings"] == [None] * 4  # waiting
    assert d["phase"] == "island_cell"
    state.apply_action(TILE(2, 3))  # right of the middle1
    state.apply_action(VIKING_ON_TILE)  # the noble on its row (B6.4)
    d = state.to_dict()
    assert d["players"][1]["buildings"] == [None, None, None, [2, 3]]
    assert d["players"][1]["vikings"][1] == [3]
    assert d["discarded_tiles"] == discarded + 1


# Final scoring of a building (round 6). Board: warrior r1c1; nobles r2c1, r2c2 (a middle2),
# r2c3; scout r3c1. Without ships: large scoring nobles 3 x 2 + scout 1 = 7; no completed
# island; 5 Vikings, no fisherman: -5 (B8.6). So 10 + 7 - 5 = 12 before the building.
# building2 on r2c2: its cell and 8 neighbours (rows 1-3, columns 1-3) hold all 5 Vikings.
BOARD = dict(rows={1: "L*1", 2: "L*2*1*", 3: "L*1"}, start_row=1)


@pytest.mark.parametrize(
    "ships, held, buildings, fame",
    [
        ("", {}, {}, 12),
        ("", {"building2": 1}, {2: (2, 2)}, 12 + 5),
        # red ship in column 2 reaches row 2, not repelled (no warrior r1c2): the building's own
        # cell is threatened -> 0; noble r2c2 scores nothing; B8.1: 3 gold owed, 0 held -> -3 Fame:
        # 10 + (2 x 2 + 1) - 3 - 5 = 7
        (".r", {"building2": 1}, {2: (2, 2)}, 7),
        # green ship in column 3 threatens r2c3 (a neighbour), not the building: still +5;
        # nobles 2 x 2 + scout 1 = 5; B8.1: 5 gold owed -> -5 Fame: 10 + 5 - 5 - 5 + 5 = 10
        ("..g", {"building2": 1}, {2: (2, 2)}, 10),
        # a waiting building (no middle4 on the board) scores nothing
        ("", {"building4": 1}, {}, 12),
        ("", {"building2": 1, "building4": 1}, {2: (2, 2)}, 12 + 5),
    ],
)
def test_a5_building_final_scoring(engine, ships, held, buildings, fame):
    """A5: after B8.6, 1 Fame per Viking on the building's cell and its 8 neighbours, nothing
    if its own cell is threatened (B7.0), nothing while waiting."""
    p = player(ships=ships, specials=held, buildings=buildings, **BOARD)
    assert score(engine, 6, [p], options=SPECIAL).fame() == [fame]


def test_a5_building_counts_only_its_3x3_neighbourhood(engine):
    """A5: building1 on r3c3. Vikings: warrior r1c2, noble r2c2, scouts r3c3 r3c4 r3c5,
    goldsmith r4c3, fisherman r5c1. Cell and 8 neighbours (rows 2-4, columns 2-4): r2c2, r3c3,
    r3c4, r4c3 -> +4 (r1c2, r3c5, r5c1 are two cells away).
    Large scoring (B7.2): noble 2; scouts r3c3 1 + 1 (goldsmith r4c3), r3c4 1, r3c5 1 -> 4;
    goldsmith 3 gold, which B8.2 leaves (< 5). Feeding: 7 Vikings, 1 fisherman feeds 5 -> -2.
    10 + 2 + 4 - 2 + 4 = 18."""
    rows = {1: "L4*", 2: "L2*3", 3: "L31*4*2*", 4: "L23*", 5: "L*"}
    p = player(rows=rows, specials={"building1": 1}, buildings={1: (3, 3)})
    assert score(engine, 6, [p], options=SPECIAL).fame() == [18]
