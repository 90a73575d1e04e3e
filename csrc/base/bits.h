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

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__SSE4_1__)
#include <smmintrin.h>
#endif

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

// The index of the k-th set bit (0-based, lowest first) of `mask`, for k < PopCount(mask).
inline int NthBit(uint64_t mask, int k) {
  for (; k > 0; --k) mask &= mask - 1;
  return LowestBit(mask);
}

// NthBit by one instruction: PDEP (BMI2) deposits the single bit 1 << k onto the k-th set bit
// of `mask`. Only call it where the CPU has BMI2 (playout.cc asks once). On AMD CPUs before Zen 3
// the instruction is microcoded and far slower than NthBit. The fused playout is 9-11% faster
// with it than with its tables (docs/performance-notes.md).
//
// Inline assembly, not the _pdep_u64 intrinsic: the intrinsic needs BMI2 enabled for the
// function that uses it (-mbmi2 or __attribute__((target("bmi2")))), and GCC inlines no function
// into one compiled for fewer instructions, so the playout would have to be a separate BMI2
// function with every helper it inlines compiled a second time, or a file compiled with -mbmi2,
// whose inline functions the linker may then pick for the whole module and run on CPUs without
// BMI2. One instruction in assembly sits inside code compiled for x86-64-v2.
// Not on Windows: the CPU query of playout.cc (__builtin_cpu_supports) needs a runtime library
// that clang-cl does not link.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(_WIN32)
#define VIKINGER_HAVE_PDEP 1
inline int NthBitPdep(uint64_t mask, int k) {
  uint64_t bit;
  asm("pdepq %2, %1, %0" : "=r"(bit) : "r"(uint64_t{1} << k), "r"(mask));
  return LowestBit(bit);
}
#else
#define VIKINGER_HAVE_PDEP 0
#endif

// kSelectInByte.bit[b][k]: the k-th set bit (0-based, lowest first) of byte b; 0 past the last.
struct SelectInByteTable {
  uint8_t bit[256][8];
};
inline constexpr SelectInByteTable kSelectInByte = [] {
  SelectInByteTable table{};
  for (int b = 0; b < 256; ++b) {
    for (int i = 0, k = 0; i < 8; ++i) {
      if ((b >> i) & 1) table.bit[b][k++] = static_cast<uint8_t>(i);
    }
  }
  return table;
}();

// Writes base + i for every set bit i of `mask`, ascending, to `out`; returns how many. With
// SSE4.1 a byte of the mask at a time: its bits from kSelectInByte, widened and stored as eight
// ints, of which the first PopCount(byte) count, so `out` needs room for 8 entries more than it
// gets. The two low bytes are written always (every mask of the rules fits in them until a board
// grows past 16 columns), so no branch depends on the mask: a loop per set bit stopped after a
// random number of steps, and its exit was mispredicted about once per mask (state-machine
// rollouts 20% slower with that loop, docs/performance-notes.md).
inline int WriteBitIds(uint64_t mask, int base, int* out) {
  int n = 0;
#if defined(__SSE4_1__)
  auto write_byte = [&](unsigned byte, int first) {
    const __m128i bits = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(kSelectInByte.bit[byte]));
    const __m128i add = _mm_set1_epi32(first);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + n),
                     _mm_add_epi32(_mm_cvtepu8_epi32(bits), add));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + n + 4),
                     _mm_add_epi32(_mm_cvtepu8_epi32(_mm_srli_si128(bits, 4)), add));
    n += PopCount(byte);
  };
  write_byte(mask & 0xFF, base);
  write_byte((mask >> 8) & 0xFF, base + 8);
  for (mask >>= 16, base += 16; mask != 0; mask >>= 8, base += 8) write_byte(mask & 0xFF, base);
#else
  for (; mask != 0; mask &= mask - 1) out[n++] = base + LowestBit(mask);
#endif
  return n;
}

// Byte-parallel ("SWAR") helpers: eight small counters in one word.
constexpr uint64_t kByteOnes = 0x0101010101010101ULL;
constexpr uint64_t kByteHighs = 0x8080808080808080ULL;
constexpr uint64_t kByteLow7s = 0x7F7F7F7F7F7F7F7FULL;

// Bit i set when byte i of `x` is zero.
inline unsigned ZeroBytes(uint64_t x) {
  // (byte & 0x7F) + 0x7F sets a byte's high bit when its low seven bits are not all zero (no carry
  // leaves the byte); or-ing the byte itself adds its own high bit, and or-ing 0x7F fills the rest:
  // after the negation only the high bit of each zero byte is left.
  const uint64_t zero_high = ~(((x & kByteLow7s) + kByteLow7s) | x | kByteLow7s);
  // A gather of bit 0 of each byte into the top byte: the multiplier's byte j holds 1 << (7 - j),
  // so bit 0 of byte i times byte j lands on bit 8 (i + j) + 7 - j: on 56 + i for j = 7 - i, and
  // no two of these partial products share a bit, so nothing carries.
  return static_cast<unsigned>(((zero_high >> 7) * 0x0102040810204080ULL) >> 56);
}

// `n` <= 8 bytes as the low bytes of a word (memory order), the rest zero. Loads of 8, 4, 2 and 1
// bytes straight from `bytes` (n is a constant after inlining): going through a zero-padded copy
// made the CPU wait for its stores to be forwarded to the word load.
inline uint64_t LoadBytes8(const uint8_t* bytes, int n) {
  uint64_t word = 0;
  int done = 0;
  if (n - done >= 8) {
    std::memcpy(&word, bytes, 8);
    return word;
  }
  if (n - done >= 4) {
    uint32_t part;
    std::memcpy(&part, bytes + done, 4);
    word |= uint64_t{part} << (8 * done);
    done += 4;
  }
  if (n - done >= 2) {
    uint16_t part;
    std::memcpy(&part, bytes + done, 2);
    word |= uint64_t{part} << (8 * done);
    done += 2;
  }
  if (n - done >= 1) word |= uint64_t{bytes[done]} << (8 * done);
  return word;
}

// The first n <= 16 bytes as two words (bytes 0-7 and 8-15, in memory order), zero-padded.
inline void LoadBytes16(const uint8_t* bytes, int n, uint64_t* low, uint64_t* high) {
  *low = LoadBytes8(bytes, n < 8 ? n : 8);
  *high = n > 8 ? LoadBytes8(bytes + 8, n - 8) : 0;
}

// Bit i set when bytes[i] == value, for i < n <= 16: one SSE2 byte compare on x86-64, else the
// bytes compared in two words at once.
inline unsigned MatchingBytes(const uint8_t* bytes, int n, uint8_t value) {
  uint64_t low;
  uint64_t high;
  LoadBytes16(bytes, n, &low, &high);
#if defined(__SSE2__)
  const __m128i all = _mm_set_epi64x(static_cast<int64_t>(high), static_cast<int64_t>(low));
  const __m128i equal = _mm_cmpeq_epi8(all, _mm_set1_epi8(static_cast<char>(value)));
  const unsigned matches = static_cast<unsigned>(_mm_movemask_epi8(equal));
#else
  const uint64_t pattern = value * kByteOnes;
  const unsigned matches = ZeroBytes(low ^ pattern) | ZeroBytes(high ^ pattern) << 8;
#endif
  return matches & ((1u << n) - 1);
}

}  // namespace vikinger

#endif  // VIKINGER_BITS_H_
