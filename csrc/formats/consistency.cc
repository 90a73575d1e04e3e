// Position checks of docs/state.md for states read back from dicts or bytes (the reference's
// consistency.py): boards, buildings, conservation, modules, and the context of the phase.
#include "formats/consistency.h"

#include <initializer_list>
#include <string>

namespace vikinger {

Planes PlanesOf(const PlayerDescription& player) {
  Planes planes;
  for (int r = 1; r <= kNumRows; ++r) {
    for (int c = 1; c <= kNumColumns; ++c) {
      const int kind = player.tiles[r - 1][c - 1];
      if (kind < 0) continue;
      planes.occupied[r] |= ColumnBit(c);
      if (kind == kLeft) planes.lefts[r] |= ColumnBit(c);
      if (kind == kRight) planes.rights[r] |= ColumnBit(c);
    }
  }
  return planes;
}

namespace {

bool ModuleOn(int options, int option) { return (options >> option) & 1; }

std::string Str(int64_t value) { return std::to_string(value); }

bool InPhases(int phase, std::initializer_list<Phase> phases) {
  for (Phase p : phases) {
    if (static_cast<int>(p) == phase) return true;
  }
  return false;
}

// B2.3, B6.0, B6.1, B6.2: start tile, edges, connection to the mainland, ship columns.
// `where` names the player ("players[0]") as the reference does.
void CheckBoard(const PlayerDescription& player, const std::string& where) {
  const Planes planes = PlanesOf(player);
  uint64_t any = 0;
  for (int r = 1; r <= kNumRows; ++r) any |= planes.occupied[r];
  const int start = static_cast<int>(player.start_row);
  if (start == 0 && any) Fail(where + " has island tiles but no start tile");
  if (start != 0 && player.tiles[start - 1][0] != kLeft) {
    Fail(where + ".start_row " + Str(start) + " has no left piece in column 1");
  }
  for (int r = 1; r <= kNumRows; ++r) {
    const uint64_t occupied = planes.occupied[r];
    // Column 1 borders the sea of the mainland: only left pieces (B2.3). A tile with a left
    // neighbour: sea on its left exactly when the neighbour has sea right.
    const uint64_t paired = occupied & (occupied << 1);
    const uint64_t bad = (occupied & ColumnBit(1) & ~planes.lefts[r]) |
                         (paired & (planes.lefts[r] ^ (planes.rights[r] << 1)));
    if (bad) {
      Fail(where + " row " + Str(r) + " column " + Str(LowestColumn(bad)) +
           ": the edge to its left does not match");
    }
  }
  uint64_t reached[kNumRows + 2] = {};
  for (int r = 1; r <= kNumRows; ++r) reached[r] = planes.occupied[r] & ColumnBit(1);
  for (bool grew = true; grew;) {
    grew = false;
    for (int r = 1; r <= kNumRows; ++r) {
      const uint64_t next =
          (reached[r] | (reached[r] << 1) | (reached[r] >> 1) | reached[r - 1] | reached[r + 1]) &
          planes.occupied[r];
      if (next != reached[r]) {
        reached[r] = next;
        grew = true;
      }
    }
  }
  for (int r = 1; r <= kNumRows; ++r) {
    if (reached[r] != planes.occupied[r]) {
      Fail(where + " has island tiles not connected to the mainland");
    }
  }
  int ships = 0;
  int highest = 0;
  for (int c = 1; c <= kNumColumns; ++c) {
    if (player.ships[c - 1] >= 0) {
      ++ships;
      highest = c;
    }
  }
  if ((ships <= 3 && highest > 3) || (ships > 3 && highest != ships)) {
    Fail(where + ".ships: ships after the third must fill columns left to right (B6.1)");
  }
  bool mainland = false;
  for (int c = 0; c < kNumColours; ++c) mainland = mainland || player.mainland[c] != 0;
  if (start == 0 && (ships || mainland)) {
    Fail(where + " owns ships or Vikings but has no start tile");
  }
}

// 78 Vikings, 13 of each colour; 72 stack tiles, no kind more often than printed.
void CheckConservation(const StateDescription& d) {
  int64_t vikings[kNumColours];
  int64_t tiles[kNumTileKinds];
  for (int c = 0; c < kNumColours; ++c) vikings[c] = d.bag[c] + d.drawn[c] + d.removed[c];
  for (int k = 0; k < kNumTileKinds; ++k) tiles[k] = d.stacks[k];
  for (int s = 0; s < kWheelSpaces; ++s) {
    if (d.wheel_tile[s] >= 0) ++tiles[d.wheel_tile[s]];
    if (d.wheel_viking[s] >= 0) ++vikings[d.wheel_viking[s]];
  }
  if (d.has_pending) {
    if (!d.has_cell) ++tiles[d.pending_tile];  // in phase viking the tile is on the board
    ++vikings[d.pending_viking];
  }
  for (const PlayerDescription& player : d.players) {
    for (int c = 0; c < kNumColours; ++c) vikings[c] += player.mainland[c];
    for (int r = 1; r <= kNumRows; ++r) {
      vikings[ColourOfRow(r)] += PopCount(player.vikings[r - 1]);
      for (int c = 1; c <= kNumColumns; ++c) {
        const int kind = player.tiles[r - 1][c - 1];
        bool building = false;  // A5 a building tile stands in place of a middle tile
        for (int b = 0; b < kNumBuildings; ++b) {
          building = building || (player.has_building[b] && player.building_row[b] == r &&
                                  player.building_col[b] == c);
        }
        if (kind >= 0 && !(r == player.start_row && c == 1) && !building) ++tiles[kind];
      }
    }
    for (int c = 0; c < kNumColumns; ++c) {
      if (player.ships[c] >= 0) ++tiles[player.ships[c]];
    }
  }
  for (int c = 0; c < kNumColours; ++c) {
    if (vikings[c] != kVikingsPerColour) {
      Fail(Str(vikings[c]) + " " + kColourNames[c] + " Vikings in all, not " +
           Str(kVikingsPerColour));
    }
  }
  int64_t total = d.discarded_tiles;
  for (int k = 0; k < kNumTileKinds; ++k) {
    if (tiles[k] > kStackCounts[k]) {
      Fail(Str(tiles[k]) + " " + kTileKindNames[k] + " tiles in all, more than " +
           Str(kStackCounts[k]));
    }
    total += tiles[k];
  }
  if (total != kStackTiles) Fail(Str(total) + " stack tiles in all, not " + Str(kStackTiles));
  int64_t specials[kNumSpecialKinds];  // A5 the 25 special tiles
  for (int k = 0; k < kNumSpecialKinds; ++k)
    specials[k] = d.special_stack[k] + d.special_removed[k];
  for (int i = 0; i < kDisplaySlots; ++i) {
    if (d.display[i] >= 0) ++specials[d.display[i]];
  }
  for (const PlayerDescription& player : d.players) {
    for (int k = 0; k < kNumSpecialKinds; ++k) specials[k] += player.specials[k];
  }
  for (int k = 0; k < kNumSpecialKinds; ++k) {
    if (specials[k] != kSpecialCounts[k]) {
      Fail(Str(specials[k]) + " " + kSpecialKindNames[k] + " special tiles in all, not " +
           Str(kSpecialCounts[k]));
    }
  }
  // Without A5 all 25 special tiles stay in the special stack (with the counts above, the
  // display is then empty and nobody holds one); without A2 only spent boatsmen leave the game
  // (docs/advanced.md).
  if (!ModuleOn(d.options, kOptSpecialTiles)) {
    for (int k = 0; k < kNumSpecialKinds; ++k) {
      if (d.special_stack[k] != kSpecialCounts[k]) {
        Fail("special tiles are in play without the special_tiles module");
      }
    }
  }
  if (!ModuleOn(d.options, kOptDraw13)) {
    for (int c = 0; c < kBoatsman; ++c) {
      if (d.removed[c]) Fail("only spent boatsmen leave the game without the draw13 module");
    }
  }
}

// A5: a placed building stands on a middle tile of its picture; a waiting one means the player
// has no such tile yet (except while `placing` it).
void CheckBuildings(const PlayerDescription& player, const std::string& where, bool placing) {
  if (player.specials[kGold5]) {
    Fail(where + " holds a gold5 tile, which leaves the game when taken");
  }
  for (int b = 0; b < kNumBuildings; ++b) {
    const int64_t held = player.specials[kBuilding1 + b];
    const std::string building = where + ".buildings[" + Str(b) + "]";
    if (held > 1 || (player.has_building[b] && !held)) {
      Fail(building + " does not match its specials");
    }
    bool middles = false;
    for (int r = 0; r < kNumRows; ++r) {
      for (int c = 0; c < kNumColumns; ++c) middles = middles || player.tiles[r][c] == kMiddle1 + b;
    }
    if (player.has_building[b] &&
        player.tiles[player.building_row[b] - 1][player.building_col[b] - 1] != kMiddle1 + b) {
      Fail(building + " is not on a middle tile showing building " + Str(b + 1));
    }
    if (held && !player.has_building[b] && middles && !placing) {
      Fail(where + " has a waiting building " + Str(b + 1) +
           " and a middle tile it should replace");
    }
  }
  for (int b = 0; b < kNumBuildings; ++b) {
    for (int o = 0; o < b; ++o) {
      if (player.has_building[b] && player.has_building[o] &&
          player.building_row[b] == player.building_row[o] &&
          player.building_col[b] == player.building_col[o]) {
        Fail(where + " has two buildings on one cell");
      }
    }
  }
}

// B4.1 islands from space 0 up, ships from 11 down before buying; B4.2 Vikings sorted by colour
// once laid out (A3: colour blocks from space 11 down while offering). Returns the tiles.
int CheckWheel(const StateDescription& d, const char* phase, bool before_layout, bool offering,
               bool by_colour) {
  int islands = 0;
  int ships = 0;
  for (int s = 0; s < kWheelSpaces; ++s) {
    if (d.wheel_tile[s] >= 0) ++(IsShip(d.wheel_tile[s]) ? ships : islands);
  }
  if (before_layout) {
    for (int s = 0; s < kWheelSpaces; ++s) {
      const int tile = d.wheel_tile[s];
      const bool ok = s < islands                 ? (tile >= 0 && !IsShip(tile))
                      : s >= kWheelSpaces - ships ? (tile >= 0 && IsShip(tile))
                                                  : tile < 0;
      if (!ok) Fail("wheel tiles are not laid out as B4.1 places them");
    }
    int placed = 0;
    for (int s = 0; s < kWheelSpaces; ++s) placed += d.wheel_viking[s] >= 0;
    if (!offering && placed) Fail(std::string("phase ") + phase + " has Vikings on the wheel");
    if (offering) {
      for (int s = 0; s < kWheelSpaces; ++s) {
        const bool top = s >= kWheelSpaces - placed;
        if (top != (d.wheel_viking[s] >= 0) || (top && d.drawn[d.wheel_viking[s]])) {
          Fail("A3 Vikings stand on the highest spaces, one colour block at a time");
        }
      }
      // Each colour is one block.
      for (int s = kWheelSpaces - placed + 1; s < kWheelSpaces; ++s) {
        for (int t = kWheelSpaces - placed; t + 1 < s; ++t) {
          if (d.wheel_viking[t] == d.wheel_viking[s] &&
              d.wheel_viking[t + 1] != d.wheel_viking[s]) {
            Fail("A3 Vikings stand on the highest spaces, one colour block at a time");
          }
        }
      }
      int64_t drawn = 0;
      for (int c = 0; c < kNumColours; ++c) drawn += d.drawn[c];
      if (drawn != islands + ships - placed) {
        Fail("A3 the drawn Vikings must fill the wheel spaces still without one");
      }
    }
    return islands + ships;
  }
  int last = -1;
  for (int s = 0; s < kWheelSpaces; ++s) {
    if (d.wheel_tile[s] < 0) continue;
    if (d.wheel_viking[s] < 0) Fail("every group on the wheel needs a tile and a Viking");
    if (!by_colour && d.wheel_viking[s] < last) {
      Fail("the wheel's Vikings are not in colour order (B4.2)");
    }
    last = d.wheel_viking[s];
  }
  return islands + ships;
}

int64_t Sum(const int64_t* values, int n) {
  int64_t sum = 0;
  for (int i = 0; i < n; ++i) sum += values[i];
  return sum;
}

void CheckPhase(const StateDescription& d) {
  const int phase = static_cast<int>(d.phase);
  auto is = [phase](Phase p) { return phase == static_cast<int>(p); };
  const char* const name = kPhaseNames[phase];
  const std::string in_phase = std::string(" in phase ") + name;
  // The phases of A1-A5 need their modules.
  const int module =
      is(Phase::kSpecialFill) || is(Phase::kTakeSpecial) || is(Phase::kBuildingReplace)
          ? kOptSpecialTiles
      : is(Phase::kAuction)      ? kOptAuction
      : is(Phase::kRemoveViking) ? kOptDraw13
      : is(Phase::kOfferColour)  ? kOptOfferByColour
                                 : -1;
  if (module >= 0 && !ModuleOn(d.options, module)) {
    Fail(std::string("phase ") + name + " needs the " + kOptionNames[module] + " module");
  }
  const bool pending_phase =
      InPhases(phase, {Phase::kStartRow, Phase::kShipColumn, Phase::kIslandCell, Phase::kViking,
                       Phase::kTakeSpecial, Phase::kBuildingReplace});
  const bool scorer_phase = InPhases(phase, {Phase::kTrip, Phase::kTripTarget});
  const bool round_start = InPhases(phase, {Phase::kSpecialFill, Phase::kAuction});
  const bool reveal = is(Phase::kRevealTile);
  const bool draw = is(Phase::kDrawViking);
  // A0: with the Vikings drawn first, they wait beside the empty wheel from the draw to the tiles.
  const bool first = VikingsBeforeTiles(static_cast<int>(d.options));
  const bool empty_wheel =
      round_start || (first && InPhases(phase, {Phase::kDrawViking, Phase::kRemoveViking}));
  const bool before_layout =
      reveal || round_start ||
      InPhases(phase, {Phase::kDrawViking, Phase::kRemoveViking, Phase::kOfferColour});
  const bool drawn_phase =
      InPhases(phase, {Phase::kDrawViking, Phase::kRemoveViking, Phase::kOfferColour}) ||
      (first && InPhases(phase, {Phase::kAuction, Phase::kRevealTile}));
  auto fits = [&](const char* key, bool present, bool wanted) {
    if (present != wanted) {
      Fail(std::string(key) + " must be " + (wanted ? "set" : "None") + in_phase);
    }
  };
  fits("pending", d.has_pending, pending_phase);
  fits("trip", d.has_trip, is(Phase::kTripTarget));
  fits("auction", d.has_auction, is(Phase::kAuction));
  if (!scorer_phase && d.scoring_index) Fail("scoring_index must be 0" + in_phase);
  const int64_t drawn_sum = Sum(d.drawn, kNumColours);
  if (!drawn_phase && drawn_sum) Fail("drawn Vikings must be on the wheel" + in_phase);
  const int on_wheel = CheckWheel(d, name, before_layout, is(Phase::kOfferColour),
                                  ModuleOn(d.options, kOptOfferByColour));
  if (before_layout) {
    if (d.purchases) Fail("purchases must be 0" + in_phase);
    if (empty_wheel && on_wheel) Fail("the wheel must be empty" + in_phase);
  } else {
    if (on_wheel != kGroupsPerRound - d.purchases - (d.has_pending ? 1 : 0)) {
      Fail(Str(on_wheel) + " groups on the wheel after " + Str(d.purchases) + " purchases");
    }
    if (scorer_phase || is(Phase::kGameOver)) {
      if (d.purchases != kGroupsPerRound) {
        Fail(std::string("phase ") + name + " needs all " + Str(kGroupsPerRound) +
             " purchases made");
      }
    } else if (d.purchases >= kGroupsPerRound) {
      Fail(std::string("phase ") + name + " after all " + Str(kGroupsPerRound) + " purchases");
    }
  }
  // B1.4, B4, A0, A2: the stacks and the bag fit the round and phase.
  const int64_t per_round = kGroupsPerRound + (ModuleOn(d.options, kOptDraw13) ? 1 : 0);
  const int64_t earlier = d.round - 1;
  const int64_t revealed = empty_wheel ? 0 : reveal ? on_wheel : kGroupsPerRound;
  const int64_t drawn = (is(Phase::kSpecialFill) || (reveal && !first)) ? 0
                        : draw                                          ? drawn_sum
                                                                        : per_round;
  const std::string fit = " do not fit round " + Str(d.round) + ", phase " + name;
  const int64_t stacked = Sum(d.stacks, kNumTileKinds);
  if (stacked != kStackTiles - kGroupsPerRound * earlier - revealed) {
    Fail(Str(stacked) + " tiles in the stacks" + fit);
  }
  const int64_t bagged = Sum(d.bag, kNumColours);
  if (bagged != kNumVikings - per_round * earlier - drawn) {
    Fail(Str(bagged) + " Vikings in the bag" + fit);
  }
  if (reveal && on_wheel == kGroupsPerRound) {
    Fail("twelve tiles on the wheel end phase reveal_tile");
  }
  if ((is(Phase::kOfferColour) || (draw && !first)) && on_wheel != kGroupsPerRound) {
    Fail(std::string("phase ") + name + " needs all " + Str(kGroupsPerRound) +
         " tiles on the wheel");
  }
  if (draw && drawn_sum >= per_round) {
    Fail(Str(per_round) + " drawn Vikings end phase draw_viking");
  }
  if (InPhases(phase, {Phase::kAuction, Phase::kRemoveViking}) && drawn_sum != per_round) {
    Fail(std::string("phase ") + name + " needs all " + Str(per_round) + " drawn Vikings (A0)");
  }
  if (reveal && first && drawn_sum != kGroupsPerRound) {
    Fail("phase reveal_tile needs the round's " + Str(kGroupsPerRound) + " Vikings drawn (A0)");
  }
  if (scorer_phase && d.round % 2) {
    Fail(std::string("phase ") + name + " happens only after rounds 2, 4, 6");
  }
  if (is(Phase::kGameOver) && d.round != kNumRounds) Fail("game_over needs round 6");
  if (is(Phase::kSpecialFill)) {
    bool empty_place = false;
    for (int i = 0; i < kDisplaySlots; ++i) empty_place = empty_place || d.display[i] < 0;
    if (!empty_place || Sum(d.special_stack, kNumSpecialKinds) == 0) {
      Fail("phase special_fill needs an empty display place and special tiles in the stack");
    }
  }
}

// A1: a running auction has two bidders or more and a leader who can pay.
void CheckAuction(const StateDescription& d) {
  const int n = static_cast<int>(d.num_players);
  int active = 0;
  for (int i = 0; i < n; ++i) active += !d.auction_passed[i];
  if (active < 2) Fail("an auction with fewer than two bidders is over");
  if (d.auction_passed[d.auction_leader] || d.auction_passed[d.auction_turn]) {
    Fail("the auction's leader and the player to bid have not passed");
  }
  if (d.auction_high < 0 &&
      (d.auction_turn != d.start_player || d.auction_leader != d.start_player || active != n)) {
    Fail("before the opening bid the start player is to bid and nobody has passed");
  }
  if (d.auction_high >= 0 && d.auction_turn == d.auction_leader) {
    Fail("the auction's leader cannot be the player to bid");
  }
  const PlayerDescription& leader = d.players[d.auction_leader];
  if (d.auction_high >= 0 && d.auction_high > leader.gold + leader.fame) {
    Fail("the auction's high bid is more than its leader can pay (B5.5)");
  }
}

// The pending purchase or trip must leave the player a legal decision (the reference's
// _check_pending and _check_scorer, in their order).
void CheckDecisionContext(const StateDescription& d) {
  const int n = static_cast<int>(d.num_players);
  const int phase = static_cast<int>(d.phase);
  const char* const name = kPhaseNames[phase];
  if (d.has_pending) {
    const PlayerDescription& buyer = d.players[(d.start_player + d.purchases) % n];
    const bool start_phase = phase == static_cast<int>(Phase::kStartRow);
    const bool placing = InPhases(phase, {Phase::kTakeSpecial, Phase::kBuildingReplace});
    if ((start_phase && buyer.start_row != 0) ||
        (!start_phase && !placing && buyer.start_row == 0)) {
      Fail(std::string("phase ") + name + " does not fit the buyer's start tile");
    }
    const bool ship = IsShip(d.pending_tile);
    int ships = 0;
    for (int c = 0; c < kNumColumns; ++c) ships += buyer.ships[c] >= 0;
    if (phase == static_cast<int>(Phase::kShipColumn) && !(ship && ships < 3)) {
      Fail("phase ship_column needs a pending ship and fewer than 3 ships");
    }
    if (InPhases(phase, {Phase::kIslandCell, Phase::kViking}) && ship) {
      Fail(std::string("phase ") + name + " needs a pending island tile");
    }
    const bool viking_phase = phase == static_cast<int>(Phase::kViking);
    if (d.has_cell != viking_phase) Fail("pending.cell is set exactly in phase viking");
    if (viking_phase) {
      const int row = static_cast<int>(d.pending_row);
      const int col = static_cast<int>(d.pending_col);
      if (buyer.tiles[row - 1][col - 1] != d.pending_tile ||
          (buyer.vikings[row - 1] & ColumnBit(col))) {
        Fail("pending.cell must hold the pending tile, without a Viking");
      }
      if (d.pending_viking == kBoatsman || RowOfColour(d.pending_viking) != row) {
        Fail("pending.cell is not in the row of the pending Viking");
      }
    }
    if (phase == static_cast<int>(Phase::kTakeSpecial)) {
      bool shown = false;
      for (int i = 0; i < kDisplaySlots; ++i) shown = shown || d.display[i] >= 0;
      if (!shown) Fail("phase take_special needs a tile on display");
    }
    if (phase == static_cast<int>(Phase::kBuildingReplace)) {
      bool to_place = false;
      for (int b = 0; b < kNumBuildings; ++b) {
        if (!buyer.specials[kBuilding1 + b] || buyer.has_building[b]) continue;
        for (int r = 0; r < kNumRows; ++r) {
          for (int c = 0; c < kNumColumns; ++c)
            to_place = to_place || buyer.tiles[r][c] == kMiddle1 + b;
        }
      }
      if (!to_place) Fail("phase building_replace needs a building tile to place");
    }
  }
  if (!InPhases(phase, {Phase::kTrip, Phase::kTripTarget})) return;
  const PlayerDescription& scorer = d.players[(d.start_player + d.scoring_index) % n];
  const Planes planes = PlanesOf(scorer);
  auto free_tiles = [&](int row) { return planes.occupied[row] & ~scorer.vikings[row - 1]; };
  if (phase == static_cast<int>(Phase::kTrip)) {
    bool movable = false;
    for (int c = 0; c < kBoatsman; ++c) {
      movable = movable || (scorer.mainland[c] && free_tiles(RowOfColour(c)));
    }
    if (!scorer.mainland[kBoatsman] || !movable) Fail("phase trip needs a possible boatsman trip");
    return;
  }
  int64_t queued[kNumColours] = {};
  for (size_t i = 0; i < d.queue_colour.size(); ++i) queued[d.queue_colour[i]] += d.queue_count[i];
  for (int c = 0; c < kNumColours; ++c) {
    if (queued[c] > scorer.mainland[c]) Fail("trip.queue holds more Vikings than the mainland");
  }
  for (size_t i = 0; i < d.queue_colour.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (d.queue_colour[i] == d.queue_colour[j]) Fail("trip.queue names a colour twice");
    }
  }
  const int row = RowOfColour(d.queue_colour[0]);
  const uint64_t right_of = d.last_col >= kNumColumns ? 0 : ~uint64_t{0} << d.last_col;
  if (PopCount(free_tiles(row) & right_of) < d.queue_count[0]) {
    Fail("trip.queue's first entry has too few free tiles");
  }
  for (size_t i = 1; i < d.queue_colour.size(); ++i) {
    if (PopCount(free_tiles(RowOfColour(d.queue_colour[i]))) < d.queue_count[i]) {
      Fail("a later trip.queue entry has too few free tiles");
    }
  }
}

}  // namespace

void CheckPosition(const StateDescription& d) {
  const int num_players = static_cast<int>(d.num_players);
  const int buyer = static_cast<int>((d.start_player + d.purchases) % num_players);
  for (int i = 0; i < num_players; ++i) {
    const PlayerDescription& player = d.players[i];
    const std::string where = "players[" + Str(i) + "]";
    CheckBoard(player, where);
    CheckBuildings(player, where,
                   d.phase == static_cast<int>(Phase::kBuildingReplace) && i == buyer);
    if (player.fame < 0 && d.phase != static_cast<int>(Phase::kGameOver)) {
      Fail(where + ".fame is negative before the final scoring (B5.5)");
    }
  }
  CheckConservation(d);
  CheckPhase(d);
  CheckDecisionContext(d);
  if (d.has_auction) CheckAuction(d);
}

}  // namespace vikinger
