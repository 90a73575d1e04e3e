// The exact endgame solver (docs/search.md "Solver"): once no chance node is left (round 6
// with its offer on the wheel), the outcome under best play. The reference's solver.py searches
// the same nodes in the same order and returns the same result.
//
// Every player's final margin: u_i = 64 * Fame_i + gold_i - max over j != i of (64 * Fame_j +
// gold_j), Fame first and the gold left after B8.2 (below 5, so below 64) as the B8.9 tie-break.
// Two players: u_0 = -u_1 and the search is alpha-beta on u_0 (player 0 maximizes, player 1
// minimizes), with a transposition table holding exact values and bounds (keyed by SolverKey in
// solver.cc, by hash_key in the reference: 64-bit hashes of bytes that tell positions apart). More
// players: max^n, the mover maximizing its own u (first action in id order on a tie), the table
// holding exact vectors. Actions are tried in ascending id order. Round 6's large scoring: each
// scorer's trips are listed apart and the lists played against each other through the boatsmen's
// majority (solver.cc's LastScoring, two players, and LastScoringN, more; docs/search.md
// "Solver"); at two players a list is made by counts (trip_ends.h), its ends visited once per
// scorer's counts (mainland, A5 tiles, free tiles per row) and reused. A node is counted each time
// the search enters one (table hits included), each end listed by counts, and each pairing of
// the lists of more than two players; past `max_nodes` the solver gives up.
//
// Memory: the table grows (about 28 MB a second at three players), and beside it the last
// scoring's lists and the trip positions being visited. Together they hold at most max_memory /
// kSolverEntryBytes entries (a list counts as one and one per pair it holds); a new entry beyond
// that stops the search (kOutOfMemory), as does an allocation that fails, so the solver never runs
// a process out of memory in the middle of its recursion (docs/search.md "Solver").
#ifndef VIKINGER_SOLVER_H_
#define VIKINGER_SOLVER_H_

#include <cstdint>
#include <memory>

#include "base/interrupt.h"
#include "rules/state.h"

namespace vikinger {

// The cheap test for a position the solver may take: round 6 and not a chance node. The solver
// still gives up when it meets a chance node below (A5 refills the special display).
bool NoChanceAhead(const Position& p);

// The bytes a table entry is counted for, in both engines: what a std::unordered_map node and its
// share of the buckets took when the table was one. The flat table's 24-byte slots stay within
// that count, growth included (solver_table.h).
constexpr int64_t kSolverEntryBytes = 80;

// The default max_memory: a quarter of the physical memory, or of the address-space limit
// (RLIMIT_AS) when that is lower. The reference computes the same.
int64_t DefaultSolverMemory();

enum class SolveStatus { kSolved, kGaveUp, kOutOfMemory };

struct SolverResult {
  int best_action = -1;               // at the root; -1 at a terminal root
  int64_t margins[kMaxPlayers] = {};  // u_i under best play
  int64_t nodes = 0;
};

// The B8.9 returns of the final position the margins belong to: the players whose margin is >= 0
// (the one with u > 0, or those tied at the top with u = 0) share 1 equally.
void MarginReturns(const int64_t* margins, int num_players, double* returns);

constexpr int64_t kFameUnit = 64;  // a Fame outweighs any gold left after B8.2
// The score utility (docs/neural.md "Score-aware values"): a margin u, in units of 1/64 Fame, is
// squashed as tanh(u / 64 / kScoreScale), the score head's target (training/targets.py).
constexpr double kScoreScale = 8.0;

// Each player's total (kFameUnit * Fame + gold) minus the best other player's.
void TotalMargins(const int64_t* totals, int num_players, int64_t* margins);
// The margins u_i of the (final) position p.
void FinalMargins(const Position& p, int64_t* margins);
// The score of a margin (estimate) in the score utility, in (-1, 1): tanh(margin / (64 *
// kScoreScale)) when scale == 0 (the division by 2^9 is exact); with a scale D > 0 (Fame), centred
// on the root's projected margin `centre`: tanh((margin - centre) / (64 * D)) (docs/neural.md
// "Score-aware values"; solver.py's margin_score, the same operations in the same order).
double MarginScore(double margin, double centre, double scale);
// The margin the score head's output `score` stands for: 64 * kScoreScale * atanh(score), score
// clipped to +-kHeadClip (float32 rounds tanh to 1 past about 8.7, where atanh is infinite).
constexpr double kHeadClip = 1.0 - 1.0 / (1 << 20);
double HeadMargin(float score);
// The margins of the boards the players would finish with if the game ended after this round's
// scoring (evaluation.h's ProjectedBoards), in double: the centre of a root's score utility.
void ProjectedMargins(const Position& p, double* margins);
// (1 - weight) * win_share + weight * (score + 1) / 2 in double: a win share and a squashed margin
// on one scale, [0, 1]; solver.py's score_utility, the same operations in the same order.
double ScoreUtility(double win_share, double score, double weight);
// The win shares `values` of a final position, blended in place with its `margins`, scored by
// MarginScore with `centre` (per player; read only when scale > 0) and `scale`.
void MarginUtilities(const int64_t* margins, int num_players, double weight, const double* centre,
                     double scale, double* values);

// kGaveUp when the node budget ran out, a chance node was met or the interrupt stopped it;
// kOutOfMemory when the table reached max_memory (or an allocation failed). result_only (two
// players): who wins, not by how much: alpha-beta with the window (-1, 1) on u_0, far fewer
// nodes where one action decides it; margins then hold the signs of u_i (-1, 0 or 1) and
// best_action an action of the best result for the mover (docs/search.md "Solver").
// by_counts (the default, trips="counts" in Python): two players' last scoring listed by counts
// (trip_ends.h); false lists every placement tile by tile, the same values in more nodes (the
// solver the benchmark files of format vikinger-endgame/1 were built with).
SolveStatus SolveEndgame(const Position& p, int64_t max_nodes, int64_t max_memory,
                         Interrupt* interrupt, SolverResult* result, bool result_only = false,
                         bool by_counts = true);

// One solver table kept across solves (docs/search.md "A table kept across solves"; solver.py's
// EndgameSolver): each Solve is SolveEndgame's, from the entries earlier solves left (exact
// values, bounds, a scorer's listed trips; each a finished result, so they stay right whatever
// the later window), its nodes counted from 0 against this call's max_nodes. A solve that gives
// up, is interrupted or reaches max_memory keeps what it stored. The caller keeps all positions
// of one game (the keys do not hold the modules) and one thread at a time.
class EndgameSolver {
 public:
  EndgameSolver(int64_t max_memory, bool by_counts);
  EndgameSolver(EndgameSolver&&) noexcept;
  EndgameSolver& operator=(EndgameSolver&&) noexcept;
  ~EndgameSolver();
  SolveStatus Solve(const Position& p, int64_t max_nodes, Interrupt* interrupt,
                    SolverResult* result, bool result_only);
  void Clear();
  // The positions and list entries kept, each counted as kSolverEntryBytes of max_memory.
  int64_t entries() const;

 private:
  struct Impl;
  int64_t max_memory_;
  bool by_counts_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace vikinger

#endif  // VIKINGER_SOLVER_H_
