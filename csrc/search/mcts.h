// MCTSBot: UCT over decision nodes (docs/search.md "MCTS"), the same algorithm as the
// reference's mcts.py, which returns the same visit counts for the same seed, budget and threads.
//
// The tree is tree.h's (decision and terminal nodes, an edge's chance children sampled one
// uniform u per chance node and kept by chance history; PUCT grows the same kind). Forced
// decisions never reach it, so they cost no iteration; a root with one legal action is answered
// without searching.
//
// One iteration, with the thread's stream splitmix64(mix(seed + search) + thread):
//   at a node whose edges are not all visited: the unvisited edge number floor(u * unvisited)
//     in action order (u the next uniform);
//   else the edge maximizing  w[mover] / n + uct_c * sqrt(log(N) / n)  (n, w: the edge's visits
//     and value sums, N: the node's visits; the first in action order on a tie);
//   then its chance outcomes as above; a child not in the tree is created and is the leaf.
// A tree holds at most kMaxTreeNodes nodes (memory stays below about 1 GB a thread); once full, a
// leaf is valued without being added.
// The leaf's value vector: B8.9 returns at a terminal node; else a random playout (playouts.h)
// with the stream's next 64-bit number as seed, or the evaluation (evaluation.h). It is added to
// every edge on the path. `threads` > 1 runs independent searches (root parallelism), thread t
// doing iterations / threads (+1 for t < iterations % threads); their root visits are summed.
// Step plays the most visited action, the lowest id on a tie. A time budget (max_time) stops
// every thread after that many seconds: results then depend on the machine.
#ifndef VIKINGER_MCTS_H_
#define VIKINGER_MCTS_H_

#include <cstdint>
#include <vector>

#include "base/interrupt.h"
#include "rules/state.h"
#include "search/bots.h"

namespace vikinger {

enum class Leaf : uint8_t { kPlayout, kEvaluation };

constexpr int64_t kMaxTreeNodes = 1'000'000;
// A time budget of this many seconds or more (about 31 years; inf included) sets no deadline.
constexpr double kMaxSeconds = 1e9;

struct MctsConfig {
  int64_t iterations = 0;  // per search; 0: limited by max_time only
  double max_time = 0.0;   // seconds per search; 0 or >= kMaxSeconds: iterations only
  double uct_c = 1.4;
  Leaf leaf = Leaf::kPlayout;
  int threads = 1;
  // The endgame solver (solver.h) at roots without chance ahead, within this many nodes; 0: off.
  int64_t solver_nodes = 0;
};

// The root's edges after a search: visits merged over threads, in action order.
struct SearchResult {
  std::vector<int> actions;
  std::vector<int64_t> visits;
  int64_t iterations = 0;  // done, over all threads
  bool solved = false;     // the solver decided: visits are 1 for its action, 0 elsewhere
};

class MctsBot {
 public:
  // std::invalid_argument for a budget <= 0 (both absent), uct_c < 0 or threads < 1.
  MctsBot(const Game& game, uint64_t seed, const MctsConfig& config);

  // The search behind Step and Policy; `interrupt` is polled by the calling thread. Returns
  // false (and leaves the bot as it was) when the interrupt stopped it.
  bool Search(const Position& p, Interrupt* interrupt, SearchResult* result);
  // The most visited action of `result`, the lowest id on a tie.
  static int BestAction(const SearchResult& result);
  void Restart() { searches_ = 0; }
  const Game& game() const { return game_; }
  const MctsConfig& config() const { return config_; }
  // Pickling: the seed and the searches since construction or Restart, which pick the streams.
  uint64_t seed() const { return seed_; }
  uint64_t searches() const { return searches_; }
  void SetSearches(uint64_t searches) { searches_ = searches; }

 private:
  Game game_;
  uint64_t seed_;
  MctsConfig config_;
  uint64_t searches_ = 0;  // searches since construction or Restart: picks the streams
};

}  // namespace vikinger

#endif  // VIKINGER_MCTS_H_
