// One player's board (RULES.md B2): placement rules B6.0-B6.2, threat B7.0, islands B8.4.
#include "board.h"

namespace vikinger {

int IslandRow::KindAt(int col) const {
  const uint64_t bit = ColumnBit(col);
  const int lo_bit = (lo & bit) ? 1 : 0;
  const int hi_bit = (hi & bit) ? 1 : 0;
  if (mid & bit) return kMiddle1 + lo_bit + 2 * hi_bit;
  if (lo_bit) return kLeft;
  if (hi_bit) return kRight;
  return -1;
}

void IslandRow::Place(int kind, int col) {
  const uint64_t bit = ColumnBit(col);
  if (kind == kLeft) {
    lo |= bit;
  } else if (kind == kRight) {
    hi |= bit;
  } else {
    const int building = kind - kMiddle1;
    mid |= bit;
    if (building & 1) lo |= bit;
    if (building & 2) hi |= bit;
  }
}

void PlayerBoard::PlaceStartTile(int row) {
  start_row = static_cast<uint8_t>(row);
  Row(row).Place(kLeft, /*col=*/1);
}

namespace {

// B6.2 for one row: the empty cells of `r` where a tile of `kind` may go, given the occupied
// cells of the rows above and below (0 outside rows 1..5).
inline uint64_t LegalCellsInRow(const IslandRow& r, int kind, uint64_t above, uint64_t below) {
  const uint64_t here = r.Occupied();
  // B6.2(a) touches the mainland (column 1) or an island tile left, right, above or below;
  // ship tiles (row 0) never count.
  const uint64_t touching = (here << 1) | (here >> 1) | ColumnBit(1) | above | below;
  // B6.2(c) shared left/right edges match; the mainland edge left of column 1 is sea (B2.3).
  // A tile with sea on its left (a left piece) clashes with land-right neighbours at c-1 (left
  // and middle pieces); one with land there clashes with sea (right pieces, the mainland). A
  // tile with sea on its right (a right piece) clashes with land-left neighbours at c+1 (middle
  // and right pieces); one with land there clashes with sea-left ones (left pieces). Selected by
  // masks rather than branches: the kind is random in playouts.
  const uint64_t left_pieces = r.LeftPieces();
  const uint64_t right_pieces = r.RightPieces();
  const uint64_t sea_left = kind == kLeft ? ~uint64_t{0} : 0;
  const uint64_t sea_right = kind == kRight ? ~uint64_t{0} : 0;
  const uint64_t clash_left = (sea_left & ((here & ~right_pieces) << 1)) |
                              (~sea_left & ((right_pieces << 1) | ColumnBit(1)));
  const uint64_t clash_right = (sea_right & ((here & ~left_pieces) >> 1)) |
                               (~sea_right & (left_pieces >> 1));
  const uint64_t clash = clash_left | clash_right;
  return ~here & touching & ~clash;
}

}  // namespace

uint64_t PlayerBoard::LegalIslandCells(int kind, uint64_t cells[kNumRows]) const {
  uint64_t occupied[kNumRows + 2];  // index r; rows 0 (ships) and 6 hold no island tiles
  occupied[0] = occupied[kNumRows + 1] = 0;
  for (int row = 1; row <= kNumRows; ++row) occupied[row] = Row(row).Occupied();
  uint64_t any = 0;
  for (int row = 1; row <= kNumRows; ++row) {
    cells[row - 1] = LegalCellsInRow(Row(row), kind, occupied[row - 1], occupied[row + 1]);
    any |= cells[row - 1];
  }
  return any;
}

bool PlayerBoard::HasLegalIslandCell(int kind) const {
  for (int row = 1; row <= kNumRows; ++row) {  // stops at the first row with a legal cell
    const uint64_t above = row > 1 ? Row(row - 1).Occupied() : 0;
    const uint64_t below = row < kNumRows ? Row(row + 1).Occupied() : 0;
    if (LegalCellsInRow(Row(row), kind, above, below) != 0) return true;
  }
  return false;
}

int PlayerBoard::ShipAt(int col) const {
  const uint16_t bit = static_cast<uint16_t>(ColumnBit(col));
  for (int s = 0; s < kNumSails; ++s) {
    if (ships[s] & bit) return kShipRed + s;
  }
  return -1;
}

uint64_t PlayerBoard::FreeShipColumns() const {
  // B6.1: the first three ships in columns 1..3 in any order, later ones at the next column.
  if (num_ships < 3) return 0b111 & ~uint64_t{ShipColumns()};
  return ColumnBit(num_ships + 1);
}

void PlayerBoard::PlaceShip(int kind, int col) {
  ships[kind - kShipRed] |= static_cast<uint16_t>(ColumnBit(col));
  ++num_ships;
}

uint64_t PlayerBoard::ReachMask(int row) const {
  uint64_t mask = 0;
  for (int s = 0; s < kNumSails; ++s) {
    if (kShipTable[s].reach >= row) mask |= ships[s];
  }
  return mask;
}

int PlayerBoard::VikingCount() const {
  int count = 0;
  for (const IslandRow& r : rows) count += PopCount(r.vikings);
  for (int c = 0; c < kNumColours; ++c) count += mainland[c];
  return count;
}

void PlayerBoard::CompletedIslands(int* count, int* longest) const {
  // B8.4: a left piece, 0+ middle pieces and a right piece in consecutive columns of one row.
  *count = 0;
  *longest = 0;
  for (const IslandRow& r : rows) {
    const uint64_t right_pieces = r.RightPieces();
    for (uint64_t lefts = r.LeftPieces(); lefts; lefts &= lefts - 1) {
      const int start = __builtin_ctzll(lefts);  // bit index of the left piece
      const int next = start + 1;
      if (next >= kNumColumns) continue;
      const int middles = __builtin_ctzll(~(r.mid >> next));
      const int end = next + middles;
      if (end < kNumColumns && (right_pieces >> end) & 1) {
        ++*count;
        if (middles + 2 > *longest) *longest = middles + 2;
      }
    }
  }
}

}  // namespace vikinger
