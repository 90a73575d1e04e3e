// The state machine of docs/actions.md (RULES.md B3-B8): chance nodes, purchases, placement,
// scoring and boatsman trips, with forced decisions applied automatically.
#include "state.h"

#include <cstring>
#include <stdexcept>
#include <string>

#include "actions.h"
#include "rng.h"
#include "scoring.h"

namespace vikinger {

const char* const kPhaseNames[kNumPhases] = {
    "reveal_tile",   "draw_viking",  "buy",          "start_row",
    "ship_column",   "island_cell",  "viking",       "trip",
    "trip_target",   "game_over",    "special_fill", "auction",
    "remove_viking", "offer_colour", "take_special", "building_replace"};

const char* const kOptionNames[kNumOptions] = {"auction", "draw13", "offer_by_colour",
                                               "weak_boatsmen", "special_tiles"};

namespace {

// (first + offset) % n for first < n <= 4 and offset <= 12, without a division.
inline int Seat(int first, int offset, int n) {
  int seat = first + offset;
  while (seat >= n) seat -= n;
  return seat;
}

PlayerBoard& Buyer(Position& p) {
  return p.players[Seat(p.start_player, p.purchases, p.num_players)];  // B5.1
}

PlayerBoard& Scorer(Position& p) {
  return p.players[Seat(p.start_player, p.scoring_index, p.num_players)];  // B7.2
}

// B7.2.1: a colour is movable with a Viking on the mainland and a free tile in its row.
uint8_t MovableColours(const PlayerBoard& board) {
  uint8_t movable = 0;
  for (int colour = 0; colour < kBoatsman; ++colour) {
    if (board.mainland[colour] && board.Row(RowOfColour(colour)).FreeTiles()) {
      movable |= static_cast<uint8_t>(1u << colour);
    }
  }
  return movable;
}

bool TripPossible(const PlayerBoard& board) {
  return board.mainland[kBoatsman] > 0 && MovableColours(board) != 0;
}

// Columns strictly right of `col` (col = 0: every column).
constexpr uint64_t RightOf(int col) { return col >= kNumColumns ? 0 : ~uint64_t{0} << col; }

void NextRound(Position& p) {
  ++p.round;
  p.start_player = static_cast<uint8_t>((p.start_player + 1) % p.num_players);  // B3.3
  p.purchases = 0;
  p.phase = Phase::kRevealTile;
}

// B7.2: scorers in turn from the start player; each gets trips while one is possible.
void ContinueLargeScoring(Position& p) {
  while (p.scoring_index < p.num_players) {
    PlayerBoard& board = Scorer(p);
    if (TripPossible(board)) {
      p.phase = Phase::kTrip;
      return;
    }
    LargeScoring(board);
    ++p.scoring_index;
  }
  p.scoring_index = 0;
  if (p.round == kNumRounds) {
    FinalScoring(p.players, p.num_players);  // B8
    p.phase = Phase::kGameOver;
  } else {
    NextRound(p);
  }
}

void ScoreRound(Position& p) {
  if (p.round % 2 == 1) {  // B7.1 after rounds 1, 3, 5
    for (int i = 0; i < p.num_players; ++i) SmallScoring(p.players[i]);
    NextRound(p);
  } else {  // B7.2 after rounds 2, 4, 6
    p.scoring_index = 0;
    ContinueLargeScoring(p);
  }
}

void EndPurchase(Position& p) {
  p.pending = Pending{kNone, kNone, 0, 0};
  ++p.purchases;
  if (p.purchases < kGroupsPerRound) {
    p.phase = Phase::kBuy;
  } else {
    ScoreRound(p);
  }
}

void VikingToMainland(Position& p) {
  ++Buyer(p).mainland[p.pending.viking];  // B6.4
  EndPurchase(p);
}

void PlacePendingTile(Position& p) {
  PlayerBoard& board = Buyer(p);
  const int tile = p.pending.tile;
  if (IsShip(tile)) {  // B6.1
    if (board.num_ships < 3) {
      p.phase = Phase::kShipColumn;
    } else {
      board.PlaceShip(tile, board.num_ships + 1);
      VikingToMainland(p);
    }
  } else if (board.HasLegalIslandCell(tile)) {  // B6.2
    p.phase = Phase::kIslandCell;
  } else {  // B6.3 unplaceable: the tile leaves the game
    ++p.discarded_tiles;
    VikingToMainland(p);
  }
}

void Buy(Position& p, int space) {
  PlayerBoard& board = Buyer(p);
  const int price = p.wheel.Price(space);
  const int from_gold = board.gold < price ? board.gold : price;  // B5.5 gold first, then Fame
  board.gold -= from_gold;
  board.fame -= price - from_gold;
  int tile;
  int viking;
  p.wheel.Take(space, &tile, &viking);
  p.pending = Pending{static_cast<uint8_t>(tile), static_cast<uint8_t>(viking), 0, 0};
  if (board.start_row == 0) {
    p.phase = Phase::kStartRow;  // B6.0 start tile first
  } else {
    PlacePendingTile(p);
  }
}

void PlaceIslandTile(Position& p, int row, int col) {
  Buyer(p).Row(row).Place(p.pending.tile, col);
  const int viking = p.pending.viking;
  if (viking != kBoatsman && RowOfColour(viking) == row) {  // B6.4 the Viking's own row
    p.pending.row = static_cast<uint8_t>(row);
    p.pending.col = static_cast<uint8_t>(col);
    p.phase = Phase::kViking;
  } else {
    VikingToMainland(p);
  }
}

void StartTrip(Position& p, int action) {
  PlayerBoard& board = Scorer(p);
  if (action == kTripStop) {
    LargeScoring(board);
    ++p.scoring_index;
    ContinueLargeScoring(p);
    return;
  }
  --board.mainland[kBoatsman];  // a spent boatsman leaves the game
  ++p.removed[kBoatsman];
  Trip& trip = p.trip;
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
  } else {
    const int colour = action - kTripAll;
    const int free = PopCount(board.Row(RowOfColour(colour)).FreeTiles());
    const int on_mainland = board.mainland[colour];
    trip.colour[0] = static_cast<uint8_t>(colour);
    trip.count[0] = static_cast<uint8_t>(on_mainland < free ? on_mainland : free);
    trip.length = 1;
  }
  p.phase = Phase::kTripTarget;
}

void MoveToTarget(Position& p, int row, int col) {
  PlayerBoard& board = Scorer(p);
  Trip& trip = p.trip;
  --board.mainland[trip.colour[0]];
  board.Row(row).vikings |= ColumnBit(col);
  trip.last_col = static_cast<uint8_t>(col);
  if (--trip.count[0] == 0) {
    for (int i = 1; i < trip.length; ++i) {
      trip.colour[i - 1] = trip.colour[i];
      trip.count[i - 1] = trip.count[i];
    }
    --trip.length;
    trip.colour[trip.length] = 0;
    trip.count[trip.length] = 0;
    trip.last_col = 0;
  }
  if (trip.length > 0) return;
  trip = Trip{};
  if (TripPossible(board)) {
    p.phase = Phase::kTrip;
  } else {
    LargeScoring(board);
    ++p.scoring_index;
    ContinueLargeScoring(p);
  }
}

void RevealTile(Position& p, int kind) {
  --p.stacks[kind];
  p.wheel.Reveal(kind);  // B4.1
  if (p.wheel.TileCount() == kGroupsPerRound) p.phase = Phase::kDrawViking;
}

void DrawViking(Position& p, int colour) {
  --p.bag[colour];
  ++p.drawn[colour];
  int drawn = 0;
  for (int c = 0; c < kNumColours; ++c) drawn += p.drawn[c];
  if (drawn == kGroupsPerRound) {
    p.wheel.LayOutVikings(p.drawn);  // B4.2
    std::memset(p.drawn, 0, sizeof(p.drawn));
    p.phase = Phase::kBuy;
  }
}

void ApplyOne(Position& p, int action) {
  switch (p.phase) {
    case Phase::kRevealTile:
      RevealTile(p, action - kReveal);
      break;
    case Phase::kDrawViking:
      DrawViking(p, action - kDraw);
      break;
    case Phase::kBuy:
      Buy(p, action - kBuy);
      break;
    case Phase::kStartRow:
      Buyer(p).PlaceStartTile(action - kStart + 1);  // B6.0
      PlacePendingTile(p);
      break;
    case Phase::kShipColumn:
      Buyer(p).PlaceShip(p.pending.tile, action - kShip + 1);  // B6.1
      VikingToMainland(p);
      break;
    case Phase::kIslandCell:
      PlaceIslandTile(p, (action - kTile) / kNumColumns + 1, (action - kTile) % kNumColumns + 1);
      break;
    case Phase::kViking:
      if (action == kVikingOnTile) {
        Buyer(p).Row(p.pending.row).vikings |= ColumnBit(p.pending.col);
        EndPurchase(p);
      } else {
        VikingToMainland(p);
      }
      break;
    case Phase::kTrip:
      StartTrip(p, action);
      break;
    case Phase::kTripTarget:
      MoveToTarget(p, (action - kTarget) / kNumColumns + 1, (action - kTarget) % kNumColumns + 1);
      break;
    default:
      throw std::logic_error("no action applies in this phase");
  }
}

// A set holding the ids base + bit index for the bits of `mask`.
LegalSet OneMask(uint64_t mask, int base) {
  LegalSet set;
  set.masks[0] = mask;
  set.bases[0] = static_cast<int16_t>(base);
  set.num_masks = 1;
  return set;
}

}  // namespace

void InitPosition(Position& p, int num_players, int options) {
  std::memset(&p, 0, sizeof(p));
  p.num_players = static_cast<uint8_t>(num_players);
  p.options = static_cast<uint8_t>(options);
  p.round = 1;
  p.phase = Phase::kRevealTile;
  for (int k = 0; k < kNumTileKinds; ++k) p.stacks[k] = kStackCounts[k];  // B1.4
  for (int c = 0; c < kNumColours; ++c) p.bag[c] = kVikingsPerColour;     // B3.1
  p.wheel.Clear();
  p.pending = Pending{kNone, kNone, 0, 0};
  for (int i = 0; i < num_players; ++i) {  // B1.5
    p.players[i].gold = StartGold(num_players);
    p.players[i].fame = kStartFame;
  }
}

int CurrentPlayer(const Position& p) {
  switch (p.phase) {
    case Phase::kRevealTile:
    case Phase::kDrawViking:
      return kChance;
    case Phase::kGameOver:
      return kTerminal;
    case Phase::kTrip:
    case Phase::kTripTarget:
      return Seat(p.start_player, p.scoring_index, p.num_players);
    default:
      return Seat(p.start_player, p.purchases, p.num_players);  // B5.1
  }
}

int LegalSet::Count() const {
  int count = 0;
  for (int i = 0; i < num_masks; ++i) count += PopCount(masks[i]);
  return count;
}

int LegalSet::Nth(int k) const {
  for (int i = 0;; ++i) {
    const int here = PopCount(masks[i]);
    if (k < here) {
      uint64_t mask = masks[i];
      for (; k > 0; --k) mask &= mask - 1;
      return bases[i] + __builtin_ctzll(mask);
    }
    k -= here;
  }
}

int LegalSet::Write(int* out) const {
  int n = 0;
  for (int i = 0; i < num_masks; ++i) {
    for (uint64_t mask = masks[i]; mask; mask &= mask - 1)
      out[n++] = bases[i] + __builtin_ctzll(mask);
  }
  return n;
}

bool LegalSet::Contains(int action) const {
  for (int i = 0; i < num_masks; ++i) {
    const int bit = action - bases[i];
    if (bit >= 0 && bit < 64 && ((masks[i] >> bit) & 1)) return true;
  }
  return false;
}

LegalSet LegalDecisionSet(const Position& p) {
  const int player = CurrentPlayer(p);
  if (player < 0) return LegalSet{};
  const PlayerBoard& board = p.players[player];
  switch (p.phase) {
    case Phase::kBuy:
      return OneMask(p.wheel.LegalBuys(board.gold, board.fame), kBuy);  // B5
    case Phase::kStartRow:
      return OneMask((1u << kNumRows) - 1, kStart);  // B6.0 any row
    case Phase::kShipColumn:
      return OneMask(board.FreeShipColumns(), kShip);  // B6.1
    case Phase::kIslandCell: {
      LegalSet set;
      board.LegalIslandCells(p.pending.tile, set.masks);  // B6.2
      for (int row = 1; row <= kNumRows; ++row) {
        set.bases[row - 1] = static_cast<int16_t>(CellId(kTile, row, 1));
      }
      set.num_masks = kNumRows;
      return set;
    }
    case Phase::kViking:
      return OneMask(0b11, kVikingOnTile);  // B6.4 tile or mainland
    case Phase::kTrip: {
      // Relative to kTripStop: bit 0 stop, bits 1..5 all of colour c, bit 6 each.
      const uint64_t stop = p.round != kNumRounds ? 1 : 0;  // ⚖ the round-6 obligation
      return OneMask(stop | uint64_t{MovableColours(board)} << 1 | uint64_t{1} << 6, kTripStop);
    }
    case Phase::kTripTarget: {
      // Targets go left to right, leaving room for the Vikings still to place.
      const int row = RowOfColour(p.trip.colour[0]);
      uint64_t allowed = board.Row(row).FreeTiles();  // minus the k-1 highest free tiles
      for (int i = 1; i < p.trip.count[0] && allowed; ++i) {
        allowed &= ~(uint64_t{1} << (63 - __builtin_clzll(allowed)));
      }
      return OneMask(allowed & RightOf(p.trip.last_col), CellId(kTarget, row, 1));
    }
    default:
      return LegalSet{};
  }
}

const uint8_t* ChanceCounts(const Position& p, int* num_kinds, int* first_id) {
  if (p.phase == Phase::kRevealTile) {
    *num_kinds = kNumTileKinds;
    *first_id = kReveal;
    return p.stacks;
  }
  *num_kinds = kNumColours;
  *first_id = kDraw;
  return p.bag;
}

int LegalActions(const Position& p, int* out) {
  if (!IsChanceNode(p)) return LegalDecisionSet(p).Write(out);
  int num_kinds;
  int first_id;
  const uint8_t* counts = ChanceCounts(p, &num_kinds, &first_id);
  int n = 0;
  for (int k = 0; k < num_kinds; ++k) {
    if (counts[k]) out[n++] = first_id + k;
  }
  return n;
}

bool IsLegal(const Position& p, int action) {
  int legal[kMaxLegalActions];
  const int n = LegalActions(p, legal);
  for (int i = 0; i < n; ++i) {
    if (legal[i] == action) return true;
  }
  return false;
}

namespace {

// docs/actions.md "Automatic decisions": applies every forced decision; sets `next` to the legal
// decisions of the node reached and returns their number.
int ApplyForcedDecisions(Position& p, LegalSet* next) {
  while (!IsChanceNode(p) && !IsTerminal(p)) {
    *next = LegalDecisionSet(p);
    const int count = next->Count();
    if (count != 1) return count;
    ApplyOne(p, next->Nth(0));
  }
  *next = LegalSet{};
  return 0;
}

}  // namespace

int ApplyLegalAction(Position& p, int action, LegalSet* next) {
  ApplyOne(p, action);
  return ApplyForcedDecisions(p, next);
}

int ApplySampledChance(Position& p, double u, LegalSet* next) {
  int outcome;
  if (p.phase == Phase::kRevealTile) {
    const int kind = SampleCounts(p.stacks, kNumTileKinds, u);
    RevealTile(p, kind);
    outcome = kReveal + kind;
  } else {
    const int colour = SampleCounts(p.bag, kNumColours, u);
    DrawViking(p, colour);
    outcome = kDraw + colour;
  }
  if (IsChanceNode(p)) {
    *next = LegalSet{};
    return outcome;
  }
  ApplyForcedDecisions(p, next);
  return outcome;
}

void ApplyLegalAction(Position& p, int action) {
  LegalSet next;
  ApplyLegalAction(p, action, &next);
}

void Returns(const Position& p, double* out) {
  if (!IsTerminal(p)) {
    for (int i = 0; i < p.num_players; ++i) out[i] = 0.0;
    return;
  }
  WinShares(p.players, p.num_players, out);
}

void State::ApplyAction(int64_t action) {
  if (IsTerminal(position)) {
    throw std::invalid_argument("the game is over; action " + std::to_string(action) +
                                " cannot be applied");
  }
  if (action < 0 || action >= kNumDistinctActions || !IsLegal(position, static_cast<int>(action))) {
    throw std::invalid_argument(
        std::string(IsChanceNode(position) ? "chance outcome " : "action ") +
        std::to_string(action) + " is not legal in phase " +
        kPhaseNames[static_cast<int>(position.phase)]);
  }
  ApplyLegalAction(position, static_cast<int>(action));
  history.push_back(static_cast<uint16_t>(action));
}

int State::ApplyRandomChance(double u) {
  if (!IsChanceNode(position)) {
    throw std::invalid_argument("apply_random_chance needs a chance node");
  }
  LegalSet next;
  const int outcome = ApplySampledChance(position, u, &next);
  history.push_back(static_cast<uint16_t>(outcome));
  return outcome;
}

}  // namespace vikinger
