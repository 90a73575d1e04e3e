// Scoring (docs/rules.md B7, B8): small and large scoring during the game, final scoring, winner.
//
// Every count is a popcount over the board's bit planes. The boatsman trips of the large
// scoring (B7.2 step 1) are decisions and live in state.cc; these are the parts without
// decisions.
#ifndef VIKINGER_SCORING_H_
#define VIKINGER_SCORING_H_

#include "rules/board.h"

namespace vikinger {

constexpr int kGoldsmithGold = 3;        // B7.1, B7.2.5
constexpr int kNobleFame = 2;            // B7.2.3
constexpr int kBoatsmenBonus = 10;       // B8.3
constexpr int kIslandsBonus = 7;         // B8.4
constexpr int kLongestBonus = 5;         // B8.5
constexpr int kFedPerFisherman = 5;      // B8.6
constexpr int kSurplusFame = 2;          // B8.6
constexpr int kGoldPerFame = 5;          // B8.2
constexpr int kTreasuryGoldPerFame = 3;  // A5 treasury
constexpr int kFishSurplusFame = 3;      // A5 fish

// B7.1: 3 gold per unthreatened goldsmith on an island tile.
void SmallScoring(PlayerBoard& board);
// B7.2 steps 2-6, after the player's boatsman trips.
void LargeScoring(PlayerBoard& board);
// B8.1-B8.6 and the A5 buildings for all players: FinalScoringAlone of every board, plus
// MajorityFame of their counts. The majorities only add Fame and no step reads Fame, so this is
// the rulebook's order in effect.
void FinalScoring(PlayerBoard* boards, int num_players);
// B8.1, B8.2, B8.6 and the A5 buildings: the steps of the final scoring that read one board alone
// (the endgame solver scores the boards of the last scoring apart, solver.cc).
void FinalScoringAlone(PlayerBoard& board);
// B8.3-B8.5: the counts the majorities compare.
struct MajorityCounts {
  int boatsmen;  // on the mainland, A5 horns included
  int islands;   // completed
  int longest;   // tiles of the longest completed island
};
MajorityCounts CountMajorities(const PlayerBoard& board);
// B8.3's count alone.
inline int BoatsmenKept(const PlayerBoard& board) {
  return board.mainland[kBoatsman] + board.specials[kHorn];  // A5 horns count as boatsmen
}
// B8.3-B8.5 with B8.7's ties: the bonus Fame each player's counts earn.
void MajorityFame(const MajorityCounts* counts, int num_players, int* fame);
// A5: 1 Fame per Viking on a placed building tile and its 8 neighbours, unless the building's
// own cell is threatened (B7.0).
int BuildingFame(const PlayerBoard& board);
// B8.9: 1 shared equally by the players with most Fame, then most gold; 0 for the others.
void WinShares(const PlayerBoard* boards, int num_players, double* shares);

}  // namespace vikinger

#endif  // VIKINGER_SCORING_H_
