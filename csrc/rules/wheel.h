// The offer (docs/rules.md B4) and what may be bought from it (B5).
//
// The wheel has 12 spaces, named by their original number 0..11. A group is a space's tile plus
// its Viking. The wheel's rotation is expressed by prices: the price of the group on space s is
// s minus the lowest space still holding a group (B4.3), so buying never moves anything.
#ifndef VIKINGER_WHEEL_H_
#define VIKINGER_WHEEL_H_

#include <cstdint>

#include "base/bits.h"
#include "rules/components.h"

namespace vikinger {

struct Wheel {
  uint8_t tiles[kWheelSpaces];    // tile kind per space, or kNone
  uint8_t vikings[kWheelSpaces];  // Viking colour per space, or kNone while drawing
  uint16_t occupied;              // bit s set when space s holds a group (kept in step with tiles)

  // Empties every space.
  void Clear();
  uint16_t OccupiedMask() const { return occupied; }
  int TileCount() const { return PopCount(occupied); }
  int LowestSpace() const { return __builtin_ctz(occupied); }
  int Price(int space) const { return space - LowestSpace(); }

  // B4.1: island tiles fill spaces from 0 upward, ships from 11 downward.
  void Reveal(int kind);
  // B4.2: the drawn Vikings, sorted by colour, one on each space from 0 upward.
  void LayOutVikings(const uint8_t drawn[kNumColours]);
  // B5.2, B5.3, B5.5: the spaces (mask) a player with this gold and Fame may buy.
  uint16_t LegalBuys(int64_t gold, int64_t fame) const {
    return LegalBuysGiven(occupied, SameColourAsZero(), gold, fame);
  }
  // The spaces whose Viking has the colour of the Viking on the lowest occupied space.
  unsigned SameColourAsZero() const;
  // LegalBuys for a wheel with groups on `occupied` (non-empty) whose Vikings on `same_colour`
  // have the colour of the lowest one's: for a caller that keeps the spaces of each colour.
  static uint16_t LegalBuysGiven(uint16_t occupied, unsigned same_colour, int64_t gold,
                                 int64_t fame);
  // B5.4: buying removes the group; the wheel turns by itself, as prices are relative.
  void Take(int space, int* tile, int* viking);
};

}  // namespace vikinger

#endif  // VIKINGER_WHEEL_H_
