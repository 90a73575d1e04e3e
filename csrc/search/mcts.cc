// MCTSBot's search (see mcts.h for the scheme both engines follow).
#include "search/mcts.h"

#include <chrono>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <thread>

#include "base/rng.h"
#include "play/playouts.h"
#include "rules/legal_set.h"
#include "search/evaluation.h"
#include "search/solver.h"
#include "search/tree.h"

namespace vikinger {

namespace {

// One thread's tree and stream.
class ThreadSearch {
 public:
  ThreadSearch(const Position& root, uint64_t stream_seed, const MctsConfig& config)
      : root_(root), tree_(root, /*keep_positions=*/false), rng_(stream_seed), config_(config) {}

  // Runs iterations until `iterations` are done or `stop` says so.
  template <class Stop>
  int64_t Run(int64_t iterations, Stop stop) {
    int64_t done = 0;
    while (done < iterations && !stop(done)) {
      Iterate();
      ++done;
    }
    return done;
  }

  // The root's edge visits, in action order, added to `visits`.
  void AddRootVisits(std::vector<int64_t>* visits) const {
    const TreeNode& root = tree_.node(0);
    for (int i = 0; i < root.num_edges; ++i) (*visits)[i] += tree_.edge(root.first_edge + i).visits;
  }

 private:
  int32_t SelectEdge(const TreeNode& node) {
    const TreeEdge* edges = &tree_.edge(node.first_edge);
    int unvisited = 0;
    for (int i = 0; i < node.num_edges; ++i) unvisited += edges[i].visits == 0;
    if (unvisited > 0) {
      int k = static_cast<int>(rng_.Uniform() * unvisited);
      for (int i = 0;; ++i) {
        if (edges[i].visits == 0 && k-- == 0) return node.first_edge + i;
      }
    }
    const double log_visits = std::log(static_cast<double>(node.visits));
    int best = 0;
    double best_score = 0.0;
    for (int i = 0; i < node.num_edges; ++i) {
      const double n = static_cast<double>(edges[i].visits);
      const double score =
          edges[i].value[node.player] / n + config_.uct_c * std::sqrt(log_visits / n);
      if (i == 0 || score > best_score) {
        best = i;
        best_score = score;
      }
    }
    return node.first_edge + best;
  }

  void LeafValue(const Position& p, double* value) {
    if (IsTerminal(p)) {
      Returns(p, value);
    } else if (config_.leaf == Leaf::kEvaluation) {
      Evaluate(p, value);
    } else {
      const GameResult result = PlayRandomPlayout(p, rng_.Next());
      for (int i = 0; i < p.num_players; ++i) value[i] = result.returns[i];
    }
  }

  void Iterate() {
    Position p = root_;
    path_.clear();
    int32_t node = 0;
    double value[kMaxPlayers];
    for (;;) {
      if (tree_.node(node).player == kTerminal) {
        Returns(p, value);
        break;
      }
      const int32_t edge = SelectEdge(tree_.node(node));
      path_.push_back({node, edge});
      uint64_t key;
      const int32_t child = tree_.Follow(edge, &p, &rng_, &key);
      if (child >= 0) {
        node = child;
        continue;
      }
      if (tree_.size() < kMaxTreeNodes) tree_.AddChild(edge, key, p);
      LeafValue(p, value);
      break;
    }
    tree_.Backup(path_, value, root_.num_players);
  }

  const Position root_;
  Tree tree_;
  SplitMix64 rng_;
  const MctsConfig& config_;
  TreePath path_;  // the current iteration's
};

// Iterations of thread t of `threads` for a budget of `total`.
int64_t ThreadShare(int64_t total, int threads, int t) {
  return total / threads + (t < total % threads ? 1 : 0);
}

}  // namespace

MctsBot::MctsBot(const Game& game, uint64_t seed, const MctsConfig& config)
    : game_(game), seed_(seed), config_(config) {
  if (config.iterations < 0) throw std::invalid_argument("iterations must be > 0");
  if (!(config.max_time >= 0.0)) throw std::invalid_argument("max_time must be > 0");
  if (config.iterations == 0 && !(config.max_time > 0.0 && config.max_time < kMaxSeconds)) {
    throw std::invalid_argument("MCTSBot needs a budget: iterations > 0 or max_time > 0");
  }
  if (!(config.uct_c >= 0.0)) throw std::invalid_argument("uct_c must be >= 0");
  if (config.threads < 1) throw std::invalid_argument("threads must be >= 1");
  if (config.solver_nodes < 0) throw std::invalid_argument("solver_nodes must be >= 0");
}

int MctsBot::BestAction(const SearchResult& result) {
  size_t best = 0;
  for (size_t i = 1; i < result.actions.size(); ++i) {
    if (result.visits[i] > result.visits[best]) best = i;
  }
  return result.actions[best];
}

bool MctsBot::Search(const Position& p, Interrupt* interrupt, SearchResult* result) {
  int ids[kMaxLegalActions];
  const int num_legal = LegalActions(p, ids);
  result->actions.assign(ids, ids + num_legal);
  result->visits.assign(num_legal, 0);
  result->iterations = 0;
  result->solved = false;
  if (num_legal == 1) {  // nothing to decide: no iteration spent
    result->visits[0] = 1;
    return true;
  }
  if (config_.solver_nodes > 0 && NoChanceAhead(p)) {
    SolverResult solved;
    // Out of memory is giving up too: the search below needs no table.
    if (SolveEndgame(p, config_.solver_nodes, DefaultSolverMemory(), interrupt, &solved) ==
        SolveStatus::kSolved) {
      for (int i = 0; i < num_legal; ++i) result->visits[i] = ids[i] == solved.best_action;
      result->solved = true;
      return true;
    }
    if (Stopped(interrupt)) return false;
  }
  const uint64_t search_seed = Mix(seed_ + searches_);
  // A budget of kMaxSeconds or more (inf included) sets no deadline: converted to the clock's
  // int64 nanoseconds it would overflow (docs/search.md "Budgets").
  const bool timed = config_.max_time > 0.0 && config_.max_time < kMaxSeconds;
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(timed ? config_.max_time : 0.0));
  const int threads = config_.threads;
  std::vector<int64_t> done(threads, 0);
  std::vector<std::vector<int64_t>> visits(threads, std::vector<int64_t>(num_legal, 0));
  auto run = [&](int t) {
    ThreadSearch tree(p, search_seed + static_cast<uint64_t>(t), config_);
    const bool owner = t == 0;
    const int64_t share =
        config_.iterations > 0 ? ThreadShare(config_.iterations, threads, t) : INT64_MAX;
    done[t] = tree.Run(share, [&](int64_t i) {
      if (owner ? Checked(interrupt) : Stopped(interrupt)) return true;
      // The clock is read every 16 iterations (a playout is microseconds), from the 16th on:
      // however small the time budget, every thread runs at least one iteration.
      return timed && i > 0 && i % 16 == 0 && std::chrono::steady_clock::now() >= deadline;
    });
    tree.AddRootVisits(&visits[t]);
  };
  std::vector<std::thread> workers;
  for (int t = 1; t < threads; ++t) workers.emplace_back(run, t);
  run(0);
  for (std::thread& w : workers) w.join();
  if (Stopped(interrupt)) return false;
  ++searches_;
  for (int t = 0; t < threads; ++t) {
    result->iterations += done[t];
    for (int i = 0; i < num_legal; ++i) result->visits[i] += visits[t][i];
  }
  return true;
}

}  // namespace vikinger
