// Scoring questions for unfinished games and the heuristic evaluation (see evaluation.h).
#include "search/evaluation.h"

#include <cmath>

#include "rules/scoring.h"

namespace vikinger {

namespace {

// The first scorer index (B7.2: scorer = (start_player + i) % n) not scored yet this round.
int FirstPendingScorer(const Position& p) {
  return p.phase == Phase::kTrip || p.phase == Phase::kTripTarget ? p.scoring_index : 0;
}

void ApplyPendingScoring(const Position& p, PlayerBoard* boards) {
  const int n = p.num_players;
  for (int i = FirstPendingScorer(p); i < n; ++i) {
    PlayerBoard& board = boards[Seat(p.start_player, i, n)];
    if (p.round % 2 == 1) {
      SmallScoring(board);  // B7.1
    } else {
      LargeScoring(board);  // B7.2 steps 2-6
    }
  }
}

void Differences(const Position& p, const PlayerBoard* after, int* fame, int* gold) {
  for (int i = 0; i < p.num_players; ++i) {
    fame[i] = IsTerminal(p) ? 0 : after[i].fame - p.players[i].fame;
    gold[i] = IsTerminal(p) ? 0 : after[i].gold - p.players[i].gold;
  }
}

}  // namespace

void FinalScoringGains(const Position& p, int* fame, int* gold) {
  PlayerBoard boards[kMaxPlayers];
  for (int i = 0; i < p.num_players; ++i) boards[i] = p.players[i];
  FinalScoring(boards, p.num_players);
  Differences(p, boards, fame, gold);
}

void PendingScoringGains(const Position& p, int* fame, int* gold) {
  PlayerBoard boards[kMaxPlayers];
  for (int i = 0; i < p.num_players; ++i) boards[i] = p.players[i];
  ApplyPendingScoring(p, boards);
  Differences(p, boards, fame, gold);
}

void ProjectedBoards(const Position& p, PlayerBoard* boards) {
  for (int i = 0; i < p.num_players; ++i) boards[i] = p.players[i];
  if (IsTerminal(p)) return;
  ApplyPendingScoring(p, boards);
  FinalScoring(boards, p.num_players);
}

void Evaluate(const Position& p, double* values) {
  const int n = p.num_players;
  if (IsTerminal(p)) {
    Returns(p, values);
    return;
  }
  PlayerBoard boards[kMaxPlayers];
  ProjectedBoards(p, boards);
  double score[kMaxPlayers];
  double best = 0.0;
  for (int i = 0; i < n; ++i) {
    score[i] = boards[i].fame + kEvalGoldWeight * boards[i].gold;
    if (i == 0 || score[i] > best) best = score[i];
  }
  const double temperature =
      kEvalTemperatureBase + kEvalTemperaturePerRound * (kNumRounds - p.round);
  double total = 0.0;
  for (int i = 0; i < n; ++i) {
    values[i] = std::exp((score[i] - best) / temperature);
    total += values[i];
  }
  for (int i = 0; i < n; ++i) values[i] /= total;
}

}  // namespace vikinger
