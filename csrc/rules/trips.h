// B7.2 step 1 (and A4): boatsman trips during a large scoring. Mirrors trips.py.
//
// A trip spends one boatsman and moves all mainland Vikings of one colour, or one of each
// colour, onto free island tiles of their rows (⚖ as many as the choice allows, at least one).
// In round 6 (B7.2.1a) no stopping while a trip is possible, and a trip is legal only if the most
// Vikings the player can move stays reachable after it. Under A4 a trip moves one Viking unless
// a boat tile is spent with the boatsman. Targets are taken left to right (docs/rules.md).
#ifndef VIKINGER_TRIPS_H_
#define VIKINGER_TRIPS_H_

#include <cstdint>

#include "base/bits.h"
#include "rules/state.h"

namespace vikinger {

// Bit c set: colour c has a Viking on the mainland and a free tile in its row.
uint8_t MovableColours(const PlayerBoard& board);

bool TripPossible(const PlayerBoard& board);

// B7.2 (⚖ as many as the choice allows): the Vikings of one colour an "all of it" trip moves,
// those waiting on the mainland up to the free tiles of its row.
inline int TripVikings(int waiting, uint64_t free_tiles) {
  const int tiles = PopCount(free_tiles);
  return waiting < tiles ? waiting : tiles;
}

// Legal trip decisions relative to kTripStop: bit 0 stop, bits 1..5 all of colour c, bit 6 one
// of each, bits 7..11 one of colour c (A4). In round 6 only those that keep MostMovable.
uint64_t LegalTripMask(const PlayerBoard& board, int round, bool weak_boatsmen);

// B7.2.1a on counts: counts[c] = min(mainland Vikings of colour c, free tiles in its row), for
// the five colours with a row. The most Vikings `boatsmen` boatsmen (under A4 with `boats` boat
// tiles) can move.
int MostMovable(const int* counts, int boatsmen, int boats, bool weak_boatsmen);

// B7.2.1a without A4 by its loop (trips.cc): the trips of `mask` (as LegalTripMask's bits; bits
// 1..5 and 6 only) that keep MostMovable(counts, boatsmen, 0, false) reachable.
uint64_t FullTripsKeepingMostByLoop(const int* counts, int boatsmen, uint64_t mask);
// The loop's answer for every input of counts and boatsmen below kFullTripsTableLimit, at index
// boatsmen << 15 | counts[4] << 12 | .. | counts[0], three bits each: made on first use, by
// the first thread that asks (trips.cc).
constexpr int kFullTripsTableBits = 3;  // per count and for the boatsmen
constexpr int kFullTripsTableLimit = 1 << kFullTripsTableBits;
constexpr int kFullTripsTableSize = kFullTripsTableLimit << (kBoatsman * kFullTripsTableBits);
const uint8_t* FullTripsTable();

// FullTripsKeepingMostByLoop, from the table where the inputs are in it. Inline, so that the
// fused playout's counts go to the index in registers: a call took them through memory, and
// the 16-byte load of the four counts just stored waited for the stores.
inline uint64_t FullTripsKeepingMost(const int* counts, int boatsmen, uint64_t mask) {
  int index = boatsmen << (kBoatsman * kFullTripsTableBits);
  int any = boatsmen;
  for (int c = 0; c < kBoatsman; ++c) {
    index |= counts[c] << (c * kFullTripsTableBits);
    any |= counts[c];
  }
  if (static_cast<unsigned>(any) >= kFullTripsTableLimit) {
    return FullTripsKeepingMostByLoop(counts, boatsmen, mask);
  }
  return mask & FullTripsTable()[index];
}

// The inputs, counts up to 9 and boatsmen up to 13, where FullTripsKeepingMost differs from the
// loop (for the tests).
int64_t FullTripsTableMismatches();

// Columns of the legal targets for the trip's next Viking (in the row of its colour).
uint64_t LegalTargetMask(const PlayerBoard& board, const Trip& trip);

// The targets of a trip's k Vikings of one colour, one after the other, for a caller that moves
// them all at once (the fused playout): at each step the mask LegalTargetMask gives. Its k-1
// highest free tiles, held back for the Vikings still to come, are the k-1 highest of the row's
// free tiles before the trip (every Viking lands left of them), so the caller finds them once,
// and each landing hands the lowest of them back: no step recounts the row.
class TripTargets {
 public:
  // `held`: the k-1 highest of `free_tiles`.
  TripTargets(uint64_t free_tiles, uint64_t held) : free_(free_tiles), held_(held) {}
  // Bit c-1: column c is a legal target for the next Viking.
  uint64_t Next() const { return free_ & ~held_ & right_; }
  // The next Viking lands on the tile of bit `bit` (one of Next()).
  void Land(int bit) {
    right_ = ~uint64_t{1} << bit;  // targets are taken left to right
    held_ &= held_ - 1;
  }

 private:
  uint64_t free_;
  uint64_t held_;
  uint64_t right_ = ~uint64_t{0};
};

// Spends the boatsman (and under A4 the boat of a full trip) and fills the trip queue for a
// trip action other than kTripStop. Returns the number of boat tiles spent (0 or 1).
int StartTrip(PlayerBoard& board, Trip& trip, int action, bool weak_boatsmen);

// Moves the queue's next Viking onto (row, col); returns true when the queue is done.
bool MoveTripViking(PlayerBoard& board, Trip& trip, int row, int col);

}  // namespace vikinger

#endif  // VIKINGER_TRIPS_H_
