"""Questions about an unfinished game and the heuristic evaluation (docs/search.md
"Evaluation"), the same numbers as vikinger_fast's evaluation.cc.

`final_scoring_gains`: what B8 would give each player if the game ended now.
`pending_scoring_gains`: what the scoring that ends the current round would pay the players it has
not scored yet (B7.1 after rounds 1, 3, 5; B7.2 steps 2-6 after 2, 4, 6, without more trips).
`evaluate`: per-player values in [0, 1] summing to 1, a softmax of the projected Fame.

The first two are State methods too: this module gives them to State when it is imported (as
csrc/bindings/search.cc gives them to the C++ State), so the state does not depend on the
search.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .actions import SCORER_PHASES
from .components import BOATSMAN, NUM_ROUNDS
from .scoring import final_scoring, large_scoring, small_scoring
from .state import State

if TYPE_CHECKING:
    from .board import PlayerBoard

# The temperature in Fame: BASE + PER_ROUND * (6 - round); late leads are worth more.
TEMPERATURE_BASE = 2.0
TEMPERATURE_PER_ROUND = 3.0
# A gold piece left after B8.2 counts this much Fame: it only breaks ties (B8.9).
GOLD_WEIGHT = 0.01


def _apply_pending_scoring(state: State, boards: list[PlayerBoard]) -> None:
    n = len(boards)
    first = state.scoring_index if state.phase in SCORER_PHASES else 0
    for i in range(first, n):
        board = boards[(state.start_player + i) % n]
        if state.round % 2 == 1:
            small_scoring(board)  # B7.1
        else:
            large_scoring(board)  # B7.2 steps 2-6


def _gains(state: State, boards: list[PlayerBoard]) -> list[tuple[int, int]]:
    if state.is_terminal():
        return [(0, 0)] * len(boards)
    return [
        (after.fame - board.fame, after.gold - board.gold)
        for after, board in zip(boards, state.players)
    ]


def final_scoring_gains(state: State) -> list[tuple[int, int]]:
    """[(Fame, gold)] per player: what the final scoring (B8) would change if the game ended
    now, on the boards as they stand; zeros once the game is over."""
    boards = [board.copy() for board in state.players]
    final_scoring(boards, BOATSMAN)
    return _gains(state, boards)


def pending_scoring_gains(state: State) -> list[tuple[int, int]]:
    """[(Fame, gold)] per player: what the scoring that ends this round would pay the players
    it has not scored yet (B7.1, or B7.2 steps 2-6 without further trips); zeros at the end."""
    boards = [board.copy() for board in state.players]
    _apply_pending_scoring(state, boards)
    return _gains(state, boards)


def projected_boards(state: State) -> list[PlayerBoard]:
    """The boards after the pending scoring and then B8 (as they are once terminal)."""
    boards = [board.copy() for board in state.players]
    if not state.is_terminal():
        _apply_pending_scoring(state, boards)
        final_scoring(boards, BOATSMAN)
    return boards


def evaluate(state: object) -> list[float]:
    """The heuristic value per player: returns once terminal, else with s_i = projected Fame +
    0.01 * projected gold, v_i = exp((s_i - max s) / T) / sum_j exp((s_j - max s) / T)."""
    if not isinstance(state, State):
        raise TypeError(f"state must be a State, not {type(state).__name__}")
    if state.is_terminal():
        return state.returns()
    scores = [board.fame + GOLD_WEIGHT * board.gold for board in projected_boards(state)]
    best = max(scores)
    temperature = TEMPERATURE_BASE + TEMPERATURE_PER_ROUND * (NUM_ROUNDS - state.round)
    terms = [math.exp((score - best) / temperature) for score in scores]
    total = 0.0
    for term in terms:  # in player order, as the C++ sum
        total += term
    return [term / total for term in terms]


State.final_scoring_gains = final_scoring_gains  # type: ignore[attr-defined]
State.pending_scoring_gains = pending_scoring_gains  # type: ignore[attr-defined]
