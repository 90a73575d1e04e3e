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


def award_majority(boards: Sequence[PlayerBoard], counts: Sequence[int], bonus: int) -> None:
    """B8.7: the bonus goes to every player with the highest count, unless that count is 0."""
    best = max(counts)
    if best == 0:
        return
    for board, count in zip(boards, counts):
        if count == best:
            board.fame += bonus


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
    """B8.1-B8.6, in the rulebook's order, for all players; then the A5 buildings (⚖)."""
    for board in boards:
        pay_for_unrepelled_ships(board)
    for board in boards:  # B8.2 (A5 treasury: 3 gold a Fame)
        rate = TREASURY_GOLD_PER_FAME if board.specials[TREASURY] else GOLD_PER_FAME
        board.fame += board.gold // rate
        board.gold %= rate
    award_majority(
        boards,
        [board.mainland[boatsman] + board.specials[HORN] for board in boards],
        BOATSMEN_BONUS,
    )  # B8.3, A5 horns count as boatsmen
    islands = [board.completed_islands() for board in boards]
    award_majority(boards, [len(sizes) for sizes in islands], ISLANDS_BONUS)
    award_majority(boards, [max(sizes, default=0) for sizes in islands], LONGEST_BONUS)
    for board in boards:
        feeding(board)
        board.fame += building_fame(board)


def win_shares(boards: Sequence[PlayerBoard]) -> list[float]:
    """B8.9: most Fame wins; ties broken by gold; a remaining tie shares the win."""
    best = max((board.fame, board.gold) for board in boards)
    winners = [(board.fame, board.gold) == best for board in boards]
    share = 1.0 / sum(winners)
    return [share if won else 0.0 for won in winners]
