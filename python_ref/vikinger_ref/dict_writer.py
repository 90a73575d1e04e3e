"""Writing the canonical dict of docs/state.md: `to_dict`, the one complete description of a
state (C++: csrc/formats/dict_writer.cc). Reading it back is dict_reader.py."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from .components import COLOURS, NUM_ROWS, SPECIAL_KINDS, TILE_KINDS, TILE_SHORT, WHEEL_SPACES
from .serialization import FORMAT_VERSION, SHIP_CHARS

if TYPE_CHECKING:
    from .board import PlayerBoard
    from .state import State


def _colour_counts(counts: Sequence[int]) -> dict[str, int]:
    return {COLOURS[c]: counts[c] for c in range(len(COLOURS))}


def _special_counts(counts: Sequence[int]) -> dict[str, int]:
    return {SPECIAL_KINDS[k]: counts[k] for k in range(len(SPECIAL_KINDS))}


def _ship_string(board: PlayerBoard) -> str:
    chars = [SHIP_CHARS[0] if kind is None else TILE_SHORT[kind] for kind in board.ships[1:]]
    return "".join(chars).rstrip(".")


def _row_string(board: PlayerBoard, row: int) -> str:
    chars = [
        "." if kind is None else TILE_SHORT[kind] for kind in board.tiles[row][1 : board.width + 1]
    ]
    return "".join(chars).rstrip(".")


def _player_dict(board: PlayerBoard) -> dict[str, Any]:
    return {
        "gold": board.gold,
        "fame": board.fame,
        "start_row": board.start_row,
        "mainland": _colour_counts(board.mainland),
        "ships": _ship_string(board),
        "rows": [_row_string(board, row) for row in range(1, NUM_ROWS + 1)],
        "vikings": [
            [col for col in board.used_columns() if board.vikings[row][col]]
            for row in range(1, NUM_ROWS + 1)
        ],
        "specials": _special_counts(board.specials),
        "buildings": [None if cell is None else list(cell) for cell in board.buildings],
    }


def to_dict(state: State) -> dict[str, Any]:
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
        "wheel": [
            None
            if wheel.tiles[s] is None
            else {
                "tile": TILE_KINDS[wheel.tiles[s]],
                "viking": None if wheel.vikings[s] is None else COLOURS[wheel.vikings[s]],
            }
            for s in range(WHEEL_SPACES)
        ],
        "pending": None
        if pending is None
        else {
            "tile": TILE_KINDS[pending["tile"]],
            "viking": COLOURS[pending["viking"]],
            "cell": None if pending["cell"] is None else list(pending["cell"]),
        },
        "trip": None
        if state.trip is None
        else {
            "queue": [[COLOURS[colour], k] for colour, k in state.trip["queue"]],
            "last_col": state.trip["last_col"],
        },
        "auction": None
        if state.auction is None
        else {
            "high": state.auction.high,
            "leader": state.auction.leader,
            "passed": list(state.auction.passed),
            "turn": state.auction.turn,
        },
        "special_stack": _special_counts(state.display.stack),
        "display": [None if kind is None else SPECIAL_KINDS[kind] for kind in state.display.slots],
        "special_removed": _special_counts(state.display.removed),
        "players": [_player_dict(board) for board in state.players],
        "history": state.history(),
    }
