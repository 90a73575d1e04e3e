"""A5: the special tiles — the display, taking a tile, and the building tiles.

Their scoring effects live in scoring.py beside the rules they change.
"""

from .components import (
    BUILDING1,
    DISPLAY_SLOTS,
    GOLD5,
    MIDDLE1,
    SPECIAL_COUNTS,
    building_of_middle,
    is_building,
)

GOLD5_GOLD = 5


class Display:
    """The special stack's remaining counts, the 4 display places, and the tiles out of the game."""

    def __init__(self):
        self.stack = list(SPECIAL_COUNTS)
        self.slots = [None] * DISPLAY_SLOTS
        self.removed = [0] * len(SPECIAL_COUNTS)

    def copy(self):
        other = Display()
        other.stack, other.slots, other.removed = (
            list(self.stack),
            list(self.slots),
            list(self.removed),
        )
        return other

    def needs_fill(self):
        """Only empty places are filled, while the stack lasts."""
        return None in self.slots and any(self.stack)

    def reveal(self, kind):
        self.stack[kind] -= 1
        self.slots[self.slots.index(None)] = kind

    def occupied_slots(self):
        return [i for i, kind in enumerate(self.slots) if kind is not None]

    def take(self, slot, board):
        """The player takes the tile in `slot`; returns the building picture (1..4) if it is a
        building tile that can replace one of the player's middle tiles now, else None."""
        kind = self.slots[slot]
        self.slots[slot] = None
        if kind == GOLD5:  # +5 gold at once; the tile leaves the game
            board.gold += GOLD5_GOLD
            self.removed[GOLD5] += 1
            return None
        board.specials[kind] += 1
        if is_building(kind) and building_candidates(board, kind - BUILDING1 + 1):
            return kind - BUILDING1 + 1
        return None


def building_candidates(board, building):
    """The player's middle tiles showing `building` (1..4), as (row, col)."""
    return [(row, col) for row, col, kind in board.island_tiles() if kind == MIDDLE1 + building - 1]


def waiting_building(board, building):
    """True when the player holds building tile `building` that has not replaced a tile yet."""
    return board.specials[BUILDING1 + building - 1] > 0 and board.buildings[building - 1] is None


def place_building(board, building, row, col):
    """The building tile replaces the middle tile at (row, col); a Viking on it stays."""
    board.buildings[building - 1] = (row, col)


def building_for_placed_tile(board, kind, row, col):
    """A waiting building replaces the next middle tile with its picture that the player places.
    Returns True when it did (the replaced middle tile leaves the game)."""
    if kind < MIDDLE1 or kind > MIDDLE1 + 3:
        return False
    building = building_of_middle(kind)
    if not waiting_building(board, building):
        return False
    place_building(board, building, row, col)
    return True
