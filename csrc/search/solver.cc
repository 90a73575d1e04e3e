// The endgame solver (see solver.h).
#include "search/solver.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <new>
#include <unordered_map>
#include <vector>

#include "base/rng.h"
#include "formats/serialization.h"
#include "rules/components.h"
#include "rules/legal_set.h"
#include "search/evaluation.h"

// Bit-identical with solver.py's score utility: no fused multiply-add (GCC's ISO mode already
// keeps them apart).
#ifdef __clang__
#pragma clang fp contract(off)
#endif

namespace vikinger {

void TotalMargins(const int64_t* totals, int num_players, int64_t* margins) {
  const int n = num_players;
  for (int i = 0; i < n; ++i) {
    bool first = true;
    int64_t best_other = 0;
    for (int j = 0; j < n; ++j) {
      if (j != i && (first || totals[j] > best_other)) best_other = totals[j];
      if (j != i) first = false;
    }
    margins[i] = totals[i] - best_other;
  }
}

void FinalMargins(const Position& p, int64_t* margins) {
  int64_t totals[kMaxPlayers];
  for (int i = 0; i < p.num_players; ++i) {
    totals[i] = kFameUnit * p.players[i].fame + p.players[i].gold;
  }
  TotalMargins(totals, p.num_players, margins);
}

double MarginScore(double margin, double centre, double scale) {
  if (scale == 0.0) return std::tanh(margin / (static_cast<double>(kFameUnit) * kScoreScale));
  return std::tanh((margin - centre) / (static_cast<double>(kFameUnit) * scale));
}

double HeadMargin(float score) {
  const double clipped = std::max(-kHeadClip, std::min(kHeadClip, static_cast<double>(score)));
  return static_cast<double>(kFameUnit) * kScoreScale * std::atanh(clipped);
}

void ProjectedMargins(const Position& p, double* margins) {
  PlayerBoard boards[kMaxPlayers];
  ProjectedBoards(p, boards);
  int64_t totals[kMaxPlayers];
  int64_t exact[kMaxPlayers];
  for (int i = 0; i < p.num_players; ++i) totals[i] = kFameUnit * boards[i].fame + boards[i].gold;
  TotalMargins(totals, p.num_players, exact);
  for (int i = 0; i < p.num_players; ++i) margins[i] = static_cast<double>(exact[i]);
}

double ScoreUtility(double win_share, double score, double weight) {
  return (1.0 - weight) * win_share + weight * (0.5 * (score + 1.0));
}

void MarginUtilities(const int64_t* margins, int num_players, double weight, const double* centre,
                     double scale, double* values) {
  for (int i = 0; i < num_players; ++i) {
    const double score =
        MarginScore(static_cast<double>(margins[i]), scale > 0.0 ? centre[i] : 0.0, scale);
    values[i] = ScoreUtility(values[i], score, weight);
  }
}

namespace {

// The table's key: the position bytes of HashKey folded into four splitmix64 chains, the k-th
// 8-byte chunk into chain k % 4, then the chains into one. HashKey's single chain of dependent
// multiplications was half of the solver's time; four independent ones run side by side in the
// CPU. Like hash_key (which the reference's table uses), a 64-bit hash of the same bytes: both
// tables meet the same transpositions, so both engines count the same nodes.
uint64_t SolverKey(const Position& p) {
  uint8_t data[kMaxPositionBytes + 32];
  const int size = PositionBytes(p, data);
  std::memset(data + size, 0, 32);  // the last chunk is zero-padded
  const auto chunk = [&data](int start) {
    uint64_t value;
    std::memcpy(&value, data + start, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    value = __builtin_bswap64(value);  // the chunks are little-endian, as in HashKey
#endif
    return value;
  };
  uint64_t lane[4] = {static_cast<uint64_t>(size), static_cast<uint64_t>(size) + 1,
                      static_cast<uint64_t>(size) + 2, static_cast<uint64_t>(size) + 3};
  int start = 0;
  for (; start + 32 <= size; start += 32) {
    lane[0] = Mix(lane[0] ^ chunk(start));
    lane[1] = Mix(lane[1] ^ chunk(start + 8));
    lane[2] = Mix(lane[2] ^ chunk(start + 16));
    lane[3] = Mix(lane[3] ^ chunk(start + 24));
  }
  for (int k = 0; start < size; start += 8, ++k) lane[k] = Mix(lane[k] ^ chunk(start));
  return Mix(Mix(Mix(Mix(lane[0]) ^ lane[1]) ^ lane[2]) ^ lane[3]);
}

enum class Bound : uint8_t { kExact, kLower, kUpper };

struct Entry {
  int64_t margins[kMaxPlayers];
  Bound bound;
};

class Solver {
 public:
  Solver(int64_t max_nodes, int64_t max_entries, Interrupt* interrupt)
      : max_nodes_(max_nodes), max_entries_(max_entries), interrupt_(interrupt) {}

  // Alpha-beta on u_0 (two players); false when the search gave up.
  bool AlphaBeta(const Position& p, int64_t alpha, int64_t beta, int64_t* value, int* best) {
    if (!Enter(p)) return false;
    if (IsTerminal(p)) {
      int64_t margins[kMaxPlayers];
      FinalMargins(p, margins);
      *value = margins[0];
      return true;
    }
    const uint64_t key = SolverKey(p);
    const auto found = table_.find(key);
    if (found != table_.end() && best == nullptr) {
      const Entry& e = found->second;
      const int64_t stored = e.margins[0];
      if (e.bound == Bound::kExact || (e.bound == Bound::kLower && stored >= beta) ||
          (e.bound == Bound::kUpper && stored <= alpha)) {
        *value = stored;
        return true;
      }
    }
    const bool maximizing = CurrentPlayer(p) == 0;
    const int64_t alpha0 = alpha;
    const int64_t beta0 = beta;
    int ids[kMaxLegalActions];
    const int n = LegalActions(p, ids);
    int64_t best_value = 0;
    for (int i = 0; i < n; ++i) {
      Position next = p;
      ApplyLegalAction(next, ids[i]);
      int64_t v;
      if (!AlphaBeta(next, alpha, beta, &v, nullptr)) return false;
      if (i == 0 || (maximizing ? v > best_value : v < best_value)) {
        best_value = v;
        if (best != nullptr) *best = ids[i];
      }
      if (maximizing && v > alpha) alpha = v;
      if (!maximizing && v < beta) beta = v;
      if (alpha >= beta) break;
    }
    Entry entry{};
    entry.margins[0] = best_value;
    entry.margins[1] = -best_value;
    entry.bound = best_value <= alpha0  ? Bound::kUpper
                  : best_value >= beta0 ? Bound::kLower
                                        : Bound::kExact;
    if (!Store(key, entry)) return false;
    *value = best_value;
    return true;
  }

  // max^n (three or four players); false when the search gave up.
  bool MaxN(const Position& p, int64_t* margins, int* best) {
    if (!Enter(p)) return false;
    const int n = p.num_players;
    if (IsTerminal(p)) {
      FinalMargins(p, margins);
      return true;
    }
    const uint64_t key = SolverKey(p);
    const auto found = table_.find(key);
    if (found != table_.end() && best == nullptr) {
      for (int i = 0; i < n; ++i) margins[i] = found->second.margins[i];
      return true;
    }
    const int mover = CurrentPlayer(p);
    int ids[kMaxLegalActions];
    const int count = LegalActions(p, ids);
    Entry entry{};
    entry.bound = Bound::kExact;
    for (int i = 0; i < count; ++i) {
      Position next = p;
      ApplyLegalAction(next, ids[i]);
      int64_t child[kMaxPlayers];
      if (!MaxN(next, child, nullptr)) return false;
      if (i == 0 || child[mover] > entry.margins[mover]) {
        for (int j = 0; j < n; ++j) entry.margins[j] = child[j];
        if (best != nullptr) *best = ids[i];
      }
    }
    if (!Store(key, entry)) return false;
    for (int i = 0; i < n; ++i) margins[i] = entry.margins[i];
    return true;
  }

  int64_t nodes() const { return nodes_; }
  bool out_of_memory() const { return out_of_memory_; }

 private:
  // Stores a finished node; false (out of memory) for a new position beyond max_entries or
  // when the allocation fails. The reference counts the same positions.
  bool Store(uint64_t key, const Entry& entry) {
    const auto found = table_.find(key);
    if (found != table_.end()) {
      found->second = entry;
      return true;
    }
    if (static_cast<int64_t>(table_.size()) >= max_entries_) {
      out_of_memory_ = true;
      return false;
    }
    try {
      table_.emplace(key, entry);
    } catch (const std::bad_alloc&) {  // the address space ran out first (RLIMIT_AS)
      out_of_memory_ = true;
      return false;
    }
    return true;
  }

  // Counts a node; false past the budget, at a chance node or once interrupted.
  bool Enter(const Position& p) {
    if (++nodes_ > max_nodes_ || IsChanceNode(p)) return false;
    return (nodes_ & 1023) != 0 || !Checked(interrupt_);
  }

  int64_t max_nodes_;
  int64_t max_entries_;
  Interrupt* interrupt_;
  int64_t nodes_ = 0;
  bool out_of_memory_ = false;
  std::unordered_map<uint64_t, Entry> table_;
};

constexpr int64_t kInfinity = INT64_MAX / 2;

}  // namespace

void MarginReturns(const int64_t* margins, int num_players, double* returns) {
  int winners = 0;
  for (int i = 0; i < num_players; ++i) winners += margins[i] >= 0;
  for (int i = 0; i < num_players; ++i) {
    returns[i] = margins[i] >= 0 ? 1.0 / static_cast<double>(winners) : 0.0;
  }
}

bool NoChanceAhead(const Position& p) { return p.round == kNumRounds && !IsChanceNode(p); }

int64_t DefaultSolverMemory() {
  const int64_t pages = sysconf(_SC_PHYS_PAGES);
  const int64_t page_size = sysconf(_SC_PAGE_SIZE);
  int64_t total = pages > 0 && page_size > 0 ? pages * page_size : INT64_MAX;
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
    total = std::min<int64_t>(total, static_cast<int64_t>(limit.rlim_cur));
  }
  return total / 4;
}

SolveStatus SolveEndgame(const Position& p, int64_t max_nodes, int64_t max_memory,
                         Interrupt* interrupt, SolverResult* result, bool result_only) {
  Solver solver(max_nodes, max_memory / kSolverEntryBytes, interrupt);
  bool ok;
  result->best_action = -1;
  if (p.num_players == 2) {
    // The result alone: the window (-1, 1) around a tie; a value past it is a bound of the
    // right sign (fail-soft), one inside it exactly 0.
    const int64_t low = result_only ? -1 : -kInfinity;
    const int64_t high = result_only ? 1 : kInfinity;
    int64_t value = 0;
    ok = solver.AlphaBeta(p, low, high, &value, &result->best_action);
    if (result_only) value = (value > 0) - (value < 0);
    result->margins[0] = value;
    result->margins[1] = -value;
  } else {
    ok = solver.MaxN(p, result->margins, &result->best_action);
  }
  result->nodes = solver.nodes();
  if (ok) return SolveStatus::kSolved;
  return solver.out_of_memory() ? SolveStatus::kOutOfMemory : SolveStatus::kGaveUp;
}

}  // namespace vikinger
