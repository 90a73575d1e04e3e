// The observation tensor of docs/state.md: public information, fixed shape, players relative.
//
// Everything in Wikinger is public except the order of the stacks and of the bag, which the
// tensor leaves out (it shows only their counts). Slot k holds player (player + k) % n. The
// layout (offsets below) is fixed; counts are raw numbers, not scaled. The advanced block of
// docs/advanced.md follows the player blocks; in the base game only its special-stack counts
// are non-zero.
#ifndef VIKINGER_OBSERVATION_H_
#define VIKINGER_OBSERVATION_H_

#include "rules/state.h"

namespace vikinger {

constexpr int kObsGlobalSize = 294;
constexpr int kObsPlayerSize = 1545;
// docs/advanced.md: the A1/A5 block after the player blocks, then 22 per player slot.
constexpr int kObsAdvancedSize = 80;
constexpr int kObsPlayerAdvancedSize = 22;

constexpr int ObservationSize(int num_players) {
  return kObsGlobalSize + kObsPlayerSize * num_players + kObsAdvancedSize +
         kObsPlayerAdvancedSize * num_players;
}

// Fills `out[0 .. ObservationSize(n))` (zeroing it first) as seen by `player` (0..n-1).
void ObservationTensor(const Position& p, int player, float* out);

// The same tensor as its non-zero entries (every entry is an integer): index[i], value[i] for
// i < the returned count, each index once, in no particular order. The first layer of the
// integer network (search/network.h) adds up weight rows of these; capacity ObservationSize(n).
int ObservationFeatures(const Position& p, int player, int32_t* index, int32_t* value);

}  // namespace vikinger

#endif  // VIKINGER_OBSERVATION_H_
