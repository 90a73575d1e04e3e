// Random playouts from any position (see playouts.h).
#include "play/playouts.h"

#include "base/rng.h"
#include "play/playout.h"
#include "rules/legal_set.h"

namespace vikinger {

GameResult PlayRandomPlayout(const Position& start, uint64_t seed, bool fused,
                             Position* final_position) {
  Position p = start;
  UniformStream rng(seed);
  LegalSet legal;
  // Worked out only where the state machine steps first (the fused playout needs none).
  int num_legal = fused && FusedPlayoutCanEnter(p) ? 0 : LegalDecisions(p, &legal);
  int32_t length = 0;
  // As in PlayRandomGame (rollout.cc): every node takes the stream's next uniform, so after
  // `length` nodes the stream stands at seed + length * golden, where the fused playout resumes.
  for (;; ++length) {
    if (fused && FusedPlayoutCanEnter(p)) {
      length += PlayFusedRandomGame(p, seed + static_cast<uint64_t>(length) * kGolden);
      break;
    }
    if (num_legal > 0) {
      num_legal = ApplyLegalAction(p, legal.Nth(rng.Below(num_legal)), &legal);
    } else if (IsChanceNode(p)) {
      num_legal = ApplyStreamChance(p, rng.NextBits(), &legal);
    } else {
      break;  // terminal
    }
  }
  return ResultOf(p, length, final_position);
}

bool PlayRandomPlayouts(const Position* const* starts, int64_t num_starts, int64_t count,
                        uint64_t seed, int threads, Interrupt* interrupt,
                        const RolloutArrays& out) {
  const int64_t rows = num_starts * count;
  if (rows == 0) return true;
  const int n = starts[0]->num_players;
  // Row r is always stream seed + r, so the results do not depend on the threads.
  return ForEachBlock(rows, /*block=*/16, threads, interrupt, [&](int64_t begin, int64_t end) {
    for (int64_t row = begin; row < end; ++row) {
      StoreResult(PlayRandomPlayout(*starts[row / count], seed + static_cast<uint64_t>(row)), n,
                  row, out);
    }
  });
}

}  // namespace vikinger
