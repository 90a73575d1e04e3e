"""same_position: whether two states are the same game position, compared field by field (the
search finds a tree's child by it when the game moves on, puct.py); the twin of vikinger_fast's
csrc/rules/equality.cc."""

from __future__ import annotations


from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .state import State


def _parts(state: State) -> tuple[Any, ...]:
    """What docs/state.md's bytes format holds, as comparable values; not the history."""
    auction = state.auction
    return (
        state.round,
        state.phase,
        state.start_player,
        state.purchases,
        state.scoring_index,
        state.stacks,
        state.bag,
        state.drawn,
        state.removed,
        state.discarded_tiles,
        state.wheel.tiles,
        state.wheel.vikings,
        state.pending,
        state.trip,
        [vars(board) for board in state.players],
        vars(state.display),
        None if auction is None else vars(auction),
    )


def same_position(a: State, b: State) -> bool:
    """Whether `a` and `b` are the same game position: the game, the round and phase, the supply,
    the wheel, the purchase and trip in progress, the players' boards, the A1 auction and the A5
    tiles are equal (the history is not compared)."""
    return a.get_game() == b.get_game() and _parts(a) == _parts(b)
