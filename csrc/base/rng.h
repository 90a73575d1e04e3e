// Random numbers shared bit for bit with the Python reference (docs/api.md, docs/state.md).
//
// `Mix` is the splitmix64 finaliser: it turns an int seed into one uniform double for
// apply_random_chance and it hashes positions. `SplitMix64` is the matching sequential generator
// (VectorGame's streams), `UniformStream` the same stream as rollouts read it. The one sampling
// rule of docs/api.md, x = floor(u * total) and then the first kind (in id order) whose running
// count exceeds x, is `FloorUniformTimes` and `KindAt`.
#ifndef VIKINGER_RNG_H_
#define VIKINGER_RNG_H_

#include <cstdint>
#include <cstring>

#include "base/bits.h"

namespace vikinger {

constexpr uint64_t kGolden = 0x9E3779B97F4A7C15ULL;

// splitmix64: a well-mixed 64-bit value from any 64-bit value.
constexpr uint64_t Mix(uint64_t x) {
  x += kGolden;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

// The top 53 bits of a 64-bit value as a double in [0, 1).
constexpr double UnitDouble(uint64_t bits) {
  return static_cast<double>(bits >> 11) * (1.0 / 9007199254740992.0);
}

// The uniform double an int seed stands for in apply_random_chance.
inline double UniformFromSeed(uint64_t seed) { return UnitDouble(Mix(seed)); }

// A sequential splitmix64 stream (state advances by the golden gamma).
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  // Where the stream is: SplitMix64(state()) goes on with the same numbers (pickling).
  uint64_t state() const { return state_; }
  uint64_t Next() {
    const uint64_t value = Mix(state_);
    state_ += kGolden;
    return value;
  }
  double Uniform() { return UnitDouble(Next()); }

 private:
  uint64_t state_;
};

// floor(u * n) for the uniform u = m * 2**-53 of a 53-bit m, exactly as the double product
// computes it (docs/api.md), in integers: m * n is exact in 64 bits for n < 2048, and the double
// product is m * n rounded to 53 significant bits (the power of two scales exactly). Rounding can
// only carry m * n up to the next multiple of 2**53, and only from within half a unit of the last
// place below it (at most 2**10 for a product below 2**64); that case, about once in 2**42 draws,
// takes the double computation itself. The integer product is 3 cycles on a playout's chain of
// dependent steps; the double conversions and product are about 10 (rollouts 5-6% slower with
// them, docs/performance-notes.md).
constexpr int FloorUniformTimes(uint64_t m, int n) {
  const uint64_t product = m * static_cast<uint64_t>(n);
  const uint64_t floor = product >> 53;
  if (__builtin_expect(((product + 1024) >> 53) != floor, 0)) {
    return static_cast<int>(UnitDouble(m << 11) * n);
  }
  return static_cast<int>(floor);
}

// The double computation, and cases near multiples of 2**53 where the integer floor alone would
// be wrong: m = (2**54 - 1) / 3 makes m * 3 = 2**54 - 1, which rounds (to even) up to 2**54, so
// floor(u * 3) is 2, not 1.
constexpr bool FloorUniformTimesIsTheDoubleFloor(uint64_t m, int n) {
  return FloorUniformTimes(m, n) == static_cast<int>(UnitDouble(m << 11) * n);
}
static_assert(FloorUniformTimes(6004799503160661ULL, 3) == 2, "rounded up to 2**54");
static_assert(FloorUniformTimesIsTheDoubleFloor(6004799503160661ULL, 3) &&
                  FloorUniformTimesIsTheDoubleFloor(6004799503160660ULL, 3) &&
                  FloorUniformTimesIsTheDoubleFloor((uint64_t{1} << 53) - 1, 2047) &&
                  FloorUniformTimesIsTheDoubleFloor((uint64_t{1} << 53) - 1, 1) &&
                  FloorUniformTimesIsTheDoubleFloor(0, 1025) &&
                  FloorUniformTimesIsTheDoubleFloor(((uint64_t{5} << 53) - 3) / 7, 7) &&
                  FloorUniformTimesIsTheDoubleFloor(((uint64_t{700} << 53) - 1000) / 1025, 1025),
              "FloorUniformTimes is floor(u * n) in doubles");

// The uniforms of a SplitMix64 stream, each computed one call ahead: a playout needs a number
// right after deciding that it needs one, and the 30-cycle chain from state to number is then
// already done, overlapped with the work between two draws (2-3% of the fused playout,
// docs/performance-notes.md). Kept as the 53-bit integer m of u = m * 2**-53.
class UniformStream {
 public:
  explicit UniformStream(uint64_t seed) : state_(seed), next_(Mix(seed) >> 11) {}
  // floor(u * n) of the next uniform u, for 1 <= n < 2048: a uniform index below n.
  int Below(int n) { return FloorUniformTimes(NextBits(), n); }
  // The 53 bits m of the next uniform u = m * 2**-53.
  uint64_t NextBits() {
    const uint64_t m = next_;
    state_ += kGolden;
    next_ = Mix(state_) >> 11;
    return m;
  }

 private:
  uint64_t state_;
  uint64_t next_;
};

// Up to 16 small counts (a chance node's tile stacks or bag), one byte each, in two words (bits.h
// byte order). A playout draws many times in a row from the same counts: held in registers, a
// draw does not wait for the previous draw's decrement to reach memory and come back (10% of
// state-machine rollouts, docs/performance-notes.md).
struct ByteCounts {
  uint64_t low;   // counts 0..7
  uint64_t high;  // counts 8..15

  static ByteCounts Load(const uint8_t* counts, int n) {
    ByteCounts words;
    LoadBytes16(counts, n, &words.low, &words.high);
    return words;
  }
  void Store(uint8_t* counts, int n) const {
    uint8_t bytes[16];
    std::memcpy(bytes, &low, 8);
    std::memcpy(bytes + 8, &high, 8);
    std::memcpy(counts, bytes, static_cast<size_t>(n));
  }
  // The sum of the counts (below 128 for every count table, so no byte of the running sums
  // overflows).
  int Total() const {
    return static_cast<int>(((low * kByteOnes) >> 56) + ((high * kByteOnes) >> 56));
  }
  // One less of `kind` (its count is >= 1).
  void Decrement(int kind) {
    const uint64_t one = uint64_t{1} << (8 * (kind & 7));
    low -= kind < 8 ? one : 0;
    high -= kind < 8 ? 0 : one;
  }
  // One more of `kind` (its count stays below 128).
  void Increment(int kind) {
    const uint64_t one = uint64_t{1} << (8 * (kind & 7));
    low += kind < 8 ? one : 0;
    high += kind < 8 ? 0 : one;
  }
};

// The first of the n kinds whose running count exceeds x, for 0 <= x <= total (x = total only
// when u * total rounds up to it: then the last kind with a count).
inline int KindAt(const ByteCounts& counts, int n, int x) {
  // The kind is the number of running counts <= x (a kind with count 0 adds nothing to the
  // running count, so it is never the first to exceed x). Counted without a branch, byte-parallel
  // (bits.h): multiplying a word of byte counts by 0x0101...01 leaves the running counts in its
  // bytes; `(run | 0x80) - (x + 1)` keeps a byte's high bit exactly when run >= x + 1. Every
  // count table (n <= 16) totals less than 128, so no byte overflows or borrows.
  const uint64_t run_low = counts.low * kByteOnes;
  const uint64_t above_x = static_cast<uint64_t>(x + 1) * kByteOnes;
  int kind = 8 - PopCount(((run_low | kByteHighs) - above_x) & kByteHighs);
  if (n > 8) {  // decided at compile time where n is a constant
    const uint64_t run_high = counts.high * kByteOnes + (run_low >> 56) * kByteOnes;
    kind += 8 - PopCount(((run_high | kByteHighs) - above_x) & kByteHighs);
  }
  if (kind < n) return kind;
  // u * total rounded up to total: the last kind with a count.
  const unsigned nonzero = ~(ZeroBytes(counts.low) | ZeroBytes(counts.high) << 8);
  return HighestBit(nonzero & ((1u << n) - 1));
}

}  // namespace vikinger

#endif  // VIKINGER_RNG_H_
