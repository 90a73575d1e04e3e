// Bots with one interface (docs/search.md "Bots"): Step(state) -> action, Policy(state) -> the
// legal actions with probabilities, Restart(). RandomBot and GreedyBot live here; MCTSBot in
// mcts.h. The reference's bots.py gives the same actions for the same seeds.
//
// A bot plays one Game and answers at decision nodes only: CheckDecisionNode throws
// std::invalid_argument (ValueError) for a terminal state, a chance node or a state of another
// game, with the messages of docs/search.md.
#ifndef VIKINGER_BOTS_H_
#define VIKINGER_BOTS_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "api/game.h"
#include "base/rng.h"
#include "rules/state.h"

namespace vikinger {

using ActionPolicy = std::vector<std::pair<int, double>>;

// std::invalid_argument unless `p` is a decision node of `game`; `method` names the call.
void CheckDecisionNode(const Game& game, const Position& p, const char* method);

// What RandomBot and GreedyBot share: the game they play, their seed and the splitmix64 stream
// drawn from it.
class SeededBot {
 public:
  SeededBot(const Game& game, uint64_t seed) : game_(game), seed_(seed), rng_(seed) {}
  void Restart() { rng_ = SplitMix64(seed_); }
  const Game& game() const { return game_; }
  // Pickling: the seed and where the stream is; SetStream(stream()) goes on with the same moves.
  uint64_t seed() const { return seed_; }
  uint64_t stream() const { return rng_.state(); }
  void SetStream(uint64_t state) { rng_ = SplitMix64(state); }

 protected:
  SplitMix64& rng() { return rng_; }

 private:
  Game game_;
  uint64_t seed_;
  SplitMix64 rng_;
};

// Uniformly random: legal[floor(u * len(legal))] with u the next uniform of splitmix64(seed).
class RandomBot : public SeededBot {
 public:
  using SeededBot::SeededBot;
  int Step(const Position& p);
  ActionPolicy Policy(const Position& p) const;
};

// One ply on the evaluation (evaluation.h): the action whose successor position gives the mover
// the highest value. Several actions with exactly the same value: the tied action
// tied[floor(u * len(tied))], u the next uniform of splitmix64(seed) (drawn only for a tie).
class GreedyBot : public SeededBot {
 public:
  using SeededBot::SeededBot;
  int Step(const Position& p);
  // The best actions share 1 equally, the others get 0.
  ActionPolicy Policy(const Position& p) const;

 private:
  // The legal actions and, in `best`, those of the highest value for the mover.
  void BestActions(const Position& p, std::vector<int>* legal, std::vector<int>* best) const;
};

}  // namespace vikinger

#endif  // VIKINGER_BOTS_H_
