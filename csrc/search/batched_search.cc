// BatchedSearch (see batched_search.h).
#include "search/batched_search.h"

#include <cstring>

#include "base/rng.h"
#include "formats/observation.h"
#include "play/playouts.h"
#include "rules/actions.h"
#include "rules/legal_set.h"
#include "search/solver.h"

// Bit-identical with batched_search.py's playout mix: no fused multiply-add.
#ifdef __clang__
#pragma clang fp contract(off)
#endif

namespace vikinger {

BatchedSearch::BatchedSearch(const std::vector<Position>& roots, uint64_t seed,
                             const PuctConfig& config)
    : config_(config), num_players_(roots.empty() ? 0 : roots[0].num_players) {
  trees_.reserve(roots.size());
  for (size_t i = 0; i < roots.size(); ++i) {
    trees_.emplace_back(roots[i], Mix(seed + static_cast<uint64_t>(i)), &config_);
  }
}

int BatchedSearch::ObservationWidth() const { return ObservationSize(num_players_); }

bool BatchedSearch::Done() const {
  for (const PuctTree& tree : trees_) {
    if (!tree.SearchDone()) return false;
  }
  return true;
}

int BatchedSearch::Gather(int max_batch, Interrupt* interrupt) {
  std::vector<char> blocked(trees_.size(), 0);
  int steps = 0;  // leaves and terminal visits: a gather does at most max_batch of them
  bool progress = true;
  while (progress && steps < max_batch) {
    progress = false;
    for (size_t t = 0; t < trees_.size() && steps < max_batch; ++t) {
      if (blocked[t] || !trees_[t].WantsDescent()) continue;
      if (Checked(interrupt)) {
        Cancel();
        return 0;
      }
      const Descent descent = trees_[t].Descend();
      if (descent == Descent::kCollision) {
        blocked[t] = 1;
        continue;
      }
      progress = true;
      ++steps;
      if (descent == Descent::kTerminal) continue;
      rows_.push_back({static_cast<int32_t>(t), trees_[t].PendingCount() - 1});
    }
  }
  return static_cast<int>(rows_.size());
}

void BatchedSearch::WriteRow(int r, float* observations, bool* legal) const {
  const Position& p = RowPosition(r);
  ObservationTensor(p, CurrentPlayer(p),
                    observations + static_cast<size_t>(r) * ObservationWidth());
  bool* mask = legal + static_cast<size_t>(r) * kNumDistinctActions;
  std::memset(mask, 0, kNumDistinctActions);
  int ids[kMaxLegalActions];
  const int num_legal = trees_[rows_[r].first].LeafActions(rows_[r].second, ids);
  for (int i = 0; i < num_legal; ++i) mask[ids[i]] = true;
}

void BatchedSearch::Backup(const float* logits, const float* values) {
  for (size_t r = 0; r < rows_.size(); ++r) {
    trees_[rows_[r].first].Expand(rows_[r].second, logits + r * kNumDistinctActions,
                                  values + r * num_players_);
  }
  for (const auto& [tree, index] : rows_) trees_[tree].ClearPending();
  rows_.clear();
}

// Row by row (evaluated, mixed, expanded), so that one logits row, staying in cache, serves
// them all: Expand reads only the row's legal entries, and those are written for each row.
void BatchedSearch::BackupNetwork(const Network& network, const PlayoutMix& mix) {
  const int n = num_players_;
  const double weight = config_.score_utility;
  logits_.resize(kNumDistinctActions);
  int ids[kMaxLegalActions];
  float legal_logits[kMaxLegalActions];
  float values[kMaxPlayers];
  for (size_t r = 0; r < rows_.size(); ++r) {
    PuctTree& tree = trees_[rows_[r].first];
    const Position& p = tree.LeafPosition(rows_[r].second);
    const int num_legal = tree.LeafActions(rows_[r].second, ids);
    const int mover = CurrentPlayer(p);  // values[k] is player (mover + k) % n's
    if (weight > 0.0) {
      float scores[kMaxPlayers];
      network.Evaluate(p, ids, num_legal, legal_logits, values, &scratch_, scores);
      const double scale = config_.score_scale;
      const double* centre = tree.ScoreCentre();
      for (int k = 0; k < n; ++k) {
        const double score =
            scale > 0.0 ? MarginScore(HeadMargin(scores[k]), centre[(mover + k) % n], scale)
                        : static_cast<double>(scores[k]);
        values[k] = static_cast<float>(ScoreUtility(values[k], score, weight));
      }
    } else {
      network.Evaluate(p, ids, num_legal, legal_logits, values, &scratch_);
    }
    for (int i = 0; i < num_legal; ++i) logits_[ids[i]] = legal_logits[i];
    if (mix.count > 0) {
      double played[kMaxPlayers];
      MeanPlayoutReturns(p, mix.count, mix.seed + static_cast<uint64_t>(r * mix.count), weight,
                         tree.ScoreCentre(), config_.score_scale, played);
      for (int k = 0; k < n; ++k) {
        values[k] = MixedValue(values[k], static_cast<float>(played[(mover + k) % n]), mix.weight);
      }
    }
    tree.Expand(rows_[r].second, logits_.data(), values);
  }
  for (const auto& [tree, index] : rows_) trees_[tree].ClearPending();
  rows_.clear();
}

void MeanPlayoutReturns(const Position& p, int64_t count, uint64_t seed, double score_utility,
                        const double* centre, double score_scale, double* values) {
  const int n = p.num_players;
  for (int k = 0; k < n; ++k) values[k] = 0.0;
  for (int64_t j = 0; j < count; ++j) {
    const GameResult result = PlayRandomPlayout(p, seed + static_cast<uint64_t>(j));
    double returns[kMaxPlayers];
    for (int k = 0; k < n; ++k) returns[k] = result.returns[k];
    if (score_utility > 0.0) {
      int64_t totals[kMaxPlayers], margins[kMaxPlayers];
      for (int k = 0; k < n; ++k) totals[k] = kFameUnit * result.scores[k] + result.gold[k];
      TotalMargins(totals, n, margins);
      MarginUtilities(margins, n, score_utility, centre, score_scale, returns);
    }
    for (int k = 0; k < n; ++k) values[k] += returns[k];
  }
  for (int k = 0; k < n; ++k) values[k] /= static_cast<double>(count);
}

void BatchedSearch::Cancel() {
  for (const auto& [tree, index] : rows_) trees_[tree].CancelPending();
  rows_.clear();
}

void BatchedSearch::BeginSearch() {
  for (PuctTree& tree : trees_) tree.BeginSearch();
}

bool BatchedSearch::Advance(int root, const Position& p) { return trees_[root].Advance(p); }

}  // namespace vikinger
