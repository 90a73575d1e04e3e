// Network (see network.h; docs/neural.md "The integer network").
#include "search/network.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>

#if defined(__SSE4_1__)
#include <smmintrin.h>
#endif

#include "rules/actions.h"

// Bit-identical with network.py: no fused multiply-add.
#ifdef __clang__
#pragma clang fp contract(off)
#endif

namespace vikinger {
namespace {

constexpr int64_t kFirstBiasMax = int64_t{1} << 30;
constexpr int64_t kSumMax = (int64_t{1} << 31) - 1;
// The first layer's outputs summed in registers at a time (its rows padded to a multiple).
constexpr int kBlock = 32;

int RoundUp(int n, int multiple) { return (n + multiple - 1) / multiple * multiple; }

// std::invalid_argument naming the array unless every value lies within [-limit, limit] (NaN
// does not), compared in double: network.py's check_range.
void CheckRange(const float* values, int64_t count, int64_t limit, const std::string& name) {
  for (int64_t i = 0; i < count; ++i) {
    if (!(std::fabs(static_cast<double>(values[i])) <= static_cast<double>(limit))) {
      throw std::invalid_argument(name + " must lie within [-" + std::to_string(limit) + ", " +
                                  std::to_string(limit) + "] (what the integer network can hold)");
    }
  }
}

// round(x * 2^s), half away from zero; exact in double (a float times a power of two), and within
// int64 for the values CheckRange lets through (|x| * 2^s < 2^56).
int64_t Scaled(float x, int s) {
  const double scaled = std::ldexp(static_cast<double>(x), s);
  return static_cast<int64_t>(std::copysign(std::floor(std::fabs(scaled) + 0.5), scaled));
}

// sum_i a[i] * b[i]: written so that the compiler makes it pmaddwd (int16 pairs into int32).
int32_t Dot(const int16_t* a, const int16_t* b, int n) {
  int32_t sum = 0;
  for (int i = 0; i < n; ++i) sum += static_cast<int32_t>(a[i]) * static_cast<int32_t>(b[i]);
  return sum;
}

// out[r] = Dot(a, rows[r], n) for 4 rows, n a multiple of 8. With SSE4.1 the 4 sums share the
// loads of `a` and one horizontal reduction (measured: docs/neural.md).
void Dot4(const int16_t* a, const int16_t* const* rows, int n, int32_t* out) {
#if defined(__SSE4_1__)
  __m128i sum[4] = {_mm_setzero_si128(), _mm_setzero_si128(), _mm_setzero_si128(),
                    _mm_setzero_si128()};
  for (int i = 0; i < n; i += 8) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a + i));
    for (int r = 0; r < 4; ++r) {
      const __m128i y = _mm_loadu_si128(reinterpret_cast<const __m128i*>(rows[r] + i));
      sum[r] = _mm_add_epi32(sum[r], _mm_madd_epi16(x, y));
    }
  }
  const __m128i total =
      _mm_hadd_epi32(_mm_hadd_epi32(sum[0], sum[1]), _mm_hadd_epi32(sum[2], sum[3]));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out), total);
#else
  for (int r = 0; r < 4; ++r) out[r] = Dot(a, rows[r], n);
#endif
}

// out[i] = bias[row(i)] + Dot(a, row row(i) of w) for i < count, 4 rows at a time.
template <typename RowOf>
void Products(const int16_t* a, const int16_t* w, int width, const int32_t* bias, int count,
              RowOf row, int32_t* out) {
  int i = 0;
  for (; i + 4 <= count; i += 4) {
    const int16_t* rows[4];
    for (int r = 0; r < 4; ++r) rows[r] = w + static_cast<size_t>(row(i + r)) * width;
    Dot4(a, rows, width, out + i);
    for (int r = 0; r < 4; ++r) out[i + r] += bias[row(i + r)];
  }
  for (; i < count; ++i) {
    out[i] = bias[row(i)] + Dot(a, w + static_cast<size_t>(row(i)) * width, width);
  }
}

// The first layer's sums: acc = bias + sum_f value[f] * row(index[f]) over the `count` features,
// rows of `width` (a multiple of kBlock) int16. With SSE4.1 (x86-64-v2) kBlock outputs at a time
// stay in 8 registers while the features' rows stream by (measured: docs/neural.md); else a loop
// the compiler vectorises.
void FirstLayer(const int16_t* w, int width, const int32_t* bias, const int32_t* index,
                const int32_t* value, int count, int32_t* acc) {
#if defined(__SSE4_1__)
  for (int k0 = 0; k0 < width; k0 += kBlock) {
    __m128i sum[kBlock / 4];
    for (int i = 0; i < kBlock / 4; ++i) {
      sum[i] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bias + k0 + 4 * i));
    }
    for (int f = 0; f < count; ++f) {
      const int16_t* row = w + static_cast<size_t>(index[f]) * width + k0;
      if (value[f] == 1) {  // most features: a piece is there
        for (int i = 0; i < kBlock / 4; ++i) {
          const __m128i part = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(row + 4 * i));
          sum[i] = _mm_add_epi32(sum[i], _mm_cvtepi16_epi32(part));
        }
      } else {
        const __m128i times = _mm_set1_epi32(value[f]);
        for (int i = 0; i < kBlock / 4; ++i) {
          const __m128i part = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(row + 4 * i));
          sum[i] = _mm_add_epi32(sum[i], _mm_mullo_epi32(_mm_cvtepi16_epi32(part), times));
        }
      }
    }
    for (int i = 0; i < kBlock / 4; ++i) {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(acc + k0 + 4 * i), sum[i]);
    }
  }
#else
  std::memcpy(acc, bias, sizeof(int32_t) * width);
  for (int f = 0; f < count; ++f) {
    const int16_t* row = w + static_cast<size_t>(index[f]) * width;
    const int32_t v = value[f];
    for (int k = 0; k < width; ++k) acc[k] += v * row[k];
  }
#endif
}

// The first layer's sums in int64, for features whose L1 norm could take an int32 sum beyond its
// range (gold or Fame near 2^30: never in a game).
void FirstLayerWide(const int16_t* w, int width, const int32_t* bias, const int32_t* index,
                    const int32_t* value, int count, int64_t* acc) {
  for (int k = 0; k < width; ++k) acc[k] = bias[k];
  for (int f = 0; f < count; ++f) {
    const int16_t* row = w + static_cast<size_t>(index[f]) * width;
    const int64_t v = value[f];
    for (int k = 0; k < width; ++k) acc[k] += v * row[k];
  }
}

// act[k] = clamp(((acc[k] >> (t - 1)) + 1) >> 1, 0, kActMax): re-scaled to kActShift fraction
// bits, rounding half up. (x + 1) >> 1 is computed as (x >> 1) + (x & 1), the same number, which
// cannot overflow at x = 2^31 - 1 (t = 1).
template <typename Sum>
void Activations(const Sum* acc, int count, int t, int16_t* act) {
  for (int k = 0; k < count; ++k) {
    const Sum x = acc[k] >> (t - 1);
    const Sum h = (x >> 1) + (x & 1);
    act[k] = static_cast<int16_t>(std::min<Sum>(std::max<Sum>(h, 0), kActMax));
  }
}

}  // namespace

// The largest s of network.h's rule; the predicate only gets harder as s grows, so the scan goes
// down from the first s whose largest weight fits.
Network::Matrix Network::Quantize(const FloatLayer& layer, int fraction_bits, bool first,
                                  int min_shift, const std::string& name, const std::string& w_name,
                                  const std::string& b_name) {
  CheckRange(layer.w, static_cast<int64_t>(layer.in) * layer.out, kWeightLimit, w_name);
  CheckRange(layer.b, layer.out, kBiasLimit, b_name);
  float top = 0.0f;
  for (int64_t i = 0; i < static_cast<int64_t>(layer.in) * layer.out; ++i) {
    top = std::max(top, std::fabs(layer.w[i]));
  }
  Matrix m;
  m.in = layer.in;
  m.out = layer.out;
  m.in_width = first ? layer.in : RoundUp(layer.in, 8);
  m.out_width = first ? RoundUp(layer.out, kBlock) : layer.out;
  for (int s = kMaxShift; s >= 0; --s) {
    if (Scaled(top, s) > kWeightMax) continue;
    bool fits = true;
    std::vector<int64_t> column(layer.out, 0);
    for (int k = 0; k < layer.out && fits; ++k) {
      const int64_t bias = std::llabs(Scaled(layer.b[k], s + fraction_bits));
      column[k] = bias;
      if (first && bias > kFirstBiasMax) fits = false;
    }
    if (!first) {
      for (int64_t i = 0; i < static_cast<int64_t>(layer.in) * layer.out; ++i) {
        column[i % layer.out] += kActMax * std::llabs(Scaled(layer.w[i], s));
      }
      for (int k = 0; k < layer.out && fits; ++k) fits = column[k] <= kSumMax;
    }
    if (!fits) continue;
    if (s < min_shift) break;
    m.shift = s;
    m.b.assign(first ? m.out_width : m.out, 0);
    for (int k = 0; k < layer.out; ++k) {
      m.b[k] = static_cast<int32_t>(Scaled(layer.b[k], s + fraction_bits));
    }
    const int rows = first ? m.in : m.out;
    const int width = first ? m.out_width : m.in_width;
    m.w.assign(static_cast<size_t>(rows) * width, 0);
    for (int j = 0; j < layer.in; ++j) {
      for (int k = 0; k < layer.out; ++k) {
        const int16_t q = static_cast<int16_t>(Scaled(layer.w[j * layer.out + k], s));
        m.w[first ? static_cast<size_t>(j) * width + k : static_cast<size_t>(k) * width + j] = q;
      }
    }
    return m;
  }
  throw std::invalid_argument(name + ": the weights are too large for the integer network");
}

Network::Network(int num_players, int options, FeatureSet features,
                 const std::vector<FloatLayer>& layers, const FloatLayer& policy,
                 const FloatLayer& value, const FloatLayer* score)
    : num_players_(num_players), options_(options), features_(features) {
  // Without hidden layers the heads would read the features: not a network the trainer makes.
  if (layers.empty()) throw std::invalid_argument("the integer network needs a hidden layer");
  int width = FeatureWidth(features, num_players);
  for (const FloatLayer& layer : layers) {
    if (layer.in != width) throw std::invalid_argument("the layers' shapes do not chain");
    width = layer.out;
  }
  if (policy.in != width || policy.out != kNumDistinctActions || value.in != width ||
      value.out != num_players ||
      (score != nullptr && (score->in != width || score->out != num_players))) {
    throw std::invalid_argument("the heads' shapes do not fit the layers and the game");
  }
  for (size_t i = 0; i < layers.size(); ++i) {
    // A hidden layer is re-scaled by t = s + a - kActShift >= 1 (network.h).
    const int fraction_bits = i == 0 ? 0 : kActShift;
    const std::string index = std::to_string(i);
    layers_.push_back(Quantize(layers[i], fraction_bits, i == 0, kActShift + 1 - fraction_bits,
                               "layer " + index, "w" + index, "b" + index));
  }
  policy_ = Quantize(policy, kActShift, false, 0, "policy", "policy_w", "policy_b");
  value_ = Quantize(value, kActShift, false, 0, "value", "value_w", "value_b");
  if (score != nullptr) {
    score_ = Quantize(*score, kActShift, false, 0, "score", "score_w", "score_b");
    has_score_ = true;
  }
  const Matrix& first = layers_[0];
  int64_t top_w = 1, top_b = 0;
  for (int16_t w : first.w) top_w = std::max<int64_t>(top_w, std::abs(w));
  for (int32_t b : first.b) top_b = std::max<int64_t>(top_b, std::llabs(b));
  first_l1_max_ = (kSumMax - top_b) / top_w;  // at least 2^15: |b_q| <= 2^30, |W_q| <= 32767
}

std::vector<int> Network::Shifts() const {
  std::vector<int> shifts;
  for (const Matrix& m : layers_) shifts.push_back(m.shift);
  shifts.push_back(policy_.shift);
  shifts.push_back(value_.shift);
  if (has_score_) shifts.push_back(score_.shift);
  return shifts;
}

void Network::Hidden(const Position& p, Scratch* s) const {
  const int size = FeatureWidth(features_, num_players_);
  if (static_cast<int>(s->index.size()) < size) {
    s->index.resize(size);
    s->value.resize(size);
  }
  const int count =
      NetworkFeatures(features_, p, CurrentPlayer(p), s->index.data(), s->value.data());
  // The first layer: the bias plus the weight rows of the active features, in int32 when no sum
  // can leave its range (network.h), else in int64.
  const Matrix& first = layers_[0];
  int64_t l1 = 0;
  for (int f = 0; f < count; ++f) l1 += std::llabs(s->value[f]);
  s->act.resize(first.out_width);
  const int t = first.shift - kActShift;
  if (l1 <= first_l1_max_) {
    s->acc.resize(first.out_width);
    FirstLayer(first.w.data(), first.out_width, first.b.data(), s->index.data(), s->value.data(),
               count, s->acc.data());
    Activations(s->acc.data(), first.out_width, t, s->act.data());
  } else {
    s->wide.resize(first.out_width);
    FirstLayerWide(first.w.data(), first.out_width, first.b.data(), s->index.data(),
                   s->value.data(), count, s->wide.data());
    Activations(s->wide.data(), first.out_width, t, s->act.data());
  }
  for (size_t l = 1; l < layers_.size(); ++l) {
    const Matrix& m = layers_[l];
    s->act.resize(m.in_width, 0);  // the padding columns: zero activations
    s->acc.resize(m.out);
    Products(
        s->act.data(), m.w.data(), m.in_width, m.b.data(), m.out, [](int k) { return k; },
        s->acc.data());
    s->act.resize(m.out);
    Activations(s->acc.data(), m.out, m.shift, s->act.data());  // t = s + kActShift - kActShift
  }
}

void Network::Evaluate(const Position& p, const int* legal, int num_legal, float* logits,
                       float* values, Scratch* s, float* scores) const {
  Hidden(p, s);
  s->act.resize(policy_.in_width, 0);
  const int16_t* act = s->act.data();
  const double policy_scale = std::ldexp(1.0, -(policy_.shift + kActShift));
  int32_t q[kMaxLegalActions];
  Products(
      act, policy_.w.data(), policy_.in_width, policy_.b.data(), num_legal,
      [legal](int i) { return legal[i]; }, q);
  for (int i = 0; i < num_legal; ++i) {
    logits[i] = static_cast<float>(static_cast<double>(q[i]) * policy_scale);
  }
  const double value_scale = std::ldexp(1.0, -(value_.shift + kActShift));
  double raw[kMaxPlayers];
  double top = 0.0;
  int32_t raw_q[kMaxPlayers];
  Products(
      act, value_.w.data(), value_.in_width, value_.b.data(), num_players_, [](int k) { return k; },
      raw_q);
  for (int k = 0; k < num_players_; ++k) {
    raw[k] = static_cast<double>(raw_q[k]) * value_scale;
    if (k == 0 || raw[k] > top) top = raw[k];
  }
  double sum = 0.0;
  for (int k = 0; k < num_players_; ++k) {
    raw[k] = std::exp(raw[k] - top);
    sum += raw[k];
  }
  for (int k = 0; k < num_players_; ++k) values[k] = static_cast<float>(raw[k] / sum);
  if (scores == nullptr) return;
  const double score_scale = std::ldexp(1.0, -(score_.shift + kActShift));
  Products(
      act, score_.w.data(), score_.in_width, score_.b.data(), num_players_, [](int k) { return k; },
      raw_q);
  for (int k = 0; k < num_players_; ++k) {
    scores[k] = static_cast<float>(std::tanh(static_cast<double>(raw_q[k]) * score_scale));
  }
}

}  // namespace vikinger
