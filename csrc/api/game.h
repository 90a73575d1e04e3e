// The game (docs/rules.md B1, B3.1) and the API of docs/api.md in plain C++: what the Python
// methods do once the bindings have checked and converted their arguments.
//
// Errors: std::invalid_argument stands for ValueError, TypeError (value.h) for TypeError; the
// conditions are those of docs/api.md "Errors".
#ifndef VIKINGER_GAME_H_
#define VIKINGER_GAME_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/value.h"
#include "rules/state.h"

namespace vikinger {

// Number of players and advanced flags (option bits of docs/state.md).
struct Game {
  int num_players;
  int options;

  bool operator==(const Game& other) const {
    return num_players == other.num_players && options == other.options;
  }
};

// Game(num_players, **flags): ValueError outside 2..4 players.
Game MakeGame(int64_t num_players, const bool flags[kNumOptions]);
// The one check of a Game rebuilt from data (pickle, bytes): 2..4 players and option bits of the
// five modules only (0..31), else std::invalid_argument.
Game CheckedGame(int64_t num_players, int64_t options);
// "Game(num_players=2)" plus ", flag=True" for each flag on.
std::string GameRepr(const Game& game);
Game GameOf(const State& state);

// state_from_dict / deserialize_state: every check of docs/state.md. `game` null: the game the
// bytes name (unpickling).
State StateFromDict(const Game& game, const Value& d);
State StateFromBytes(const Game* game, const std::string& data);

// [(chance id, count / total)] by id, each probability one double division; [] at decision
// nodes.
std::vector<std::pair<int, double>> ChanceOutcomeList(const State& state);
// The string of an id in the space of the current node.
std::string ActionToString(const State& state, int64_t action);
// `player` checked against 0..n-1.
int CheckPlayer(const State& state, int64_t player);
// B7.0 for every cell: out[(r-1) * 64 + c-1] is true when a Viking of `player` standing on row
// r, column c would be threatened.
void ThreatenedCells(const State& state, int player, bool* out);
// Fame, gold and B8.9 win shares (zeros before the end) per player.
std::vector<int> Scores(const State& state);
std::vector<int> GoldList(const State& state);
std::vector<double> ReturnList(const State& state);
// B7.2 steps 2-6 scored on a copy of each board: (Fame, gold) gained per player.
std::vector<std::pair<int, int>> LargeScoringGains(const State& state);

}  // namespace vikinger

#endif  // VIKINGER_GAME_H_
