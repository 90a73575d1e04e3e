// B6.2 on a narrow board: the five island rows of a player packed into one word.
//
// The fused playout (playout.cc) asks for a player's legal island cells at almost every purchase.
// `PlayerBoard::LegalIslandCells` answers for boards of any width (B2.2 ⚖ 64 columns), one word
// per row. While every row's tiles stand in columns 1..11, the legal cells lie in columns 1..12,
// and all five rows fit one word of 12-bit fields: bit (row - 1) * 12 + (col - 1). Then B6.2 is a
// handful of word operations for all rows at once, its legal cells are counted by one popcount,
// and bits ascend in id order (row by row, columns ascending), so the k-th legal cell is the k-th
// set bit. The playout keeps this copy beside the board and falls back to the board's own answer
// once a tile lands beyond column 11. Without it the fused playout is 12% slower
// (docs/performance-notes.md).
#ifndef VIKINGER_PACKED_ROWS_H_
#define VIKINGER_PACKED_ROWS_H_

#include <cstdint>

#include "rules/board.h"
#include "rules/components.h"

namespace vikinger {

class PackedRows {
 public:
  static constexpr int kStride = 12;                  // columns per row field
  static constexpr int kMaxTileColumn = kStride - 1;  // tiles up to here keep cells in the field

  // The packed copy of `board`'s island tiles; false when some tile stands beyond column
  // kMaxTileColumn (a legal cell could then be in column 13).
  bool Pack(const PlayerBoard& board) {
    mid_ = lo_ = hi_ = 0;
    for (int row = 1; row <= kNumRows; ++row) {
      const IslandRow& r = board.Row(row);
      if (r.Occupied() >> kMaxTileColumn) return false;
      const int shift = (row - 1) * kStride;
      mid_ |= r.mid << shift;
      lo_ |= r.lo << shift;
      hi_ |= r.hi << shift;
    }
    return true;
  }

  // B6.2 the legal cells of an island tile of `kind`, as bits of this packing (board.h, for all
  // rows at once): a shift by kStride lines a row up with the row below or above; a shift right
  // moves column 1 of a row into column 12 of the row before, which is masked; a shift left never
  // crosses, as no tile stands in column 12. The edges are masks here, not template arguments as
  // in board.cc: the kind is random in playouts.
  uint64_t LegalCells(int kind) const {
    const uint64_t here = mid_ | lo_ | hi_;
    const uint64_t touching =
        TouchingCells(here, here << kStride, here >> kStride, kColumn1, ~kColumn12);
    const uint64_t clash =
        ClashingCells(kind == kLeft, kind == kRight, mid_, lo_, hi_, kColumn1, ~kColumn12);
    return touching & ~(here | clash) & kAllCells;
  }

  // Places a tile of `kind` on the cell of `bit`; returns false when the packing stops being
  // valid (the tile is in column 12, beyond kMaxTileColumn).
  bool Place(int kind, int bit) {
    AddTiles(kind, uint64_t{1} << bit, &mid_, &lo_, &hi_);
    return Column(bit) <= kMaxTileColumn;
  }

  // The row (1..5) and column (1..12) of a bit.
  static constexpr int Row(int bit) { return (bit * 43 >> 9) + 1; }  // bit / 12 for bits < 60
  static constexpr int Column(int bit) { return bit - (Row(bit) - 1) * kStride + 1; }

 private:
  static constexpr uint64_t kColumn1 = 0x001001001001001ULL;  // column 1 of every row
  static constexpr uint64_t kColumn12 = kColumn1 << (kStride - 1);
  static constexpr uint64_t kAllCells = (uint64_t{1} << (kNumRows * kStride)) - 1;

  uint64_t mid_ = 0;
  uint64_t lo_ = 0;
  uint64_t hi_ = 0;
};

constexpr bool PackedRowOfEveryBitIsRight() {
  for (int bit = 0; bit < kNumRows * PackedRows::kStride; ++bit) {
    if (PackedRows::Row(bit) != bit / PackedRows::kStride + 1) return false;
  }
  return true;
}
static_assert(PackedRowOfEveryBitIsRight(), "Row(bit) = bit / 12 + 1");

}  // namespace vikinger

#endif  // VIKINGER_PACKED_ROWS_H_
