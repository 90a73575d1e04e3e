// B7.2 step 1 and A4: boatsman trips. See trips.h.
#include "trips.h"

#include <cstring>

#include "actions.h"
#include "bits.h"
#include "components.h"

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

uint64_t LegalTripMask(const PlayerBoard& board, int round, bool weak_boatsmen) {
  const uint64_t movable = MovableColours(board);
  uint64_t mask = round != kNumRounds ? 1 : 0;  // ⚖ the round-6 obligation
  if (!weak_boatsmen || board.specials[kBoat]) {
    mask |= movable << 1 | uint64_t{1} << 6;  // A4: full trips need a boat tile
  }
  if (weak_boatsmen) mask |= movable << 7;
  return mask;
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
    const int free = PopCount(board.Row(RowOfColour(colour)).FreeTiles());
    const int on_mainland = board.mainland[colour];
    trip.colour[0] = static_cast<uint8_t>(colour);
    trip.count[0] = static_cast<uint8_t>(on_mainland < free ? on_mainland : free);
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
