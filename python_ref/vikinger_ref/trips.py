"""B7.2 step 1 (and A4): boatsman trips during a large scoring.

A trip spends one boatsman from the mainland and moves either all mainland Vikings of one colour
or one of each colour onto free island tiles of their rows. ⚖ A trip moves as many as its choice
allows and at least one. In round 6 (B7.2.1a) the player must move as many Vikings as possible:
stopping is not allowed while a trip is possible, and a trip is legal only if the most Vikings
the player can move stays reachable after it. Under A4 a trip moves one Viking, unless a boat
tile is spent with the boatsman.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import actions as A
from .components import BOAT, BOATSMAN, NUM_ROUNDS, row_of_colour

if TYPE_CHECKING:
    from .board import PlayerBoard

TRIP_COLOURS = range(BOATSMAN)  # every colour with an island row


def movable_colours(board: PlayerBoard) -> list[int]:
    """Colours with a Viking on the mainland and a free tile in their row."""
    return [
        colour
        for colour in TRIP_COLOURS
        if board.mainland[colour] and board.free_tiles(row_of_colour(colour))
    ]


def trip_possible(board: PlayerBoard) -> bool:
    return board.mainland[BOATSMAN] > 0 and bool(movable_colours(board))


def legal_trips(board: PlayerBoard, round_: int, weak_boatsmen: bool) -> list[int]:
    movable = movable_colours(board)
    legal = [] if round_ == NUM_ROUNDS else [A.TRIP_STOP]  # ⚖ the round-6 obligation
    if not weak_boatsmen or board.specials[BOAT]:  # A4: strong trips need a boat
        legal += [A.TRIP_ALL + colour for colour in movable] + [A.TRIP_EACH]
    if weak_boatsmen:
        legal += [A.TRIP_ONE + colour for colour in movable]
    if round_ == NUM_ROUNDS:  # B7.2.1a as many as possible
        legal = [action for action in legal if keeps_most_movable(board, action, weak_boatsmen)]
    return legal


# --- B7.2.1a: the most Vikings a player's trips can still move ---------------------------------
#
# Only counts matter: a colour's `carriable` count is min(its mainland Vikings, free tiles in its
# row), and every moved Viking lowers both by one, wherever it lands.


def carriable_counts(board: PlayerBoard) -> list[int]:
    """Per colour with a row (TRIP_COLOURS): how many of its mainland Vikings trips could move."""
    return [
        min(board.mainland[colour], len(board.free_tiles(row_of_colour(colour))))
        for colour in TRIP_COLOURS
    ]


def full_trips_carry(counts: list[int], trips: int) -> int:
    """The most Vikings `trips` full B7.2 trips move. A colour given an "all of one colour" trip
    moves all its count, any other colour one per "one of each" trip; so with k "one of each"
    trips, the other trips - k go to the colours those leave the most of."""
    best = 0
    for each in range(trips + 1):
        by_each = [min(count, each) for count in counts]
        left = sorted((count - moved for count, moved in zip(counts, by_each)), reverse=True)
        best = max(best, sum(by_each) + sum(left[: trips - each]))
    return best


def most_movable(counts: list[int], boatsmen: int, boats: int, weak_boatsmen: bool) -> int:
    """B7.2.1a: the most Vikings `boatsmen` boatsmen (and, under A4, `boats` boat tiles) can
    move. Under A4 a trip with a boat is full and one without moves one Viking: the one-Viking
    trips do best after the full ones, on whatever those leave."""
    if not weak_boatsmen:
        return full_trips_carry(counts, boatsmen)
    total = sum(counts)
    best = 0
    for full in range(min(boats, boatsmen) + 1):
        carried = full_trips_carry(counts, full)
        best = max(best, carried + min(boatsmen - full, total - carried))
    return best


def trip_result(counts: list[int], action: int) -> tuple[list[int], int]:
    """The carriable counts after trip `action`, and how many Vikings it moves."""
    after = list(counts)
    if action == A.TRIP_EACH:
        after = [max(count - 1, 0) for count in counts]
    elif action >= A.TRIP_ONE:
        after[action - A.TRIP_ONE] -= 1
    else:
        after[action - A.TRIP_ALL] = 0
    return after, sum(counts) - sum(after)


def keeps_most_movable(board: PlayerBoard, action: int, weak_boatsmen: bool) -> bool:
    """B7.2.1a: whether trip `action` leaves the player's most movable Vikings reachable."""
    counts = carriable_counts(board)
    boatsmen, boats = board.mainland[BOATSMAN], board.specials[BOAT]
    after, moved = trip_result(counts, action)
    boat_used = 1 if weak_boatsmen and action < A.TRIP_ONE else 0
    return moved + most_movable(
        after, boatsmen - 1, boats - boat_used, weak_boatsmen
    ) == most_movable(counts, boatsmen, boats, weak_boatsmen)


def start_trip(board: PlayerBoard, action: int, weak_boatsmen: bool) -> tuple[list[list[int]], int]:
    """Spend the boatsman (and under A4 the boat of a strong trip); returns the trip queue and
    what left the game as (boatsmen, boats)."""
    board.mainland[BOATSMAN] -= 1
    boats = 0
    if action == A.TRIP_EACH:
        queue = [[colour, 1] for colour in movable_colours(board)]
    elif action >= A.TRIP_ONE:
        queue = [[action - A.TRIP_ONE, 1]]
    else:
        colour = action - A.TRIP_ALL
        free = len(board.free_tiles(row_of_colour(colour)))
        queue = [[colour, min(board.mainland[colour], free)]]
    if weak_boatsmen and action < A.TRIP_ONE:
        board.specials[BOAT] -= 1
        boats = 1
    return queue, boats


def legal_targets(board: PlayerBoard, trip: dict[str, Any]) -> list[int]:
    """Targets are taken left to right, leaving room for the Vikings still to place, so every
    set of target tiles is chosen in exactly one way."""
    colour, still = trip["queue"][0]
    row = row_of_colour(colour)
    free = board.free_tiles(row)
    return [
        A.cell_id(A.TARGET, row, col)  # type: ignore[arg-type]  # a trip colour has a row
        for i, col in enumerate(free)
        if col > trip["last_col"] and len(free) - i - 1 >= still - 1
    ]


def move_to_target(board: PlayerBoard, trip: dict[str, Any], row: int, col: int) -> bool:
    """Move the queue's next Viking onto (row, col); returns True when the queue is done."""
    head = trip["queue"][0]
    board.mainland[head[0]] -= 1
    board.put_viking_on_tile(row, col)
    trip["last_col"] = col
    head[1] -= 1
    if head[1] == 0:
        trip["queue"].pop(0)
        trip["last_col"] = 0
    return not trip["queue"]
