// SamePosition (see equality.h).
#include "rules/equality.h"

#include <cstring>

namespace vikinger {

namespace {

bool SameBoard(const PlayerBoard& a, const PlayerBoard& b) {
  if (a.gold != b.gold || a.fame != b.fame || a.start_row != b.start_row ||
      std::memcmp(a.mainland, b.mainland, kNumColours) != 0 ||
      std::memcmp(a.ships, b.ships, sizeof(a.ships)) != 0 ||
      std::memcmp(a.specials, b.specials, kNumSpecialKinds) != 0 ||
      std::memcmp(a.building_row, b.building_row, kNumBuildings) != 0 ||
      std::memcmp(a.building_col, b.building_col, kNumBuildings) != 0) {
    return false;
  }
  for (int r = 0; r < kNumRows; ++r) {
    const IslandRow& x = a.rows[r];
    const IslandRow& y = b.rows[r];
    // The kind of a cell's tile is its (mid, lo, hi) bits; a Viking counts on a tile only.
    if (x.mid != y.mid || x.lo != y.lo || x.hi != y.hi ||
        (x.vikings & x.Occupied()) != (y.vikings & y.Occupied())) {
      return false;
    }
  }
  return true;
}

}  // namespace

bool SamePosition(const Position& a, const Position& b) {
  if (a.num_players != b.num_players || a.options != b.options || a.round != b.round ||
      a.phase != b.phase || a.start_player != b.start_player || a.purchases != b.purchases ||
      a.scoring_index != b.scoring_index || a.discarded_tiles != b.discarded_tiles ||
      std::memcmp(a.stacks, b.stacks, kNumTileKinds) != 0 ||
      std::memcmp(a.bag, b.bag, kNumColours) != 0 ||
      std::memcmp(a.drawn, b.drawn, kNumColours) != 0 ||
      std::memcmp(a.removed, b.removed, kNumColours) != 0 ||
      std::memcmp(a.wheel.tiles, b.wheel.tiles, kWheelSpaces) != 0 ||
      std::memcmp(a.wheel.vikings, b.wheel.vikings, kWheelSpaces) != 0 ||
      std::memcmp(&a.pending, &b.pending, sizeof(Pending)) != 0 || a.trip.length != b.trip.length ||
      a.trip.last_col != b.trip.last_col ||
      std::memcmp(a.trip.colour, b.trip.colour, a.trip.length) != 0 ||
      std::memcmp(a.trip.count, b.trip.count, a.trip.length) != 0 ||
      std::memcmp(&a.specials, &b.specials, sizeof(Specials)) != 0 ||
      a.auction.present != b.auction.present) {
    return false;
  }
  if (a.auction.present &&
      (a.auction.high != b.auction.high || a.auction.leader != b.auction.leader ||
       a.auction.turn != b.auction.turn || a.auction.passed != b.auction.passed)) {
    return false;
  }
  for (int i = 0; i < a.num_players; ++i) {
    if (!SameBoard(a.players[i], b.players[i])) return false;
  }
  return true;
}

}  // namespace vikinger
