"""The observation tensor of docs/state.md: public information, fixed shape, players relative.

Everything in Wikinger is public except the order of the stacks and of the bag, which the
tensor leaves out (it shows only their counts).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from .actions import PHASES
from .arguments import check_int
from .components import (
    LEFT,
    NUM_COLOURS,
    NUM_COLUMNS,
    NUM_ROWS,
    NUM_SPECIAL_KINDS,
    NUM_TILE_KINDS,
    RIGHT,
    SHIP_RED,
    WHEEL_SPACES,
)

if TYPE_CHECKING:
    from .state import State

GLOBAL_SIZE = 294
PLAYER_SIZE = 1545
ROUND, PHASE, TO_MOVE, START = 0, 6, 22, 26
PURCHASES, WHEEL, STACKS, BAG, DRAWN = 30, 31, 247, 257, 263
PENDING_TILE, PENDING_VIKING, PENDING_CELL, TRIP_QUEUE, TRIP_LAST = 269, 279, 285, 287, 293
WHEEL_ENTRY = 18
CELL_FEATURES = 4
SHIPS, MAINLAND, GOLD, FAME, STARTED = 1280, 1536, 1542, 1543, 1544


# docs/advanced.md: appended after the player blocks.
ADVANCED_SIZE = 80
AUCTION_ON, AUCTION_HIGH, AUCTION_LEADER, AUCTION_PASSED, DISPLAY, SPECIAL_STACK = (
    0,
    1,
    2,
    6,
    10,
    66,
)
PLAYER_ADVANCED_SIZE = 22
BUILDINGS = 14


def observation_size(num_players: int) -> int:
    return (
        GLOBAL_SIZE + PLAYER_SIZE * num_players + ADVANCED_SIZE + PLAYER_ADVANCED_SIZE * num_players
    )


def check_player(state: State, player: Any) -> int:
    """`player` as an int in 0..n-1: TypeError for a non-int, ValueError out of range."""
    player = check_int("player", player)
    n = state.get_game().num_players
    if not 0 <= player < n:
        raise ValueError(f"player {player} is outside 0..{n - 1}")
    return player


def observation_tensor(state: State, player: Any) -> np.ndarray:
    player = check_player(state, player)
    n = state.get_game().num_players
    obs = np.zeros(observation_size(n), dtype=np.float32)
    slot = lambda p: (p - player) % n  # noqa: E731  (relative seat of player p)
    obs[ROUND + state.round - 1] = 1
    obs[PHASE + PHASES.index(state.phase)] = 1
    if state.current_player() >= 0:
        obs[TO_MOVE + slot(state.current_player())] = 1
    obs[START + slot(state.start_player)] = 1
    obs[PURCHASES] = state.purchases
    wheel = state.wheel
    occupied = wheel.occupied()
    for s in occupied:
        base = WHEEL + WHEEL_ENTRY * s
        obs[base] = 1
        obs[base + 1 + wheel.tiles[s]] = 1
        if wheel.vikings[s] is not None:
            obs[base + 1 + NUM_TILE_KINDS + wheel.vikings[s]] = 1
        obs[base + 1 + NUM_TILE_KINDS + NUM_COLOURS] = s - occupied[0]
    obs[STACKS : STACKS + NUM_TILE_KINDS] = state.stacks
    obs[BAG : BAG + NUM_COLOURS] = state.bag
    obs[DRAWN : DRAWN + NUM_COLOURS] = state.drawn
    if state.pending is not None:
        obs[PENDING_TILE + state.pending["tile"]] = 1
        obs[PENDING_VIKING + state.pending["viking"]] = 1
        if state.pending["cell"] is not None:
            obs[PENDING_CELL : PENDING_CELL + 2] = state.pending["cell"]
    if state.trip is not None:
        for colour, k in state.trip["queue"]:
            obs[TRIP_QUEUE + colour] += k
        obs[TRIP_LAST] = state.trip["last_col"]
    for p, board in enumerate(state.players):
        base = GLOBAL_SIZE + PLAYER_SIZE * slot(p)
        for row, col, kind in board.island_tiles():
            cell = base + ((row - 1) * NUM_COLUMNS + col - 1) * CELL_FEATURES
            obs[cell + (0 if kind == LEFT else 2 if kind == RIGHT else 1)] = 1
            obs[cell + 3] = board.has_viking(row, col)
        for col, kind in board.ship_list():
            obs[base + SHIPS + (col - 1) * 4 + kind - SHIP_RED] = 1
        obs[base + MAINLAND : base + MAINLAND + NUM_COLOURS] = board.mainland
        obs[base + GOLD] = board.gold
        obs[base + FAME] = board.fame
        obs[base + STARTED] = board.start_row is not None
    _advanced_features(state, obs, slot, n)
    return obs


def _advanced_features(state: State, obs: np.ndarray, slot: Callable[[int], int], n: int) -> None:
    """A1 auction and A5 special tiles (docs/advanced.md)."""
    base = GLOBAL_SIZE + PLAYER_SIZE * n
    auction = state.auction
    if auction is not None:
        obs[base + AUCTION_ON] = 1
        obs[base + AUCTION_HIGH] = auction.high or 0
        obs[base + AUCTION_LEADER + slot(auction.leader)] = 1
        for p, passed in enumerate(auction.passed):
            obs[base + AUCTION_PASSED + slot(p)] = passed
    for i, kind in enumerate(state.display.slots):
        if kind is not None:
            obs[base + DISPLAY + NUM_SPECIAL_KINDS * i + kind] = 1
    obs[base + SPECIAL_STACK : base + SPECIAL_STACK + NUM_SPECIAL_KINDS] = state.display.stack
    for p, board in enumerate(state.players):
        at = base + ADVANCED_SIZE + PLAYER_ADVANCED_SIZE * slot(p)
        obs[at : at + NUM_SPECIAL_KINDS] = board.specials
        for b, cell in enumerate(board.buildings):
            if cell is not None:
                obs[at + BUILDINGS + 2 * b : at + BUILDINGS + 2 * b + 2] = cell


assert GLOBAL_SIZE == TRIP_LAST + 1 and WHEEL + WHEEL_ENTRY * WHEEL_SPACES == STACKS
assert PLAYER_SIZE == STARTED + 1 and SHIPS == NUM_ROWS * NUM_COLUMNS * CELL_FEATURES
assert ADVANCED_SIZE == SPECIAL_STACK + NUM_SPECIAL_KINDS
assert PLAYER_ADVANCED_SIZE == BUILDINGS + 8
