// Tree: the search tree both searches grow, MCTS (mcts.h) and PUCT (puct.h): node and edge
// storage, node building, the chance-child step, the backup loop and re-rooting. The reference's
// tree.py is its twin, step for step (docs/search.md "The tree").
//
// The tree holds decision and terminal nodes only; forced decisions are applied by the state
// machine and never reach it. A node's edges are its legal actions in id order. An edge (node,
// action) applies its action and then samples every chance node on the way with the search's
// splitmix64 stream, one uniform each (the outcome of docs/api.md's rule, as
// apply_random_chance), until a decision or terminal node is reached; the edge keeps one child per
// chance history seen, keyed by key = mix(key ^ id) over the chance ids drawn (0 for none), the
// newest first. So the chance children are visited in proportion to their probabilities and the
// edge's value is their average.
//
// Node 0 is the root. A backup adds one visit and the leaf's value vector (per player) to every
// node and edge of the path. The fields that only PUCT reads (status, solved, value, prior and
// the virtual visits) stay at their defaults in an MCTS tree.
#ifndef VIKINGER_TREE_H_
#define VIKINGER_TREE_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "base/rng.h"
#include "rules/state.h"

namespace vikinger {

// The fields both searches read come first: an MCTS selection touches only the first 48 bytes.
struct TreeEdge {
  int action;
  int32_t first_outcome = -1;  // the children seen, listed through TreeOutcome::next
  int64_t visits = 0;
  double value[kMaxPlayers] = {};
  int64_t virtual_visits = 0;  // PUCT: descents through it not yet backed up, times the loss
  double prior = 0.0;          // PUCT: P(s, a)
  bool final = false;          // PUCT: the action ends the game (looked at in round 6, puct.h)
};

struct TreeOutcome {
  uint64_t key;  // the chance ids drawn on the way
  int32_t node;
  int32_t next;
};

struct TreeNode {
  int8_t player;       // kTerminal at a terminal node
  uint8_t status = 0;  // PUCT: new, waiting for its evaluation, or expanded (puct.h)
  int32_t first_edge = 0;
  int32_t num_edges = 0;
  int32_t solved = -1;  // PUCT: the index of its exact returns once solved (puct.h), else -1
  int64_t visits = 0;
  int64_t virtual_visits = 0;  // PUCT
  double value = 0.0;          // PUCT: the evaluator's value for the mover, once expanded
};

// The (node, edge) pairs of one descent, from the root down.
using TreePath = std::vector<std::pair<int32_t, int32_t>>;

class Tree {
 public:
  // keep_positions: every node keeps its position (PUCT reads its leaves and re-roots by them).
  Tree(const Position& root, bool keep_positions);

  // Starts anew with the single node `root`.
  void Reset(const Position& root);
  // Applies the action of `edge` to `p`, then samples the chance nodes on the way with `rng`.
  // Returns the child kept for this chance history, or -1 when there is none yet; `key` is the
  // history's key (for AddChild).
  int32_t Follow(int32_t edge, Position* p, SplitMix64* rng, uint64_t* key) const;
  // A new node of position `p` (after Follow found none), listed as the child of `edge` for
  // chance history `key`.
  int32_t AddChild(int32_t edge, uint64_t key, const Position& p);
  // One visit with `value` (one entry per player) added to every node and edge of `path`.
  void Backup(const TreePath& path, const double* value, int num_players);
  // The first child of the root (edges in action order, each one's children newest first) whose
  // position equals `p` (SamePosition); -1 when there is none. Needs keep_positions.
  int32_t FindRootChild(const Position& p) const;
  // Node `root` becomes the root: its subtree is copied breadth first into fresh arrays (the
  // outcome lists in their order), the rest of the tree is dropped.
  void Reroot(int32_t root);

  TreeNode& node(int32_t i) { return nodes_[i]; }
  const TreeNode& node(int32_t i) const { return nodes_[i]; }
  TreeEdge& edge(int32_t i) { return edges_[i]; }
  const TreeEdge& edge(int32_t i) const { return edges_[i]; }
  const Position& position(int32_t i) const { return positions_[i]; }
  int64_t size() const { return static_cast<int64_t>(nodes_.size()); }

 private:
  int32_t AddNode(const Position& p);

  bool keep_positions_;
  std::vector<TreeNode> nodes_;
  std::vector<TreeEdge> edges_;
  std::vector<TreeOutcome> outcomes_;
  std::vector<Position> positions_;
};

}  // namespace vikinger

#endif  // VIKINGER_TREE_H_
