// The offer (docs/rules.md B4) and the legal purchases (B5).
#include "wheel.h"

#include <algorithm>
#include <cstring>

namespace vikinger {

void Wheel::Clear() {
  std::memset(tiles, kNone, sizeof(tiles));
  std::memset(vikings, kNone, sizeof(vikings));
  occupied = 0;
}

void Wheel::Reveal(int kind) {
  constexpr uint16_t kAll = (1u << kWheelSpaces) - 1;
  const uint16_t empty = static_cast<uint16_t>(~occupied & kAll);
  const int highest = 31 - __builtin_clz(empty);
  const int lowest = __builtin_ctz(empty);
  const int space = IsShip(kind) ? highest : lowest;  // both computed: no branch on the kind
  tiles[space] = static_cast<uint8_t>(kind);
  occupied |= static_cast<uint16_t>(1u << space);
}

void Wheel::LayOutVikings(const uint8_t drawn[kNumColours]) {
  int space = 0;
  for (int colour = 0; colour < kNumColours; ++colour) {
    for (int k = 0; k < drawn[colour]; ++k) vikings[space++] = static_cast<uint8_t>(colour);
  }
}

unsigned Wheel::SameColourAsZero() const {
  return MatchingBytes(vikings, kWheelSpaces, vikings[LowestSpace()]);
}

uint16_t Wheel::LegalBuysGiven(uint16_t occupied, unsigned same_colour, int64_t gold,
                               int64_t fame) {
  const int zero = __builtin_ctz(occupied);
  const uint16_t others = occupied & static_cast<uint16_t>(occupied - 1);
  // B5.5: space s costs s - zero, payable from gold + Fame: the spaces up to `limit` (>= 0:
  // Fame is negative only after the final scoring, consistency.cc), at most the last space.
  const int64_t limit = std::min<int64_t>(zero + gold + fame, kWheelSpaces - 1);
  const uint16_t affordable = static_cast<uint16_t>((2u << limit) - 1);
  uint16_t legal = others & affordable;
  // B5.2 the 0-space rule: no other group with a Viking of the same colour.
  const bool colour_elsewhere = (same_colour & others) != 0;
  // B5.3 the poverty override, judged on gold alone: the cheapest other group is too dear (or
  // there is none; bit 15 only keeps the count of trailing zeros defined).
  const bool too_poor_for_others =
      others == 0 || gold < __builtin_ctz(others | 0x8000u) - zero;
  if (!colour_elsewhere || too_poor_for_others) legal |= static_cast<uint16_t>(1u << zero);
  return legal;
}

void Wheel::Take(int space, int* tile, int* viking) {
  *tile = tiles[space];
  *viking = vikings[space];
  tiles[space] = kNone;
  vikings[space] = kNone;
  occupied &= static_cast<uint16_t>(~(1u << space));
}

}  // namespace vikinger
