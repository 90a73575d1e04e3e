// Random playouts on the POD Position (docs/api.md "rollouts"), optionally multi-threaded.
#include "play/rollout.h"

#include <atomic>
#include <thread>
#include <vector>

#include "base/rng.h"
#include "play/playout.h"
#include "rules/legal_set.h"

namespace vikinger {

GameResult ResultOf(const Position& p, int32_t length, Position* final_position) {
  if (final_position != nullptr) *final_position = p;
  GameResult result{};
  for (int i = 0; i < p.num_players; ++i) {
    result.scores[i] = p.players[i].fame;
    result.gold[i] = p.players[i].gold;
  }
  Returns(p, result.returns);
  result.length = length;
  return result;
}

void StoreResult(const GameResult& result, int num_players, int64_t row, const RolloutArrays& out) {
  for (int p = 0; p < num_players; ++p) {
    out.scores[row * num_players + p] = result.scores[p];
    out.gold[row * num_players + p] = result.gold[p];
    out.returns[row * num_players + p] = result.returns[p];
  }
  out.length[row] = result.length;
}

bool ForEachBlock(int64_t count, int64_t block, int threads, Interrupt* interrupt,
                  const std::function<void(int64_t, int64_t)>& body) {
  std::atomic<int64_t> next{0};
  auto worker = [&](bool owner) {
    for (int64_t begin; (begin = next.fetch_add(block, std::memory_order_relaxed)) < count;) {
      if (owner ? Checked(interrupt) : Stopped(interrupt)) return;
      body(begin, begin + block < count ? begin + block : count);
    }
  };
  std::vector<std::thread> workers;
  const int64_t blocks = (count + block - 1) / block;
  for (int t = 1; t < threads && t < blocks; ++t) workers.emplace_back(worker, /*owner=*/false);
  worker(/*owner=*/true);
  for (std::thread& w : workers) w.join();
  return !Stopped(interrupt);
}

static_assert(kMaxLegalActions < 2048, "a legal list's index comes from UniformStream::Below");

GameResult PlayRandomGame(int num_players, int options, uint64_t seed, Policy policy,
                          Position* final_position, BitSelect bit_select) {
  Position p;
  InitPosition(p, num_players, options);
  if (policy == Policy::kRandom && FusedPlayoutSupports(options)) {
    const int32_t length = PlayFusedRandomGame(p, seed, bit_select);
    return ResultOf(p, length, final_position);
  }
  UniformStream rng(seed);
  LegalSet legal;  // the legal decisions of the current node, when it is one
  int num_legal = LegalDecisions(p, &legal);  // A1: a game may open with the auction
  int list[kMaxLegalActions];
  int32_t length = 0;
  // Every node takes the stream's next uniform. A decision node is one with legal decisions
  // (num_legal > 0, from the step that reached it); otherwise the node is a chance node or the end.
  for (;; ++length) {
    if (num_legal > 0) {
      const int action = policy == Policy::kRandom ? legal.Nth(rng.Below(num_legal))
                                                   : list[rng.Below(legal.Write(list))];
      num_legal = ApplyLegalAction(p, action, &legal);
    } else if (IsChanceNode(p)) {
      num_legal = ApplyStreamChance(p, rng.NextBits(), &legal);
    } else {
      break;  // terminal
    }
  }
  return ResultOf(p, length, final_position);
}

bool PlayRandomGames(int num_players, int options, uint64_t seed, Policy policy, int64_t count,
                     int threads, const RolloutArrays& out, Interrupt* interrupt) {
  // Game i is always seed + i in slot i: results do not depend on which thread plays it. A block
  // of 64 games takes well under a millisecond, so a stop is seen long before the 0.2 s a user
  // waits for Ctrl-C.
  return ForEachBlock(count, /*block=*/64, threads, interrupt, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      StoreResult(PlayRandomGame(num_players, options, seed + static_cast<uint64_t>(i), policy,
                                 /*final_position=*/nullptr),
                  num_players, i, out);
    }
  });
}

}  // namespace vikinger
