// The state machine of docs/actions.md (docs/rules.md B3-B8, A0-A5): chance nodes, purchases,
// placement, scoring and boatsman trips, with forced decisions applied automatically.
#include "rules/state.h"

#include <cstring>
#include <stdexcept>
#include <string>

#include "base/rng.h"
#include "rules/actions.h"
#include "rules/auction.h"
#include "rules/legal_set.h"
#include "rules/scoring.h"
#include "rules/specials.h"
#include "rules/trips.h"

namespace vikinger {

const char* const kPhaseNames[kNumPhases] = {
    "reveal_tile",   "draw_viking",  "buy",          "start_row",
    "ship_column",   "island_cell",  "viking",       "trip",
    "trip_target",   "game_over",    "special_fill", "auction",
    "remove_viking", "offer_colour", "take_special", "building_replace"};

const char* const kOptionNames[kNumOptions] = {"auction", "draw13", "offer_by_colour",
                                               "weak_boatsmen", "special_tiles"};

namespace {

PlayerBoard& Buyer(Position& p) { return p.players[BuyerSeat(p)]; }
PlayerBoard& Scorer(Position& p) { return p.players[ScorerSeat(p)]; }

// A0 (1)-(2): after the display, the Vikings first when the auction or the draw of 13 is on.
void AfterSpecialFill(Position& p) {
  p.phase = VikingsBeforeTiles(p.options) ? Phase::kDrawViking : Phase::kRevealTile;
}

// The first of special_fill (A5), draw_viking (A0), reveal_tile that applies.
void StartRound(Position& p) {
  if (HasOption(p, kOptSpecialTiles) && DisplayNeedsFill(p.specials)) {
    p.phase = Phase::kSpecialFill;
  } else {
    AfterSpecialFill(p);
  }
}

void NextRound(Position& p) {
  ++p.round;
  if (!HasOption(p, kOptAuction)) {  // ⚖ A1 replaces B3.3
    p.start_player = static_cast<uint8_t>((p.start_player + 1) % p.num_players);  // B3.3
  }
  p.purchases = 0;
  StartRound(p);
}

// A0 (4) the removal of A2, else (5) the tiles.
void AfterAuction(Position& p) {
  p.phase = HasOption(p, kOptDraw13) ? Phase::kRemoveViking : Phase::kRevealTile;
}

void Bid(Position& p, int action) {
  if (!ApplyBid(p.auction, action, p.num_players)) return;
  const int winner = p.auction.leader;
  p.players[winner].Pay(p.auction.high);  // A1
  p.start_player = static_cast<uint8_t>(winner);
  p.auction = Auction{0, 0, 0, 0, kNoBid};
  AfterAuction(p);
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

// The steps of a purchase take the buyer's board from ApplyOne.
void VikingToMainland(Position& p, PlayerBoard& buyer) {
  ++buyer.mainland[p.pending.viking];  // B6.4
  EndPurchase(p);
}

// B6.3 an island tile without a legal cell leaves the game.
void DiscardPendingTile(Position& p, PlayerBoard& buyer) {
  ++p.discarded_tiles;
  VikingToMainland(p, buyer);
}

void PlacePendingTile(Position& p, PlayerBoard& board) {
  const int tile = p.pending.tile;
  if (IsShip(tile)) {  // B6.1
    if (board.num_ships < 3) {
      p.phase = Phase::kShipColumn;
    } else {
      board.PlaceShip(tile, board.num_ships + 1);
      VikingToMainland(p, board);
    }
  } else {
    // B6.2 choose a cell, or B6.3 when there is none: ApplyForcedDecisions, which runs after every
    // action, builds this node's cell set and discards the tile when it is empty.
    p.phase = Phase::kIslandCell;
  }
}

void AfterSpecialChoice(Position& p, PlayerBoard& buyer) {
  if (buyer.start_row == 0) {
    p.phase = Phase::kStartRow;  // B6.0 start tile first
  } else {
    PlacePendingTile(p, buyer);
  }
}

void Buy(Position& p, PlayerBoard& board, int space) {
  const int price = p.wheel.Price(space);
  // A5: the group on the highest occupied space, bought for more than 0, with a tile on display.
  const bool may_take_special = HasOption(p, kOptSpecialTiles) && price > 0 &&
                                space == 31 - __builtin_clz(p.wheel.occupied) &&
                                OccupiedSlots(p.specials) != 0;
  board.Pay(price);
  int tile;
  int viking;
  p.wheel.Take(space, &tile, &viking);
  p.pending = Pending{static_cast<uint8_t>(tile), static_cast<uint8_t>(viking), 0, 0};
  if (may_take_special) {
    p.phase = Phase::kTakeSpecial;
  } else if (board.start_row == 0) {
    p.phase = Phase::kStartRow;  // B6.0 start tile first
  } else {
    PlacePendingTile(p, board);
  }
}

void TakeSpecialTile(Position& p, PlayerBoard& buyer, int action) {
  if (action != kDeclineSpecial && TakeSpecial(p.specials, action - kTakeSpecial, buyer)) {
    p.phase = Phase::kBuildingReplace;  // A5 the building replaces a middle tile now
    return;
  }
  AfterSpecialChoice(p, buyer);
}

void ReplaceMiddleTile(Position& p, PlayerBoard& buyer, int row, int col) {
  PlaceBuilding(buyer, BuildingToPlace(buyer), row, col);
  ++p.discarded_tiles;  // the replaced middle tile leaves the game
  AfterSpecialChoice(p, buyer);
}

void PlaceIslandTile(Position& p, PlayerBoard& buyer, int row, int col) {
  buyer.Row(row).Place(p.pending.tile, col);
  if (BuildingForPlacedTile(buyer, p.pending.tile, row, col)) ++p.discarded_tiles;  // A5
  const int viking = p.pending.viking;
  if (viking != kBoatsman && RowOfColour(viking) == row) {  // B6.4 the Viking's own row
    p.pending.row = static_cast<uint8_t>(row);
    p.pending.col = static_cast<uint8_t>(col);
    p.phase = Phase::kViking;
  } else {
    VikingToMainland(p, buyer);
  }
}

// B7.2 steps 2-6 for the scorer, who has made all their trips; then the next scorer.
void FinishScorer(Position& p, PlayerBoard& board) {
  LargeScoring(board);
  ++p.scoring_index;
  ContinueLargeScoring(p);
}

void ApplyTrip(Position& p, int action) {
  PlayerBoard& board = Scorer(p);
  if (action == kTripStop) {
    FinishScorer(p, board);
    return;
  }
  ++p.removed[kBoatsman];
  p.specials.removed[kBoat] += StartTrip(board, p.trip, action, HasOption(p, kOptWeakBoatsmen));
  p.phase = Phase::kTripTarget;
}

void MoveToTarget(Position& p, int row, int col) {
  PlayerBoard& board = Scorer(p);
  if (!MoveTripViking(board, p.trip, row, col)) return;
  if (TripPossible(board)) {
    p.phase = Phase::kTrip;
  } else {
    FinishScorer(p, board);
  }
}

void LayOutVikings(Position& p) {
  if (HasOption(p, kOptOfferByColour)) {
    p.phase = Phase::kOfferColour;  // A3
    return;
  }
  p.wheel.LayOutVikings(p.drawn);  // B4.2
  std::memset(p.drawn, 0, sizeof(p.drawn));
  p.phase = Phase::kBuy;
}

// Counts change as whole words, never as single bytes: the next chance node loads them as words,
// and a word load over a fresh byte store waits until the store reaches the cache (byte stores:
// 10% slower state-machine rollouts, docs/performance-notes.md).
void RevealTile(Position& p, int kind, ByteCounts stacks) {  // stacks: p.stacks, loaded
  stacks.Decrement(kind);
  stacks.Store(p.stacks, kNumTileKinds);
  p.wheel.Reveal(kind);  // B4.1
  if (p.wheel.TileCount() < kGroupsPerRound) return;
  if (VikingsBeforeTiles(p.options)) {
    LayOutVikings(p);  // A0 (6) the drawn Vikings go on
  } else {
    p.phase = Phase::kDrawViking;  // B4.2 the Vikings after the tiles
  }
}

void DrawViking(Position& p, int colour, ByteCounts bag) {  // bag: p.bag, loaded
  bag.Decrement(colour);
  bag.Store(p.bag, kNumColours);
  ByteCounts drawn = ByteCounts::Load(p.drawn, kNumColours);
  drawn.Increment(colour);
  drawn.Store(p.drawn, kNumColours);
  if (drawn.Total() < kGroupsPerRound + (HasOption(p, kOptDraw13) ? 1 : 0)) return;  // A2 draws 13
  if (!VikingsBeforeTiles(p.options)) {
    LayOutVikings(p);  // B4.2 after the tiles
  } else if (HasOption(p, kOptAuction)) {
    StartAuction(p.auction, p.start_player);  // A0 (3) A1
    p.phase = Phase::kAuction;
  } else {
    AfterAuction(p);
  }
}

// A3: all drawn Vikings of the colour on the highest spaces without a Viking, from 11 down.
void OfferColour(Position& p, int colour) {
  int count = p.drawn[colour];
  for (int s = kWheelSpaces - 1; s >= 0 && count > 0; --s) {
    if (p.wheel.vikings[s] == kNone) {
      p.wheel.vikings[s] = static_cast<uint8_t>(colour);
      --count;
    }
  }
  p.drawn[colour] = 0;
  for (int c = 0; c < kNumColours; ++c) {
    if (p.drawn[c]) return;
  }
  p.phase = Phase::kBuy;
}

void RevealSpecialTile(Position& p, int kind) {
  RevealSpecial(p.specials, kind);  // A5
  if (!DisplayNeedsFill(p.specials)) AfterSpecialFill(p);
}

void ApplyOne(Position& p, int action) {
  switch (p.phase) {
    case Phase::kRevealTile:
      RevealTile(p, action - kReveal, ByteCounts::Load(p.stacks, kNumTileKinds));
      break;
    case Phase::kDrawViking:
      DrawViking(p, action - kDraw, ByteCounts::Load(p.bag, kNumColours));
      break;
    case Phase::kSpecialFill:
      RevealSpecialTile(p, action - kDisplay);
      break;
    case Phase::kAuction:
      Bid(p, action);
      break;
    case Phase::kRemoveViking:  // A2 out of the game
      --p.drawn[action - kRemove];
      ++p.removed[action - kRemove];
      p.phase = Phase::kRevealTile;  // A0 (5) the tiles after the removal
      break;
    case Phase::kOfferColour:
      OfferColour(p, action - kOffer);
      break;
    case Phase::kTakeSpecial:
      TakeSpecialTile(p, Buyer(p), action);
      break;
    case Phase::kBuildingReplace:
      ReplaceMiddleTile(p, Buyer(p), (action - kBuilding) / kNumColumns + 1,
                        (action - kBuilding) % kNumColumns + 1);
      break;
    case Phase::kBuy:
      Buy(p, Buyer(p), action - kBuy);
      break;
    case Phase::kStartRow: {
      PlayerBoard& buyer = Buyer(p);
      buyer.PlaceStartTile(action - kStart + 1);  // B6.0
      PlacePendingTile(p, buyer);
      break;
    }
    case Phase::kShipColumn: {
      PlayerBoard& buyer = Buyer(p);
      buyer.PlaceShip(p.pending.tile, action - kShip + 1);  // B6.1
      VikingToMainland(p, buyer);
      break;
    }
    case Phase::kIslandCell:
      PlaceIslandTile(p, Buyer(p), (action - kTile) / kNumColumns + 1,
                      (action - kTile) % kNumColumns + 1);
      break;
    case Phase::kViking:
      if (action == kVikingOnTile) {
        Buyer(p).Row(p.pending.row).vikings |= ColumnBit(p.pending.col);
        EndPurchase(p);
      } else {
        VikingToMainland(p, Buyer(p));
      }
      break;
    case Phase::kTrip:
      ApplyTrip(p, action);
      break;
    case Phase::kTripTarget:
      MoveToTarget(p, (action - kTarget) / kNumColumns + 1, (action - kTarget) % kNumColumns + 1);
      break;
    default:
      throw std::logic_error("no action applies in this phase");
  }
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
  p.auction = Auction{0, 0, 0, 0, kNoBid};
  for (int k = 0; k < kNumSpecialKinds; ++k) {
    p.specials.stack[k] = static_cast<uint8_t>(kSpecialCounts[k]);
  }
  std::memset(p.specials.display, kNone, sizeof(p.specials.display));
  StartRound(p);
}

namespace {

// A3: how many colours are on the wheel already.
int ColoursPlaced(const Wheel& wheel) {
  unsigned colours = 0;
  for (int s = 0; s < kWheelSpaces; ++s) {
    if (wheel.vikings[s] != kNone) colours |= 1u << wheel.vikings[s];
  }
  return PopCount(colours);
}

}  // namespace

int CurrentPlayer(const Position& p) {
  switch (p.phase) {
    case Phase::kRevealTile:
    case Phase::kDrawViking:
    case Phase::kSpecialFill:
      return kChance;
    case Phase::kGameOver:
      return kTerminal;
    case Phase::kAuction:
      return p.auction.turn;
    case Phase::kRemoveViking:
      return p.start_player;   // A2
    case Phase::kOfferColour:  // A3: one colour per player in turn
      return Seat(p.start_player, ColoursPlaced(p.wheel), p.num_players);
    case Phase::kTrip:
    case Phase::kTripTarget:
      return ScorerSeat(p);
    default:
      return BuyerSeat(p);
  }
}

namespace {

// docs/actions.md "Automatic decisions": applies every forced decision, and discards an island
// tile that has no legal cell (B6.3); sets `next` to the legal decisions of the node reached and
// returns their number. A chance or terminal node has none (LegalDecisions' default case), which
// ends the loop.
int ApplyForcedDecisions(Position& p, LegalSet* next) {
  for (;;) {
    // Filled in place: copying a returned set waited on the stores that built it, a sixth of this
    // loop's time (docs/performance-notes.md).
    const int count = LegalDecisions(p, next);
    if (count == 1) {
      ApplyOne(p, next->Nth(0));
    } else if (count == 0 && p.phase == Phase::kIslandCell) {
      DiscardPendingTile(p, Buyer(p));
    } else {
      return count;
    }
  }
}

}  // namespace

int ApplyLegalAction(Position& p, int action, LegalSet* next) {
  ApplyOne(p, action);
  return ApplyForcedDecisions(p, next);
}

namespace {

// A chance node's outcome (docs/api.md): x = floor_of_u_times(total), then the first kind whose
// running count exceeds x; applied, then every forced decision. Returns the chance id and sets
// `*num_next` to the number of legal decisions in `next`.
template <class FloorOfUTimes>
int ApplyChance(Position& p, FloorOfUTimes floor_of_u_times, LegalSet* next, int* num_next) {
  int outcome;
  if (p.phase == Phase::kRevealTile) {
    const ByteCounts stacks = ByteCounts::Load(p.stacks, kNumTileKinds);
    const int kind = KindAt(stacks, kNumTileKinds, floor_of_u_times(stacks.Total()));
    RevealTile(p, kind, stacks);
    outcome = kReveal + kind;
  } else if (p.phase == Phase::kDrawViking) {
    const ByteCounts bag = ByteCounts::Load(p.bag, kNumColours);
    const int colour = KindAt(bag, kNumColours, floor_of_u_times(bag.Total()));
    DrawViking(p, colour, bag);
    outcome = kDraw + colour;
  } else {
    const ByteCounts stack = ByteCounts::Load(p.specials.stack, kNumSpecialKinds);
    const int kind = KindAt(stack, kNumSpecialKinds, floor_of_u_times(stack.Total()));
    RevealSpecialTile(p, kind);
    outcome = kDisplay + kind;
  }
  // Most draws lead to another draw: answered here, without the call and the phase switch that
  // ApplyForcedDecisions would make to reach the same empty set (3% of state-machine rollouts).
  if (IsChanceNode(p)) {
    *next = LegalSet{};
    *num_next = 0;
    return outcome;
  }
  *num_next = ApplyForcedDecisions(p, next);
  return outcome;
}

}  // namespace

int ApplySampledChance(Position& p, double u, LegalSet* next) {
  // floor(u * total); truncation is the same for u * total >= 0 and needs no libm call.
  int num_next;
  return ApplyChance(
      p, [u](int total) { return static_cast<int>(u * total); }, next, &num_next);
}

int ApplyStreamChance(Position& p, uint64_t m, LegalSet* next) {
  int num_next;
  ApplyChance(
      p, [m](int total) { return FloorUniformTimes(m, total); }, next, &num_next);
  return num_next;
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
