"""The canonical dict, the bytes format and the position hash of docs/state.md.

`to_dict` is the one complete description of a state; `to_bytes` packs the same content; the
hash is taken over the packed position (history excluded). Reading dicts back, with every check,
is validation.py; reading bytes unpacks to a dict and goes through the same checks.
"""

import struct

from .actions import PHASES
from .components import (COLOURS, NUM_COLUMNS, NUM_ROWS, ROW_NAMES, TILE_KINDS, TILE_SHORT,
                         WHEEL_SPACES)
from .rng import MASK64, mix

FORMAT_VERSION = 1
MAGIC = b"VKNG"
OPTION_NAMES = ("auction", "draw13", "offer_by_colour", "weak_boatsmen", "special_tiles")
NONE_BYTE = 255
VIKING_FLAG = 16
SHIP_CHARS = ".rgyb"
ISLAND_CHARS = ".L1234R"

assert len(ROW_NAMES) == NUM_ROWS


def _colour_counts(counts):
    return {COLOURS[c]: counts[c] for c in range(len(COLOURS))}


def _ship_string(board):
    chars = [SHIP_CHARS[0] if kind is None else TILE_SHORT[kind]
             for kind in board.ships[1:]]
    return "".join(chars).rstrip(".")


def _row_string(board, row):
    chars = ["." if kind is None else TILE_SHORT[kind] for kind in board.tiles[row][1:NUM_COLUMNS + 1]]
    return "".join(chars).rstrip(".")


def _player_dict(board):
    return {
        "gold": board.gold,
        "fame": board.fame,
        "start_row": board.start_row,
        "mainland": _colour_counts(board.mainland),
        "ships": _ship_string(board),
        "rows": [_row_string(board, row) for row in range(1, NUM_ROWS + 1)],
        "vikings": [[col for col in range(1, NUM_COLUMNS + 1) if board.vikings[row][col]]
                    for row in range(1, NUM_ROWS + 1)],
    }


def to_dict(state):
    game = state.get_game()
    wheel = state.wheel
    pending = state.pending
    return {
        "version": FORMAT_VERSION,
        "num_players": game.num_players,
        "options": dict(game.options),
        "round": state.round,
        "phase": state.phase,
        "start_player": state.start_player,
        "purchases": state.purchases,
        "scoring_index": state.scoring_index,
        "stacks": {TILE_KINDS[k]: state.stacks[k] for k in range(len(TILE_KINDS))},
        "bag": _colour_counts(state.bag),
        "drawn": _colour_counts(state.drawn),
        "removed": _colour_counts(state.removed),
        "discarded_tiles": state.discarded_tiles,
        "wheel": [None if wheel.tiles[s] is None else
                  {"tile": TILE_KINDS[wheel.tiles[s]],
                   "viking": None if wheel.vikings[s] is None else COLOURS[wheel.vikings[s]]}
                  for s in range(WHEEL_SPACES)],
        "pending": None if pending is None else {
            "tile": TILE_KINDS[pending["tile"]],
            "viking": COLOURS[pending["viking"]],
            "cell": None if pending["cell"] is None else list(pending["cell"])},
        "trip": None if state.trip is None else {
            "queue": [[COLOURS[colour], k] for colour, k in state.trip["queue"]],
            "last_col": state.trip["last_col"]},
        "players": [_player_dict(board) for board in state.players],
        "history": state.history(),
    }


# --- bytes ---------------------------------------------------------------------------------


def _position_bytes(state):
    game = state.get_game()
    options = sum(1 << i for i, name in enumerate(OPTION_NAMES) if game.options[name])
    out = bytearray([game.num_players, options, state.round, PHASES.index(state.phase),
                     state.start_player, state.purchases, state.scoring_index])
    out += bytes(state.stacks) + bytes(state.bag) + bytes(state.drawn) + bytes(state.removed)
    out.append(state.discarded_tiles)
    for s in range(WHEEL_SPACES):
        tile, viking = state.wheel.tiles[s], state.wheel.vikings[s]
        out += bytes([NONE_BYTE if tile is None else tile,
                      NONE_BYTE if viking is None else viking])
    pending = state.pending
    if pending is None:
        out += bytes([NONE_BYTE, NONE_BYTE, 0, 0])
    else:
        row, col = pending["cell"] or (0, 0)
        out += bytes([pending["tile"], pending["viking"], row, col])
    if state.trip is None:
        out += bytes([0, 0, 0])
    else:
        queue = state.trip["queue"]
        out += bytes([1, state.trip["last_col"], len(queue)])
        for colour, k in queue:
            out += bytes([colour, k])
    for board in state.players:
        out += struct.pack("<ii", board.gold, board.fame)
        out.append(board.start_row or 0)
        out += bytes(board.mainland)
        out += bytes(0 if kind is None else kind - 5 for kind in board.ships[1:])
        for row in range(1, NUM_ROWS + 1):
            out += bytes(0 if board.tiles[row][col] is None else
                         1 + board.tiles[row][col] + (VIKING_FLAG if board.vikings[row][col] else 0)
                         for col in range(1, NUM_COLUMNS + 1))
    return bytes(out)


def to_bytes(state):
    history = state.history()
    return (MAGIC + bytes([FORMAT_VERSION]) + _position_bytes(state)
            + struct.pack("<I", len(history)) + struct.pack(f"<{len(history)}H", *history))


def hash_key(state):
    """docs/state.md: splitmix64 folded over the position bytes, 8 at a time."""
    data = _position_bytes(state)
    h = len(data)
    for start in range(0, len(data), 8):
        chunk = int.from_bytes(data[start:start + 8].ljust(8, b"\0"), "little")
        h = mix(h ^ chunk)
    return h & MASK64
