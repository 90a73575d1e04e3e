// A1: the auction for start player (docs/advanced.md).
#include "rules/auction.h"

#include "rules/actions.h"

namespace vikinger {

void StartAuction(Auction& auction, int start_player) {
  auction.present = 1;
  auction.leader = static_cast<uint8_t>(start_player);
  auction.turn = static_cast<uint8_t>(start_player);
  auction.passed = 0;
  auction.high = kNoBid;
}

LegalSet AuctionLegal(const Auction& auction, int64_t wealth) {
  const int64_t top = wealth < kMaxBid ? wealth : kMaxBid;
  LegalSet set;
  int64_t low = 0;
  if (auction.high != kNoBid) {  // later turns: PASS, or raise
    set.masks[0] = 1;
    set.bases[0] = static_cast<int16_t>(kPass);
    set.num_masks = 1;
    low = auction.high + 1;
  }
  if (top >= low) {
    set.range_first = static_cast<int16_t>(kBid + low);
    set.range_count = static_cast<int16_t>(top - low + 1);
  }
  return set;
}

bool ApplyBid(Auction& auction, int action, int num_players) {
  if (action == kPass) {
    auction.passed |= static_cast<uint8_t>(1u << auction.turn);
  } else {
    auction.high = static_cast<uint16_t>(action - kBid);
    auction.leader = auction.turn;
  }
  const unsigned all = (1u << num_players) - 1;
  const unsigned in = all & ~static_cast<unsigned>(auction.passed);
  if ((in & (in - 1)) == 0) return true;  // one bidder left
  do {
    auction.turn = static_cast<uint8_t>(auction.turn + 1 == num_players ? 0 : auction.turn + 1);
  } while ((auction.passed >> auction.turn) & 1);
  return false;
}

}  // namespace vikinger
