// Bit helpers shared by the bitboards (board.h) and the wheel (wheel.h).
//
// Everything the rules count is a population count over a machine word, so its cost matters. The
// default x86-64 build (VIKINGER_ARCH=x86-64-v2, CMakeLists.txt) has the POPCNT instruction; a
// build for the bare x86-64 baseline has none, and there the builtin becomes a call into libgcc,
// which an inline SWAR count beats.
#ifndef VIKINGER_BITS_H_
#define VIKINGER_BITS_H_

#include <cstdint>
#include <cstring>

namespace vikinger {

// Set bits of a word: one instruction with POPCNT, else an inline SWAR count.
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

// Byte-parallel ("SWAR") helpers: eight small counters in one word.
constexpr uint64_t kByteOnes = 0x0101010101010101ULL;
constexpr uint64_t kByteHighs = 0x8080808080808080ULL;
constexpr uint64_t kByteLow7s = 0x7F7F7F7F7F7F7F7FULL;

// Bit i set when byte i of `x` is zero.
inline unsigned ZeroBytes(uint64_t x) {
  const uint64_t zero_high = ~(((x & kByteLow7s) + kByteLow7s) | x | kByteLow7s);  // 0x80 there
  return static_cast<unsigned>(((zero_high >> 7) * 0x0102040810204080ULL) >> 56);
}

// The first n <= 16 bytes as two words (bytes 0-7 and 8-15, in memory order), zero-padded.
inline void LoadBytes16(const uint8_t* bytes, int n, uint64_t* low, uint64_t* high) {
  uint8_t padded[16] = {};
  std::memcpy(padded, bytes, static_cast<size_t>(n));
  std::memcpy(low, padded, 8);
  std::memcpy(high, padded + 8, 8);
}

// Bit i set when bytes[i] == value, for i < n <= 16: the bytes compared in two words at once.
inline unsigned MatchingBytes(const uint8_t* bytes, int n, uint8_t value) {
  uint64_t low;
  uint64_t high;
  LoadBytes16(bytes, n, &low, &high);
  const uint64_t pattern = value * kByteOnes;
  const unsigned all = ZeroBytes(low ^ pattern) | ZeroBytes(high ^ pattern) << 8;
  return all & ((1u << n) - 1);
}

}  // namespace vikinger

#endif  // VIKINGER_BITS_H_
