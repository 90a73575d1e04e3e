// The game state (docs/rules.md B3-B8, A0-A5): a flat POD `Position`, its state machine, and
// `State`, the position plus its history. What each node allows: legal_set.h.
//
// A `Position` is everything that decides the future of a game: copying it is a memcpy, and it
// owns no memory. The state machine follows docs/actions.md step by step: a round is 12 tiles
// revealed and 12 Vikings drawn (chance nodes; A0: with the auction or the draw of 13 the
// Vikings first, then the auction and the removal, then the tiles), 12 purchases, each a short
// sequence of decisions (group, start tile, cell, Viking), then the round's scoring with boatsman
// trips at the large scorings. After every applied action, forced decisions (exactly one legal
// action) are applied automatically and are not recorded in the history.
#ifndef VIKINGER_STATE_H_
#define VIKINGER_STATE_H_

#include <cstdint>
#include <vector>

#include "rules/board.h"
#include "rules/components.h"
#include "rules/wheel.h"

namespace vikinger {

// docs/actions.md phases; the last six belong to the advanced modules (A1-A5).
enum class Phase : uint8_t {
  kRevealTile = 0,
  kDrawViking,
  kBuy,
  kStartRow,
  kShipColumn,
  kIslandCell,
  kViking,
  kTrip,
  kTripTarget,
  kGameOver,
  kSpecialFill,
  kAuction,
  kRemoveViking,
  kOfferColour,
  kTakeSpecial,
  kBuildingReplace,
};
constexpr int kNumPhases = 16;
extern const char* const kPhaseNames[kNumPhases];

constexpr int kChance = -1;
constexpr int kTerminal = -4;

// Option bits of docs/state.md, in the order of the Game keywords.
constexpr int kNumOptions = 5;
extern const char* const kOptionNames[kNumOptions];  // auction, draw13, ... special_tiles

// Legal lists never exceed PASS plus the 1024 bids of an A1 auction (cell blocks: 320).
constexpr int kMaxLegalActions = 1025;
// A1: no bid yet.
constexpr uint16_t kNoBid = 0xFFFF;
// B7.2.1 a trip queue holds at most one entry per colour with a row.
constexpr int kMaxTripQueue = 5;

// A purchase between its BUY and its end (docs/actions.md step 3).
struct Pending {
  uint8_t tile;    // tile kind, kNone when no purchase is pending
  uint8_t viking;  // Viking colour
  uint8_t row;     // the cell of phase viking, 0 otherwise
  uint8_t col;
};

// A boatsman trip being placed (phase trip_target only): queue of (colour, Vikings still to move).
struct Trip {
  uint8_t length;  // 0 when there is no trip
  uint8_t last_col;
  uint8_t colour[kMaxTripQueue];
  uint8_t count[kMaxTripQueue];
};

// A1 the auction for start player, while bidding (present = 0 otherwise).
struct Auction {
  uint8_t present;
  uint8_t leader;
  uint8_t turn;
  uint8_t passed;  // bit p: player p has passed
  uint16_t high;   // kNoBid before the opening bid
};

// A5 the special tiles outside the players' hands.
struct Specials {
  uint8_t stack[kNumSpecialKinds];
  uint8_t display[kDisplaySlots];  // kind per display place, kNone when empty
  uint8_t removed[kNumSpecialKinds];
};

struct Position {
  uint8_t num_players;
  uint8_t options;
  uint8_t round;  // 1..6
  Phase phase;
  uint8_t start_player;
  uint8_t purchases;      // groups bought this round
  uint8_t scoring_index;  // large scoring: scorer = (start_player + i) % n
  uint8_t discarded_tiles;
  uint8_t stacks[kNumTileKinds];
  uint8_t bag[kNumColours];
  uint8_t drawn[kNumColours];
  uint8_t removed[kNumColours];
  Wheel wheel;
  Pending pending;
  Trip trip;
  Auction auction;
  Specials specials;
  PlayerBoard players[kMaxPlayers];  // last: only the first num_players are in use
};

struct LegalSet;  // legal_set.h

// kSeats.seat[n][k] = k % n for k < 16: seats in turn without a division or a loop.
struct SeatTable {
  uint8_t seat[kMaxPlayers + 1][16];
};
inline constexpr SeatTable kSeats = [] {
  SeatTable table{};
  for (int n = 1; n <= kMaxPlayers; ++n) {
    for (int k = 0; k < 16; ++k) table.seat[n][k] = static_cast<uint8_t>(k % n);
  }
  return table;
}();

// The seat `offset` places after `first` among n players: (first + offset) % n, for first < n
// and offset <= 12 (B5.1, B7.2: in turn from the start player).
inline int Seat(int first, int offset, int n) { return kSeats.seat[n][first + offset]; }

// B5.1 the buyer of the current purchase; B7.2 the current scorer of a large scoring.
inline int BuyerSeat(const Position& p) { return Seat(p.start_player, p.purchases, p.num_players); }
inline int ScorerSeat(const Position& p) {
  return Seat(p.start_player, p.scoring_index, p.num_players);
}

// B3.1 the position before the first tile is revealed.
void InitPosition(Position& position, int num_players, int options);

inline bool IsChanceNode(const Position& p) {
  return p.phase == Phase::kRevealTile || p.phase == Phase::kDrawViking ||
         p.phase == Phase::kSpecialFill;
}
inline bool HasOption(const Position& p, int option) { return (p.options >> option) & 1; }
// Option bits (docs/state.md order).
constexpr int kOptAuction = 0;        // A1
constexpr int kOptDraw13 = 1;         // A2
constexpr int kOptOfferByColour = 2;  // A3
constexpr int kOptWeakBoatsmen = 3;   // A4
constexpr int kOptSpecialTiles = 4;   // A5
// A0: with the auction (A1) or the draw of 13 (A2) a round draws its Vikings first, then holds the
// auction and the removal, and reveals the tiles last; else tiles first (B4.1, B4.2).
constexpr bool VikingsBeforeTiles(int options) {
  return (options & (1 << kOptAuction | 1 << kOptDraw13)) != 0;
}
inline bool IsTerminal(const Position& p) { return p.phase == Phase::kGameOver; }
// 0..n-1, kChance or kTerminal.
int CurrentPlayer(const Position& p);

// Applies a legal action, then every forced decision. The action is not checked.
void ApplyLegalAction(Position& p, int action);
// The same, and sets `next` to the legal decisions of the node reached (empty at a chance or
// terminal node); returns their number.
int ApplyLegalAction(Position& p, int action, LegalSet* next);
// At a chance node: applies the outcome that the uniform `u` in [0, 1) draws (docs/api.md:
// x = floor(u * total), the first kind whose running count exceeds x), then every forced
// decision; sets `next` as ApplyLegalAction does. Returns the chance id applied.
int ApplySampledChance(Position& p, double u, LegalSet* next);
// The same for the uniform u = m * 2**-53 of a 53-bit m (UniformStream::NextBits), with
// floor(u * total) in integers (FloorUniformTimes, rng.h): how rollouts draw chance outcomes.
// Returns the number of legal decisions in `next`, as ApplyLegalAction does.
int ApplyStreamChance(Position& p, uint64_t m, LegalSet* next);
// B8.9 win shares once terminal, else zeros.
void Returns(const Position& p, double* out);

// A position with the actions that led to it.
class State {
 public:
  State() = default;
  State(int num_players, int options) { InitPosition(position, num_players, options); }

  // Throws std::invalid_argument when the game is over or `action` is not legal now; the state
  // is then unchanged.
  void ApplyAction(int64_t action);
  // Throws std::invalid_argument at a decision node. Returns the chance id applied.
  int ApplyRandomChance(double u);

  Position position{};
  std::vector<uint16_t> history;
};

}  // namespace vikinger

#endif  // VIKINGER_STATE_H_
