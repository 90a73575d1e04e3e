// The legal actions of a node (legal_set.h): the phases' masks (docs/actions.md) and the chance
// outcomes.
#include "rules/legal_set.h"

#include "rules/actions.h"
#include "rules/auction.h"
#include "rules/specials.h"
#include "rules/trips.h"

namespace vikinger {

int LegalSet::Count() const {
  int count = range_count;
  for (int i = 0; i < num_masks; ++i) count += PopCount(masks[i]);
  return count;
}

int LegalSet::Nth(int k) const {
  for (int i = 0; i < num_masks; ++i) {
    const int here = PopCount(masks[i]);
    if (k < here) return bases[i] + NthBit(masks[i], k);
    k -= here;
  }
  return range_first + k;
}

// The masks' ids (at most kNumRows x 64) plus WriteBitIds' 8 spare entries fit any list buffer.
static_assert(kNumRows * 64 + 8 <= kMaxLegalActions, "Write needs room past the mask ids");

int LegalSet::Write(int* out) const {
  int n = 0;
  for (int i = 0; i < num_masks; ++i) n += WriteBitIds(masks[i], bases[i], out + n);
  for (int i = 0; i < range_count; ++i) out[n++] = range_first + i;
  return n;
}

bool LegalSet::Contains(int action) const {
  for (int i = 0; i < num_masks; ++i) {
    const int bit = action - bases[i];
    if (bit >= 0 && bit < 64 && ((masks[i] >> bit) & 1)) return true;
  }
  return action >= range_first && action < range_first + range_count;
}

namespace {

const PlayerBoard& Buyer(const Position& p) { return p.players[BuyerSeat(p)]; }
const PlayerBoard& Scorer(const Position& p) { return p.players[ScorerSeat(p)]; }

// `set` holds the ids base + bit index for the bits of `mask`. Returns their number.
int SetOneMask(LegalSet* set, uint64_t mask, int base) {
  set->masks[0] = mask;
  set->bases[0] = static_cast<int16_t>(base);
  set->num_masks = 1;
  set->range_first = 0;
  set->range_count = 0;
  return PopCount(mask);
}

// `set` holds the ids CellId(block, row, 1) + bit index for the bits of masks[row - 1]. Returns
// their number.
int SetRowMasks(LegalSet* set, int block) {
  int count = 0;
  for (int row = 1; row <= kNumRows; ++row) {
    set->bases[row - 1] = static_cast<int16_t>(CellId(block, row, 1));
    count += PopCount(set->masks[row - 1]);
  }
  set->num_masks = kNumRows;
  set->range_first = 0;
  set->range_count = 0;
  return count;
}

}  // namespace

// Each phase's case finds its player's board (the player of CurrentPlayer).
int LegalDecisions(const Position& p, LegalSet* set) {
  switch (p.phase) {
    case Phase::kBuy: {
      const PlayerBoard& board = Buyer(p);
      return SetOneMask(set, p.wheel.LegalBuys(board.gold, board.fame), kBuy);  // B5
    }
    case Phase::kStartRow:
      return SetOneMask(set, (1u << kNumRows) - 1, kStart);  // B6.0 any row
    case Phase::kShipColumn:
      return SetOneMask(set, Buyer(p).FreeShipColumns(), kShip);  // B6.1
    case Phase::kIslandCell:
      Buyer(p).LegalIslandCells(p.pending.tile, set->masks);  // B6.2
      return SetRowMasks(set, kTile);
    case Phase::kViking:
      return SetOneMask(set, 0b11, kVikingOnTile);  // B6.4 tile or mainland
    case Phase::kTrip:
      return SetOneMask(set, LegalTripMask(Scorer(p), p.round, HasOption(p, kOptWeakBoatsmen)),
                        kTripStop);
    case Phase::kTripTarget:
      return SetOneMask(set, LegalTargetMask(Scorer(p), p.trip),
                        CellId(kTarget, RowOfColour(p.trip.colour[0]), 1));
    case Phase::kAuction: {
      const PlayerBoard& bidder = p.players[p.auction.turn];
      *set = AuctionLegal(p.auction, int64_t{bidder.gold} + bidder.fame);  // A1
      return set->Count();
    }
    case Phase::kRemoveViking:
    case Phase::kOfferColour: {  // A2, A3: every colour still drawn
      uint64_t colours = 0;
      for (int c = 0; c < kNumColours; ++c) {
        if (p.drawn[c]) colours |= uint64_t{1} << c;
      }
      return SetOneMask(set, colours, p.phase == Phase::kRemoveViking ? kRemove : kOffer);
    }
    case Phase::kTakeSpecial:  // A5: bits 0..3 the places, bit 4 decline
      return SetOneMask(set, OccupiedSlots(p.specials) | 1u << 4, kTakeSpecial);
    case Phase::kBuildingReplace: {
      const PlayerBoard& board = Buyer(p);
      BuildingCandidates(board, BuildingToPlace(board), set->masks);  // A5
      return SetRowMasks(set, kBuilding);
    }
    default:  // chance and terminal nodes
      *set = LegalSet{};
      return 0;
  }
}

LegalSet LegalDecisionSet(const Position& p) {
  LegalSet set;
  LegalDecisions(p, &set);
  return set;
}

const uint8_t* ChanceCounts(const Position& p, int* num_kinds, int* first_id) {
  if (p.phase == Phase::kRevealTile) {
    *num_kinds = kNumTileKinds;
    *first_id = kReveal;
    return p.stacks;
  }
  if (p.phase == Phase::kSpecialFill) {
    *num_kinds = kNumSpecialKinds;
    *first_id = kDisplay;
    return p.specials.stack;
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
  if (!IsChanceNode(p)) return LegalDecisionSet(p).Contains(action);  // none once terminal
  int num_kinds;
  int first_id;
  const uint8_t* counts = ChanceCounts(p, &num_kinds, &first_id);
  const int kind = action - first_id;
  return kind >= 0 && kind < num_kinds && counts[kind] > 0;
}

}  // namespace vikinger
