// A batch of games stepped together (docs/api.md "VectorGame").
#include "api/vector_game.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "formats/observation.h"
#include "rules/actions.h"
#include "rules/legal_set.h"

namespace vikinger {

namespace {

constexpr int64_t kMaxBatchSize = int64_t{1} << 24;
// Environments between two interrupt checks: a few milliseconds of work. A Step of at most this
// many environments never checks (it is over sooner than a user can press Ctrl-C twice), so
// small batches pay nothing for putting environments back.
constexpr int kCheckEvery = 4096;

int CheckedBatchSize(int64_t batch_size) {
  if (batch_size < 1) {
    throw std::invalid_argument("batch_size must be >= 1, not " + std::to_string(batch_size));
  }
  if (batch_size > kMaxBatchSize) {
    throw std::invalid_argument("batch_size " + std::to_string(batch_size) + " is too large");
  }
  return static_cast<int>(batch_size);
}

}  // namespace

VectorGame::VectorGame(const Game& game, int64_t batch_size, uint64_t seed, Interrupt* interrupt)
    : game_(game),
      batch_size_(CheckedBatchSize(batch_size)),
      observation_size_(ObservationSize(game.num_players)) {
  const size_t b = static_cast<size_t>(batch_size_);
  const size_t n = static_cast<size_t>(game.num_players);
  states_.resize(b);
  legal_.resize(b);
  lengths_.assign(b, 0);
  for (size_t i = 0; i < b; ++i) streams_.emplace_back(seed + i);  // mod 2**64
  legal_mask_.reset(new bool[b * kNumDistinctActions]);
  observations_.reset(new float[b * observation_size_]);
  players_.assign(b, 0);
  done_.reset(new bool[b]());
  final_scores_.assign(b * n, 0);
  final_gold_.assign(b * n, 0);
  final_returns_.assign(b * n, 0.0);
  final_length_.assign(b, 0);
  final_observation_.reset(new float[b * observation_size_]);
  const size_t obs = static_cast<size_t>(observation_size_);
  for (int i = 0; i < batch_size_; ++i) {
    if (i % kCheckEvery == 0 && Checked(interrupt)) return;
    const size_t row = static_cast<size_t>(i);
    std::fill_n(legal_mask_.get() + row * kNumDistinctActions, kNumDistinctActions, false);
    std::fill_n(observations_.get() + row * obs, obs, 0.0f);
    std::fill_n(final_observation_.get() + row * obs, obs, 0.0f);
    NewGame(i);
  }
}

void VectorGame::Restore(int i, const Position& position, uint64_t stream_state, int64_t length) {
  if (IsChanceNode(position) || IsTerminal(position)) {
    throw std::invalid_argument("environment " + std::to_string(i) + " is not at a decision node");
  }
  if (length < 0 || length > INT32_MAX) {
    throw std::invalid_argument("the length of environment " + std::to_string(i) + " is " +
                                std::to_string(length) + ", outside 0..2**31-1");
  }
  states_[i] = position;
  streams_[i] = SplitMix64(stream_state);
  lengths_[i] = static_cast<int32_t>(length);
  LegalDecisions(states_[i], &legal_[i]);
}

void VectorGame::SampleChance(int i) {
  Position& p = states_[i];
  while (IsChanceNode(p)) {
    ApplySampledChance(p, streams_[i].Uniform(), &legal_[i]);
    ++lengths_[i];
  }
}

void VectorGame::NewGame(int i) {
  InitPosition(states_[i], game_.num_players, game_.options);
  lengths_[i] = 0;
  LegalDecisions(states_[i], &legal_[i]);  // A1: a game may open with the auction
  SampleChance(i);
}

// The Write* calls rewrite arrays that callers hold as views, maybe from other threads: each
// row is made aside and stored only when it differs, so between two steps a rewrite stores
// nothing and a view read meanwhile stays as it was.
template <typename T>
void StoreChanged(const T* row, size_t size, T* out) {
  if (std::memcmp(out, row, size * sizeof(T)) != 0) std::memcpy(out, row, size * sizeof(T));
}

const bool* VectorGame::WriteLegalMask() {
  bool* mask = legal_mask_.get();
  int legal[kMaxLegalActions];
  bool row[kNumDistinctActions];
  for (int i = 0; i < batch_size_; ++i) {
    std::fill_n(row, kNumDistinctActions, false);
    const int count = legal_[i].Write(legal);
    for (int k = 0; k < count; ++k) row[legal[k]] = true;
    StoreChanged(row, kNumDistinctActions, mask + static_cast<size_t>(i) * kNumDistinctActions);
  }
  return mask;
}

const float* VectorGame::WriteObservations() {
  std::vector<float> row(static_cast<size_t>(observation_size_));
  for (int i = 0; i < batch_size_; ++i) {
    ObservationTensor(states_[i], CurrentPlayer(states_[i]), row.data());
    StoreChanged(row.data(), row.size(),
                 observations_.get() + static_cast<size_t>(i) * observation_size_);
  }
  return observations_.get();
}

const int32_t* VectorGame::WriteCurrentPlayers() {
  for (int i = 0; i < batch_size_; ++i) players_[i] = CurrentPlayer(states_[i]);
  return players_.data();
}

bool VectorGame::PlayRandom(const bool* where, uint64_t* streams, const int32_t* observers,
                            Interrupt* interrupt) {
  std::vector<int64_t> actions(states_.size(), 0);
  std::vector<uint64_t> next(streams, streams + states_.size());
  for (int i = 0; i < batch_size_; ++i) {
    if (!where[i]) continue;
    SplitMix64 stream(streams[i]);
    const double u = stream.Uniform();
    actions[i] = legal_[i].Nth(static_cast<int>(u * static_cast<double>(legal_[i].Count())));
    next[i] = stream.state();
  }
  if (!Step(actions.data(), interrupt, where, observers)) return false;
  std::copy(next.begin(), next.end(), streams);
  return true;
}

bool VectorGame::Step(const int64_t* actions, Interrupt* interrupt, const bool* where,
                      const int32_t* observers) {
  for (int i = 0; i < batch_size_; ++i) {
    if (where != nullptr && !where[i]) continue;
    const int64_t action = actions[i];
    if (action < 0 || action >= kNumDistinctActions ||
        !legal_[i].Contains(static_cast<int>(action))) {
      throw std::invalid_argument("action " + std::to_string(action) +
                                  " is not legal in environment " + std::to_string(i) + " (phase " +
                                  kPhaseNames[static_cast<int>(states_[i].phase)] + ")");
    }
  }
  if (interrupt == nullptr || batch_size_ <= kCheckEvery) {
    std::fill_n(done_.get(), states_.size(), false);
    for (int i = 0; i < batch_size_; ++i) {
      if (where == nullptr || where[i]) {
        StepEnvironment(i, actions[i], /*finals=*/nullptr, observers ? observers[i] : -1);
      }
    }
    return true;
  }
  if (saved_.size() != states_.size()) saved_.resize(states_.size());
  std::vector<SavedFinal> finals;  // rows of games that end in this step (about 1 in 100)
  for (int i = 0; i < batch_size_; ++i) {
    if (i % kCheckEvery == 0 && interrupt->Check()) {
      Restore(i, finals);
      return false;
    }
    saved_[i] = Saved{states_[i], legal_[i], streams_[i], lengths_[i], done_[i]};
    done_[i] = false;
    if (where == nullptr || where[i]) {
      StepEnvironment(i, actions[i], &finals, observers ? observers[i] : -1);
    }
  }
  return true;
}

void VectorGame::StepEnvironment(int i, int64_t action, std::vector<SavedFinal>* finals,
                                 int observer) {
  const int n = game_.num_players;
  Position& p = states_[i];
  const int player = observer >= 0 ? observer : CurrentPlayer(p);
  ApplyLegalAction(p, static_cast<int>(action), &legal_[i]);
  ++lengths_[i];
  SampleChance(i);
  if (!IsTerminal(p)) return;
  if (finals != nullptr) finals->push_back(SaveFinal(i));
  done_[i] = true;
  double shares[kMaxPlayers];
  Returns(p, shares);
  for (int q = 0; q < n; ++q) {
    final_scores_[i * n + q] = p.players[q].fame;
    final_gold_[i * n + q] = p.players[q].gold;
    final_returns_[i * n + q] = shares[q];
  }
  final_length_[i] = lengths_[i];
  ObservationTensor(p, player,
                    final_observation_.get() + static_cast<size_t>(i) * observation_size_);
  NewGame(i);
}

VectorGame::SavedFinal VectorGame::SaveFinal(int i) const {
  const size_t n = static_cast<size_t>(game_.num_players);
  const size_t row = static_cast<size_t>(i) * n;
  const float* observation = final_observation_.get() + static_cast<size_t>(i) * observation_size_;
  return SavedFinal{i,
                    {final_scores_.begin() + row, final_scores_.begin() + row + n},
                    {final_gold_.begin() + row, final_gold_.begin() + row + n},
                    {final_returns_.begin() + row, final_returns_.begin() + row + n},
                    final_length_[i],
                    {observation, observation + observation_size_}};
}

void VectorGame::Restore(int end, const std::vector<SavedFinal>& finals) {
  for (int i = 0; i < end; ++i) {
    states_[i] = saved_[i].state;
    legal_[i] = saved_[i].legal;
    streams_[i] = saved_[i].stream;
    lengths_[i] = saved_[i].length;
    done_[i] = saved_[i].done;
  }
  const size_t n = static_cast<size_t>(game_.num_players);
  for (const SavedFinal& f : finals) {
    const size_t row = static_cast<size_t>(f.env) * n;
    std::copy(f.scores.begin(), f.scores.end(), final_scores_.begin() + row);
    std::copy(f.gold.begin(), f.gold.end(), final_gold_.begin() + row);
    std::copy(f.returns.begin(), f.returns.end(), final_returns_.begin() + row);
    final_length_[f.env] = f.length;
    std::copy(f.observation.begin(), f.observation.end(),
              final_observation_.get() + static_cast<size_t>(f.env) * observation_size_);
  }
}

}  // namespace vikinger
