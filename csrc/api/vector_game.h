// A batch of games stepped together for reinforcement-learning loops (docs/api.md
// "VectorGame").
//
// Every environment always waits at a decision node: chance is sampled inside from the
// environment's own splitmix64 stream (environment i: seed + i, one number per chance node,
// outcome chosen as apply_random_chance does; the stream runs on across the environment's
// games). When a game ends its results go to the final_* arrays, done[i] is set and a new game
// starts at once. All arrays are allocated once by the constructor; the Write* calls and Step
// write into them, so Python can hold numpy views of them. No allocation per step.
#ifndef VIKINGER_VECTOR_GAME_H_
#define VIKINGER_VECTOR_GAME_H_

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "api/game.h"
#include "base/interrupt.h"
#include "base/rng.h"
#include "rules/legal_set.h"
#include "rules/state.h"

namespace vikinger {

class VectorGame {
 public:
  // Throws std::invalid_argument for batch_size < 1 or above 2**24. The calling thread checks
  // `interrupt` (may be null) while it starts the games; once it is stopped the object is only
  // fit to be destroyed (the bindings then raise KeyboardInterrupt and drop it).
  VectorGame(const Game& game, int64_t batch_size, uint64_t seed, Interrupt* interrupt = nullptr);
  VectorGame(const VectorGame&) = delete;
  VectorGame& operator=(const VectorGame&) = delete;

  // Held by the bindings for every method, so that one object shared by several Python threads
  // is used by one at a time (docs/api.md "Threads and Ctrl-C").
  std::mutex& mutex() { return mutex_; }

  const Game& game() const { return game_; }
  int batch_size() const { return batch_size_; }
  int observation_size() const { return observation_size_; }

  // (batch, num_distinct_actions): the legal decisions of each environment.
  const bool* WriteLegalMask();
  // (batch, observation size): each environment seen by its player to move.
  const float* WriteObservations();
  // (batch,): the player to move in each environment.
  const int32_t* WriteCurrentPlayers();

  // Applies actions[i] in environment i, then samples chance, recording and restarting finished
  // games. Every action is checked first: an illegal one throws std::invalid_argument naming
  // its environment, and nothing changes. A large batch checks `interrupt` (may be null) as it
  // goes; once it is stopped every environment is put back as it was and Step returns false.
  // `where` (may be null: every environment) selects the environments that move: the others are
  // left as they are (their actions unchecked, done[i] false), as single-agent loops need while
  // opponents play in some environments only.
  // `observers` (may be null: the mover) names, per environment, the player whose view of a
  // finished game goes to final_observation.
  bool Step(const int64_t* actions, Interrupt* interrupt = nullptr, const bool* where = nullptr,
            const int32_t* observers = nullptr);

  // RandomBot's move in the environments where `where` is true: legal[floor(u * len(legal))],
  // u the next uniform of the splitmix64 stream whose state is streams[i] (advanced in place
  // only when the step is done), then Step with those actions. Opponents of a single-agent loop
  // played without leaving C++.
  bool PlayRandom(const bool* where, uint64_t* streams, const int32_t* observers = nullptr,
                  Interrupt* interrupt = nullptr);

  // Environment i as pickling writes it: its position, the state of its chance stream and the
  // actions applied in its current game.
  const Position& position(int i) const { return states_[i]; }
  uint64_t stream_state(int i) const { return streams_[i].state(); }
  int32_t length(int i) const { return lengths_[i]; }
  // Puts environment i where a pickled one was. Throws std::invalid_argument unless `position`
  // is a decision node (every environment waits at one) and `length` >= 0.
  void Restore(int i, const Position& position, uint64_t stream_state, int64_t length);

  bool* done() { return done_.get(); }
  int32_t* final_scores() { return final_scores_.data(); }
  int32_t* final_gold() { return final_gold_.data(); }
  double* final_returns() { return final_returns_.data(); }
  int32_t* final_length() { return final_length_.data(); }
  float* final_observation() { return final_observation_.get(); }
  bool* legal_mask() { return legal_mask_.get(); }
  float* observations() { return observations_.get(); }
  int32_t* players() { return players_.data(); }

 private:
  // What Step changes in one environment, kept to put it back after an interrupt.
  struct Saved {
    Position state;
    LegalSet legal;
    SplitMix64 stream{0};
    int32_t length = 0;
    bool done = false;
  };
  // The final_* row of an environment whose game ended during an interrupted Step.
  struct SavedFinal {
    int env;
    std::vector<int32_t> scores, gold;
    std::vector<double> returns;
    int32_t length;
    std::vector<float> observation;
  };

  void SampleChance(int i);
  void NewGame(int i);
  // `finals` (may be null) receives the final_* row a finished game overwrites.
  void StepEnvironment(int i, int64_t action, std::vector<SavedFinal>* finals, int observer);
  SavedFinal SaveFinal(int i) const;
  void Restore(int end, const std::vector<SavedFinal>& finals);

  std::mutex mutex_;
  std::vector<Saved> saved_;  // sized at the first interruptible Step

  Game game_;
  int batch_size_;
  int observation_size_;
  std::vector<Position> states_;
  std::vector<LegalSet> legal_;  // the legal decisions of each environment
  std::vector<SplitMix64> streams_;
  std::vector<int32_t> lengths_;  // actions applied in each environment's current game
  // The three large arrays (batch x 2036 or x observation size) are zeroed environment by
  // environment as the constructor starts the games, so that a large batch can be interrupted
  // while its pages are being touched.
  std::unique_ptr<bool[]> legal_mask_;
  std::unique_ptr<float[]> observations_;
  std::vector<int32_t> players_;
  std::unique_ptr<bool[]> done_;
  std::vector<int32_t> final_scores_;
  std::vector<int32_t> final_gold_;
  std::vector<double> final_returns_;
  std::vector<int32_t> final_length_;
  std::unique_ptr<float[]> final_observation_;
};

}  // namespace vikinger

#endif  // VIKINGER_VECTOR_GAME_H_
