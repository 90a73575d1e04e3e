// Whether a read-back StateDescription is a position the game can be in (docs/state.md; the
// reference's consistency.py).
//
// validation.h checks that every value of a description is in range; these checks make sure the
// values fit together: B2.3/B6.0-B6.2 board shape, A5 buildings, conservation of the 78 Vikings,
// 72 stack tiles and 25 special tiles (B1.1, B1.4), modules (docs/advanced.md), and a wheel,
// pending purchase, trip and auction that fit the round and phase (B4, docs/actions.md). Every
// refusal is a Fail (validation.h) naming the first problem found.
#ifndef VIKINGER_CONSISTENCY_H_
#define VIKINGER_CONSISTENCY_H_

#include <cstdint>

#include "formats/validation.h"
#include "rules/state.h"

namespace vikinger {

// Bit planes of one player's island rows, from a description.
struct Planes {
  uint64_t occupied[kNumRows + 2] = {};  // index r; rows 0 and 6 stay empty
  uint64_t lefts[kNumRows + 2] = {};
  uint64_t rights[kNumRows + 2] = {};
};

Planes PlanesOf(const PlayerDescription& player);

// Every position check of CheckDescription: each player's board, buildings and Fame, then
// conservation, modules, phase (wheel, round counts), decision context and auction. `d` must
// have passed CheckDescription's range checks, which make every index used here valid.
void CheckPosition(const StateDescription& d);

}  // namespace vikinger

#endif  // VIKINGER_CONSISTENCY_H_
