// Tree (see tree.h).
#include "search/tree.h"

#include "rules/equality.h"
#include "rules/legal_set.h"

namespace vikinger {

Tree::Tree(const Position& root, bool keep_positions) : keep_positions_(keep_positions) {
  Reset(root);
}

void Tree::Reset(const Position& root) {
  nodes_.clear();
  edges_.clear();
  outcomes_.clear();
  positions_.clear();
  AddNode(root);
}

int32_t Tree::AddNode(const Position& p) {
  TreeNode node;
  node.player = static_cast<int8_t>(IsTerminal(p) ? kTerminal : CurrentPlayer(p));
  node.first_edge = static_cast<int32_t>(edges_.size());
  if (!IsTerminal(p)) {
    int ids[kMaxLegalActions];
    node.num_edges = LegalActions(p, ids);
    for (int i = 0; i < node.num_edges; ++i) {
      TreeEdge edge;
      edge.action = ids[i];
      edges_.push_back(edge);
    }
  }
  nodes_.push_back(node);
  if (keep_positions_) positions_.push_back(p);
  return static_cast<int32_t>(nodes_.size() - 1);
}

int32_t Tree::Follow(int32_t edge, Position* p, SplitMix64* rng, uint64_t* key) const {
  ApplyLegalAction(*p, edges_[edge].action);
  *key = 0;
  while (IsChanceNode(*p)) {
    LegalSet unused;
    *key = Mix(*key ^ static_cast<uint64_t>(ApplySampledChance(*p, rng->Uniform(), &unused)));
  }
  for (int32_t o = edges_[edge].first_outcome; o >= 0; o = outcomes_[o].next) {
    if (outcomes_[o].key == *key) return outcomes_[o].node;
  }
  return -1;
}

int32_t Tree::AddChild(int32_t edge, uint64_t key, const Position& p) {
  const int32_t child = AddNode(p);
  outcomes_.push_back({key, child, edges_[edge].first_outcome});
  edges_[edge].first_outcome = static_cast<int32_t>(outcomes_.size() - 1);
  return child;
}

void Tree::Backup(const TreePath& path, const double* value, int num_players) {
  for (const auto& [node, edge] : path) {
    ++nodes_[node].visits;
    ++edges_[edge].visits;
    for (int i = 0; i < num_players; ++i) edges_[edge].value[i] += value[i];
  }
}

int32_t Tree::FindRootChild(const Position& p) const {
  const TreeNode& root = nodes_[0];
  for (int i = 0; i < root.num_edges; ++i) {
    for (int32_t o = edges_[root.first_edge + i].first_outcome; o >= 0; o = outcomes_[o].next) {
      if (SamePosition(positions_[outcomes_[o].node], p)) return outcomes_[o].node;
    }
  }
  return -1;
}

void Tree::Reroot(int32_t root) {
  std::vector<TreeNode> nodes;
  std::vector<TreeEdge> edges;
  std::vector<TreeOutcome> outcomes;
  std::vector<Position> positions;
  std::vector<int32_t> old_of_new{root};
  std::vector<int32_t> chain;
  for (size_t at = 0; at < old_of_new.size(); ++at) {
    TreeNode node = nodes_[old_of_new[at]];
    const int32_t old_first = node.first_edge;
    node.first_edge = static_cast<int32_t>(edges.size());
    for (int i = 0; i < node.num_edges; ++i) {
      TreeEdge edge = edges_[old_first + i];
      // Relinked oldest first, so that the list keeps its order (the newest first).
      chain.clear();
      for (int32_t o = edge.first_outcome; o >= 0; o = outcomes_[o].next) chain.push_back(o);
      int32_t head = -1;
      for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
        old_of_new.push_back(outcomes_[*it].node);
        outcomes.push_back({outcomes_[*it].key, static_cast<int32_t>(old_of_new.size() - 1), head});
        head = static_cast<int32_t>(outcomes.size() - 1);
      }
      edge.first_outcome = head;
      edges.push_back(edge);
    }
    nodes.push_back(node);
    if (keep_positions_) positions.push_back(positions_[old_of_new[at]]);
  }
  nodes_ = std::move(nodes);
  edges_ = std::move(edges);
  outcomes_ = std::move(outcomes);
  positions_ = std::move(positions);
}

}  // namespace vikinger
