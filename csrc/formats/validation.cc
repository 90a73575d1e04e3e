// Range checks of docs/state.md for states read back from dicts or bytes (the reference's
// validation.py), CheckDescription, and building a State from a checked description.
#include "formats/validation.h"

#include <cstring>
#include <stdexcept>

#include "formats/consistency.h"
#include "formats/serialization.h"
#include "rules/actions.h"
#include "rules/legal_set.h"

namespace vikinger {
namespace {

[[noreturn]] void FailRange(int64_t value, int64_t low, int64_t high, const std::string& where) {
  Fail(where + " = " + std::to_string(value) + " is outside " + std::to_string(low) + ".." +
       std::to_string(high));
}

void CheckRange(int64_t value, int64_t low, int64_t high, const char* where) {
  if (value < low || value > high) FailRange(value, low, high, where);
}

// `where()` names the value; it is called only for the message (reading bytes stays cheap).
template <typename Where>
void CheckRange(int64_t value, int64_t low, int64_t high, const Where& where) {
  if (value < low || value > high) FailRange(value, low, high, where());
}

void CheckCounts(const int64_t* counts, const char* const* names, int n, const int* limits,
                 int limit, const std::string& where) {
  for (int i = 0; i < n; ++i) {
    CheckRange(counts[i], 0, limits ? limits[i] : limit,
               [&] { return where + "['" + names[i] + "']"; });
  }
}

void FailUnknownName(const std::string& where) { Fail(where + " is not one of the known names"); }

// The range checks of the reference's validation.py `_parse`, in its order and words, for a
// description read from bytes (a dict's are made while reading it, dict_reader.cc; here they
// find nothing more). The bytes can hold what no dict can: a wheel group or pending purchase
// without a tile or Viking (-1), a trip colour beyond the row colours.
void CheckRanges(const StateDescription& d, int num_players, int options) {
  CheckFormatVersion(d.version, "version");
  CheckRange(d.num_players, kMinPlayers, kMaxPlayers, "num_players");
  if (d.num_players != num_players) {
    Fail("num_players " + std::to_string(d.num_players) + " differs from the game's " +
         std::to_string(num_players));
  }
  if (d.options != options) Fail("options differ from the game's");
  const int n = num_players;
  CheckRange(d.round, 1, kNumRounds, "round");
  CheckRange(d.phase, 0, kNumPhases - 1, "phase");
  CheckRange(d.start_player, 0, n - 1, "start_player");
  CheckRange(d.purchases, 0, kGroupsPerRound, "purchases");
  CheckRange(d.scoring_index, 0, n - 1, "scoring_index");
  CheckCounts(d.stacks, kTileKindNames, kNumTileKinds, kStackCounts, 0, "stacks");
  CheckCounts(d.bag, kColourNames, kNumColours, nullptr, kVikingsPerColour, "bag");
  CheckCounts(d.drawn, kColourNames, kNumColours, nullptr, kGroupsPerRound, "drawn");
  CheckCounts(d.removed, kColourNames, kNumColours, nullptr, kVikingsPerColour, "removed");
  CheckRange(d.discarded_tiles, 0, kStackTiles, "discarded_tiles");
  for (int s = 0; s < kWheelSpaces; ++s) {
    if (d.wheel_tile[s] < 0 && d.wheel_viking[s] >= 0) {
      FailUnknownName("wheel[" + std::to_string(s) + "].tile");
    }
  }
  if (d.has_pending) {
    if (d.pending_tile < 0) FailUnknownName("pending.tile");
    if (d.pending_viking < 0) FailUnknownName("pending.viking");
    if (d.has_cell) {
      CheckRange(d.pending_row, 1, kNumRows, "pending.cell row");
      CheckRange(d.pending_col, 1, kNumColumns, "pending.cell column");
    }
  }
  if (d.has_trip) {
    if (d.queue_colour.empty()) Fail("trip.queue must be a non-empty list");
    for (size_t i = 0; i < d.queue_colour.size(); ++i) {
      auto where = [i] { return "trip.queue[" + std::to_string(i) + "]"; };
      if (d.queue_colour[i] < 0 || d.queue_colour[i] >= kBoatsman) {
        FailUnknownName(where() + " colour");
      }
      CheckRange(d.queue_count[i], 1, kNumColumns, [&] { return where() + " count"; });
    }
    CheckRange(d.last_col, 0, kNumColumns, "trip.last_col");
  }
  if (d.has_auction) {
    if (static_cast<int>(d.auction_passed.size()) != n) {
      Fail("auction.passed must be a list of " + std::to_string(n) + " bools");
    }
    if (d.auction_high != -1) CheckRange(d.auction_high, 0, kMaxBid, "auction.high");
    CheckRange(d.auction_leader, 0, n - 1, "auction.leader");
    CheckRange(d.auction_turn, 0, n - 1, "auction.turn");
  }
  CheckCounts(d.special_stack, kSpecialKindNames, kNumSpecialKinds, kSpecialCounts, 0,
              "special_stack");
  CheckCounts(d.special_removed, kSpecialKindNames, kNumSpecialKinds, kSpecialCounts, 0,
              "special_removed");
  if (static_cast<int>(d.players.size()) != n) {
    Fail("players must be a list of " + std::to_string(n) + " entries");
  }
  for (int p = 0; p < n; ++p) {
    const PlayerDescription& player = d.players[p];
    auto at = [p](const char* field) { return "players[" + std::to_string(p) + "]" + field; };
    CheckRange(player.gold, 0, kMaxMoney, [&] { return at(".gold"); });
    CheckRange(player.fame, -kMaxMoney, kMaxMoney, [&] { return at(".fame"); });
    if (player.start_row) {
      CheckRange(player.start_row, 1, kNumRows, [&] { return at(".start_row"); });
    }
    CheckCounts(player.mainland, kColourNames, kNumColours, nullptr, kVikingsPerColour,
                at(".mainland"));
    const Planes planes = PlanesOf(player);
    for (int r = 1; r <= kNumRows; ++r) {
      const uint64_t alone = player.vikings[r - 1] & ~planes.occupied[r];
      if (alone) {
        Fail(at("") + " has a Viking on row " + std::to_string(r) + " column " +
             std::to_string(LowestColumn(alone)) + ", where no tile stands");
      }
    }
    CheckCounts(player.specials, kSpecialKindNames, kNumSpecialKinds, kSpecialCounts, 0,
                at(".specials"));
    for (int b = 0; b < kNumBuildings; ++b) {
      if (!player.has_building[b]) continue;
      auto cell = [&](const char* part) {
        return at(".buildings[") + std::to_string(b) + "]" + part;
      };
      CheckRange(player.building_row[b], 1, kNumRows, [&] { return cell(" row"); });
      CheckRange(player.building_col[b], 1, kNumColumns, [&] { return cell(" column"); });
    }
  }
  for (int64_t action : d.history) CheckRange(action, 0, 65535, "history entry");
}

}  // namespace

StateDescription::StateDescription() {
  for (int s = 0; s < kWheelSpaces; ++s) wheel_tile[s] = wheel_viking[s] = -1;
  for (int i = 0; i < kDisplaySlots; ++i) display[i] = -1;
}

PlayerDescription EmptyPlayerDescription() {
  PlayerDescription player;
  std::memset(player.ships, -1, sizeof(player.ships));
  std::memset(player.tiles, -1, sizeof(player.tiles));
  return player;
}

void Fail(const std::string& message) { throw std::invalid_argument("invalid state: " + message); }

void CheckDescription(const StateDescription& d, int num_players, int options) {
  CheckRanges(d, num_players, options);
  CheckPosition(d);
}

State BuildState(const StateDescription& d) {
  State state(static_cast<int>(d.num_players), d.options);
  Position& p = state.position;
  p.round = static_cast<uint8_t>(d.round);
  p.phase = static_cast<Phase>(d.phase);
  p.start_player = static_cast<uint8_t>(d.start_player);
  p.purchases = static_cast<uint8_t>(d.purchases);
  p.scoring_index = static_cast<uint8_t>(d.scoring_index);
  p.discarded_tiles = static_cast<uint8_t>(d.discarded_tiles);
  for (int k = 0; k < kNumTileKinds; ++k) p.stacks[k] = static_cast<uint8_t>(d.stacks[k]);
  for (int c = 0; c < kNumColours; ++c) {
    p.bag[c] = static_cast<uint8_t>(d.bag[c]);
    p.drawn[c] = static_cast<uint8_t>(d.drawn[c]);
    p.removed[c] = static_cast<uint8_t>(d.removed[c]);
  }
  for (int s = 0; s < kWheelSpaces; ++s) {
    if (d.wheel_tile[s] < 0) continue;
    p.wheel.tiles[s] = static_cast<uint8_t>(d.wheel_tile[s]);
    p.wheel.occupied |= static_cast<uint16_t>(1u << s);
    if (d.wheel_viking[s] >= 0) p.wheel.vikings[s] = static_cast<uint8_t>(d.wheel_viking[s]);
  }
  if (d.has_pending) {
    p.pending =
        Pending{static_cast<uint8_t>(d.pending_tile), static_cast<uint8_t>(d.pending_viking),
                static_cast<uint8_t>(d.pending_row), static_cast<uint8_t>(d.pending_col)};
  }
  if (d.has_trip) {
    p.trip.length = static_cast<uint8_t>(d.queue_colour.size());
    p.trip.last_col = static_cast<uint8_t>(d.last_col);
    for (size_t i = 0; i < d.queue_colour.size(); ++i) {
      p.trip.colour[i] = static_cast<uint8_t>(d.queue_colour[i]);
      p.trip.count[i] = static_cast<uint8_t>(d.queue_count[i]);
    }
  }
  for (int i = 0; i < p.num_players; ++i) {
    const PlayerDescription& player = d.players[i];
    PlayerBoard& board = p.players[i];
    board.gold = static_cast<int32_t>(player.gold);
    board.fame = static_cast<int32_t>(player.fame);
    board.start_row = static_cast<uint8_t>(player.start_row);
    for (int c = 0; c < kNumColours; ++c)
      board.mainland[c] = static_cast<uint8_t>(player.mainland[c]);
    for (int c = 1; c <= kNumColumns; ++c) {
      if (player.ships[c - 1] >= 0) board.PlaceShip(player.ships[c - 1], c);
    }
    for (int r = 1; r <= kNumRows; ++r) {
      for (int c = 1; c <= kNumColumns; ++c) {
        if (player.tiles[r - 1][c - 1] >= 0) board.Row(r).Place(player.tiles[r - 1][c - 1], c);
      }
      board.Row(r).vikings = player.vikings[r - 1];
    }
  }
  if (d.has_auction) {  // A1
    p.auction =
        Auction{1, static_cast<uint8_t>(d.auction_leader), static_cast<uint8_t>(d.auction_turn), 0,
                d.auction_high < 0 ? kNoBid : static_cast<uint16_t>(d.auction_high)};
    for (int i = 0; i < p.num_players; ++i) {
      if (d.auction_passed[i]) p.auction.passed |= static_cast<uint8_t>(1u << i);
    }
  } else {
    p.auction = Auction{0, 0, 0, 0, kNoBid};
  }
  for (int k = 0; k < kNumSpecialKinds; ++k) {  // A5
    p.specials.stack[k] = static_cast<uint8_t>(d.special_stack[k]);
    p.specials.removed[k] = static_cast<uint8_t>(d.special_removed[k]);
  }
  for (int i = 0; i < kDisplaySlots; ++i) {
    p.specials.display[i] = d.display[i] < 0 ? kNone : static_cast<uint8_t>(d.display[i]);
  }
  for (int i = 0; i < p.num_players; ++i) {
    const PlayerDescription& player = d.players[i];
    PlayerBoard& board = p.players[i];
    for (int k = 0; k < kNumSpecialKinds; ++k) {
      board.specials[k] = static_cast<uint8_t>(player.specials[k]);
    }
    for (int b = 0; b < kNumBuildings; ++b) {
      board.building_row[b] =
          player.has_building[b] ? static_cast<uint8_t>(player.building_row[b]) : 0;
      board.building_col[b] =
          player.has_building[b] ? static_cast<uint8_t>(player.building_col[b]) : 0;
    }
  }
  state.history.assign(d.history.begin(), d.history.end());
  int legal[kMaxLegalActions];
  if (!IsChanceNode(p) && !IsTerminal(p) && LegalActions(p, legal) == 0) {
    Fail(std::string("phase ") + kPhaseNames[static_cast<int>(p.phase)] +
         " leaves the player to move no legal action");
  }
  return state;
}

}  // namespace vikinger
