// SamePosition: whether two positions are the same game position, compared field by field (the
// search finds a tree's child by it when the game moves on, puct.h). The reference's equality.py
// is its twin.
#ifndef VIKINGER_EQUALITY_H_
#define VIKINGER_EQUALITY_H_

#include "rules/state.h"

namespace vikinger {

// Whether `a` and `b` are the same game position: what docs/state.md's bytes format holds (the
// game, the round and phase, the supply, the wheel, the purchase and trip in progress, the
// players' boards, the A1 auction and the A5 tiles) is equal. Fields the format leaves out (a
// trip's entries past its length, an auction's after it ended, derived counts) are not read.
bool SamePosition(const Position& a, const Position& b);

}  // namespace vikinger

#endif  // VIKINGER_EQUALITY_H_
