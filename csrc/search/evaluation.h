// Questions about an unfinished game, and the heuristic evaluation built on them (docs/search.md
// "Evaluation"): pure functions of the position, the same in the reference's evaluation.py.
//
// FinalScoringGains: what B8 would give each player if the game ended now (the boards as they
// stand). PendingScoringGains: what the scoring that ends the current round (B7.1 after rounds
// 1, 3, 5; B7.2 steps 2-6 after 2, 4, 6, without further boatsman trips) would pay the players it
// has not scored yet. Evaluate: per-player values in [0, 1] summing to 1, a softmax of the Fame
// each player would have if the pending scoring and then the final scoring happened now.
#ifndef VIKINGER_EVALUATION_H_
#define VIKINGER_EVALUATION_H_

#include "rules/state.h"

namespace vikinger {

// The evaluation's temperature in Fame: kEvalTemperatureBase + kEvalTemperaturePerRound * (6 -
// round). Later in the game the same lead is worth more: less is left to change it.
constexpr double kEvalTemperatureBase = 2.0;
constexpr double kEvalTemperaturePerRound = 3.0;
// A gold piece left after B8.2 counts this much Fame: it only breaks ties (B8.9).
constexpr double kEvalGoldWeight = 0.01;

// B8 on copies of the boards: the (Fame, gold) change per player. Zeros once the game is over.
void FinalScoringGains(const Position& p, int* fame, int* gold);
// The current round's scoring on copies of the boards of the players it has not scored yet
// (every player outside the large scoring's trips; from the current scorer on during them).
// Zeros once the game is over.
void PendingScoringGains(const Position& p, int* fame, int* gold);
// The boards after the pending scoring and then B8: what the players would finish with if the
// game ended at the end of this round's scoring.
void ProjectedBoards(const Position& p, PlayerBoard* boards);
// The evaluation: B8.9 returns once terminal; otherwise with s_i = projected Fame + 0.01 *
// projected gold, m = max s_i and T the temperature, v_i = exp((s_i - m) / T) / sum_j exp((s_j -
// m) / T), each term and the sum computed in player order.
void Evaluate(const Position& p, double* values);

}  // namespace vikinger

#endif  // VIKINGER_EVALUATION_H_
