// Names of the components (docs/rules.md B1) as they appear in action strings, dicts and the text
// board (docs/actions.md, docs/state.md).
#include "rules/components.h"

#include <cstring>

namespace vikinger {

// B1.1 colour order.
const char* const kColourNames[kNumColours] = {"fisherman", "goldsmith", "scout",
                                               "noble",     "warrior",   "boatsman"};
const char kColourShort[kNumColours + 1] = "FGSNWB";

// B1.2, B1.3 tile kinds in id order.
const char* const kTileKindNames[kNumTileKinds] = {
    "left",  "middle1",  "middle2",    "middle3",     "middle4",
    "right", "ship_red", "ship_green", "ship_yellow", "ship_blue"};
const char kTileShort[kNumTileKinds + 1] = "L1234Rrgyb";

// B2.1 the island rows 1..5 named by the colour that lives there.
const char* const kRowNames[kNumRows] = {"warrior", "noble", "scout", "goldsmith", "fisherman"};

// A5 special tile kinds in id order (docs/actions.md, chance ids 16..29).
const char* const kSpecialKindNames[kNumSpecialKinds] = {
    "gold5", "goldsmith1", "goldsmith2", "boat",      "noble1",    "scout1",    "fisherman1",
    "horn",  "fish",       "treasury",   "building1", "building2", "building3", "building4"};

int IndexOfName(const char* const* names, int count, const char* name, int length) {
  for (int i = 0; i < count; ++i) {
    if (static_cast<int>(std::strlen(names[i])) == length &&
        std::memcmp(names[i], name, length) == 0) {
      return i;
    }
  }
  return -1;
}

}  // namespace vikinger
