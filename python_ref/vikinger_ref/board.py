"""One player's board (docs/rules.md B2): mainland, ship row and the five island rows.

Holds gold, Fame, the mainland Vikings and the tiles, and answers the rule questions asked of a
board: where an island tile may go (B6.2), where a ship goes (B6.1), which Vikings are threatened
(B7.0), and which islands are completed (B8.4). Columns are 1-based, rows 1..5 as in B2.1.
"""

from .components import (
    LEFT,
    NUM_COLOURS,
    NUM_COLUMNS,
    NUM_ROWS,
    NUM_SPECIAL_KINDS,
    row_of_colour,
    sea_on_left,
    sea_on_right,
    ship_info,
)

ROWS = range(1, NUM_ROWS + 1)
COLUMNS = range(1, NUM_COLUMNS + 1)


class PlayerBoard:
    """Everything one player owns."""

    def __init__(self, gold, fame):
        self.gold = gold
        self.fame = fame
        self.start_row = None  # B6.0: row of the start tile, once placed
        self.mainland = [0] * NUM_COLOURS  # Vikings waiting on the mainland, by colour
        self.ships = [None] * (NUM_COLUMNS + 1)  # ships[c]: ship kind in column c (index 0 unused)
        self.tiles = [[None] * (NUM_COLUMNS + 2) for _ in range(NUM_ROWS + 2)]  # tiles[r][c]
        self.vikings = [[False] * (NUM_COLUMNS + 2) for _ in range(NUM_ROWS + 2)]
        self.width = 0  # the last column with an island tile, or 0
        self.specials = [0] * NUM_SPECIAL_KINDS  # A5 tiles held, buildings included
        self.buildings = [None] * 4  # A5 (row, col) of building 1..4, if placed

    def copy(self):
        other = PlayerBoard(self.gold, self.fame)
        other.start_row = self.start_row
        other.mainland = list(self.mainland)
        other.ships = list(self.ships)
        other.tiles = [list(row) for row in self.tiles]
        other.vikings = [list(row) for row in self.vikings]
        other.width = self.width
        other.specials = list(self.specials)
        other.buildings = list(self.buildings)
        return other

    # --- tiles -------------------------------------------------------------------------------

    def tile(self, row, col):
        """The island tile kind at (row, col), or None (also outside the board)."""
        if row in ROWS and col in COLUMNS:
            return self.tiles[row][col]
        return None

    def place_start_tile(self, row):
        """B6.0: the start tile is a left piece in column 1 of the chosen row."""
        self.start_row = row
        self.place_island_tile(LEFT, row, 1)

    def legal_island_cells(self, kind):
        """B6.2: the empty cells where an island tile of `kind` may go, sorted by (row, column).

        Only cells that touch the mainland or an island tile (condition (a)) can qualify, so those
        are the candidates: column 1 of every row and the four neighbours of every island tile.
        """
        candidates = {(row, 1) for row in ROWS}
        for row, col, _ in self.island_tiles():
            candidates.update(((row, col - 1), (row, col + 1), (row - 1, col), (row + 1, col)))
        return sorted(
            (row, col)
            for row, col in candidates
            if row in ROWS and col in COLUMNS and self._may_place(kind, row, col)
        )

    def _may_place(self, kind, row, col):
        if self.tiles[row][col] is not None:
            return False
        # (a) it touches the mainland (column 1) or an island tile; ships never count.
        touches = (
            col == 1
            or self.tile(row, col - 1) is not None
            or self.tile(row, col + 1) is not None
            or self.tile(row - 1, col) is not None
            or self.tile(row + 1, col) is not None
        )
        if not touches:
            return False
        # (c) shared edges match; the mainland edge left of column 1 is sea (B2.3).
        left = self.tile(row, col - 1)
        left_neighbour_sea = True if col == 1 else (None if left is None else sea_on_right(left))
        if left_neighbour_sea is not None and left_neighbour_sea != sea_on_left(kind):
            return False
        right = self.tile(row, col + 1)
        if right is not None and sea_on_left(right) != sea_on_right(kind):
            return False
        return True

    def place_island_tile(self, kind, row, col):
        self.tiles[row][col] = kind
        self.width = max(self.width, col)

    def used_columns(self):
        """Columns 1..width: every island tile, and so every Viking on an island, is in them."""
        return range(1, self.width + 1)

    def island_tiles(self):
        """Every (row, column, kind) of the island tiles, start tile included."""
        return [
            (row, col, kind)
            for row in ROWS
            for col, kind in enumerate(self.tiles[row][1 : self.width + 1], start=1)
            if kind is not None
        ]

    # --- ships -------------------------------------------------------------------------------

    def ship_count(self):
        return sum(1 for kind in self.ships if kind is not None)

    def ship_columns(self):
        """B6.1: the columns the next ship may go to."""
        count = self.ship_count()
        if count < 3:
            return [col for col in (1, 2, 3) if self.ships[col] is None]
        return [count + 1]

    def place_ship(self, kind, col):
        self.ships[col] = kind

    # --- Vikings -----------------------------------------------------------------------------

    def has_viking(self, row, col):
        return row in ROWS and col in COLUMNS and self.vikings[row][col]

    def put_viking_on_tile(self, row, col):
        self.vikings[row][col] = True

    def free_tiles(self, row):
        """Columns of the island tiles in `row` that carry no Viking (targets of B7.2 trips)."""
        return [
            col
            for col in self.used_columns()
            if self.tiles[row][col] is not None and not self.vikings[row][col]
        ]

    def island_vikings(self, colour):
        """Columns of the Vikings of `colour` standing on island tiles (in the colour's row)."""
        row = row_of_colour(colour)
        return [col for col in self.used_columns() if self.vikings[row][col]]

    def viking_count(self):
        """B8.6: all the player's Vikings, on islands and on the mainland."""
        on_islands = sum(self.vikings[row][col] for row in ROWS for col in self.used_columns())
        return on_islands + sum(self.mainland)

    # --- threat (B7.0) -----------------------------------------------------------------------

    def is_repelled(self, col):
        """B7.0: a warrior on the island tile in row 1 of the column repels its ship."""
        return self.has_viking(1, col)

    def is_threatened(self, row, col):
        """B7.0: a ship in the column whose sail reaches the row, not repelled."""
        ship = self.ships[col]
        return ship is not None and ship_info(ship).reach >= row and not self.is_repelled(col)

    def threatened_cells(self):
        """B7.0 for every cell: threatened[r - 1][c - 1] is True when a Viking standing on row r,
        column c would be threatened."""
        return [[self.is_threatened(row, col) for col in COLUMNS] for row in ROWS]

    def unthreatened_vikings(self, colour):
        """Columns of the colour's island Vikings that no ship threatens."""
        row = row_of_colour(colour)
        return [col for col in self.island_vikings(colour) if not self.is_threatened(row, col)]

    def ship_list(self):
        """(column, kind) of every ship, left to right."""
        return [(col, kind) for col, kind in enumerate(self.ships) if kind is not None]

    # --- islands (B8.4, B8.5) ----------------------------------------------------------------

    def completed_islands(self):
        """B8.4: sizes of the completed islands: in one row, a left piece, 0+ middle pieces and a
        right piece in consecutive columns."""
        sizes = []
        for row in ROWS:
            for col in self.used_columns():
                if self.tiles[row][col] != LEFT:
                    continue
                end = col + 1
                while (
                    self.tile(row, end) is not None
                    and not sea_on_left(self.tiles[row][end])
                    and not sea_on_right(self.tiles[row][end])
                ):
                    end += 1
                if self.tile(row, end) is not None and sea_on_right(self.tiles[row][end]):
                    sizes.append(end - col + 1)
        return sizes
