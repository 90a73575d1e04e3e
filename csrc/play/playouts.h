// Random playouts from any position (docs/search.md "Playouts"): the leaf evaluation of tree
// search, and `playouts` / `playouts_batch` of the Python module.
//
// Playout i from a position is driven by the splitmix64 stream seeded with `seed + i` and picks
// exactly as rollouts do (rollout.h): one uniform per node, the outcome of a chance node by the
// sampling rule of docs/api.md, legal[floor(u * len(legal))] at a decision node. Started from
// the initial position it therefore plays rollout game `seed + i`. The loop is the generic one
// on a copied Position, so it enters anywhere: mid-round, mid-purchase, mid-scoring. In the base
// game it hands over to the fused playout (playout.h) as soon as that can enter (a round's start
// or any node of the purchases), with the stream advanced by the draws already made, so the rest
// of the game runs at rollouts' speed.
// The reference's playouts.py plays the same games.
#ifndef VIKINGER_PLAYOUTS_H_
#define VIKINGER_PLAYOUTS_H_

#include <cstdint>

#include "base/interrupt.h"
#include "play/rollout.h"
#include "rules/state.h"

namespace vikinger {

// One random playout from `start` to the end. `length` counts the actions the playout applied
// (chance included, forced decisions excluded), not the history before `start`. `fused` false
// keeps to the generic loop (tests compare the final positions of both); `final_position` may be
// null.
GameResult PlayRandomPlayout(const Position& start, uint64_t seed, bool fused = true,
                             Position* final_position = nullptr);

// `count` playouts from each of `num_starts` positions of one game: playout i of start j is
// written to row j * count + i of `out` (num_players columns) and uses stream seed + j * count +
// i (mod 2**64). `threads` threads take blocks of rows in turn; the calling thread is one of
// them and polls `interrupt`. Returns false when the interrupt stopped the work (rows then
// partly written).
bool PlayRandomPlayouts(const Position* const* starts, int64_t num_starts, int64_t count,
                        uint64_t seed, int threads, Interrupt* interrupt, const RolloutArrays& out);

}  // namespace vikinger

#endif  // VIKINGER_PLAYOUTS_H_
