// PuctTree (see puct.h; docs/neural.md has the formulas and papers).
#include "search/puct.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "search/solver.h"

// Bit-identical with puct.py: no fused multiply-add (GCC's ISO mode already keeps them apart).
#ifdef __clang__
#pragma clang fp contract(off)
#endif

namespace vikinger {

namespace {
constexpr double kPi = 3.141592653589793;
}  // namespace

void CheckPuctConfig(const PuctConfig& c) {
  if (c.simulations < 1) throw std::invalid_argument("simulations must be >= 1");
  if (!(c.c_init >= 0.0) || std::isinf(c.c_init)) {
    throw std::invalid_argument("c_init must be finite and >= 0");
  }
  if (!(c.c_base >= 0.0) || std::isinf(c.c_base)) {
    throw std::invalid_argument("c_base must be finite and >= 0 (0: c fixed at c_init)");
  }
  if (!(c.dirichlet_alpha >= 0.0) || std::isinf(c.dirichlet_alpha)) {
    throw std::invalid_argument("dirichlet_alpha must be finite and >= 0 (0: no noise)");
  }
  if (!(c.dirichlet_fraction >= 0.0 && c.dirichlet_fraction <= 1.0)) {
    throw std::invalid_argument("dirichlet_fraction must be in [0, 1]");
  }
  if (c.virtual_loss < 0) throw std::invalid_argument("virtual_loss must be >= 0");
  if (c.solver_nodes < 0) throw std::invalid_argument("solver_nodes must be >= 0");
  if (!(c.score_utility >= 0.0 && c.score_utility <= 1.0)) {
    throw std::invalid_argument("score_utility must be in [0, 1]");
  }
  if (!(c.score_scale >= 0.0) || std::isinf(c.score_scale)) {
    throw std::invalid_argument("score_scale must be finite and >= 0 (0: not centred)");
  }
  if (c.gumbel.enabled) {
    if (c.dirichlet_alpha > 0.0) {
      throw std::invalid_argument("gumbel and dirichlet_alpha exclude each other");
    }
    if (c.gumbel.max_considered < 1) throw std::invalid_argument("max_considered must be >= 1");
    if (!(c.gumbel.c_visit >= 0.0) || std::isinf(c.gumbel.c_visit)) {
      throw std::invalid_argument("c_visit must be finite and >= 0");
    }
    if (!(c.gumbel.c_scale >= 0.0) || std::isinf(c.gumbel.c_scale)) {
      throw std::invalid_argument("c_scale must be finite and >= 0");
    }
  }
}

double SampleNormal(SplitMix64& rng) {
  const double u1 = 1.0 - rng.Uniform();  // (0, 1]: log(u1) is finite
  const double u2 = rng.Uniform();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * kPi * u2);
}

// Marsaglia and Tsang (2000) for alpha >= 1; alpha < 1 through Gamma(alpha + 1) * U^(1/alpha).
double SampleGamma(double alpha, SplitMix64& rng) {
  if (alpha < 1.0) {
    const double g = SampleGamma(alpha + 1.0, rng);
    const double u = 1.0 - rng.Uniform();
    return g * std::pow(u, 1.0 / alpha);
  }
  const double d = alpha - 1.0 / 3.0;
  const double c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    const double x = SampleNormal(rng);
    double v = 1.0 + c * x;
    if (v <= 0.0) continue;
    v = v * v * v;
    const double u = 1.0 - rng.Uniform();
    if (std::log(u) < 0.5 * x * x + d - d * v + d * std::log(v)) return d * v;
  }
}

PuctTree::PuctTree(const Position& root, uint64_t seed, const PuctConfig* config)
    : config_(config),
      rng_(seed),
      num_players_(root.num_players),
      tree_(root, /*keep_positions=*/true) {
  if (config_->score_scale > 0.0) ProjectedMargins(root, centre_.data());
}

void PuctTree::Reset(const Position& root) {
  tree_.Reset(root);
  if (config_->score_scale > 0.0) ProjectedMargins(root, centre_.data());
  pending_.clear();
  root_priors_.clear();
  solved_.clear();
  done_ = 0;
}

void PuctTree::BeginSearch() {
  done_ = 0;
  if (tree_.node(0).status != kExpanded) return;
  if (config_->dirichlet_alpha > 0.0) AddNoise();
  if (config_->gumbel.enabled) StartGumbel();
}

void PuctTree::StartGumbel() {
  gumbel_.Start(config_->gumbel, NetworkPriors(), config_->simulations, rng_);
}

std::vector<double> PuctTree::NetworkPriors() const {
  if (!root_priors_.empty()) return root_priors_;
  const TreeNode& root = tree_.node(0);
  std::vector<double> priors;
  for (int i = 0; i < root.num_edges; ++i) priors.push_back(tree_.edge(root.first_edge + i).prior);
  return priors;
}

void PuctTree::RootArrays(std::vector<int64_t>* visits, std::vector<double>* q) const {
  const TreeNode& root = tree_.node(0);
  visits->clear();
  q->clear();
  for (int i = 0; i < root.num_edges; ++i) {
    const TreeEdge& edge = tree_.edge(root.first_edge + i);
    visits->push_back(edge.visits);
    q->push_back(edge.visits > 0 ? edge.value[root.player] / static_cast<double>(edge.visits)
                                 : 0.0);
  }
}

bool PuctTree::WantsDescent() const {
  const uint8_t status = tree_.node(0).status;
  if (status == kNew) return true;
  if (status == kPending) return false;
  if (config_->gumbel.enabled && gumbel_.Next() < 0) return false;
  return done_ + static_cast<int64_t>(pending_.size()) < config_->simulations;
}

int32_t PuctTree::SelectEdge(const TreeNode& node) const {
  const TreeEdge* edges = &tree_.edge(node.first_edge);
  const double total = static_cast<double>(node.visits + node.virtual_visits);
  double c = config_->c_init;
  if (config_->c_base > 0.0) {
    c = std::log((1.0 + total + config_->c_base) / config_->c_base) + config_->c_init;
  }
  const double scale = c * std::sqrt(total);
  int best = 0;
  double best_score = 0.0;
  for (int i = 0; i < node.num_edges; ++i) {
    const int64_t n = edges[i].visits + edges[i].virtual_visits;
    double score;
    if (edges[i].final) {
      // A final child: tried first, then its exact value, with nothing left to explore.
      score = n > 0 ? edges[i].value[node.player] / static_cast<double>(n)
                    : std::numeric_limits<double>::infinity();
    } else {
      // Unvisited: Q = 0 and 1 + n = 1, so the score is exactly scale * prior (no division).
      score = n > 0 ? edges[i].value[node.player] / static_cast<double>(n) +
                          scale * edges[i].prior / static_cast<double>(1 + n)
                    : scale * edges[i].prior;
    }
    if (i == 0 || score > best_score) {
      best = i;
      best_score = score;
    }
  }
  return node.first_edge + best;
}

Descent PuctTree::Descend() {
  const int64_t loss = config_->virtual_loss;
  path_.clear();
  int32_t node = 0;
  // The root's position, with the path's actions and chance applied on the way: one copy from a
  // root that stays in cache, not one from each node's (a cache miss per level).
  Position p = tree_.position(0);
  for (;;) {
    TreeNode& at = tree_.node(node);
    if (at.player == kTerminal) {
      double value[kMaxPlayers];
      Returns(p, value);
      if (config_->score_utility > 0.0) {
        int64_t margins[kMaxPlayers];
        FinalMargins(p, margins);
        MarginUtilities(margins, num_players_, config_->score_utility, centre_.data(),
                        config_->score_scale, value);
      }
      Backup(path_, node, value, true);
      ++done_;
      return Descent::kTerminal;
    }
    if (at.status == kPending) {
      Backup(path_, node, nullptr, false);
      return Descent::kCollision;
    }
    if (at.status == kSolved || (at.status == kNew && node != 0 && Solve(node, p))) {
      Backup(path_, node, solved_[tree_.node(node).solved].data(), true);
      ++done_;
      return Descent::kTerminal;
    }
    if (at.status == kNew) {
      at.status = kPending;
      MarkFinalEdges(at, p);
      pending_.push_back({path_, node});
      return Descent::kLeaf;
    }
    int32_t edge;
    if (node == 0 && config_->gumbel.enabled) {
      const int index = gumbel_.Next();  // >= 0: WantsDescent said so
      gumbel_.Schedule(index);
      edge = at.first_edge + index;
    } else {
      edge = SelectEdge(at);
    }
    at.virtual_visits += loss;
    tree_.edge(edge).virtual_visits += loss;
    path_.push_back({node, edge});
    uint64_t key;
    int32_t child = tree_.Follow(edge, &p, &rng_, &key);
    if (child < 0) child = tree_.AddChild(edge, key, p);
    node = child;
  }
}

void PuctTree::MarkFinalEdges(const TreeNode& node, const Position& p) {
  if (p.round != kNumRounds) return;  // only round 6's last decisions can end the game
  TreeEdge* edges = &tree_.edge(node.first_edge);
  for (int i = 0; i < node.num_edges; ++i) {
    Position next = p;
    ApplyLegalAction(next, edges[i].action);
    edges[i].final = IsTerminal(next);
  }
}

bool PuctTree::Solve(int32_t node, const Position& p) {
  if (config_->solver_nodes == 0 || !NoChanceAhead(p)) return false;
  SolverResult result;
  // The memory bound reached is giving up too, as in MCTSBot.
  if (SolveEndgame(p, config_->solver_nodes, DefaultSolverMemory(), /*interrupt=*/nullptr,
                   &result) != SolveStatus::kSolved) {
    return false;
  }
  std::array<double, kMaxPlayers> returns{};
  MarginReturns(result.margins, num_players_, returns.data());
  if (config_->score_utility > 0.0) {
    MarginUtilities(result.margins, num_players_, config_->score_utility, centre_.data(),
                    config_->score_scale, returns.data());
  }
  solved_.push_back(returns);
  TreeNode& solved = tree_.node(node);
  solved.status = kSolved;
  solved.solved = static_cast<int32_t>(solved_.size() - 1);
  return true;
}

// real: one visit with `value` replaces the virtual ones; else the virtual visits are removed.
void PuctTree::Backup(const TreePath& path, int32_t leaf, const double* value, bool real) {
  const int64_t loss = config_->virtual_loss;
  for (const auto& [node, edge] : path) {
    tree_.node(node).virtual_visits -= loss;
    tree_.edge(edge).virtual_visits -= loss;
  }
  if (real) {
    tree_.Backup(path, value, num_players_);
    ++tree_.node(leaf).visits;
  }
  if (config_->gumbel.enabled && !path.empty()) {
    const int index = path[0].second - tree_.node(0).first_edge;
    if (!real) {
      gumbel_.Unschedule(index);
      return;
    }
    std::vector<int64_t> visits;
    std::vector<double> q;
    RootArrays(&visits, &q);
    gumbel_.Completed(index, visits, q, tree_.node(0).value);
  }
}

int PuctTree::LeafActions(int index, int* out) const {
  const TreeNode& node = tree_.node(pending_[index].leaf);
  for (int i = 0; i < node.num_edges; ++i) out[i] = tree_.edge(node.first_edge + i).action;
  return node.num_edges;
}

int PuctTree::FirstNonFiniteLogit(int index, const float* logits) const {
  const TreeNode& node = tree_.node(pending_[index].leaf);
  for (int i = 0; i < node.num_edges; ++i) {
    const int action = tree_.edge(node.first_edge + i).action;
    if (!std::isfinite(logits[action])) return action;
  }
  return -1;
}

void PuctTree::Expand(int index, const float* logits, const float* values) {
  const Pending& pending = pending_[index];
  TreeNode& node = tree_.node(pending.leaf);
  TreeEdge* edges = &tree_.edge(node.first_edge);
  // Softmax over the legal logits, in action order (illegal logits are never read).
  double top = static_cast<double>(logits[edges[0].action]);
  for (int i = 1; i < node.num_edges; ++i) {
    const double logit = static_cast<double>(logits[edges[i].action]);
    if (logit > top) top = logit;
  }
  double sum = 0.0;
  for (int i = 0; i < node.num_edges; ++i) {
    edges[i].prior = std::exp(static_cast<double>(logits[edges[i].action]) - top);
    sum += edges[i].prior;
  }
  for (int i = 0; i < node.num_edges; ++i) edges[i].prior /= sum;
  node.status = kExpanded;
  node.value = static_cast<double>(values[0]);
  double value[kMaxPlayers];
  for (int k = 0; k < num_players_; ++k) {
    value[(node.player + k) % num_players_] = static_cast<double>(values[k]);
  }
  const bool root = pending.leaf == 0;
  Backup(pending.path, pending.leaf, value, true);
  if (root) {
    root_priors_.clear();
    if (config_->dirichlet_alpha > 0.0) AddNoise();
    if (config_->gumbel.enabled) StartGumbel();
  } else {
    ++done_;
  }
}

void PuctTree::CancelPending() {
  for (const Pending& pending : pending_) {
    Backup(pending.path, pending.leaf, nullptr, false);
    tree_.node(pending.leaf).status = kNew;
  }
  pending_.clear();
}

// P(root, a) = (1 - fraction) * P_net(a) + fraction * eta_a, eta ~ Dirichlet(alpha): Gamma draws
// in action order, normalized (uniform if they all underflow to 0).
void PuctTree::AddNoise() {
  const TreeNode& root = tree_.node(0);
  TreeEdge* edges = &tree_.edge(root.first_edge);
  if (root_priors_.empty()) {
    for (int i = 0; i < root.num_edges; ++i) root_priors_.push_back(edges[i].prior);
  }
  std::vector<double> eta(root.num_edges);
  double sum = 0.0;
  for (int i = 0; i < root.num_edges; ++i) {
    eta[i] = SampleGamma(config_->dirichlet_alpha, rng_);
    sum += eta[i];
  }
  const double f = config_->dirichlet_fraction;
  for (int i = 0; i < root.num_edges; ++i) {
    const double share = sum > 0.0 ? eta[i] / sum : 1.0 / root.num_edges;
    edges[i].prior = (1.0 - f) * root_priors_[i] + f * share;
  }
}

bool PuctTree::Advance(const Position& p) {
  const int32_t found = tree_.FindRootChild(p);
  // A solved node is no root: the search would never expand it. A centred score utility starts
  // anew: the subtree's values are centred on the old root.
  if (found < 0 || tree_.node(found).status == kPending || tree_.node(found).status == kSolved ||
      config_->score_scale > 0.0) {
    Reset(p);
    return false;
  }
  tree_.Reroot(found);
  root_priors_.clear();
  BeginSearch();
  return true;
}

RootStats PuctTree::Root() const {
  RootStats stats;
  const TreeNode& root = tree_.node(0);
  stats.value.assign(num_players_, 0.0);
  int64_t total = 0;
  for (int i = 0; i < root.num_edges; ++i) {
    const TreeEdge& edge = tree_.edge(root.first_edge + i);
    stats.actions.push_back(edge.action);
    stats.visits.push_back(edge.visits);
    stats.priors.push_back(edge.prior);
    stats.q.push_back(edge.visits > 0 ? edge.value[root.player] / static_cast<double>(edge.visits)
                                      : 0.0);
    for (int k = 0; k < num_players_; ++k) stats.value[k] += edge.value[k];
    total += edge.visits;
  }
  if (total > 0) {
    for (int k = 0; k < num_players_; ++k) stats.value[k] /= static_cast<double>(total);
  }
  stats.network_value = root.value;
  if (root.status != kExpanded) return stats;
  ImprovedPolicy(config_->gumbel, NetworkPriors(), stats.visits, stats.q, root.value,
                 &stats.improved_policy);
  if (config_->gumbel.enabled) {
    stats.selected = stats.actions[gumbel_.Selected(stats.visits, stats.q, root.value)];
  } else {
    size_t best = 0;
    for (size_t i = 1; i < stats.visits.size(); ++i) {
      if (stats.visits[i] > stats.visits[best]) best = i;
    }
    stats.selected = stats.actions[best];
  }
  return stats;
}

}  // namespace vikinger
