// One player's board (docs/rules.md B2) as bitboards: mainland, ship row and five island rows.
//
// Bit c-1 of every word stands for column c (B2.2 ⚖ 64 columns). An island row keeps its tiles
// as a 3-bit code spread over three planes, chosen so the questions the rules ask are one or two
// word operations:
//   left piece          lo = 1
//   right piece         hi = 1
//   middle piece k      mid = 1, building bits (k-1) in lo (bit 0) and hi (bit 1)
// so occupied = mid|lo|hi, left pieces = lo&~mid, right pieces = hi&~mid. A fourth plane marks
// the tiles a Viking stands on. Ships are one 16-bit column mask per sail colour (a player never
// has more than 14 ships, B1.3).
//
// Implements: B6.0 start tile, B6.1 ship columns, B6.2 legal island cells (shifts and ANDs),
// B7.0 threatened masks, B8.4/B8.5 completed islands.
#ifndef VIKINGER_BOARD_H_
#define VIKINGER_BOARD_H_

#include <cstdint>

#include "base/bits.h"
#include "rules/components.h"

namespace vikinger {

constexpr uint64_t ColumnBit(int col) { return uint64_t{1} << (col - 1); }

inline int LowestColumn(uint64_t x) { return __builtin_ctzll(x) + 1; }

// The planes each island kind sets (see above): bit 0 mid, bit 1 lo, bit 2 hi.
constexpr uint8_t kPlanesOfKind[kRight + 1] = {/*left*/ 2, /*middle 1-4*/ 1, 3, 5, 7,
                                               /*right*/ 4};

// Adds island tiles of `kind` on the bits of `cells` to three planes, through masks rather than
// branches (the kind is random in playouts). Used by IslandRow and by packed_rows.h.
inline void AddTiles(int kind, uint64_t cells, uint64_t* mid, uint64_t* lo, uint64_t* hi) {
  const unsigned planes = kPlanesOfKind[kind];
  *mid |= cells & (uint64_t{0} - (planes & 1));
  *lo |= cells & (uint64_t{0} - ((planes >> 1) & 1));
  *hi |= cells & (uint64_t{0} - (planes >> 2));
}

// B6.2 on the planes of one row, or of the five rows packed side by side in one word
// (packed_rows.h). `column1` marks column 1 of every row; `not_last` clears what a shift right
// moves from one row into the last column of the row before (all ones for a single row).
//
// B6.2(a): the cells touching the mainland (column 1) or an island tile left, right, above or
// below (`above`, `below`: the occupied cells lined up with `here`; ship tiles never count).
inline uint64_t TouchingCells(uint64_t here, uint64_t above, uint64_t below, uint64_t column1,
                              uint64_t not_last) {
  return column1 | (here << 1) | ((here >> 1) & not_last) | above | below;
}
// B6.2(c): the cells where a tile would clash with a neighbour's shared edge. A tile with sea on
// its left (`sea_left`: a left piece) clashes with land-right neighbours at c-1 (left and middle
// pieces, mid|lo); one with land there with sea-right ones (right pieces, hi&~mid, and the
// mainland's sea edge left of column 1, B2.3); the same mirrored at c+1 (`sea_right`: a right
// piece; land-left is mid|hi, left pieces lo&~mid). With constant edges the masks fold away.
inline uint64_t ClashingCells(bool sea_left, bool sea_right, uint64_t mid, uint64_t lo, uint64_t hi,
                              uint64_t column1, uint64_t not_last) {
  const uint64_t left = uint64_t{0} - sea_left;
  const uint64_t right = uint64_t{0} - sea_right;
  const uint64_t clash_left = ((left & (mid | lo)) << 1) | (~left & (((hi & ~mid) << 1) | column1));
  const uint64_t clash_right = (((right & (mid | hi)) | (~right & lo & ~mid)) >> 1) & not_last;
  return clash_left | clash_right;
}

struct IslandRow {
  uint64_t mid;
  uint64_t lo;
  uint64_t hi;
  uint64_t vikings;

  uint64_t Occupied() const { return mid | lo | hi; }
  uint64_t LeftPieces() const { return lo & ~mid; }
  uint64_t RightPieces() const { return hi & ~mid; }
  uint64_t FreeTiles() const { return Occupied() & ~vikings; }  // targets of B7.2 trips
  // The island tile kind at `col` (kLeft .. kRight), or -1 when the cell is empty.
  int KindAt(int col) const;
  void Place(int kind, int col) { AddTiles(kind, ColumnBit(col), &mid, &lo, &hi); }
};

struct PlayerBoard {
  IslandRow rows[kNumRows];   // rows[r - 1] is island row r
  uint16_t ships[kNumSails];  // bit c-1: a ship of this sail (red, green, yellow, blue) in c
  int32_t gold;
  int32_t fame;
  uint8_t mainland[kNumColours];  // Vikings waiting on the mainland, by colour
  uint8_t start_row;              // B6.0: row of the start tile, 0 before it is placed
  uint8_t num_ships;
  // A5: special tiles held (placed and waiting buildings included), and the cell each placed
  // building tile stands on (row 0: not placed).
  uint8_t specials[kNumSpecialKinds];
  uint8_t building_row[kNumBuildings];
  uint8_t building_col[kNumBuildings];

  const IslandRow& Row(int row) const { return rows[row - 1]; }
  IslandRow& Row(int row) { return rows[row - 1]; }

  // B5.5: a price is paid with gold first, then Fame.
  void Pay(int price) {
    const int from_gold = gold < price ? gold : price;
    gold -= from_gold;
    fame -= price - from_gold;
  }
  // B6.0: the start tile is a left piece in column 1 of the chosen row.
  void PlaceStartTile(int row);
  // B6.2: cells[r - 1] = the empty cells of row r where an island tile of `kind` may go.
  // Returns the union of all rows (non-zero when the tile has a legal cell).
  uint64_t LegalIslandCells(int kind, uint64_t cells[kNumRows]) const;

  uint16_t ShipColumns() const { return ships[0] | ships[1] | ships[2] | ships[3]; }
  // The ship kind in column `col`, or -1.
  int ShipAt(int col) const;
  // B6.1: the columns (mask) the next ship may go to.
  uint64_t FreeShipColumns() const;
  void PlaceShip(int kind, int col);

  // B7.0: columns whose ship reaches `row`, and those of them not repelled by a warrior.
  uint64_t ReachMask(int row) const;
  uint64_t ThreatenedMask(int row) const { return ReachMask(row) & ~Row(1).vikings; }
  // The island Vikings of `row` that no ship threatens.
  uint64_t UnthreatenedVikings(int row) const { return Row(row).vikings & ~ThreatenedMask(row); }

  // A5: the middle tiles (per row) showing building `building` (1..4).
  uint64_t MiddleTiles(int row, int building) const {
    const IslandRow& r = Row(row);
    const uint64_t lo = (building - 1) & 1 ? r.lo : ~r.lo;
    const uint64_t hi = (building - 1) & 2 ? r.hi : ~r.hi;
    return r.mid & lo & hi;
  }
  bool IsThreatened(int row, int col) const { return (ThreatenedMask(row) & ColumnBit(col)) != 0; }
  bool HasViking(int row, int col) const {
    return row >= 1 && row <= kNumRows && col >= 1 && col <= kNumColumns &&
           (Row(row).vikings & ColumnBit(col)) != 0;
  }

  // B8.6: all the player's Vikings, on islands and on the mainland.
  int VikingCount() const;
  // B8.4, B8.5: how many completed islands, and the tiles of the longest one.
  void CompletedIslands(int* count, int* longest) const;
};

}  // namespace vikinger

#endif  // VIKINGER_BOARD_H_
