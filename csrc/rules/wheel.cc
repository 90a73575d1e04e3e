// The offer (docs/rules.md B4) and the legal purchases (B5).
#include "rules/wheel.h"

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

namespace {

// A word of byte counters with 1 in bytes k..7 (every byte for k <= 0, none for k >= 8).
inline uint64_t OnesFrom(int k) {
  const int shift = k <= 0 ? 0 : k >= 8 ? 32 : 4 * k;
  // Shifted twice by 4k bits, k bytes in all: for k >= 8 a single shift by 64 would be undefined.
  return (kByteOnes << shift) << shift;
}

}  // namespace

void Wheel::LayOutVikings(const uint8_t drawn[kNumColours]) {
  // Space s < (Vikings drawn) gets the colour c with (Vikings of colours < c) <= s < (Vikings of
  // colours <= c), which is the number of colours whose running count is <= s: counted for all
  // spaces at once, one byte per space, 8 spaces per word. Spaces past the drawn ones keep theirs.
  // 2-3% of a playout against a loop storing one byte per space (docs/performance-notes.md).
  uint64_t low = 0;
  uint64_t high = 0;
  int running = 0;
  for (int colour = 0; colour < kNumColours; ++colour) {
    running += drawn[colour];
    low += OnesFrom(running);
    high += OnesFrom(running - 8);
  }
  // Bytes of the spaces past the drawn ones: each byte of OnesFrom is 0 or 1, so times 0xFF it is
  // 0x00 or 0xFF, with no carry into the next byte.
  const uint64_t keep_low = OnesFrom(running) * 0xFF;
  const uint64_t keep_high = OnesFrom(running - 8) * 0xFF;
  uint64_t old_low;
  uint32_t old_high;
  std::memcpy(&old_low, vikings, 8);
  std::memcpy(&old_high, vikings + 8, 4);
  low = (low & ~keep_low) | (old_low & keep_low);
  const uint32_t new_high =
      static_cast<uint32_t>((high & ~keep_high) | (uint64_t{old_high} & keep_high));
  std::memcpy(vikings, &low, 8);
  std::memcpy(vikings + 8, &new_high, 4);
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
  const bool too_poor_for_others = others == 0 || gold < __builtin_ctz(others | 0x8000u) - zero;
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
