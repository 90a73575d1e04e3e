// Component data of Wikinger (docs/rules.md B1): Viking colours, island rows, tile kinds, the
// counts in the box, the ship table, start gold and Fame.
//
// Everything countable lives here as plain data, so a different printing can be loaded by
// changing this file only (B1.3 ⚖). Colours and tile kinds are small integer indices (they index
// count arrays and are stored in bytes); their numbering is the one of docs/actions.md.
#ifndef VIKINGER_COMPONENTS_H_
#define VIKINGER_COMPONENTS_H_

#include <cstdint>

namespace vikinger {

// B1.1 Viking colours, in the order used everywhere an order is needed.
constexpr int kFisherman = 0;
constexpr int kGoldsmith = 1;
constexpr int kScout = 2;
constexpr int kNoble = 3;
constexpr int kWarrior = 4;
constexpr int kBoatsman = 5;
constexpr int kNumColours = 6;
constexpr int kVikingsPerColour = 13;
constexpr int kNumVikings = kNumColours * kVikingsPerColour;  // 78

// B2.1 island rows 1..5: 1 warrior, 2 noble, 3 scout, 4 goldsmith, 5 fisherman.
constexpr int kNumRows = 5;
constexpr int kWarriorRow = 1;
constexpr int kNobleRow = 2;
constexpr int kScoutRow = 3;
constexpr int kGoldsmithRow = 4;
constexpr int kFishermanRow = 5;
// B2.2 ⚖ a row is capped at 64 columns (one machine word); no legal game reaches the cap.
constexpr int kNumColumns = 64;

// The island row (1..5) of a Viking colour (not the boatsman, who has none).
constexpr int RowOfColour(int colour) { return 5 - colour; }
// The Viking colour whose row is `row` (1..5).
constexpr int ColourOfRow(int row) { return 5 - row; }

// B1.2, B1.3 tile kinds.
constexpr int kLeft = 0;
constexpr int kMiddle1 = 1;
constexpr int kMiddle4 = 4;
constexpr int kRight = 5;
constexpr int kShipRed = 6;
constexpr int kShipGreen = 7;
constexpr int kShipYellow = 8;
constexpr int kShipBlue = 9;
constexpr int kNumTileKinds = 10;
constexpr int kNumSails = 4;

constexpr bool IsShip(int kind) { return kind >= kShipRed; }
constexpr bool IsMiddle(int kind) { return kind >= kMiddle1 && kind <= kMiddle4; }

// A byte meaning "nothing here" (an empty wheel space, no pending tile).
constexpr uint8_t kNone = 255;

// B1.4 the 72 tiles of the six stacks; the 4 start tiles are extra left pieces (B1.2).
constexpr int kStackCounts[kNumTileKinds] = {17, 5, 5, 5, 5, 21, 3, 4, 4, 3};
constexpr int kStackTiles = 72;

// B1.3 a sail colour: the deepest row it threatens and what it is worth.
struct ShipInfo {
  int reach;  // threatens rows 1..reach of its column
  int value;
  bool pays_fame;  // true: value is Fame; false: value is gold
};

// B1.3 ⚖ the default ship table, indexed by kind - kShipRed (red, green, yellow, blue).
constexpr ShipInfo kShipTable[kNumSails] = {
    {/*reach=*/2, /*value=*/3, /*pays_fame=*/false},
    {/*reach=*/3, /*value=*/5, /*pays_fame=*/false},
    {/*reach=*/4, /*value=*/2, /*pays_fame=*/true},
    {/*reach=*/5, /*value=*/3, /*pays_fame=*/true},
};

// A5 special tiles: 25 in 14 kinds, shown on 4 display places. The base game keeps them all in
// the special stack (docs/advanced.md: the state always carries them).
constexpr int kNumSpecialKinds = 14;
constexpr int kSpecialCounts[kNumSpecialKinds] = {1, 2, 1, 6, 3, 1, 1, 4, 1, 1, 1, 1, 1, 1};
constexpr int kDisplaySlots = 4;
constexpr int kNumBuildings = 4;
// A5 special tile kinds (docs/actions.md order).
constexpr int kGold5 = 0;
constexpr int kGoldsmith1 = 1;
constexpr int kGoldsmith2 = 2;
constexpr int kBoat = 3;
constexpr int kNoble1 = 4;
constexpr int kScout1 = 5;
constexpr int kFisherman1 = 6;
constexpr int kHorn = 7;
constexpr int kFish = 8;
constexpr int kTreasury = 9;
constexpr int kBuilding1 = 10;  // .. building4 = 13

// B1.5 start gold for 2, 3, 4 players; everyone starts with 10 Fame.
constexpr int StartGold(int num_players) {
  return num_players == 2 ? 30 : num_players == 3 ? 25 : 20;
}
constexpr int kStartFame = 10;

// B3.2 six rounds, twelve groups a round on twelve wheel spaces.
constexpr int kNumRounds = 6;
constexpr int kGroupsPerRound = 12;
constexpr int kWheelSpaces = 12;
constexpr int kMinPlayers = 2;
constexpr int kMaxPlayers = 4;

// Names and one-letter shorts used by strings, dicts and the text board (docs/actions.md).
extern const char* const kColourNames[kNumColours];
extern const char kColourShort[kNumColours + 1];  // "FGSNWB"
extern const char* const kTileKindNames[kNumTileKinds];
extern const char kTileShort[kNumTileKinds + 1];               // "L1234Rrgyb"
extern const char* const kRowNames[kNumRows];                  // rows 1..5: warrior .. fisherman
extern const char* const kSpecialKindNames[kNumSpecialKinds];  // A5: gold5 .. building4

// The index of `name` in `names[0..count)`, or -1.
int IndexOfName(const char* const* names, int count, const char* name, int length);

}  // namespace vikinger

#endif  // VIKINGER_COMPONENTS_H_
