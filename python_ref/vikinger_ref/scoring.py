"""Scoring (docs/rules.md B7, B8): small and large scoring during the game, final scoring, winner.

The boatsman trips of the large scoring (B7.2 step 1) are decisions and live in state.py; the
functions here are the parts without decisions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from .components import (
    FISH,
    FISHERMAN,
    FISHERMAN1,
    GOLDSMITH,
    GOLDSMITH1,
    GOLDSMITH2,
    HORN,
    NOBLE,
    NOBLE1,
    SCOUT,
    SCOUT1,
    TREASURY,
    ship_info,
)

if TYPE_CHECKING:
    from .board import PlayerBoard

GOLDSMITH_GOLD = 3  # B7.1, B7.2.5
NOBLE_FAME = 2  # B7.2.3
BOATSMEN_BONUS = 10  # B8.3
ISLANDS_BONUS = 7  # B8.4
LONGEST_BONUS = 5  # B8.5
FED_PER_FISHERMAN = 5  # B8.6
SURPLUS_FAME = 2  # B8.6
GOLD_PER_FAME = 5  # B8.2
TREASURY_GOLD_PER_FAME = 3  # A5 treasury
FISH_SURPLUS_FAME = 3  # A5 fish


def goldsmith_gold(board: PlayerBoard) -> int:
    """B7.1/B7.2.5: 3 gold per goldsmith, plus the A5 goldsmith tiles (+1, +2; they add up)."""
    return GOLDSMITH_GOLD + board.specials[GOLDSMITH1] + 2 * board.specials[GOLDSMITH2]


def small_scoring(board: PlayerBoard) -> None:
    """B7.1: 3 gold per unthreatened goldsmith on an island tile."""
    board.gold += goldsmith_gold(board) * len(board.unthreatened_vikings(GOLDSMITH))


def large_scoring(board: PlayerBoard) -> None:
    """B7.2 steps 2-6, after the player's boatsman trips."""
    # 2. Each repelled ship pays its value to its owner.
    for col, kind in board.ship_list():
        if board.is_repelled(col):
            ship = ship_info(kind)
            if ship.pays_fame:
                board.fame += ship.value
            else:
                board.gold += ship.value
    # 3. Nobles: 2 Fame each, unthreatened (+1 per A5 noble tile).
    board.fame += (NOBLE_FAME + board.specials[NOBLE1]) * len(board.unthreatened_vikings(NOBLE))
    # 4. Scouts: 1 Fame, +1 for a goldsmith below in row 4, +1 for a fisherman in row 5 (⚖);
    #    +1 per A5 scout tile.
    for col in board.unthreatened_vikings(SCOUT):
        board.fame += (
            1 + board.has_viking(4, col) + board.has_viking(5, col) + board.specials[SCOUT1]
        )
    # 5. Goldsmiths: 3 gold each, unthreatened (A5 tiles add).
    board.gold += goldsmith_gold(board) * len(board.unthreatened_vikings(GOLDSMITH))
    # 6. Fishermen: nothing, except +1 Fame per A5 fisherman tile.
    board.fame += board.specials[FISHERMAN1] * len(board.unthreatened_vikings(FISHERMAN))


def pay_for_unrepelled_ships(board: PlayerBoard) -> None:
    """B8.1: a Fame ship costs its value in Fame; a gold ship costs gold, and each gold that
    cannot be paid costs 1 Fame (B8.8: Fame may go below 0)."""
    for col, kind in board.ship_list():
        if board.is_repelled(col):
            continue
        ship = ship_info(kind)
        if ship.pays_fame:
            board.fame -= ship.value
        else:
            paid = min(board.gold, ship.value)
            board.gold -= paid
            board.fame -= ship.value - paid


def feeding(board: PlayerBoard) -> None:
    """B8.6: each unthreatened fisherman feeds 5 Vikings; +2 Fame per spare meal, -1 per
    hungry Viking."""
    fed = FED_PER_FISHERMAN * len(board.unthreatened_vikings(FISHERMAN))
    vikings = board.viking_count()
    if fed >= vikings:
        board.fame += (FISH_SURPLUS_FAME if board.specials[FISH] else SURPLUS_FAME) * (
            fed - vikings
        )
    else:
        board.fame -= vikings - fed


def building_fame(board: PlayerBoard) -> int:
    """A5: 1 Fame per Viking on a placed building tile and its 8 neighbours, unless the
    building's own cell is threatened (B7.0)."""
    fame = 0
    for building in board.buildings:
        if building is None or board.is_threatened(*building):
            continue
        row, col = building
        fame += sum(
            board.has_viking(r, c) for r in (row - 1, row, row + 1) for c in (col - 1, col, col + 1)
        )
    return fame


def final_scoring(boards: Sequence[PlayerBoard], boatsman: int) -> None:
    """B8.1-B8.6 and the A5 buildings (⚖) for all players: final_scoring_alone of every board,
    plus majority_fame of their counts. The majorities only add Fame and no step reads Fame, so
    this is the rulebook's order in effect."""
    fame = majority_fame([count_majorities(board, boatsman) for board in boards])
    for board, bonus in zip(boards, fame):
        final_scoring_alone(board)
        board.fame += bonus


def final_scoring_alone(board: PlayerBoard) -> None:
    """B8.1, B8.2, B8.6 and the A5 buildings: the steps of the final scoring that read one board
    alone (the endgame solver scores the boards of the last scoring apart, solver.py)."""
    pay_for_unrepelled_ships(board)
    rate = TREASURY_GOLD_PER_FAME if board.specials[TREASURY] else GOLD_PER_FAME  # B8.2
    board.fame += board.gold // rate
    board.gold %= rate
    feeding(board)  # B8.6
    board.fame += building_fame(board)  # A5 (⚖ after B8.6)


def count_majorities(board: PlayerBoard, boatsman: int) -> tuple[int, int, int]:
    """B8.3-B8.5: the counts the majorities compare: boatsmen on the mainland (A5 horns
    included), completed islands, tiles of the longest completed island."""
    sizes = board.completed_islands()
    return boatsmen_kept(board, boatsman), len(sizes), max(sizes, default=0)


def boatsmen_kept(board: PlayerBoard, boatsman: int) -> int:
    """B8.3's count alone: boatsmen on the mainland, the A5 horns counting as boatsmen."""
    return board.mainland[boatsman] + board.specials[HORN]


def majority_fame(counts: Sequence[tuple[int, int, int]]) -> list[int]:
    """B8.3-B8.5 with B8.7's ties: the bonus Fame each player's counts earn (the bonus goes to
    every player with the highest count, unless that count is 0)."""
    fame = [0] * len(counts)
    for k, bonus in enumerate((BOATSMEN_BONUS, ISLANDS_BONUS, LONGEST_BONUS)):
        best = max(count[k] for count in counts)
        if best == 0:
            continue
        for player, count in enumerate(counts):
            if count[k] == best:
                fame[player] += bonus
    return fame


def win_shares(boards: Sequence[PlayerBoard]) -> list[float]:
    """B8.9: most Fame wins; ties broken by gold; a remaining tie shares the win."""
    best = max((board.fame, board.gold) for board in boards)
    winners = [(board.fame, board.gold) == best for board in boards]
    share = 1.0 / sum(winners)
    return [share if won else 0.0 for won in winners]
