// The advanced modules' steps of the fused playout (playout.h, playout.cc): A0's round order
// with A1's auction, A2's removal and A3's offer by colour, and A5's special display, special
// tiles and buildings. A4 changes only the trips, which playout.cc plays with LegalTripMask.
//
// Each step draws from the game's stream exactly as the state machine's loop in rollout.cc does
// (FusedChoices): one uniform per chance node and per decision with two or more legal actions,
// the k-th legal id in ascending id order, nothing drawn for a forced decision. The state
// machine's own primitives (auction.h, specials.h, wheel.h) change the position, so both paths
// leave the same bytes. tests/play/test_fused_modules.py compares their final positions for every
// module combination and player count.
#ifndef VIKINGER_PLAYOUT_MODULES_H_
#define VIKINGER_PLAYOUT_MODULES_H_

#include <cstdint>
#include <cstring>

#include "base/bits.h"
#include "base/rng.h"
#include "rules/actions.h"
#include "rules/auction.h"
#include "rules/specials.h"
#include "rules/state.h"

namespace vikinger {

// The random choices of a fused playout and the actions they make (its length).
struct FusedChoices {
  explicit FusedChoices(uint64_t seed) : rng(seed) {}

  // A decision among `count` >= 1 legal actions: the index of the one taken. With one there is
  // nothing to decide (docs/actions.md, automatic decisions): no draw, not in the history.
  int Choose(int count) {
    if (count == 1) return 0;
    ++length;
    return rng.Below(count);
  }

  // A chance node over `counts` (summing to `total`): the kind drawn, taken from the counts.
  int Draw(ByteCounts& counts, int n, int& total) {
    ++length;
    const int kind = KindAt(counts, n, rng.Below(total--));
    counts.Decrement(kind);
    return kind;
  }

  UniformStream rng;
  int32_t length = 0;
};

// The phases of a round before its first purchase (A0; B4.1 and B4.2 without modules).
constexpr bool IsPreparation(Phase phase) {
  return phase == Phase::kSpecialFill || phase == Phase::kDrawViking ||
         phase == Phase::kRevealTile || phase == Phase::kAuction || phase == Phase::kRemoveViking ||
         phase == Phase::kOfferColour;
}

template <class Select>
class PlayoutModules {
 public:
  PlayoutModules(Position& p, FusedChoices& choices) : p_(p), choices_(choices) {}

  // A0: a round up to its first purchase, from phase `from` on (kSpecialFill for a whole round,
  // as StartRound; any preparation phase where a playout entered). Leaves the 12 groups on the
  // wheel; the next phase is buy.
  void PrepareRound(Phase from) {
    const bool vikings_first = VikingsBeforeTiles(p_.options);
    if (from == Phase::kSpecialFill) {
      if (HasOption(p_, kOptSpecialTiles)) FillDisplay();
      from = vikings_first ? Phase::kDrawViking : Phase::kRevealTile;
    }
    if (vikings_first) {  // A0 (2)-(5)
      if (from == Phase::kDrawViking) {
        DrawVikings(kGroupsPerRound + (HasOption(p_, kOptDraw13) ? 1 : 0));  // A2 draws 13
        if (HasOption(p_, kOptAuction)) {
          StartAuction(p_.auction, p_.start_player);
          from = Phase::kAuction;
        } else {
          from = Phase::kRemoveViking;  // draw13 is on
        }
      }
      if (from == Phase::kAuction) {
        HoldAuction();
        from = HasOption(p_, kOptDraw13) ? Phase::kRemoveViking : Phase::kRevealTile;
      }
      if (from == Phase::kRemoveViking) RemoveViking();
      RevealTiles();  // none left when entered at offer_colour
    } else {          // B4.1, B4.2
      if (from == Phase::kRevealTile) {
        RevealTiles();
        from = Phase::kDrawViking;
      }
      if (from == Phase::kDrawViking) DrawVikings(kGroupsPerRound);
    }
    PlaceDrawnVikings();
  }

  // A5: the buyer of the highest group takes a displayed tile or declines (bits 0..3 the
  // display places, bit 4 decline: always two or more choices); a building with a middle tile of
  // its picture replaces one at once.
  void ChooseSpecial(PlayerBoard& board) {
    const uint64_t choices = OccupiedSlots(p_.specials) | 1u << 4;
    const int slot = Select::Small(choices, choices_.Choose(PopCount(choices)));
    if (slot != 4 && TakeSpecial(p_.specials, slot, board)) ReplaceWithBuilding(board);
  }

  // A5: the building just taken replaces one of the board's middle tiles with its picture, the
  // k-th in id order (row by row, columns ascending); the tile leaves the game.
  void ReplaceWithBuilding(PlayerBoard& board) {
    const int building = BuildingToPlace(board);
    uint64_t cells[kNumRows];
    BuildingCandidates(board, building, cells);
    int k = 0;
    for (const uint64_t row_cells : cells) k += PopCount(row_cells);
    k = choices_.Choose(k);
    int row = 0;
    while (k >= PopCount(cells[row])) k -= PopCount(cells[row++]);
    PlaceBuilding(board, building, row + 1, Select::Small(cells[row], k) + 1);
    ++p_.discarded_tiles;
  }

 private:
  // A5: only empty display places are filled, while the special stack lasts.
  void FillDisplay() {
    while (DisplayNeedsFill(p_.specials)) {
      const ByteCounts stack = ByteCounts::Load(p_.specials.stack, kNumSpecialKinds);
      ++choices_.length;
      RevealSpecial(p_.specials,
                    KindAt(stack, kNumSpecialKinds, choices_.rng.Below(stack.Total())));
    }
  }

  // B4.2 (A2: 13) Vikings from the bag, beside the wheel, up to `target` drawn this round.
  void DrawVikings(int target) {
    ByteCounts bag = ByteCounts::Load(p_.bag, kNumColours);
    ByteCounts drawn = ByteCounts::Load(p_.drawn, kNumColours);
    int total = bag.Total();
    for (int n = drawn.Total(); n < target; ++n) {
      drawn.Increment(choices_.Draw(bag, kNumColours, total));
    }
    bag.Store(p_.bag, kNumColours);
    drawn.Store(p_.drawn, kNumColours);
  }

  // B4.1 the tiles onto the wheel, up to 12.
  void RevealTiles() {
    ByteCounts stacks = ByteCounts::Load(p_.stacks, kNumTileKinds);
    int total = stacks.Total();
    for (int i = p_.wheel.TileCount(); i < kGroupsPerRound; ++i) {
      p_.wheel.Reveal(choices_.Draw(stacks, kNumTileKinds, total));
    }
    stacks.Store(p_.stacks, kNumTileKinds);
  }

  // A1: bids and passes in turn until one bidder is left, who pays and becomes start player.
  // The legal ids as AuctionLegal gives them: PASS (not at the opening bid) below the bids
  // low..min(gold + Fame, 1023), so the k-th is found without the set.
  void HoldAuction() {
    Auction& auction = p_.auction;
    for (;;) {
      const PlayerBoard& bidder = p_.players[auction.turn];
      const int64_t wealth = int64_t{bidder.gold} + bidder.fame;
      const int top = static_cast<int>(wealth < kMaxBid ? wealth : kMaxBid);
      const bool opening = auction.high == kNoBid;
      const int low = opening ? 0 : auction.high + 1;
      const int bids = top >= low ? top - low + 1 : 0;
      const int k = choices_.Choose(bids + (opening ? 0 : 1));
      const int action = opening ? kBid + k : k == 0 ? kPass : kBid + low + k - 1;
      if (ApplyBid(auction, action, p_.num_players)) break;
    }
    const int winner = auction.leader;
    p_.players[winner].Pay(auction.high);
    p_.start_player = static_cast<uint8_t>(winner);
    auction = Auction{0, 0, 0, 0, kNoBid};
  }

  // The colours still drawn (bit c: colour c).
  uint64_t DrawnColours() const {
    uint64_t colours = 0;
    for (int c = 0; c < kNumColours; ++c) colours |= static_cast<uint64_t>(p_.drawn[c] != 0) << c;
    return colours;
  }

  // A2: the start player removes one drawn Viking, by colour, from the game.
  void RemoveViking() {
    const uint64_t colours = DrawnColours();
    const int colour = Select::Small(colours, choices_.Choose(PopCount(colours)));
    --p_.drawn[colour];
    ++p_.removed[colour];
  }

  // A3 colour by colour onto the highest spaces without a Viking, else B4.2 by colour from space
  // 0 upward.
  void PlaceDrawnVikings() {
    if (!HasOption(p_, kOptOfferByColour)) {
      p_.wheel.LayOutVikings(p_.drawn);
      std::memset(p_.drawn, 0, sizeof(p_.drawn));
      return;
    }
    // The spaces without a Viking are 0 .. free - 1: a round starts with none, the offer fills
    // from space 11 down, and the Vikings still drawn are as many as those spaces. So colour c
    // takes spaces [free - count, free), written byte-parallel into the wheel's Viking bytes
    // (a loop over the spaces mispredicted its exit and its test about twice a colour).
    uint64_t low;   // spaces 0..7
    uint64_t high;  // spaces 8..11 (and 4 bytes of what follows, written back unchanged)
    std::memcpy(&low, p_.wheel.vikings, 8);
    std::memcpy(&high, p_.wheel.vikings + 4, 8);
    high >>= 32;
    int free = ByteCounts::Load(p_.drawn, kNumColours).Total();
    for (uint64_t colours = DrawnColours(); colours != 0; colours = DrawnColours()) {
      const int colour = Select::Small(colours, choices_.Choose(PopCount(colours)));
      const int count = p_.drawn[colour];
      p_.drawn[colour] = 0;
      const uint64_t in_low = OnesFrom(free - count) - OnesFrom(free);  // 1 in each byte taken
      const uint64_t in_high = OnesFrom(free - count - 8) - OnesFrom(free - 8);
      low = (low & ~(in_low * 0xFF)) | in_low * static_cast<uint64_t>(colour);
      high = (high & ~(in_high * 0xFF)) | in_high * static_cast<uint64_t>(colour);
      free -= count;
    }
    const uint32_t high_spaces = static_cast<uint32_t>(high);
    std::memcpy(p_.wheel.vikings, &low, 8);
    std::memcpy(p_.wheel.vikings + 8, &high_spaces, 4);
  }

  // A word of byte counters with 1 in bytes k..7 (every byte for k <= 0, none for k >= 8).
  static uint64_t OnesFrom(int k) {
    const int shift = k <= 0 ? 0 : k >= 8 ? 32 : 4 * k;
    return (kByteOnes << shift) << shift;  // twice 4k bits: one shift by 64 would be undefined
  }

  Position& p_;
  FusedChoices& choices_;
};

}  // namespace vikinger

#endif  // VIKINGER_PLAYOUT_MODULES_H_
