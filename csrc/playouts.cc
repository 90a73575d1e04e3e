// Random playouts from any position (see playouts.h).
#include "playouts.h"

#include <atomic>
#include <thread>
#include <vector>

#include "playout.h"
#include "rng.h"

namespace vikinger {

GameResult PlayRandomPlayout(const Position& start, uint64_t seed, bool fused,
                             Position* final_position) {
  Position p = start;
  UniformStream rng(seed);
  LegalSet legal;
  int num_legal = LegalDecisions(p, &legal);
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
  GameResult result{};
  for (int i = 0; i < p.num_players; ++i) {
    result.scores[i] = p.players[i].fame;
    result.gold[i] = p.players[i].gold;
  }
  Returns(p, result.returns);
  result.length = length;
  if (final_position != nullptr) *final_position = p;
  return result;
}

bool PlayRandomPlayouts(const Position* const* starts, int64_t num_starts, int64_t count,
                        uint64_t seed, int threads, Interrupt& interrupt,
                        const RolloutArrays& out) {
  const int64_t rows = num_starts * count;
  if (rows == 0) return true;
  const int n = starts[0]->num_players;
  auto play_row = [&](int64_t row) {
    const GameResult result =
        PlayRandomPlayout(*starts[row / count], seed + static_cast<uint64_t>(row));
    for (int p = 0; p < n; ++p) {
      out.scores[row * n + p] = result.scores[p];
      out.gold[row * n + p] = result.gold[p];
      out.returns[row * n + p] = result.returns[p];
    }
    out.length[row] = result.length;
  };
  // Blocks of rows handed out in turn (as rollout.cc does); row r is always stream seed + r, so
  // the results do not depend on the threads. Only the calling thread polls the interrupt; the
  // others read its flag between rows.
  constexpr int64_t kBlock = 16;
  std::atomic<int64_t> next{0};
  auto work = [&](bool owner) {
    for (int64_t begin; (begin = next.fetch_add(kBlock, std::memory_order_relaxed)) < rows;) {
      const int64_t end = begin + kBlock < rows ? begin + kBlock : rows;
      for (int64_t row = begin; row < end; ++row) {
        if (owner ? interrupt.Check() : interrupt.Stopped()) return;
        play_row(row);
      }
    }
  };
  std::vector<std::thread> workers;
  for (int t = 1; t < threads && t < rows; ++t) workers.emplace_back(work, false);
  work(true);
  for (std::thread& w : workers) w.join();
  return !interrupt.Stopped();
}

}  // namespace vikinger
