// One player's board (docs/rules.md B2): placement rules B6.0-B6.2, threat B7.0, islands B8.4.
#include "rules/board.h"

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

void PlayerBoard::PlaceStartTile(int row) {
  start_row = static_cast<uint8_t>(row);
  Row(row).Place(kLeft, /*col=*/1);
}

namespace {

// B6.2 for one row (board.h): the empty cells of `r` (occupied: `here`) touching a tile or the
// mainland where a tile with these edges does not clash. `above`/`below` are 0 outside rows 1..5.
template <bool kSeaLeft, bool kSeaRight>
inline uint64_t LegalCellsInRow(const IslandRow& r, uint64_t here, uint64_t above, uint64_t below) {
  constexpr uint64_t kAll = ~uint64_t{0};
  const uint64_t clash = ClashingCells(kSeaLeft, kSeaRight, r.mid, r.lo, r.hi, ColumnBit(1), kAll);
  return TouchingCells(here, above, below, ColumnBit(1), kAll) & ~(here | clash);
}

// Row by row, holding the occupied cells of the rows above, here and below in three variables:
// with an array of all rows the compiler paired rows into vector stores and loads that straddled
// each other, and the loads waited for the stores to retire.
template <bool kSeaLeft, bool kSeaRight>
uint64_t LegalCells(const PlayerBoard& board, uint64_t cells[kNumRows]) {
  uint64_t above = 0;
  uint64_t here = board.rows[0].Occupied();
  uint64_t any = 0;
  for (int r = 0; r < kNumRows; ++r) {
    const uint64_t below = r + 1 < kNumRows ? board.rows[r + 1].Occupied() : 0;
    const uint64_t legal = LegalCellsInRow<kSeaLeft, kSeaRight>(board.rows[r], here, above, below);
    cells[r] = legal;
    any |= legal;
    above = here;
    here = below;
  }
  return any;
}

}  // namespace

uint64_t PlayerBoard::LegalIslandCells(int kind, uint64_t cells[kNumRows]) const {
  if (kind == kLeft) return LegalCells<true, false>(*this, cells);
  if (kind == kRight) return LegalCells<false, true>(*this, cells);
  return LegalCells<false, false>(*this, cells);
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
  // Adding a 1 just right of every left piece carries it through the middle pieces that follow:
  // the carry stops on a right piece exactly at the end of a completed island. The bits the
  // carry changed are each left piece's island but the left piece itself; filled down from the
  // ends of the completed ones, they are the completed islands but their left pieces.
  uint64_t islands[kNumRows];
  uint64_t any = 0;
  *count = 0;
  for (int row = 0; row < kNumRows; ++row) {
    const IslandRow& r = rows[row];
    const uint64_t carried = r.mid + (r.LeftPieces() << 1);
    uint64_t filled = carried & r.RightPieces();  // the ends of the completed islands
    *count += PopCount(filled);
    uint64_t through = carried ^ r.mid;            // the carries' paths
    for (int shift = 1; shift < 64; shift *= 2) {  // a fill downwards, doubling (no branch)
      filled |= through & (filled >> shift);
      through &= through >> shift;
    }
    islands[row] = filled;
    any |= filled;
  }
  // B8.5: each step shortens every run of set bits by one, in all rows at once; the longest
  // island has one tile more than the steps its run lasts.
  *longest = 0;
  while (any != 0) {
    ++*longest;
    any = 0;
    for (uint64_t& bits : islands) {
      bits &= bits >> 1;
      any |= bits;
    }
  }
  if (*longest > 0) ++*longest;
}

}  // namespace vikinger
