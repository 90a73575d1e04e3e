// PuctTree: one search tree guided by priors and values from an evaluator (docs/neural.md), the
// AlphaZero selection rule (Silver et al. 2017, 2018) with virtual loss so that one tree can put
// several leaves into one evaluator batch. The reference's puct.py follows it step for step.
//
// The nodes, edges and chance children are tree.h's, the chance outcomes drawn from the tree's
// own splitmix64 stream; a backup adds one visit with the leaf value to every node and edge of
// the path (tree.h), and to the leaf itself.
//
// Selection at an expanded node s with mover m, N = N(s) + V(s), n = N(s, a) + V(s, a) (V: the
// virtual visits of descents not yet backed up):
//   Q(s, a) = W_m(s, a) / n (0 when n = 0),   c(s) = c_init (+ log((1 + N + c_base) / c_base) if
//   c_base > 0),   score = Q(s, a) + c(s) * P(s, a) * sqrt(N) / (1 + n);
// the first edge in action order with the highest score. A final edge (its action ends the game,
// marked when s is first reached in round 6) scores +infinity until visited, then its exact Q
// alone: a game's end is known, not explored, whatever its prior. N(s) counts every backup through
// s, its own evaluation included. A descent adds `virtual_loss` virtual visits of value 0 to every
// node and edge it passes; the backup replaces them by one real visit carrying the leaf value.
//
// The endgame solver in the tree (docs/neural.md "The solver in the search"): with
// solver_nodes > 0, a new leaf other than the root that is a round-6 decision node with no chance
// ahead is first solved within solver_nodes nodes (solver.h). When the solver finishes, the leaf
// is solved: it is never evaluated or expanded, and this and every later descent reaching it
// backs up the B8.9 returns of its exact margins (MarginReturns), as at a terminal node.
//
// The score utility (docs/neural.md "Score-aware values"): with score_utility = w > 0 a terminal
// node and a solved leaf back up (1 - w) * their returns + w * (score + 1) / 2 per player, the
// score tanh(margin / 512), or with score_scale = D > 0 tanh((margin - centre) / (64 * D)), the
// centre the root's projected margin (solver.h's MarginUtilities); the evaluator's values are
// taken as given (the batched search blends a Network's score head into them).
#ifndef VIKINGER_PUCT_H_
#define VIKINGER_PUCT_H_

#include <array>
#include <cstdint>
#include <vector>

#include "base/rng.h"
#include "rules/state.h"
#include "search/gumbel.h"
#include "search/tree.h"

namespace vikinger {

struct PuctConfig {
  int64_t simulations = 1;  // per root and search: leaf evaluations and terminal visits
  double c_init = 1.25;
  double c_base = 0.0;           // 0: c(s) = c_init, fixed
  double dirichlet_alpha = 0.0;  // 0: no root noise
  double dirichlet_fraction = 0.25;
  int64_t virtual_loss = 1;
  int64_t solver_nodes = 0;    // 0: no solver in the tree
  double score_utility = 0.0;  // w of the score utility, in [0, 1]; 0: win shares alone
  double score_scale = 0.0;    // D (Fame) of the centred score; 0: tanh(margin / 512)
  GumbelConfig gumbel;         // enabled: the root of gumbel.h instead of PUCT and noise
};

// std::invalid_argument naming the first bad field (the messages of docs/neural.md).
void CheckPuctConfig(const PuctConfig& config);

// Gamma(alpha, 1) and the Box-Muller normal it uses, from a splitmix64 stream: the operations in
// the order puct.py does them, so both engines draw the same numbers (docs/neural.md).
double SampleNormal(SplitMix64& rng);
double SampleGamma(double alpha, SplitMix64& rng);

enum class Descent { kLeaf, kTerminal, kCollision };

// What one search left at the root, in action order.
struct RootStats {
  std::vector<int> actions;
  std::vector<int64_t> visits;
  std::vector<double> priors;           // as selection used them (with the noise)
  std::vector<double> q;                // W_m / N(s, a) for the mover m, 0 unvisited
  std::vector<double> value;            // per player: sum of the edges' W / sum of their visits
  std::vector<double> improved_policy;  // gumbel.h's pi' (with or without the Gumbel root)
  double network_value = 0.0;           // v_hat: the evaluator's value of the root for its mover
  int selected = -1;                    // Gumbel: the selected action; PUCT: the most visited
};

class PuctTree {
 public:
  // `root` must be a decision node; `config` must outlive the tree.
  PuctTree(const Position& root, uint64_t seed, const PuctConfig* config);

  // Starts a search: the budget counts again from 0; the root gets fresh noise.
  void BeginSearch();
  // Whether a descent may start now: the root is not waiting for its evaluation and the budget
  // is not spent (simulations done + in flight).
  bool WantsDescent() const;
  bool SearchDone() const { return done_ >= config_->simulations && pending_.empty(); }
  // One descent from the root. kLeaf: a new leaf waits for its evaluation (LeafPosition(index)
  // with index = PendingCount() - 1); kTerminal: a terminal node was reached and backed up;
  // kCollision: the descent met a leaf already waiting, and was undone.
  Descent Descend();
  int PendingCount() const { return static_cast<int>(pending_.size()); }
  const Position& LeafPosition(int index) const { return tree_.position(pending_[index].leaf); }
  // The legal actions of pending leaf `index` (its edges, in id order) into `out`; their number.
  int LeafActions(int index, int* out) const;
  // -1 when the logits of pending leaf `index`'s legal actions are finite, else the first legal
  // action (in id order) whose logit is not.
  int FirstNonFiniteLogit(int index, const float* logits) const;
  // The evaluation of pending leaf `index`: logits over all decision ids (only the leaf's legal
  // ones read) and values relative to the mover (values[k] for player (mover + k) % n).
  void Expand(int index, const float* logits, const float* values);
  // After every pending leaf was expanded.
  void ClearPending() { pending_.clear(); }
  // Undoes the descents of the pending leaves (an evaluator failed): the tree is as before them.
  void CancelPending();
  // Moves the root to the child whose position is `p` (found among the root's children, any
  // chance history), keeping its subtree; else starts a new tree at `p`. True when reused.
  // With score_scale > 0 a tree always starts anew: its values are centred on its root.
  bool Advance(const Position& p);
  RootStats Root() const;
  // The root's projected margins per player, the centre of the score (score_scale > 0).
  const double* ScoreCentre() const { return centre_.data(); }

 private:
  enum : uint8_t { kNew, kPending, kExpanded, kSolved };  // TreeNode::status
  struct Pending {
    TreePath path;
    int32_t leaf;
  };

  void Backup(const TreePath& path, int32_t leaf, const double* value, bool real);
  // Marks the edges of the new leaf `node` at position `p` whose action ends the game (in round
  // 6, the only round where one can): SelectEdge tries such an edge first, then takes its exact
  // value without an exploration bonus (docs/neural.md "Final edges").
  void MarkFinalEdges(const TreeNode& node, const Position& p);
  // Solves the new leaf `node` at position `p` when the solver is on and may take it; true when
  // it finished (the node is then kSolved).
  bool Solve(int32_t node, const Position& p);
  void AddNoise();
  void Reset(const Position& root);
  void StartGumbel();
  int32_t SelectEdge(const TreeNode& node) const;
  // The root's edges: visits, q for the mover, network priors (before noise).
  void RootArrays(std::vector<int64_t>* visits, std::vector<double>* q) const;
  std::vector<double> NetworkPriors() const;

  const PuctConfig* config_;
  SplitMix64 rng_;
  int num_players_;
  int64_t done_ = 0;
  Tree tree_;
  std::vector<Pending> pending_;
  TreePath path_;
  std::vector<double> root_priors_;  // the network's root priors while noise replaces them
  std::array<double, kMaxPlayers> centre_{};
  GumbelRoot gumbel_;
  std::vector<std::array<double, kMaxPlayers>> solved_;  // TreeNode::solved indexes it
};

}  // namespace vikinger

#endif  // VIKINGER_PUCT_H_
