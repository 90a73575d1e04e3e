// A1: the auction for start player, held at the start of every round (docs/advanced.md).
//
// The start player opens (a bid of 0 is allowed, passing is not); then, clockwise, each player
// still in raises or passes. When one player is left, that player pays the highest bid (gold
// first, then Fame, B5.5) and becomes start player.
#ifndef VIKINGER_AUCTION_H_
#define VIKINGER_AUCTION_H_

#include <cstdint>

#include "rules/legal_set.h"
#include "rules/state.h"

namespace vikinger {

// A1: a new auction opened by `start_player`.
void StartAuction(Auction& auction, int start_player);
// A1: BID k up to min(gold + Fame, 1023) (B5.5); PASS except for the opening bid. The bids are
// one run of ids, so the set holds PASS as a mask and the bids as a range.
LegalSet AuctionLegal(const Auction& auction, int64_t wealth);
// A1: applies PASS or BID; returns true when the auction is over (auction.leader has won).
bool ApplyBid(Auction& auction, int action, int num_players);

}  // namespace vikinger

#endif  // VIKINGER_AUCTION_H_
