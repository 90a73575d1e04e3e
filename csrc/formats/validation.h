// Reading states back (docs/state.md): the plain `StateDescription` that a dict
// (bindings/module.cc) or the bytes (serialization.h) describe, every check that state_from_dict
// makes, and building a State from a checked one.
//
// A description is checked completely before any state is built, so a refused one changes
// nothing. Every refusal throws std::invalid_argument (ValueError in Python) naming the first
// problem found. The range checks are those of the reference's validation.py; the position
// checks (consistency.h, the reference's consistency.py) cover B2.3/B6.0-B6.2 board shape,
// conservation of the 78 Vikings and 72 stack tiles (B1.1, B1.4), and consistency of wheel,
// pending purchase, trip and counts with the phase (docs/actions.md).
#ifndef VIKINGER_VALIDATION_H_
#define VIKINGER_VALIDATION_H_

#include <cstdint>
#include <string>
#include <vector>

#include "rules/state.h"

namespace vikinger {

// Gold and Fame are 32-bit; this bound, far above any game, leaves room for every later gain
// and for gold + Fame (the A1 bid cap).
constexpr int64_t kMaxMoney = (int64_t{1} << 30) - 1;

// Integers are kept wide so out-of-range input is caught by the checks, not by a narrowing.
struct PlayerDescription {
  int64_t gold = 0;
  int64_t fame = 0;
  int64_t start_row = 0;  // 0: None
  int64_t mainland[kNumColours] = {};
  int8_t ships[kNumColumns];                // ship kind per column 1..64, -1 empty
  int8_t tiles[kNumRows][kNumColumns];      // island tile kind per cell, -1 empty
  uint64_t vikings[kNumRows] = {};          // bit c-1: a Viking on row r, column c
  int64_t specials[kNumSpecialKinds] = {};  // A5 tiles held
  bool has_building[kNumBuildings] = {};    // A5 placed building tiles
  int64_t building_row[kNumBuildings] = {};
  int64_t building_col[kNumBuildings] = {};
};

struct StateDescription {
  int64_t version = 0;
  int64_t num_players = 0;
  int options = 0;
  int64_t round = 0;
  int64_t phase = 0;  // index into kPhaseNames
  int64_t start_player = 0;
  int64_t purchases = 0;
  int64_t scoring_index = 0;
  int64_t stacks[kNumTileKinds] = {};
  int64_t bag[kNumColours] = {};
  int64_t drawn[kNumColours] = {};
  int64_t removed[kNumColours] = {};
  int64_t discarded_tiles = 0;
  int wheel_tile[kWheelSpaces];    // -1: empty space
  int wheel_viking[kWheelSpaces];  // -1: None
  bool has_pending = false;
  int pending_tile = 0;
  int pending_viking = 0;
  bool has_cell = false;
  int64_t pending_row = 0;
  int64_t pending_col = 0;
  bool has_trip = false;
  std::vector<int> queue_colour;
  std::vector<int64_t> queue_count;
  int64_t last_col = 0;
  bool has_auction = false;   // A1
  int64_t auction_high = -1;  // -1: None
  int64_t auction_leader = 0;
  int64_t auction_turn = 0;
  std::vector<bool> auction_passed;
  int64_t special_stack[kNumSpecialKinds] = {};  // A5
  int display[kDisplaySlots];                    // -1: empty place
  int64_t special_removed[kNumSpecialKinds] = {};
  std::vector<PlayerDescription> players;
  std::vector<int64_t> history;

  StateDescription();
};

PlayerDescription EmptyPlayerDescription();

// Throws std::invalid_argument("invalid state: ...") at the first problem; the readers
// (dict_reader.h, serialization.h) and every check refuse through it.
[[noreturn]] void Fail(const std::string& message);
// Every check of docs/state.md, for a game of `num_players` with `options`: the ranges, then
// CheckPosition (consistency.h).
void CheckDescription(const StateDescription& d, int num_players, int options);
// The state a checked description stands for; refuses (std::invalid_argument) a decision node
// without a legal action, which no game can leave.
State BuildState(const StateDescription& d);

}  // namespace vikinger

#endif  // VIKINGER_VALIDATION_H_
