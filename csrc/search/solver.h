// The exact endgame solver (docs/search.md "Solver"): once no chance node is left (round 6
// with its offer on the wheel), the outcome under best play. The reference's solver.py searches
// the same nodes in the same order and returns the same result.
//
// Every player's final margin: u_i = 64 * Fame_i + gold_i - max over j != i of (64 * Fame_j +
// gold_j), Fame first and the gold left after B8.2 (below 5, so below 64) as the B8.9 tie-break.
// Two players: u_0 = -u_1 and the search is alpha-beta on u_0 (player 0 maximizes, player 1
// minimizes), with a transposition table on hash_key holding exact values and bounds. More
// players: max^n, the mover maximizing its own u (first action in id order on a tie), the table
// holding exact vectors. Actions are tried in ascending id order. A node is counted each time the
// search enters one (table hits included); past `max_nodes` the solver gives up.
#ifndef VIKINGER_SOLVER_H_
#define VIKINGER_SOLVER_H_

#include <cstdint>

#include "base/interrupt.h"
#include "rules/state.h"

namespace vikinger {

// The cheap test for a position the solver may take: round 6 and not a chance node. The solver
// still gives up when it meets a chance node below (A5 refills the special display).
bool NoChanceAhead(const Position& p);

struct SolverResult {
  int best_action = -1;               // at the root; -1 at a terminal root
  int64_t margins[kMaxPlayers] = {};  // u_i under best play
  int64_t nodes = 0;
};

// False when the budget ran out, a chance node was met or the interrupt stopped it.
bool SolveEndgame(const Position& p, int64_t max_nodes, Interrupt* interrupt, SolverResult* result);

}  // namespace vikinger

#endif  // VIKINGER_SOLVER_H_
