"""The flat action-id layout of docs/actions.md and the action strings.

Two id spaces, as in OpenSpiel: decision ids (0..NUM_DISTINCT_ACTIONS-1) and chance ids
(0..MAX_CHANCE_OUTCOMES-1). Every id has one fixed string; strings of the two spaces never collide.
"""

from __future__ import annotations

from typing import Mapping

from .components import COLOURS, NUM_COLUMNS, NUM_ROWS, SPECIAL_KINDS, TILE_KINDS

CHANCE = -1  # current_player() at chance nodes
TERMINAL = -4  # current_player() once the game is over

# Phases, by index (the order of the observation's one-hot and the bytes format).
PHASES = (
    "reveal_tile",
    "draw_viking",
    "buy",
    "start_row",
    "ship_column",
    "island_cell",
    "viking",
    "trip",
    "trip_target",
    "game_over",
    "special_fill",
    "auction",
    "remove_viking",
    "offer_colour",
    "take_special",
    "building_replace",
)
CHANCE_PHASES = ("reveal_tile", "draw_viking", "special_fill")
BUYER_PHASES = ("buy", "start_row", "ship_column", "island_cell", "viking")
SCORER_PHASES = ("trip", "trip_target")


def vikings_before_tiles(options: Mapping[str, bool]) -> bool:
    """A0: with the auction (A1) or the draw of 13 (A2) a round draws its Vikings first, then
    holds the auction and the removal, and reveals the tiles last; else tiles first (B4.1, B4.2)."""
    return bool(options["auction"] or options["draw13"])


# Decision ids.
BUY = 0  # + wheel space 0..11
START = 12  # + row - 1
SHIP = 17  # + column - 1 (columns 1..3)
TILE = 20  # + (row - 1) * 64 + column - 1
VIKING_ON_TILE = 340
VIKING_TO_MAINLAND = 341
TRIP_STOP = 342
TRIP_ALL = 343  # + colour 0..4
TRIP_EACH = 348
TRIP_ONE = 349  # + colour 0..4 (A4)
TARGET = 354  # + (row - 1) * 64 + column - 1
PASS = 674  # A1
BID = 675  # + amount 0..MAX_BID
MAX_BID = 1023
REMOVE = 1699  # + colour 0..5 (A2)
OFFER = 1705  # + colour 0..5 (A3)
TAKE_SPECIAL = 1711  # + display slot 0..3 (A5)
DECLINE_SPECIAL = 1715
BUILDING = 1716  # + (row - 1) * 64 + column - 1 (A5)
NUM_DISTINCT_ACTIONS = 2036

# Chance ids.
REVEAL = 0  # + tile kind 0..9
DRAW = 10  # + colour 0..5
DISPLAY = 16  # + special kind 0..13 (A5)
MAX_CHANCE_OUTCOMES = 30

CELLS = NUM_ROWS * NUM_COLUMNS  # 320


def cell_id(base: int, row: int, col: int) -> int:
    return base + (row - 1) * NUM_COLUMNS + (col - 1)


def cell_of(offset: int) -> tuple[int, int]:
    """(row, column) of an offset 0..319 into a cell block."""
    return offset // NUM_COLUMNS + 1, offset % NUM_COLUMNS + 1


def _decision_strings() -> tuple[str, ...]:
    names = [f"buy:{s}" for s in range(12)]
    names += [f"start:r{r}" for r in range(1, 6)]
    names += [f"ship:c{c}" for c in range(1, 4)]
    names += ["tile:r%dc%d" % cell_of(i) for i in range(CELLS)]
    names += ["viking:tile", "viking:mainland", "trip:stop"]
    names += [f"trip:all:{COLOURS[c]}" for c in range(5)]
    names += ["trip:each"]
    names += [f"trip:one:{COLOURS[c]}" for c in range(5)]
    names += ["target:r%dc%d" % cell_of(i) for i in range(CELLS)]
    names += ["auction:pass"]
    names += [f"auction:bid:{k}" for k in range(MAX_BID + 1)]
    names += [f"remove:{c}" for c in COLOURS]
    names += [f"offer:{c}" for c in COLOURS]
    names += [f"special:take:{i}" for i in range(4)]
    names += ["special:decline"]
    names += ["building:r%dc%d" % cell_of(i) for i in range(CELLS)]
    assert len(names) == NUM_DISTINCT_ACTIONS
    return tuple(names)


def _chance_strings() -> tuple[str, ...]:
    names = [f"reveal:{k}" for k in TILE_KINDS]
    names += [f"draw:{c}" for c in COLOURS]
    names += [f"display:{k}" for k in SPECIAL_KINDS]
    assert len(names) == MAX_CHANCE_OUTCOMES
    return tuple(names)


DECISION_STRINGS = _decision_strings()
CHANCE_STRINGS = _chance_strings()
_DECISION_IDS = {name: i for i, name in enumerate(DECISION_STRINGS)}
_CHANCE_IDS = {name: i for i, name in enumerate(CHANCE_STRINGS)}


def decision_to_string(action: int) -> str:
    if not 0 <= action < NUM_DISTINCT_ACTIONS:
        raise ValueError(f"decision id {action} is outside 0..{NUM_DISTINCT_ACTIONS - 1}")
    return DECISION_STRINGS[action]


def chance_to_string(outcome: int) -> str:
    if not 0 <= outcome < MAX_CHANCE_OUTCOMES:
        raise ValueError(f"chance id {outcome} is outside 0..{MAX_CHANCE_OUTCOMES - 1}")
    return CHANCE_STRINGS[outcome]


def string_to_action(text: object) -> int:
    """The id of an action string of either space (docs/actions.md)."""
    if not isinstance(text, str):
        raise TypeError(f"an action string must be a str, not {type(text).__name__}")
    if text in _DECISION_IDS:
        return _DECISION_IDS[text]
    if text in _CHANCE_IDS:
        return _CHANCE_IDS[text]
    raise ValueError(f"{text!r} is not an action string")
