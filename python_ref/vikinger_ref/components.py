"""Component data of Wikinger (docs/rules.md B1): colours, rows, tile kinds, counts, the ship table.

Everything countable in the box lives here, in one place, as plain data, so a different
printing can be loaded by changing this file only (B1.3 ⚖).
"""

from __future__ import annotations

from typing import NamedTuple

# B1.1 Viking colours, in the order used everywhere an order is needed.
FISHERMAN, GOLDSMITH, SCOUT, NOBLE, WARRIOR, BOATSMAN = range(6)
COLOURS = ("fisherman", "goldsmith", "scout", "noble", "warrior", "boatsman")
COLOUR_SHORT = "FGSNWB"
NUM_COLOURS = 6
VIKINGS_PER_COLOUR = 13

# B2.1 island rows: 1 warrior, 2 noble, 3 scout, 4 goldsmith, 5 fisherman; boatsmen have none.
NUM_ROWS = 5
ROW_NAMES = ("warrior", "noble", "scout", "goldsmith", "fisherman")


def row_of_colour(colour: int) -> int | None:
    """The island row (1..5) of a Viking colour, or None for the boatsman (B2.1)."""
    return None if colour == BOATSMAN else 5 - colour


def colour_of_row(row: int) -> int:
    """The Viking colour whose row is `row` (1..5) (B2.1)."""
    return 5 - row


# B2.2 ⚖ a row is capped at 64 columns; no legal game with <= 4 players reaches it.
NUM_COLUMNS = 64

# B1.2, B1.3 tile kinds. Island tiles have sea on top and bottom; left/right edges below.
LEFT, MIDDLE1, MIDDLE2, MIDDLE3, MIDDLE4, RIGHT = range(6)
SHIP_RED, SHIP_GREEN, SHIP_YELLOW, SHIP_BLUE = range(6, 10)
TILE_KINDS = (
    "left",
    "middle1",
    "middle2",
    "middle3",
    "middle4",
    "right",
    "ship_red",
    "ship_green",
    "ship_yellow",
    "ship_blue",
)
TILE_SHORT = "L1234Rrgyb"
NUM_TILE_KINDS = 10
SHIPS = (SHIP_RED, SHIP_GREEN, SHIP_YELLOW, SHIP_BLUE)


def is_ship(kind: int) -> bool:
    return kind >= SHIP_RED


def sea_on_left(kind: int) -> bool:
    """B1.2: left pieces have sea on the left edge, middle and right pieces land."""
    return kind == LEFT


def sea_on_right(kind: int) -> bool:
    """B1.2: right pieces have sea on the right edge, left and middle pieces land."""
    return kind == RIGHT


# B1.4 the 72 tiles of the six stacks (the 4 start tiles are extra left pieces, B1.2).
STACK_COUNTS = (17, 5, 5, 5, 5, 21, 3, 4, 4, 3)
STACK_TILES = sum(STACK_COUNTS)  # 72


class Ship(NamedTuple):
    """B1.3 a sail colour: the deepest row it threatens and what it is worth."""

    reach: int  # threatens rows 1..reach of its column
    value: int
    pays_fame: bool  # True: value is Fame; False: value is gold


# B1.3 ⚖ the default ship table, indexed by kind - SHIP_RED.
SHIP_TABLE = (
    Ship(reach=2, value=3, pays_fame=False),  # red
    Ship(reach=3, value=5, pays_fame=False),  # green
    Ship(reach=4, value=2, pays_fame=True),  # yellow
    Ship(reach=5, value=3, pays_fame=True),  # blue
)


def ship_info(kind: int) -> Ship:
    return SHIP_TABLE[kind - SHIP_RED]


# B1.5 start gold by player count; everyone starts with 10 Fame.
START_GOLD = {2: 30, 3: 25, 4: 20}
START_FAME = 10

# B3.2 six rounds, twelve groups a round.
NUM_ROUNDS = 6
GROUPS_PER_ROUND = 12
WHEEL_SPACES = 12

# A5 special tiles: kinds (chance ids 16..29 in this order) and how many of each are printed.
GOLD5, GOLDSMITH1, GOLDSMITH2, BOAT, NOBLE1, SCOUT1, FISHERMAN1, HORN, FISH, TREASURY = range(10)
BUILDING1 = 10  # building b (1..4) is kind BUILDING1 + b - 1
SPECIAL_KINDS = (
    "gold5",
    "goldsmith1",
    "goldsmith2",
    "boat",
    "noble1",
    "scout1",
    "fisherman1",
    "horn",
    "fish",
    "treasury",
    "building1",
    "building2",
    "building3",
    "building4",
)
SPECIAL_COUNTS = (1, 2, 1, 6, 3, 1, 1, 4, 1, 1, 1, 1, 1, 1)  # 25 tiles
NUM_SPECIAL_KINDS = 14
DISPLAY_SLOTS = 4

# A1-A5 the advanced modules (docs/advanced.md): the keyword flags of Game, in the bit order of
# the options byte (docs/state.md). The package exports it as OPTION_NAMES.
OPTION_NAMES = ("auction", "draw13", "offer_by_colour", "weak_boatsmen", "special_tiles")


def is_building(special: int) -> bool:
    return special >= BUILDING1


def building_of_middle(kind: int) -> int:
    """The building picture (1..4) of a middle piece (B1.2)."""
    return kind - MIDDLE1 + 1
