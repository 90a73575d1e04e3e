"""Round 6's trips by their counts (docs/search.md "Solver", "Trips by counts"): a scorer's best
own total for one end of their trips, found column by column instead of tile by tile. The same
arithmetic in the same order as vikinger_fast's trip_ends.cc.

B7.2.1a makes the legal trips hang on counts alone (mainland Vikings and free tiles per row,
boatsmen, boats), never on the tiles the Vikings land on. So the solver lists the ends of a
scorer's trips with every Viking on the leftmost tile it may take (one end per reachable count
of Vikings moved per row, boatsmen and boats kept) and asks best_total for the best tiles. That
best is a few lines of argument, not a search, because every step of the scoring rises with
what it counts:
- Warriors (B7.0, B7.2.2, B8.1): a warrior under a ship repels it, which pays, saves its B8.1
  cost and frees its column, and one elsewhere does nothing. So the warriors repel as many
  ships as they can; which ones is tried, every way.
- Then the threats are fixed. Nobles, goldsmiths and fishermen go to unthreatened tiles first
  (B7.2.3, B7.2.5, B8.6, A5 tiles). A scout scores only unthreatened, its bonuses read the
  goldsmith and the fisherman below it (B7.2.4); a ship that reaches row 3 of a column reaches
  its rows 1-2 too but not always 4-5, so an unthreatened scout stands over unthreatened tiles.
  The scouts take the unthreatened tiles whose columns give the most bonuses (an enumeration of
  how many of each kind of column), and the goldsmiths and fishermen take the tiles under
  unthreatened scouts first.
- Fame and gold both only add to the total (B8.1 and B8.2 never turn more gold into less), so
  the placement best in every step is the best. A5 buildings score their 8 neighbours, which
  this argument does not cover: a board with one placed is listed tile by tile (by_counts).
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Any, Optional

from .board import ROWS
from .components import BOATSMAN, NUM_ROWS, row_of_colour
from .scoring import final_scoring_alone, large_scoring

if TYPE_CHECKING:
    from .board import PlayerBoard

FAME_UNIT = 64  # solver.FAME_UNIT (that module imports this one)
WARRIOR_ROW, NOBLE_ROW, SCOUT_ROW, GOLDSMITH_ROW, FISHERMAN_ROW = ROWS


def by_counts(board: PlayerBoard) -> bool:
    """Whether best_total holds for the board: no A5 building placed."""
    return all(building is None for building in board.buildings)


def candidates(board: PlayerBoard, trip: Optional[dict[str, Any]]) -> list[list[int]]:
    """Per row (index 1..5), the free tiles the scorer's Vikings may still land on: all of them,
    except in the row of an "all of one colour" trip begun, whose Vikings go right of the last
    one placed (trips.legal_targets); that trip is the last to reach its row (it moves every
    Viking of its colour, or fills the row)."""
    tiles = [[]] + [board.free_tiles(row) for row in ROWS]
    if trip is not None and trip["last_col"] > 0:
        row = row_of_colour(trip["queue"][0][0])
        assert row is not None  # a trip moves colours with a row
        tiles[row] = [col for col in tiles[row] if col > trip["last_col"]]
    return tiles


def best_total(start: PlayerBoard, end: PlayerBoard, tiles: list[list[int]]) -> int:
    """The best own total (64 * Fame + gold after B7.2 steps 2-6 and solver.own_total's part of
    B8) of the scorer whose board was `start` when the listing began and who reached the counts
    of `end` (its mainland and A5 tiles, all that is read of it), the Vikings on `tiles`."""
    moved = [0] * (NUM_ROWS + 1)
    for colour in range(BOATSMAN):  # a colour's Vikings go to its own row only
        moved[row_of_colour(colour)] = start.mainland[colour] - end.mainland[colour]  # type: ignore[index]
    base = start.copy()
    base.mainland = list(end.mainland)
    base.specials = list(end.specials)
    ships = [col for col in tiles[WARRIOR_ROW] if start.ships[col] is not None]
    others = [col for col in tiles[WARRIOR_ROW] if start.ships[col] is None]
    repelling = min(moved[WARRIOR_ROW], len(ships))
    best = None
    for repelled in combinations(ships, repelling):
        board = base.copy()
        for col in list(repelled) + others[: moved[WARRIOR_ROW] - repelling]:
            board.put_viking_on_tile(WARRIOR_ROW, col)
        _place_the_rest(board, tiles, moved)
        large_scoring(board)
        final_scoring_alone(board)
        total = FAME_UNIT * board.fame + board.gold
        if best is None or total > best:
            best = total
    assert best is not None  # combinations of k <= len(ships) yield at least once
    return best


def _split(board: PlayerBoard, row: int, cols: list[int]) -> tuple[list[int], list[int]]:
    """The columns' tiles of a row, unthreatened first, each part left to right."""
    free = [col for col in cols if not board.is_threatened(row, col)]
    return free, [col for col in cols if board.is_threatened(row, col)]


def _place(board: PlayerBoard, row: int, count: int, *preferred: list[int]) -> None:
    """Puts `count` Vikings on row `row`, taking the columns in the order given."""
    order = [col for cols in preferred for col in cols]
    for col in order[:count]:
        board.put_viking_on_tile(row, col)


def _place_the_rest(board: PlayerBoard, tiles: list[list[int]], moved: list[int]) -> None:
    """Nobles, scouts, goldsmiths and fishermen, once the warriors stand (the module's text)."""
    _place(board, NOBLE_ROW, moved[NOBLE_ROW], *_split(board, NOBLE_ROW, tiles[NOBLE_ROW]))
    free, threatened = _split(board, SCOUT_ROW, tiles[SCOUT_ROW])
    scouts = _best_scouts(board, free, min(moved[SCOUT_ROW], len(free)), tiles, moved)
    _place(board, SCOUT_ROW, moved[SCOUT_ROW], scouts, threatened)
    for row in (GOLDSMITH_ROW, FISHERMAN_ROW):
        free, threatened = _split(board, row, tiles[row])
        under = [col for col in free if _scout_scores(board, col)]
        _place(board, row, moved[row], under, [col for col in free if col not in under], threatened)


def _scout_scores(board: PlayerBoard, col: int) -> bool:
    return board.has_viking(SCOUT_ROW, col) and not board.is_threatened(SCOUT_ROW, col)


def _best_scouts(
    board: PlayerBoard, free: list[int], count: int, tiles: list[list[int]], moved: list[int]
) -> list[int]:
    """`count` of the unthreatened scout tiles `free` with the most bonuses (B7.2.4): a column
    scores 1 for a goldsmith and 1 for a fisherman standing below, and each free tile below
    serves a placed goldsmith or fisherman (as many as are placed, with the columns under the
    scouts already standing). Columns are of 9 kinds (row 4, row 5: a Viking, a free tile,
    neither); the best number of each kind is found by trying them all, the first best kept."""
    kinds: list[list[int]] = [[] for _ in range(9)]
    for col in free:
        kinds[
            3 * _below(board, GOLDSMITH_ROW, col, tiles) + _below(board, FISHERMAN_ROW, col, tiles)
        ].append(col)
    standing = [0] * (NUM_ROWS + 1)  # free tiles under the scouts already standing, rows 4, 5
    for row in (GOLDSMITH_ROW, FISHERMAN_ROW):
        standing[row] = sum(1 for col in tiles[row] if _scout_scores(board, col))
    best: list[Any] = [None, None]  # (value, numbers per kind)

    def visit(kind: int, left: int, numbers: list[int]) -> None:
        if kind == 9:
            if left == 0:
                value = _bonuses(numbers, standing, moved)
                if best[0] is None or value > best[0]:
                    best[0], best[1] = value, list(numbers)
            return
        for number in range(min(len(kinds[kind]), left) + 1):
            numbers.append(number)
            visit(kind + 1, left - number, numbers)
            numbers.pop()

    visit(0, count, [])
    return sorted(col for kind, number in enumerate(best[1]) for col in kinds[kind][:number])


def _below(board: PlayerBoard, row: int, col: int, tiles: list[list[int]]) -> int:
    """0: a Viking stands on (row, col); 1: a tile there is free for one; 2: neither."""
    if board.has_viking(row, col):
        return 0
    return 1 if col in tiles[row] else 2


def _bonuses(numbers: list[int], standing: list[int], moved: list[int]) -> int:
    """The scout bonuses the columns chosen `numbers` (per kind) add."""
    standing_vikings = sum(n * ((k // 3 == 0) + (k % 3 == 0)) for k, n in enumerate(numbers))
    goldsmith_tiles = sum(n for k, n in enumerate(numbers) if k // 3 == 1)
    fisherman_tiles = sum(n for k, n in enumerate(numbers) if k % 3 == 1)
    return (
        standing_vikings
        + min(moved[GOLDSMITH_ROW], standing[GOLDSMITH_ROW] + goldsmith_tiles)
        + min(moved[FISHERMAN_ROW], standing[FISHERMAN_ROW] + fisherman_tiles)
    )
