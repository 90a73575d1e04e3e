// RandomBot and GreedyBot (see bots.h).
#include "search/bots.h"

#include <stdexcept>
#include <string>

#include "rules/legal_set.h"
#include "search/evaluation.h"

namespace vikinger {

namespace {

std::vector<int> LegalList(const Position& p) {
  int ids[kMaxLegalActions];
  const int n = LegalActions(p, ids);
  return std::vector<int>(ids, ids + n);
}

// floor(u * n) for u in [0, 1): an index below n.
int IndexBelow(double u, size_t n) { return static_cast<int>(u * static_cast<double>(n)); }

}  // namespace

void CheckDecisionNode(const Game& game, const Position& p, const char* method) {
  const Game of_state{p.num_players, p.options};
  if (!(of_state == game)) {
    throw std::invalid_argument(std::string(method) + " got a state of " + GameRepr(of_state) +
                                ", the bot plays " + GameRepr(game));
  }
  if (IsTerminal(p)) {
    throw std::invalid_argument(std::string(method) +
                                " needs a decision node, not a terminal state");
  }
  if (IsChanceNode(p)) {
    throw std::invalid_argument(std::string(method) + " needs a decision node, not a chance node");
  }
}

int RandomBot::Step(const Position& p) {
  CheckDecisionNode(game(), p, "step");
  const std::vector<int> legal = LegalList(p);
  return legal[IndexBelow(rng().Uniform(), legal.size())];
}

ActionPolicy RandomBot::Policy(const Position& p) const {
  CheckDecisionNode(game(), p, "policy");
  ActionPolicy policy;
  const std::vector<int> legal = LegalList(p);
  for (int action : legal) policy.emplace_back(action, 1.0 / static_cast<double>(legal.size()));
  return policy;
}

void GreedyBot::BestActions(const Position& p, std::vector<int>* legal,
                            std::vector<int>* best) const {
  *legal = LegalList(p);
  const int mover = CurrentPlayer(p);
  double best_value = -1.0;
  for (int action : *legal) {
    Position next = p;
    ApplyLegalAction(next, action);
    double values[kMaxPlayers];
    Evaluate(next, values);
    if (values[mover] > best_value) {
      best_value = values[mover];
      best->clear();
    }
    if (values[mover] == best_value) best->push_back(action);
  }
}

int GreedyBot::Step(const Position& p) {
  CheckDecisionNode(game(), p, "step");
  std::vector<int> legal;
  std::vector<int> best;
  BestActions(p, &legal, &best);
  return best.size() == 1 ? best[0] : best[IndexBelow(rng().Uniform(), best.size())];
}

ActionPolicy GreedyBot::Policy(const Position& p) const {
  CheckDecisionNode(game(), p, "policy");
  std::vector<int> legal;
  std::vector<int> best;
  BestActions(p, &legal, &best);
  ActionPolicy policy;
  size_t next_best = 0;
  for (int action : legal) {
    const bool is_best = next_best < best.size() && best[next_best] == action;
    next_best += is_best;
    policy.emplace_back(action, is_best ? 1.0 / static_cast<double>(best.size()) : 0.0);
  }
  return policy;
}

}  // namespace vikinger
