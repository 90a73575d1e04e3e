// The game and the API semantics of docs/api.md, without Python.
#include "api/game.h"

#include <stdexcept>

#include "formats/dict_reader.h"
#include "formats/serialization.h"
#include "formats/validation.h"
#include "rules/actions.h"
#include "rules/legal_set.h"
#include "rules/scoring.h"

namespace vikinger {
namespace {

State CheckedState(const Game& game, const StateDescription& d) {
  CheckDescription(d, game.num_players, game.options);
  return BuildState(d);
}

}  // namespace

Game MakeGame(int64_t num_players, const bool flags[kNumOptions]) {
  if (num_players < kMinPlayers || num_players > kMaxPlayers) {
    throw std::invalid_argument("num_players must be 2, 3 or 4, not " +
                                std::to_string(num_players));
  }
  int options = 0;  // A1-A5, any combination
  for (int i = 0; i < kNumOptions; ++i) {
    if (flags[i]) options |= 1 << i;
  }
  return Game{static_cast<int>(num_players), options};
}

Game CheckedGame(int64_t num_players, int64_t options) {
  bool flags[kNumOptions] = {};
  MakeGame(num_players, flags);  // the player count first, as the constructor checks it
  if (options < 0 || options >= (int64_t{1} << kNumOptions)) {
    throw std::invalid_argument("options must be a bit set of the " + std::to_string(kNumOptions) +
                                " modules (0.." + std::to_string((1 << kNumOptions) - 1) +
                                "), not " + std::to_string(options));
  }
  for (int i = 0; i < kNumOptions; ++i) flags[i] = (options >> i) & 1;
  return MakeGame(num_players, flags);
}

std::string GameRepr(const Game& game) {
  std::string repr = "Game(num_players=" + std::to_string(game.num_players);
  for (int i = 0; i < kNumOptions; ++i) {
    if ((game.options >> i) & 1) repr += std::string(", ") + kOptionNames[i] + "=True";
  }
  return repr + ")";
}

Game GameOf(const State& state) { return Game{state.position.num_players, state.position.options}; }

State StateFromDict(const Game& game, const Value& d) {
  return CheckedState(game, DictToDescription(d, game.num_players, game.options));
}

State StateFromBytes(const Game* game, const std::string& data) {
  const StateDescription d = BytesToDescription(data);
  if (game != nullptr) return CheckedState(*game, d);
  return CheckedState(CheckedGame(d.num_players, d.options), d);
}

std::vector<std::pair<int, double>> ChanceOutcomeList(const State& state) {
  std::vector<std::pair<int, double>> outcomes;
  if (!IsChanceNode(state.position)) return outcomes;
  int num_kinds;
  int first_id;
  const uint8_t* counts = ChanceCounts(state.position, &num_kinds, &first_id);
  int total = 0;
  for (int k = 0; k < num_kinds; ++k) total += counts[k];
  for (int k = 0; k < num_kinds; ++k) {
    // docs/api.md: count / total by one division, bit-identical to the reference.
    if (counts[k]) outcomes.emplace_back(first_id + k, static_cast<double>(counts[k]) / total);
  }
  return outcomes;
}

std::string ActionToString(const State& state, int64_t action) {
  const bool chance = IsChanceNode(state.position);
  const int64_t size = chance ? kMaxChanceOutcomes : kNumDistinctActions;
  if (action < 0 || action >= size) {
    throw std::invalid_argument(std::string(chance ? "chance" : "decision") + " id " +
                                std::to_string(action) + " is outside 0.." +
                                std::to_string(size - 1));
  }
  return chance ? ChanceToString(static_cast<int>(action))
                : DecisionToString(static_cast<int>(action));
}

int CheckPlayer(const State& state, int64_t player) {
  const int n = state.position.num_players;
  if (player < 0 || player >= n) {
    throw std::invalid_argument("player " + std::to_string(player) + " is outside 0.." +
                                std::to_string(n - 1));
  }
  return static_cast<int>(player);
}

void ThreatenedCells(const State& state, int player, bool* out) {
  const PlayerBoard& board = state.position.players[player];
  for (int row = 1; row <= kNumRows; ++row) {
    const uint64_t threatened = board.ThreatenedMask(row);
    for (int col = 1; col <= kNumColumns; ++col) {
      *out++ = (threatened & ColumnBit(col)) != 0;
    }
  }
}

std::vector<int> Scores(const State& state) {
  std::vector<int> scores;
  for (int i = 0; i < state.position.num_players; ++i)
    scores.push_back(state.position.players[i].fame);
  return scores;
}

std::vector<int> GoldList(const State& state) {
  std::vector<int> gold;
  for (int i = 0; i < state.position.num_players; ++i)
    gold.push_back(state.position.players[i].gold);
  return gold;
}

std::vector<double> ReturnList(const State& state) {
  double shares[kMaxPlayers];
  Returns(state.position, shares);
  return std::vector<double>(shares, shares + state.position.num_players);
}

std::vector<std::pair<int, int>> LargeScoringGains(const State& state) {
  std::vector<std::pair<int, int>> gains;
  for (int i = 0; i < state.position.num_players; ++i) {
    const PlayerBoard& before = state.position.players[i];
    PlayerBoard after = before;
    LargeScoring(after);
    gains.emplace_back(after.fame - before.fame, after.gold - before.gold);
  }
  return gains;
}

}  // namespace vikinger
