// Random playouts on the POD Position (docs/api.md "rollouts"), optionally multi-threaded.
#include "rollout.h"

#include <atomic>
#include <thread>
#include <vector>

#include "playout.h"
#include "rng.h"

namespace vikinger {

namespace {

GameResult Result(const Position& p, int32_t length, Position* final_position) {
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

}  // namespace

static_assert(kMaxLegalActions < 2048, "a legal list's index comes from UniformStream::Below");

GameResult PlayRandomGame(int num_players, int options, uint64_t seed, Policy policy,
                          Position* final_position, BitSelect bit_select) {
  Position p;
  InitPosition(p, num_players, options);
  if (policy == Policy::kRandom && FusedPlayoutSupports(options)) {
    return Result(p, PlayFusedRandomGame(p, seed, bit_select), final_position);
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
  return Result(p, length, final_position);
}

bool PlayRandomGames(int num_players, int options, uint64_t seed, Policy policy, int64_t count,
                     int threads, const RolloutArrays& out, Interrupt* interrupt) {
  auto play_range = [=](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      const GameResult result =
          PlayRandomGame(num_players, options, seed + static_cast<uint64_t>(i), policy,
                         /*final_position=*/nullptr);
      for (int p = 0; p < num_players; ++p) {
        out.scores[i * num_players + p] = result.scores[p];
        out.gold[i * num_players + p] = result.gold[p];
        out.returns[i * num_players + p] = result.returns[p];
      }
      out.length[i] = result.length;
    }
  };
  // Blocks of games handed out in turn, so that a thread slowed by the machine's other work does
  // not leave the others waiting for it at the end. Game i is always seed + i in slot i: results
  // do not depend on which thread plays it. A block of 64 games takes well under a millisecond,
  // so a stop is seen long before the 0.2 s a user waits for Ctrl-C.
  constexpr int64_t kBlock = 64;
  std::atomic<int64_t> next{0};
  auto worker = [&](bool owner) {
    for (int64_t begin; (begin = next.fetch_add(kBlock, std::memory_order_relaxed)) < count;) {
      if (interrupt != nullptr && (owner ? interrupt->Check() : interrupt->Stopped())) return;
      play_range(begin, begin + kBlock < count ? begin + kBlock : count);
    }
  };
  std::vector<std::thread> workers;
  const int helpers = count < 2 ? 0 : threads - 1;
  for (int t = 0; t < helpers; ++t) workers.emplace_back(worker, /*owner=*/false);
  worker(/*owner=*/true);
  for (std::thread& w : workers) w.join();
  return interrupt == nullptr || !interrupt->Stopped();
}

}  // namespace vikinger
