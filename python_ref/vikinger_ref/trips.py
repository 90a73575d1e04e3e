"""B7.2 step 1 (and A4): boatsman trips during a large scoring.

A trip spends one boatsman from the mainland and moves either all mainland Vikings of one colour
or one of each colour onto free island tiles of their rows. ⚖ A trip moves as many as its choice
allows and at least one; in round 6 stopping is not allowed while a trip is possible. Under A4 a
trip moves one Viking, unless a boat tile is spent with the boatsman.
"""

from . import actions as A
from .components import BOAT, BOATSMAN, NUM_ROUNDS, row_of_colour

TRIP_COLOURS = range(BOATSMAN)  # every colour with an island row


def movable_colours(board):
    """Colours with a Viking on the mainland and a free tile in their row."""
    return [colour for colour in TRIP_COLOURS
            if board.mainland[colour] and board.free_tiles(row_of_colour(colour))]


def trip_possible(board):
    return board.mainland[BOATSMAN] > 0 and bool(movable_colours(board))


def legal_trips(board, round_, weak_boatsmen):
    movable = movable_colours(board)
    legal = [] if round_ == NUM_ROUNDS else [A.TRIP_STOP]      # ⚖ the round-6 obligation
    if not weak_boatsmen or board.specials[BOAT]:               # A4: strong trips need a boat
        legal += [A.TRIP_ALL + colour for colour in movable] + [A.TRIP_EACH]
    if weak_boatsmen:
        legal += [A.TRIP_ONE + colour for colour in movable]
    return legal


def start_trip(board, action, weak_boatsmen):
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


def legal_targets(board, trip):
    """Targets are taken left to right, leaving room for the Vikings still to place, so every
    set of target tiles is chosen in exactly one way."""
    colour, still = trip["queue"][0]
    row = row_of_colour(colour)
    free = board.free_tiles(row)
    return [A.cell_id(A.TARGET, row, col) for i, col in enumerate(free)
            if col > trip["last_col"] and len(free) - i - 1 >= still - 1]


def move_to_target(board, trip, row, col):
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
