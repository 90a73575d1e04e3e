// Random numbers shared bit for bit with the Python reference (docs/api.md, docs/state.md).
//
// `Mix` is the splitmix64 finaliser: it turns an int seed into one uniform double for
// apply_random_chance and it hashes positions. `SplitMix64` is the matching sequential generator
// for C++ playouts. `SampleCounts` is the one sampling rule of docs/api.md: x = floor(u * total),
// then the first kind (in id order) whose running count exceeds x.
#ifndef VIKINGER_RNG_H_
#define VIKINGER_RNG_H_

#include <cstdint>

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
inline double UnitDouble(uint64_t bits) {
  return static_cast<double>(bits >> 11) * (1.0 / 9007199254740992.0);
}

// The uniform double an int seed stands for in apply_random_chance.
inline double UniformFromSeed(uint64_t seed) { return UnitDouble(Mix(seed)); }

// A sequential splitmix64 stream (state advances by the golden gamma).
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    const uint64_t value = Mix(state_);
    state_ += kGolden;
    return value;
  }
  double Uniform() { return UnitDouble(Next()); }
  // A uniform integer in [0, bound), bound >= 1 (multiply-shift; tiny bias is fine for play).
  uint32_t Below(uint32_t bound) { return static_cast<uint32_t>(((Next() >> 32) * bound) >> 32); }

 private:
  uint64_t state_;
};

// The index of the kind drawn by uniform `u` from `counts[0..n)` (docs/api.md).
inline int SampleCounts(const uint8_t* counts, int n, double u) {
  int total = 0;
  for (int i = 0; i < n; ++i) total += counts[i];
  // floor(u * total); truncation is the same for u * total >= 0 and needs no libm call.
  int x = static_cast<int>(u * total);
  int last = -1;
  for (int i = 0; i < n; ++i) {
    if (counts[i] == 0) continue;
    last = i;
    if (x < counts[i]) return i;
    x -= counts[i];
  }
  return last;  // reached only when u * total rounds up to total
}

}  // namespace vikinger

#endif  // VIKINGER_RNG_H_
