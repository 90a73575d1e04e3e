// Network: a vikinger-mlp/1 network (docs/neural.md "The weights file") evaluated inside the search
// in integer arithmetic, so that the reference's network.py computes the same bits
// (docs/neural.md "The integer network" has the rules and the reasons).
//
// Input: the non-zero entries of the network's features for the player to move
// (search/network_features.h; every entry is an integer). The first layer adds up the weight rows
// of those entries (times their values); the hidden layers are small dense products; the policy
// head computes the legal actions' logits only; the value head is a softmax, as in mlp.py.
//
// Quantization, the one rule of both engines: a weight matrix W with bias b, fed by inputs with
// `a` fraction bits (0 for the features, kActShift for activations), gets the scale 2^s with s
// the largest integer in [0, kMaxShift] such that W_q = round(W * 2^s) and b_q = round(b * 2^(s +
// a)) (in double, half away from zero) satisfy |W_q| <= 32767 and
//   first layer:   |b_q| <= 2^30 (so a features' L1 norm of 2^15 keeps the int32 sum below
//                  2^15 * 32767 + 2^30 < 2^31);
//   other layers and the heads:  kActMax * sum_j |W_q[j][k]| + |b_q[k]| <= 2^31 - 1 for every
//                  output k.
// Before any value is scaled, every weight must lie within [-kWeightLimit, kWeightLimit] and every
// bias within [-kBiasLimit, kBiasLimit], checked in double (std::invalid_argument naming the array
// otherwise): beyond them no s >= 0 makes an int16 weight or an int32 bias, and every scaled value
// stays far inside int64. The hidden layers and heads then cannot overflow an int32 sum. The
// first layer's input is the features' exact integers (docs/neural.md "The network's input
// range"): its sums are int32 while sum_f |value[f]| * max|W_q| + max|b_q| <= 2^31 - 1 (every
// position of a game: the L1 norm is far below 2^15), and int64 beyond (gold or Fame near 2^30,
// which state_from_dict accepts), where |value| < 2^31 and fewer than 2^13 features keep the sum
// below 2^60. A hidden layer's output is re-scaled to kActShift fraction bits:
// h = clamp(((acc >> (t - 1)) + 1) >> 1, 0, kActMax) with t = s + a - kActShift >= 1 (rounding
// half up; the + 1 computed so that it cannot overflow); a layer that needs t < 1 (a first layer
// with weights of 16 and more) cannot be quantized. Outputs: logit = float(double(acc) * 2^-(s +
// kActShift)); values: raw the same way in double, softmax with the maximum subtracted, exp and sum
// in player order, each share rounded to float; scores (the optional score head, docs/neural.md
// "Score-aware values"): raw the same way, std::tanh in double, each rounded to float.
#ifndef VIKINGER_NETWORK_H_
#define VIKINGER_NETWORK_H_

#include <cstdint>
#include <string>
#include <vector>

#include "rules/state.h"
#include "search/network_features.h"

namespace vikinger {

constexpr int kActShift = 10;      // activations: int16 with 10 fraction bits, in [0, 32)
constexpr int kActMax = 32767;     // the clamp of an activation (ReLU's top)
constexpr int kMaxShift = 24;      // the largest weight scale 2^24
constexpr int kWeightMax = 32767;  // int16
// What a weights file may hold for the integer network: |w| <= 32767 (an int16 at s = 0), |b| <=
// 2^21 (b * 2^kActShift an int32 at s = 0).
constexpr int64_t kWeightLimit = kWeightMax;
constexpr int64_t kBiasLimit = int64_t{1} << 21;

// One float layer as the weights file stores it: w row-major [in][out], b [out].
struct FloatLayer {
  const float* w;
  const float* b;
  int in;
  int out;
};

class Network {
 public:
  // Per-evaluation buffers: one per thread that evaluates.
  struct Scratch {
    std::vector<int32_t> index, value, acc;
    std::vector<int64_t> wide;  // the first layer's sums beyond int32's bound
    std::vector<int16_t> act;
  };

  // `layers` (the hidden layers), `policy`, `value` and the optional `score` head (null: none) of
  // a checked MLP (mlp.py's shapes) reading `features`, for the game of `num_players` and
  // `options`. std::invalid_argument when a value is beyond the limits or a layer cannot be
  // quantized.
  Network(int num_players, int options, FeatureSet features, const std::vector<FloatLayer>& layers,
          const FloatLayer& policy, const FloatLayer& value, const FloatLayer* score = nullptr);

  int NumPlayers() const { return num_players_; }
  int Options() const { return options_; }
  FeatureSet Features() const { return features_; }
  bool HasScoreHead() const { return has_score_; }
  // The scale exponents s of the hidden layers, the policy head, the value head and the score
  // head (when there is one), in order.
  std::vector<int> Shifts() const;
  // The logits of the `num_legal` actions `legal` of decision node `p` (logits[i] for legal[i])
  // and its values relative to the mover (values[k]: player (mover + k) % n); with `scores` (the
  // network must have a score head), the score head's outputs in the same order.
  void Evaluate(const Position& p, const int* legal, int num_legal, float* logits, float* values,
                Scratch* scratch, float* scores = nullptr) const;

 private:
  struct Matrix {
    std::vector<int16_t> w;  // first layer [in][out_width]; others transposed [out][in_width]
    std::vector<int32_t> b;
    int in = 0, out = 0;
    int in_width = 0, out_width = 0;  // in / out rounded up to a multiple of 8, zero padded
    int shift = 0;
  };
  // The largest s of the rule above; std::invalid_argument naming the array `w_name` or `b_name`
  // beyond its limit, or `name` when s is below min_shift.
  static Matrix Quantize(const FloatLayer& layer, int fraction_bits, bool first, int min_shift,
                         const std::string& name, const std::string& w_name,
                         const std::string& b_name);
  // The last hidden layer's activations of `p` into scratch->act.
  void Hidden(const Position& p, Scratch* scratch) const;

  int num_players_;
  int options_;
  FeatureSet features_;
  std::vector<Matrix> layers_;
  Matrix policy_, value_, score_;
  bool has_score_ = false;
  // The largest L1 norm of the features whose first-layer sums stay within int32.
  int64_t first_l1_max_ = 0;
};

}  // namespace vikinger

#endif  // VIKINGER_NETWORK_H_
