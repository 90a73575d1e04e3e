// A5: the display, taking a special tile, and the building tiles (docs/advanced.md).
#include "rules/specials.h"

namespace vikinger {

bool DisplayNeedsFill(const Specials& specials) {
  bool empty_place = false;
  for (int i = 0; i < kDisplaySlots; ++i) empty_place = empty_place || specials.display[i] == kNone;
  if (!empty_place) return false;
  for (int k = 0; k < kNumSpecialKinds; ++k) {
    if (specials.stack[k]) return true;
  }
  return false;
}

void RevealSpecial(Specials& specials, int kind) {
  --specials.stack[kind];
  for (int i = 0; i < kDisplaySlots; ++i) {
    if (specials.display[i] == kNone) {
      specials.display[i] = static_cast<uint8_t>(kind);
      return;
    }
  }
}

uint8_t OccupiedSlots(const Specials& specials) {
  uint8_t slots = 0;
  for (int i = 0; i < kDisplaySlots; ++i) {
    if (specials.display[i] != kNone) slots |= static_cast<uint8_t>(1u << i);
  }
  return slots;
}

int TakeSpecial(Specials& specials, int slot, PlayerBoard& board) {
  const int kind = specials.display[slot];
  specials.display[slot] = kNone;
  if (kind == kGold5) {  // +5 gold at once; the tile leaves the game
    board.gold += kGold5Gold;
    ++specials.removed[kGold5];
    return 0;
  }
  ++board.specials[kind];
  if (kind >= kBuilding1) {
    uint64_t cells[kNumRows];
    const int building = kind - kBuilding1 + 1;
    if (BuildingCandidates(board, building, cells)) return building;
  }
  return 0;
}

uint64_t BuildingCandidates(const PlayerBoard& board, int building, uint64_t cells[kNumRows]) {
  uint64_t any = 0;
  for (int row = 1; row <= kNumRows; ++row) {
    cells[row - 1] = board.MiddleTiles(row, building);
    any |= cells[row - 1];
  }
  return any;
}

int BuildingToPlace(const PlayerBoard& board) {
  uint64_t cells[kNumRows];
  for (int building = 1; building <= kNumBuildings; ++building) {
    if (WaitingBuilding(board, building) && BuildingCandidates(board, building, cells)) {
      return building;
    }
  }
  return 0;
}

bool BuildingForPlacedTile(PlayerBoard& board, int kind, int row, int col) {
  if (!IsMiddle(kind)) return false;
  const int building = kind - kMiddle1 + 1;
  if (!WaitingBuilding(board, building)) return false;
  PlaceBuilding(board, building, row, col);
  return true;
}

}  // namespace vikinger
