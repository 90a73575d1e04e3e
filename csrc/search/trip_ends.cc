// Round 6's trips by their counts (see trip_ends.h; the argument is in trip_ends.py).
#include "search/trip_ends.h"

#include <algorithm>
#include <cstring>

#include "base/bits.h"
#include "rules/scoring.h"
#include "search/solver.h"

namespace vikinger {
namespace {

constexpr int kKinds = 9;  // a column under a scout tile: (row 4, row 5) x (Viking, free, neither)

// The lowest `count` columns of `cols` (all of them when it has fewer).
uint64_t Lowest(uint64_t cols, int count) {
  uint64_t taken = 0;
  for (; count > 0 && cols != 0; --count) {
    taken |= cols & (0 - cols);
    cols &= cols - 1;
  }
  return taken;
}

// Puts `count` Vikings on `row`, the columns of `first`, then `second`, then `third`, each left
// to right (disjoint masks).
void Place(PlayerBoard& board, int row, int count, uint64_t first, uint64_t second,
           uint64_t third) {
  uint64_t placed = 0;
  for (const uint64_t cols : {first, second, third}) {
    const uint64_t taken = Lowest(cols, count - PopCount(placed));
    placed |= taken;
  }
  board.Row(row).vikings |= placed;
}

uint64_t ScoringScouts(const PlayerBoard& board) { return board.UnthreatenedVikings(kScoutRow); }

// 0: a Viking stands on (row, col); 1: a tile there is free for one; 2: neither.
int Below(const PlayerBoard& board, int row, uint64_t bit, const uint64_t* tiles) {
  if (board.Row(row).vikings & bit) return 0;
  return (tiles[row - 1] & bit) != 0 ? 1 : 2;
}

struct ScoutChoice {
  int moved4, moved5;  // goldsmiths and fishermen placed
  int standing4, standing5;
  int available[kKinds];
  int numbers[kKinds];
  int best_numbers[kKinds];
  int best_value = -1;
};

// The scout bonuses the columns chosen (numbers per kind) add (trip_ends.py's _bonuses).
int Bonuses(const ScoutChoice& c) {
  int standing_vikings = 0, goldsmith_tiles = 0, fisherman_tiles = 0;
  for (int k = 0; k < kKinds; ++k) {
    standing_vikings += c.numbers[k] * ((k / 3 == 0) + (k % 3 == 0));
    if (k / 3 == 1) goldsmith_tiles += c.numbers[k];
    if (k % 3 == 1) fisherman_tiles += c.numbers[k];
  }
  return standing_vikings + std::min(c.moved4, c.standing4 + goldsmith_tiles) +
         std::min(c.moved5, c.standing5 + fisherman_tiles);
}

// Tries every number of each kind in order, the first best kept.
void VisitKinds(ScoutChoice& c, int kind, int left) {
  if (kind == kKinds) {
    if (left != 0) return;
    const int value = Bonuses(c);
    if (value > c.best_value) {
      c.best_value = value;
      std::memcpy(c.best_numbers, c.numbers, sizeof(c.numbers));
    }
    return;
  }
  for (int number = 0; number <= std::min(c.available[kind], left); ++number) {
    c.numbers[kind] = number;
    VisitKinds(c, kind + 1, left - number);
  }
  c.numbers[kind] = 0;
}

// `count` of the unthreatened scout tiles `free` with the most bonuses (_best_scouts).
uint64_t BestScouts(const PlayerBoard& board, uint64_t free, int count, const uint64_t* tiles,
                    const int* moved) {
  uint64_t kinds[kKinds] = {};
  for (uint64_t rest = free; rest != 0; rest &= rest - 1) {
    const uint64_t bit = rest & (0 - rest);
    kinds[3 * Below(board, kGoldsmithRow, bit, tiles) + Below(board, kFishermanRow, bit, tiles)] |=
        bit;
  }
  ScoutChoice c{};
  c.moved4 = moved[kGoldsmithRow];
  c.moved5 = moved[kFishermanRow];
  c.standing4 = PopCount(tiles[kGoldsmithRow - 1] & ScoringScouts(board));
  c.standing5 = PopCount(tiles[kFishermanRow - 1] & ScoringScouts(board));
  for (int k = 0; k < kKinds; ++k) c.available[k] = PopCount(kinds[k]);
  VisitKinds(c, 0, count);
  uint64_t chosen = 0;
  for (int k = 0; k < kKinds; ++k) chosen |= Lowest(kinds[k], c.best_numbers[k]);
  return chosen;
}

// Nobles, scouts, goldsmiths and fishermen, once the warriors stand.
void PlaceTheRest(PlayerBoard& board, const uint64_t* tiles, const int* moved) {
  const uint64_t nobles = tiles[kNobleRow - 1];
  const uint64_t noble_threat = board.ThreatenedMask(kNobleRow);
  Place(board, kNobleRow, moved[kNobleRow], nobles & ~noble_threat, nobles & noble_threat, 0);
  const uint64_t scouts = tiles[kScoutRow - 1];
  const uint64_t scout_threat = board.ThreatenedMask(kScoutRow);
  const uint64_t free = scouts & ~scout_threat;
  const uint64_t chosen =
      BestScouts(board, free, std::min(moved[kScoutRow], PopCount(free)), tiles, moved);
  Place(board, kScoutRow, moved[kScoutRow], chosen, scouts & scout_threat, 0);
  for (const int row : {kGoldsmithRow, kFishermanRow}) {
    const uint64_t cols = tiles[row - 1];
    const uint64_t threat = board.ThreatenedMask(row);
    const uint64_t under = cols & ~threat & ScoringScouts(board);
    Place(board, row, moved[row], under, cols & ~threat & ~under, cols & threat);
  }
}

// Every set of `left` columns of `ships` from its lowest bit on, added to `chosen`, scored:
// the best total into *best.
void TryRepelled(const PlayerBoard& base, const uint64_t* tiles, const int* moved, uint64_t others,
                 int extra, uint64_t ships, int left, uint64_t chosen, int64_t* best, bool* found) {
  if (left == 0) {
    PlayerBoard board = base;
    board.Row(kWarriorRow).vikings |= chosen | Lowest(others, extra);
    PlaceTheRest(board, tiles, moved);
    LargeScoring(board);
    FinalScoringAlone(board);
    const int64_t total = kFameUnit * board.fame + board.gold;
    if (!*found || total > *best) *best = total;
    *found = true;
    return;
  }
  for (uint64_t rest = ships; PopCount(rest) >= left; rest &= rest - 1) {
    const uint64_t bit = rest & (0 - rest);
    TryRepelled(base, tiles, moved, others, extra, rest & (rest - 1), left - 1, chosen | bit, best,
                found);
  }
}

}  // namespace

bool ByCounts(const PlayerBoard& board) {
  for (int b = 0; b < kNumBuildings; ++b) {
    if (board.building_row[b] != 0) return false;
  }
  return true;
}

void TripCandidates(const Position& p, uint64_t tiles[kNumRows]) {
  const PlayerBoard& board = p.players[CurrentPlayer(p)];
  for (int row = 1; row <= kNumRows; ++row) tiles[row - 1] = board.Row(row).FreeTiles();
  if (p.phase == Phase::kTripTarget && p.trip.length > 0 && p.trip.last_col > 0) {
    const int row = RowOfColour(p.trip.colour[0]);
    // Columns right of last_col: bits last_col and up.
    tiles[row - 1] &= p.trip.last_col >= kNumColumns ? 0 : ~uint64_t{0} << p.trip.last_col;
  }
}

int64_t BestTotal(const PlayerBoard& start, const PlayerBoard& end, const uint64_t* tiles) {
  // A colour's Vikings go to its own row only: the row gains what the mainland lost.
  int moved[kNumRows + 1] = {};
  for (int colour = 0; colour < kBoatsman; ++colour) {
    moved[RowOfColour(colour)] = start.mainland[colour] - end.mainland[colour];
  }
  PlayerBoard base = start;
  std::memcpy(base.mainland, end.mainland, sizeof(base.mainland));
  std::memcpy(base.specials, end.specials, sizeof(base.specials));
  const uint64_t warriors = tiles[kWarriorRow - 1];
  const uint64_t ships = warriors & start.ShipColumns();
  const int repelling = std::min(moved[kWarriorRow], PopCount(ships));
  int64_t best = 0;
  bool found = false;
  TryRepelled(base, tiles, moved, warriors & ~ships, moved[kWarriorRow] - repelling, ships,
              repelling, 0, &best, &found);
  return best;
}

}  // namespace vikinger
