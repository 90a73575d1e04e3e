// B7.2 step 1 and A4: boatsman trips. See trips.h.
#include "rules/trips.h"

#include <cstring>

#include "base/bits.h"
#include "rules/actions.h"
#include "rules/components.h"

namespace vikinger {

namespace {

// Columns strictly right of `col` (col = 0: every column).
constexpr uint64_t RightOf(int col) { return col >= kNumColumns ? 0 : ~uint64_t{0} << col; }

}  // namespace

uint8_t MovableColours(const PlayerBoard& board) {
  unsigned movable = 0;  // combined without branches (five fixed steps)
  for (int colour = 0; colour < kBoatsman; ++colour) {
    const unsigned waiting = board.mainland[colour] != 0;
    const unsigned free_tile = board.Row(RowOfColour(colour)).FreeTiles() != 0;
    movable |= (waiting & free_tile) << colour;
  }
  return static_cast<uint8_t>(movable);
}

bool TripPossible(const PlayerBoard& board) {
  return board.mainland[kBoatsman] > 0 && MovableColours(board) != 0;
}

namespace {

// B7.2.1a: the most Vikings `trips` full B7.2 trips move. A colour given an "all of one colour"
// trip moves all its count, any other colour one per "one of each" trip; so with k "one of each"
// trips, the other trips - k go to the colours those leave the most of.
int FullTripsCarry(const int* counts, int trips) {
  // Beyond the largest count a further "one of each" trip moves nothing: stop there, where
  // `each` already carries every Vikings.
  int largest = 0;
  for (int c = 0; c < kBoatsman; ++c) largest = counts[c] > largest ? counts[c] : largest;
  const int last_each = trips < largest ? trips : largest;
  int best = 0;
  for (int each = 0; each <= last_each; ++each) {
    int carried = 0;
    int left[kBoatsman];
    for (int c = 0; c < kBoatsman; ++c) {
      const int by_each = counts[c] < each ? counts[c] : each;
      carried += by_each;
      left[c] = counts[c] - by_each;
    }
    for (int i = 1; i < kBoatsman; ++i) {  // descending: five values, insertion sort
      for (int j = i; j > 0 && left[j] > left[j - 1]; --j) {
        const int t = left[j];
        left[j] = left[j - 1];
        left[j - 1] = t;
      }
    }
    for (int i = 0; i < trips - each && i < kBoatsman; ++i) carried += left[i];
    if (carried > best) best = carried;
  }
  return best;
}

// B7.2.1a: whether trip `action` (not kTripStop) keeps `most`, the most movable Vikings
// (MostMovable of the same arguments), reachable.
bool KeepsMostMovable(const int* counts, int boatsmen, int boats, bool weak_boatsmen, int most,
                      int action) {
  int after[kBoatsman];
  int moved = 0;
  for (int c = 0; c < kBoatsman; ++c) {
    const bool hit = action == kTripEach  ? counts[c] > 0
                     : action >= kTripOne ? c == action - kTripOne
                                          : c == action - kTripAll;
    const int take = !hit ? 0 : action == kTripEach || action >= kTripOne ? 1 : counts[c];
    after[c] = counts[c] - take;
    moved += take;
  }
  const int boat_used = weak_boatsmen && action < kTripOne ? 1 : 0;
  return moved + MostMovable(after, boatsmen - 1, boats - boat_used, weak_boatsmen) == most;
}

}  // namespace

// B7.2.1a without A4, in one pass: the legal trips among `mask` (bits 1..5 all of colour c, bit
// 6 one of each). Full trips commute, so a plan is e "one of each" trips and a set S of at most
// b - e colours given "all": it moves sum over S of counts + sum over the rest of min(count, e).
// For each e the best S is the b - e largest residuals max(count - e, 0). A trip keeps the most
// reachable iff some best plan contains it: "one of each" iff a best plan has e >= 1, "all of c"
// iff at a best e there is a slot and c's residual reaches the slot-th largest (ties and spare
// slots included). This equals the per-trip recomputation (KeepsMostMovable); the table of
// FullTripsKeepingMost is made from it. The residuals keep the counts' order for every e, so the
// counts are sorted once, not once per e.
uint64_t FullTripsKeepingMostByLoop(const int* counts, int boatsmen, uint64_t mask) {
  int sorted[kBoatsman];  // the counts, descending: five values, insertion sort
  for (int c = 0; c < kBoatsman; ++c) {
    int j = c;
    for (; j > 0 && sorted[j - 1] < counts[c]; --j) sorted[j] = sorted[j - 1];
    sorted[j] = counts[c];
  }
  const int last_each = boatsmen < sorted[0] ? boatsmen : sorted[0];
  int most = -1;
  bool each_keeps = false;
  uint64_t all_keeps = 0;  // bit c: "all of colour c" is in a best plan
  int by_each = 0;         // what the e "one of each" trips move: sum of min(count, e)
  for (int each = 0; each <= last_each; ++each) {
    for (int i = 0; i < kBoatsman; ++i) by_each += sorted[i] >= each && each > 0;
    const int slots = boatsmen - each;
    int carried = by_each;
    for (int i = 0; i < slots && i < kBoatsman; ++i) {
      carried += sorted[i] > each ? sorted[i] - each : 0;
    }
    if (carried < most) continue;
    if (carried > most) {
      most = carried;
      each_keeps = false;
      all_keeps = 0;
    }
    if (each >= 1) each_keeps = true;
    if (slots >= 1) {
      const int slot_count = slots <= kBoatsman ? sorted[slots - 1] : 0;
      const int threshold = slot_count > each ? slot_count - each : 0;
      for (int c = 0; c < kBoatsman; ++c) {
        const int residual = counts[c] > each ? counts[c] - each : 0;
        if (counts[c] > 0 && residual >= threshold) all_keeps |= uint64_t{1} << c;
      }
    }
  }
  return (mask & all_keeps << 1) | (each_keeps ? mask & uint64_t{1} << 6 : 0);
}

// FullTripsKeepingMostByLoop as a table, for counts and boatsmen of 0..7 (three bits each): its
// answer for every such input, 8^6 = 262,144 bytes. Counts above 7 come from rows with 8 free
// tiles and 8 Vikings of the colour waiting, which the loop answers; in random round-6 play they
// were 0.3-0.5% of the calls. A table of the sorted counts (6 KB) was slower: sorting and ranking
// cost more than the misses of this one in the first-level cache.
const uint8_t* FullTripsTable() {
  static const uint8_t* const table = [] {  // made once, by the first thread that asks
    auto* made = new uint8_t[kFullTripsTableSize];
    int counts[kBoatsman];
    for (int index = 0; index < kFullTripsTableSize; ++index) {  // the index of trips.h, read back
      for (int c = 0; c < kBoatsman; ++c) {
        counts[c] = index >> (c * kFullTripsTableBits) & (kFullTripsTableLimit - 1);
      }
      const int boatsmen = index >> (kBoatsman * kFullTripsTableBits);
      made[index] = static_cast<uint8_t>(FullTripsKeepingMostByLoop(counts, boatsmen, 0x7E));
    }
    return made;
  }();
  return table;
}

int64_t FullTripsTableMismatches() {
  // Every input of the table, and beyond it up to 9 Vikings and 13 boatsmen.
  constexpr int kCounts = 10;
  int64_t mismatches = 0;
  int counts[kBoatsman];
  for (int code = 0; code < kCounts * kCounts * kCounts * kCounts * kCounts; ++code) {
    for (int c = 0, rest = code; c < kBoatsman; ++c, rest /= kCounts) counts[c] = rest % kCounts;
    for (int boatsmen = 0; boatsmen <= kVikingsPerColour; ++boatsmen) {
      for (uint64_t mask : {uint64_t{0x7F}, uint64_t{0x41}, uint64_t{0x3E}}) {
        mismatches += FullTripsKeepingMost(counts, boatsmen, mask) !=
                      FullTripsKeepingMostByLoop(counts, boatsmen, mask);
      }
    }
  }
  return mismatches;
}

int MostMovable(const int* counts, int boatsmen, int boats, bool weak_boatsmen) {
  if (!weak_boatsmen) return FullTripsCarry(counts, boatsmen);
  // A4: a trip with a boat is full, one without moves one Viking; the one-Viking trips do best
  // after the full ones, on whatever those leave.
  int total = 0;
  for (int c = 0; c < kBoatsman; ++c) total += counts[c];
  int best = 0;
  const int most_full = boats < boatsmen ? boats : boatsmen;
  for (int full = 0; full <= most_full; ++full) {
    const int carried = FullTripsCarry(counts, full);
    const int singles = boatsmen - full < total - carried ? boatsmen - full : total - carried;
    if (carried + singles > best) best = carried + singles;
  }
  return best;
}

uint64_t LegalTripMask(const PlayerBoard& board, int round, bool weak_boatsmen) {
  const uint64_t movable = MovableColours(board);
  uint64_t mask = round != kNumRounds ? 1 : 0;  // ⚖ the round-6 obligation
  if (!weak_boatsmen || board.specials[kBoat]) {
    mask |= movable << 1 | uint64_t{1} << 6;  // A4: full trips need a boat tile
  }
  if (weak_boatsmen) mask |= movable << 7;
  if (round != kNumRounds) return mask;
  // B7.2.1a as many as possible: only the trips that keep the most movable Vikings reachable.
  if ((mask & (mask - 1)) == 0) return mask;  // a single trip keeps what there is to keep
  int counts[kBoatsman];
  for (int c = 0; c < kBoatsman; ++c) {
    counts[c] = TripVikings(board.mainland[c], board.Row(RowOfColour(c)).FreeTiles());
  }
  const int boatsmen = board.mainland[kBoatsman];
  if (!weak_boatsmen) return FullTripsKeepingMost(counts, boatsmen, mask);
  const int boats = board.specials[kBoat];
  const int most = MostMovable(counts, boatsmen, boats, weak_boatsmen);
  uint64_t kept = 0;
  for (uint64_t rest = mask; rest; rest &= rest - 1) {
    const int bit = __builtin_ctzll(rest);
    if (KeepsMostMovable(counts, boatsmen, boats, weak_boatsmen, most, kTripStop + bit)) {
      kept |= uint64_t{1} << bit;
    }
  }
  return kept;
}

uint64_t LegalTargetMask(const PlayerBoard& board, const Trip& trip) {
  // Left to right, leaving room for the Vikings still to place: drop the k-1 highest free tiles.
  uint64_t allowed = board.Row(RowOfColour(trip.colour[0])).FreeTiles();
  for (int i = 1; i < trip.count[0] && allowed; ++i) {
    allowed &= ~(uint64_t{1} << (63 - __builtin_clzll(allowed)));
  }
  return allowed & RightOf(trip.last_col);
}

int StartTrip(PlayerBoard& board, Trip& trip, int action, bool weak_boatsmen) {
  --board.mainland[kBoatsman];  // a spent boatsman leaves the game
  trip.length = 0;
  trip.last_col = 0;
  if (action == kTripEach) {
    const uint8_t movable = MovableColours(board);
    for (int colour = 0; colour < kBoatsman; ++colour) {
      if (movable & (1u << colour)) {
        trip.colour[trip.length] = static_cast<uint8_t>(colour);
        trip.count[trip.length++] = 1;
      }
    }
  } else if (action >= kTripOne) {  // A4 a weak trip moves one Viking
    trip.colour[0] = static_cast<uint8_t>(action - kTripOne);
    trip.count[0] = 1;
    trip.length = 1;
  } else {
    const int colour = action - kTripAll;
    trip.colour[0] = static_cast<uint8_t>(colour);
    trip.count[0] = static_cast<uint8_t>(
        TripVikings(board.mainland[colour], board.Row(RowOfColour(colour)).FreeTiles()));
    trip.length = 1;
  }
  if (weak_boatsmen && action < kTripOne) {  // A4 a full trip spends a boat tile
    --board.specials[kBoat];
    return 1;
  }
  return 0;
}

bool MoveTripViking(PlayerBoard& board, Trip& trip, int row, int col) {
  --board.mainland[trip.colour[0]];
  board.Row(row).vikings |= ColumnBit(col);
  trip.last_col = static_cast<uint8_t>(col);
  if (--trip.count[0] == 0) {  // the next colour of the queue, whose unused entries are 0
    std::memmove(trip.colour, trip.colour + 1, kMaxTripQueue - 1);  // fixed sizes: no call
    std::memmove(trip.count, trip.count + 1, kMaxTripQueue - 1);
    trip.colour[kMaxTripQueue - 1] = 0;
    trip.count[kMaxTripQueue - 1] = 0;
    --trip.length;
    trip.last_col = 0;
  }
  if (trip.length > 0) return false;
  trip = Trip{};
  return true;
}

}  // namespace vikinger
