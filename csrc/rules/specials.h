// A5: the special tiles — the display, taking a tile, and the building tiles
// (docs/advanced.md). Their scoring effects live in scoring.cc beside the rules they change.
#ifndef VIKINGER_SPECIALS_H_
#define VIKINGER_SPECIALS_H_

#include <cstdint>

#include "rules/state.h"

namespace vikinger {

constexpr int kGold5Gold = 5;

// A5: only empty display places are filled, while the stack lasts.
bool DisplayNeedsFill(const Specials& specials);
// A5: reveals `kind` onto the lowest empty display place.
void RevealSpecial(Specials& specials, int kind);
// Display places holding a tile (bit i: place i).
uint8_t OccupiedSlots(const Specials& specials);
// A5: the player takes the tile in `slot`. Returns the building picture (1..4) when it is a
// building tile that can replace one of the player's middle tiles now, else 0.
int TakeSpecial(Specials& specials, int slot, PlayerBoard& board);
// A5: cells[r - 1] = the player's middle tiles of row r showing `building` (1..4); returns
// their union.
uint64_t BuildingCandidates(const PlayerBoard& board, int building, uint64_t cells[kNumRows]);
// A5: the player holds building tile `building` that has not replaced a tile yet.
inline bool WaitingBuilding(const PlayerBoard& board, int building) {
  return board.specials[kBuilding1 + building - 1] > 0 && board.building_row[building - 1] == 0;
}
// A5: the building just taken in phase building_replace (waiting, with candidates), or 0.
int BuildingToPlace(const PlayerBoard& board);
// A5: the building tile replaces the middle tile at (row, col); a Viking on it stays.
inline void PlaceBuilding(PlayerBoard& board, int building, int row, int col) {
  board.building_row[building - 1] = static_cast<uint8_t>(row);
  board.building_col[building - 1] = static_cast<uint8_t>(col);
}
// A5: a waiting building replaces the next middle tile with its picture that the player places.
// Returns true when it did (the replaced middle tile leaves the game).
bool BuildingForPlacedTile(PlayerBoard& board, int kind, int row, int col);

}  // namespace vikinger

#endif  // VIKINGER_SPECIALS_H_
