// The fused random playout: rollouts' fast path (docs/api.md "Rollouts"), for the base game and
// every combination of the advanced modules A1-A5.
//
// The state machine of state.cc stops at every node, works out the legal set, and applies forced
// decisions one by one, because Python may look at any node. A random playout looks at none, so
// here a game is one pass over the rulebook's structure: per round, reveal 12 tiles (B4.1), draw
// 12 Vikings (B4.2), 12 purchases (B5, B6), the scoring (B7), then the final scoring (B8), with
// the modules' steps where they fall (A0's round order, the auction, the removal, the offer by
// colour, the special tiles, the weak boatsmen's trips: playout.cc `PrepareRound`); the
// legal island cells come from a copy of each board's rows packed in one word while the board is
// at most 11 columns wide (packed_rows.h), from the board itself after that. It plays exactly
// the games of the generic loop in rollout.cc with policy "random": one uniform of the game's
// stream per chance node and per decision with two or more legal actions, the k-th legal id in
// ascending id order, nothing drawn for a forced decision. tests/play/test_rollouts.py checks the
// final positions of both loops against each other.
#ifndef VIKINGER_PLAYOUT_H_
#define VIKINGER_PLAYOUT_H_

#include <cstdint>

#include "rules/state.h"

namespace vikinger {

// True when PlayFusedRandomGame plays games of these options: every combination of A1-A5.
constexpr bool FusedPlayoutSupports(int options) {
  return options >= 0 && options < 1 << kNumOptions;
}

// How the playout finds the k-th set bit of a legal mask (playout.cc): from tables on any CPU, or
// by the BMI2 instruction PDEP. kAuto is AutoBitSelect(). All three play the same games.
enum class BitSelect : uint8_t { kAuto, kTable, kPdep };

// True on an x86-64 CPU with BMI2 (checked by CPUID), where BitSelect::kPdep may run.
bool PdepIsAvailable();
// What kAuto stands for on this CPU: kPdep where PDEP is available and fast (every such Intel
// CPU, AMD from Zen 3 on), else kTable. Asked once per process.
BitSelect AutoBitSelect();

// True when the fused playout may start at `p`. The base game: at a round's start (no tile of
// the offer revealed yet, B4.1) or during the round's purchases (B5, B6: any phase from buy to
// viking). With modules also anywhere in the round's preparation (A0: the special display, the
// draws, the auction, the removal, the offer by colour) and at A5's choices of a purchase. Never
// during the scoring's trips: the state machine goes on to the next round.
inline bool FusedPlayoutCanEnter(const Position& p) {
  switch (p.phase) {
    case Phase::kRevealTile:
      return p.wheel.occupied == 0 || p.options != 0;
    case Phase::kBuy:
    case Phase::kStartRow:
    case Phase::kShipColumn:
    case Phase::kIslandCell:
    case Phase::kViking:
      return true;
    case Phase::kSpecialFill:
    case Phase::kDrawViking:
    case Phase::kAuction:
    case Phase::kRemoveViking:
    case Phase::kOfferColour:
    case Phase::kTakeSpecial:
    case Phase::kBuildingReplace:
      return p.options != 0;
    default:
      return false;
  }
}

// Plays the stream `seed` from `p` to the end: an initial position (InitPosition), or any
// position where FusedPlayoutCanEnter. Returns the actions a State would record
// (chance outcomes included). kPdep only where PdepIsAvailable().
int32_t PlayFusedRandomGame(Position& p, uint64_t seed, BitSelect how = BitSelect::kAuto);

}  // namespace vikinger

#endif  // VIKINGER_PLAYOUT_H_
