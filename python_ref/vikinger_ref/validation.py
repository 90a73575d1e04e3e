"""Reading states back: `from_dict` builds a state from a dict of docs/state.md once every check
has passed (C++: csrc/formats/validation.cc).

A dict is checked completely before any state is built, so a refused dict changes nothing:
dict_reader.py checks keys, types and ranges, consistency.py whether the position can occur.
Every refusal is a ValueError naming the first problem found (TypeError for a non-dict).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import PHASES
from .auction import Auction
from .components import NUM_ROWS
from .consistency import check_position
from .dict_reader import fail, parse

if TYPE_CHECKING:
    from .game import Game
    from .state import State


def from_dict(game: Game, d: Any) -> State:
    """A new state from a dict of docs/state.md, checked completely first."""
    s = parse(game, d)
    check_position(s, game.options)
    state = game.new_initial_state()
    for key in (
        "round",
        "start_player",
        "purchases",
        "scoring_index",
        "stacks",
        "bag",
        "drawn",
        "removed",
        "discarded_tiles",
        "pending",
        "trip",
    ):
        setattr(state, key, s[key])
    state.phase = PHASES[s["phase"]]
    state.wheel.tiles = [tile for tile, _ in s["wheel"]]
    state.wheel.vikings = [viking for _, viking in s["wheel"]]
    state.auction = None
    if s["auction"] is not None:
        state.auction = Auction(game.num_players, s["auction"]["leader"])
        state.auction.high = s["auction"]["high"]
        state.auction.passed = s["auction"]["passed"]
        state.auction.turn = s["auction"]["turn"]
    state.display.stack = s["special_stack"]
    state.display.slots = s["display"]
    state.display.removed = s["special_removed"]
    for board, player in zip(state.players, s["players"]):
        board.gold, board.fame = player["gold"], player["fame"]
        board.start_row = player["start_row"]
        board.mainland = player["mainland"]
        board.specials = player["specials"]
        board.buildings = [None if cell is None else tuple(cell) for cell in player["buildings"]]
        for col, kind in enumerate(player["ships"], start=1):
            board.ships[col] = kind
        for r in range(NUM_ROWS):
            for col, kind in enumerate(player["tiles"][r], start=1):
                if kind is not None:
                    board.place_island_tile(kind, r + 1, col)
            for col in player["vikings"][r]:
                board.vikings[r + 1][col] = True
    state._history = s["history"]
    if not state.is_chance_node() and not state.is_terminal() and not state.legal_actions():
        fail(f"phase {state.phase} leaves the player to move no legal action")
    return state
