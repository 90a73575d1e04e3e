// Whole random games in C++ (the batched entry point `rollouts` of docs/api.md).
//
// Game i is driven by the splitmix64 stream seeded with `seed + i`: at a chance node a uniform
// u picks the outcome exactly as apply_random_chance does; at a decision node it picks
// legal[floor(u * len(legal))], the legal decisions being those left after forced ones. The
// reference's rollout.py plays the very same games. The loop runs on the POD Position only: no
// allocation per step.
#ifndef VIKINGER_ROLLOUT_H_
#define VIKINGER_ROLLOUT_H_

#include <cstdint>
#include <functional>

#include "base/interrupt.h"
#include "play/playout.h"
#include "rules/state.h"

namespace vikinger {

// Results of one finished game.
struct GameResult {
  int32_t scores[kMaxPlayers];
  int32_t gold[kMaxPlayers];
  double returns[kMaxPlayers];
  int32_t length;  // actions applied (chance included, forced decisions excluded)
};

// Two ways of playing the same uniformly random games (docs/api.md "Rollouts"): kRandom plays
// every game (any modules, playout.h FusedPlayoutSupports) by the fused playout, and otherwise
// picks the k-th legal id straight from the legal bit masks; kRandomGeneric goes through the
// state machine and writes the sorted legal list at every decision and indexes it, as any
// list-based policy would.
enum class Policy { kRandom, kRandomGeneric };

// Plays one random game from the initial position; `final_position` may be null. `bit_select`
// is passed to the fused playout (tests play both of its ways).
GameResult PlayRandomGame(int num_players, int options, uint64_t seed, Policy policy,
                          Position* final_position, BitSelect bit_select = BitSelect::kAuto);

// Caller-owned result arrays of `count` games: scores, gold, returns (count x num_players, row
// major) and length (count).
struct RolloutArrays {
  int32_t* scores;
  int32_t* gold;
  double* returns;
  int32_t* length;
};

// The results of the finished position `p`, reached after `length` actions; `p` is also copied
// to `final_position` unless that is null.
GameResult ResultOf(const Position& p, int32_t length, Position* final_position);
// Writes `result` to row `row` of `out` (`num_players` columns).
void StoreResult(const GameResult& result, int num_players, int64_t row, const RolloutArrays& out);

// Runs body(begin, end) over [0, count) in blocks of `block` handed out in turn to `threads`
// threads, the calling one among them, so that a thread slowed by the machine's other work does
// not leave the others waiting at the end. The calling thread checks `interrupt` (may be null)
// before each of its blocks and the others read its flag; false once it is stopped (some blocks
// then never ran).
bool ForEachBlock(int64_t count, int64_t block, int threads, Interrupt* interrupt,
                  const std::function<void(int64_t, int64_t)>& body);

// Plays games seed .. seed+count-1 (mod 2**64) into `out`, game i in slot i, on `threads`
// threads (the calling one among them) that take blocks of 64 consecutive games in turn. The
// calling thread checks `interrupt` (may be null) after each of its blocks and every thread
// stops at its next block once it is stopped; `out` is then incomplete and returns false.
bool PlayRandomGames(int num_players, int options, uint64_t seed, Policy policy, int64_t count,
                     int threads, const RolloutArrays& out, Interrupt* interrupt = nullptr);

}  // namespace vikinger

#endif  // VIKINGER_ROLLOUT_H_
