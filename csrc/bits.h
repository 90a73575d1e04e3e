// Bit helpers shared by the bitboards (board.h) and the wheel (wheel.h).
//
// Everything the rules count is a population count over a machine word, so its cost matters. A
// wheel built for the portable baseline ISA (the default) has no POPCNT instruction; there the
// builtin becomes a call into libgcc, and an inline SWAR count is faster. Builds with
// VIKINGER_POPCNT=ON (-mpopcnt) or VIKINGER_NATIVE=ON (-march=native) use the instruction.
#ifndef VIKINGER_BITS_H_
#define VIKINGER_BITS_H_

#include <cstdint>

namespace vikinger {

// Set bits of a word. With POPCNT (-mpopcnt, -march=native: VIKINGER_POPCNT / VIKINGER_NATIVE)
// one instruction; on the portable baseline an inline SWAR count, which beats the libgcc call
// __builtin_popcountll would make there.
inline int PopCount(uint64_t x) {
#if defined(__POPCNT__) || !defined(__x86_64__)
  return __builtin_popcountll(x);
#else
  x = x - ((x >> 1) & 0x5555555555555555ULL);
  x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
  return static_cast<int>((x * 0x0101010101010101ULL) >> 56);
#endif
}

// The index of the lowest set bit (x != 0).
inline int LowestBit(uint64_t x) { return __builtin_ctzll(x); }
// The index of the highest set bit (x != 0).
inline int HighestBit(uint64_t x) { return 63 - __builtin_clzll(x); }

}  // namespace vikinger

#endif  // VIKINGER_BITS_H_
