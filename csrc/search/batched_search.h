// BatchedSearch: the PUCT searches of many root states at once, their leaves gathered into one
// evaluator batch (docs/neural.md "The low-level loop"). The reference's batched_search.py
// follows it step for step.
//
// Tree i (of the roots in order) draws from splitmix64(mix(seed + i)) for its whole life. Gather
// walks the trees round robin, one descent each per round, until `max_batch` descents ended (at
// a leaf now waiting, or at a terminal node) or no tree can go on: a tree stops for this batch when
// its budget is spent (simulations done + in flight), when its root waits for its own evaluation,
// or when a descent collides with a leaf already in the batch (the descent is undone). A descent
// that ends at a terminal node is backed up at once with the B8.9 returns and takes no row. Row r
// of the batch is the observation tensor of leaf r for the player to move there and its
// legal-action mask; Backup takes the evaluator's logits and values for the rows in the same order.
#ifndef VIKINGER_BATCHED_SEARCH_H_
#define VIKINGER_BATCHED_SEARCH_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "base/interrupt.h"
#include "rules/actions.h"
#include "rules/state.h"
#include "search/network.h"
#include "search/puct.h"

namespace vikinger {

// Leaf values mixed with random playouts (docs/neural.md "Mixed leaf values"): row r's value is
// (1 - weight) * the evaluator's + weight * the mean returns of `count` playouts, playout j on
// stream seed + r * count + j, in float arithmetic as PuctBot mixes them in numpy.
struct PlayoutMix {
  int64_t count = 0;  // 0: no playouts
  float weight = 0.5f;
  uint64_t seed = 0;
};

// A mixed leaf value, (1 - weight) * value + weight * played, in float32 as the reference's
// numpy computes it (docs/neural.md "Mixed leaf values").
inline float MixedValue(float value, float played, float weight) {
  const float keep = 1.0f - weight;
  return keep * value + weight * played;
}

class BatchedSearch {
 public:
  // `roots`: decision nodes of one game (checked by the caller). Not copyable: trees point at
  // the config.
  BatchedSearch(const std::vector<Position>& roots, uint64_t seed, const PuctConfig& config);
  BatchedSearch(const BatchedSearch&) = delete;
  BatchedSearch& operator=(const BatchedSearch&) = delete;

  int NumRoots() const { return static_cast<int>(trees_.size()); }
  int NumPlayers() const { return num_players_; }
  int ObservationWidth() const;
  // Rows of the last Gather still waiting for Backup.
  int Pending() const { return static_cast<int>(rows_.size()); }
  bool Done() const;
  // Descends until max_batch descents ended or no tree can go on; returns the rows (leaves)
  // gathered. When `interrupt` stops it, the descents of this call are undone and 0 is
  // returned. Needs Pending() == 0.
  int Gather(int max_batch, Interrupt* interrupt);
  // The rows of the last Gather: `observations` (Pending() x ObservationWidth()) and `legal`
  // (Pending() x kNumDistinctActions). Rows may be written by several threads: row r only
  // touches row r.
  void WriteRow(int r, float* observations, bool* legal) const;
  // logits: Pending() x kNumDistinctActions, values: Pending() x NumPlayers() (relative to the
  // leaf's mover), both checked by the caller.
  void Backup(const float* logits, const float* values);
  // The position of row r of the last Gather (r < Pending()).
  const Position& RowPosition(int r) const {
    return trees_[rows_[r].first].LeafPosition(rows_[r].second);
  }
  // The score centre of row r's tree (PuctTree::ScoreCentre).
  const double* RowCentre(int r) const { return trees_[rows_[r].first].ScoreCentre(); }
  // -1 when the legal logits of row r are finite, else the first legal action whose is not.
  int FirstNonFiniteLogit(int r, const float* logits) const {
    return trees_[rows_[r].first].FirstNonFiniteLogit(
        rows_[r].second, logits + static_cast<size_t>(r) * kNumDistinctActions);
  }
  // The rows of the last Gather evaluated by `network` (of this game; with a score head when
  // config().score_utility > 0, whose score utility is then its value: the head's score as it is,
  // or centred on the tree's root as MarginScore(HeadMargin(score), centre, score_scale)), mixed
  // with playouts by `mix`, and backed up.
  void BackupNetwork(const Network& network, const PlayoutMix& mix);
  // Undoes the pending descents (the evaluator failed).
  void Cancel();
  // Starts the next search of every tree (budgets from 0, fresh root noise).
  void BeginSearch();
  // Tree `root` moves to `p` (reusing the subtree when p is a child); needs Pending() == 0.
  bool Advance(int root, const Position& p);
  RootStats Root(int root) const { return trees_[root].Root(); }
  const PuctConfig& config() const { return config_; }

 private:
  const PuctConfig config_;
  int num_players_;
  std::vector<PuctTree> trees_;
  std::vector<std::pair<int32_t, int32_t>> rows_;  // (tree, its pending index)
  // BackupNetwork's buffers: one logits row (only the legal entries written), the network's.
  Network::Scratch scratch_;
  std::vector<float> logits_;
};

// The mean returns of `count` random playouts from `p`, playout j on stream seed + j; with
// score_utility > 0 each playout's returns blended with its final margins (MarginUtilities, with
// `centre` and `score_scale`).
void MeanPlayoutReturns(const Position& p, int64_t count, uint64_t seed, double score_utility,
                        const double* centre, double score_scale, double* values);

}  // namespace vikinger

#endif  // VIKINGER_BATCHED_SEARCH_H_
