// The endgame solver (see solver.h).
#include "search/solver.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <deque>
#include <map>
#include <new>
#include <unordered_set>
#include <utility>
#include <vector>

#include "base/bits.h"
#include "base/rng.h"
#include "formats/serialization.h"
#include "rules/components.h"
#include "rules/legal_set.h"
#include "rules/scoring.h"
#include "rules/trips.h"
#include "search/evaluation.h"
#include "search/solver_table.h"
#include "search/trip_ends.h"

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

// Bytes folded into four splitmix64 chains, the k-th 8-byte chunk into chain k % 4, then the
// chains into one; `data` has room for 32 bytes past `size` (the last chunk is zero-padded there).
// HashKey's single chain of dependent multiplications was half of the solver's time; four
// independent ones run side by side in the CPU.
uint64_t LaneHash(uint8_t* data, int size) {
  std::memset(data + size, 0, 32);
  const auto chunk = [data](int start) {
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

// The table's key: LaneHash of the position's key bytes. Like hash_key (which the reference's
// table uses, of the position bytes), a 64-bit hash of bytes that tell positions apart exactly:
// both tables meet the same transpositions, so both engines count the same nodes.
uint64_t SolverKey(const Position& p) {
  uint8_t data[kMaxPositionBytes + 32];
  return LaneHash(data, PositionKeyBytes(p, data));
}

// The most boatsmen a board can keep for B8.3 (13, and the A5 horns), and more.
constexpr int kCounts = 64;
constexpr int64_t kUnreached = INT64_MIN;

enum class Bound : uint8_t { kExact, kLower, kUpper };

// Round 6's large scoring (B7.2 step 1): a scorer's trips, the last decisions of the game.
bool InLastScoring(const Position& p) {
  return p.round == kNumRounds && (p.phase == Phase::kTrip || p.phase == Phase::kTripTarget);
}

// A player's total (kFameUnit * Fame + gold) at the end, without the majorities of B8.3-B8.5:
// from a final position, the total less the majorities' Fame; from a position where the player
// has scored and another has not, the board's own final scoring (FinalScoringAlone). `fixed`:
// every player's counts, of which the islands cannot change in the large scoring.
int64_t OwnTotal(const Position& end, int player, const MajorityCounts* fixed) {
  if (IsTerminal(end)) {
    const int n = end.num_players;
    MajorityCounts counts[kMaxPlayers];
    for (int i = 0; i < n; ++i) {
      counts[i] = fixed[i];
      counts[i].boatsmen = BoatsmenKept(end.players[i]);
    }
    int fame[kMaxPlayers];
    MajorityFame(counts, n, fame);
    const PlayerBoard& board = end.players[player];
    return kFameUnit * (board.fame - fame[player]) + board.gold;
  }
  PlayerBoard board = end.players[player];
  FinalScoringAlone(board);
  return kFameUnit * board.fame + board.gold;
}

// What a scorer's trips can reach: (boatsmen kept, own total) pairs, and the actions of the first
// path to an end (depth first, in id order). Visit lists every distinct pair in the order of its
// first end; two players keep the best total for each count, in ascending count (BestPerCount).
struct Outcomes {
  std::vector<std::pair<int, int64_t>> pairs;
  std::vector<int> first_path;
};

// Two players' outcomes: the best own total for each count of boatsmen kept, in ascending count
// (the first scorer's margin rises with its total whatever the other answers).
void BestPerCount(Outcomes* outcomes) {
  int64_t best[kCounts];
  std::fill(best, best + kCounts, kUnreached);
  for (const auto& [kept, total] : outcomes->pairs) best[kept] = std::max(best[kept], total);
  outcomes->pairs.clear();
  for (int count = 0; count < kCounts; ++count) {
    if (best[count] != kUnreached) outcomes->pairs.emplace_back(count, best[count]);
  }
}

// An end of a scorer's trips by counts: the mainland and the A5 tiles (BestEnds). And what
// decides a scorer's ends (B7.2.1a): those, and the free tiles per row.
using EndKey = std::array<uint8_t, kNumColours + kNumSpecialKinds>;
using CountsKey = std::array<uint8_t, kNumColours + kNumSpecialKinds + kNumRows>;

// A two-player entry of the table: u_0 and its bound.
TableEntry TwoPlayerEntry(int64_t value, Bound bound) {
  TableEntry entry{};
  entry.values[0] = static_cast<int32_t>(value);
  entry.values[1] = static_cast<int32_t>(bound);
  return entry;
}

// An entry of more players: their margins under max^n.
TableEntry MaxNEntry(const int64_t* margins, int num_players) {
  TableEntry entry{};
  for (int i = 0; i < num_players; ++i) entry.values[i] = static_cast<int32_t>(margins[i]);
  return entry;
}

class Solver {
 public:
  Solver(int64_t max_nodes, int64_t max_entries, Interrupt* interrupt, bool by_counts)
      : max_nodes_(max_nodes),
        max_entries_(max_entries),
        interrupt_(interrupt),
        by_counts_(by_counts) {}

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
    const TableEntry* found = table_.Find(key);
    if (found != nullptr && best == nullptr) {
      const int64_t stored = found->values[0];
      const auto bound = static_cast<Bound>(found->values[1]);
      if (bound == Bound::kExact || (bound == Bound::kLower && stored >= beta) ||
          (bound == Bound::kUpper && stored <= alpha)) {
        *value = stored;
        return true;
      }
    }
    if (best == nullptr && InLastScoring(p)) {
      int64_t exact;
      if (!LastScoring(p, &exact)) return false;
      if (!Store(key, TwoPlayerEntry(exact, Bound::kExact))) return false;
      *value = exact;
      return true;
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
    const Bound bound = best_value <= alpha0  ? Bound::kUpper
                        : best_value >= beta0 ? Bound::kLower
                                              : Bound::kExact;
    if (!Store(key, TwoPlayerEntry(best_value, bound))) return false;
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
    const TableEntry* found = table_.Find(key);
    if (found != nullptr && best == nullptr) {
      for (int i = 0; i < n; ++i) margins[i] = found->values[i];
      return true;
    }
    if (best == nullptr && InLastScoring(p)) {
      if (!LastScoringN(p, margins)) return false;
      return Store(key, MaxNEntry(margins, n));
    }
    const int mover = CurrentPlayer(p);
    int ids[kMaxLegalActions];
    const int count = LegalActions(p, ids);
    for (int i = 0; i < count; ++i) {
      Position next = p;
      ApplyLegalAction(next, ids[i]);
      int64_t child[kMaxPlayers];
      if (!MaxN(next, child, nullptr)) return false;
      if (i == 0 || child[mover] > margins[mover]) {
        for (int j = 0; j < n; ++j) margins[j] = child[j];
        if (best != nullptr) *best = ids[i];
      }
    }
    return Store(key, MaxNEntry(margins, n));
  }

  // u_0 under best play in round 6's large scoring (two players). A scorer's trips change their
  // own board alone, and the boards meet only in the majorities of B8.3-B8.5, where only the
  // count of boatsmen kept can still change (tiles no longer move). So each scorer's outcomes
  // are listed once and the two lists played against each other: the first scorer keeps a count,
  // the second answers. The value is the full search's; the cost is the sum of the two players'
  // trip trees instead of their product, and a board met again costs no node.
  bool LastScoring(const Position& p, int64_t* value) {
    const int s = CurrentPlayer(p);
    const int o = 1 - s;
    MajorityCounts counts[2] = {CountMajorities(p.players[0]), CountMajorities(p.players[1])};
    uint8_t bytes[kMaxPositionBytes + 32];
    const uint64_t key = LaneHash(bytes, ScorerBytes(p, s, bytes));
    const Outcomes* mine = Find(key);
    if (mine == nullptr) {
      Outcomes fresh;
      if (!BestEnds(p, counts, &fresh)) return false;
      if (!Keep(key, std::move(fresh), &mine)) return false;
    }
    // The other player's outcomes hang on their board alone, and on whether they have scored:
    // keyed by both, found from the board (OtherFromBoard) or after one of the scorer's ends
    // (the first path's).
    const uint64_t other_key = LaneHash(bytes, OtherScorerBytes(p, o, bytes));
    const Outcomes* theirs = Find(other_key);
    if (theirs == nullptr) {
      Outcomes fresh;
      bool listed;
      if (!OtherFromBoard(p, o, &fresh, &listed)) return false;
      if (!listed) {  // their trips from the end of one of the scorer's
        Position end = p;
        if (mine->first_path.empty()) {  // ends reused by counts: no path was visited
          if (!FirstEnd(&end)) return false;
        }
        for (int action : mine->first_path) ApplyLegalAction(end, action);
        if (IsTerminal(end)) {  // their trips were forced, played on without a decision
          fresh.pairs.emplace_back(BoatsmenKept(end.players[o]), OwnTotal(end, o, counts));
        } else if (!BestEnds(end, counts, &fresh)) {
          return false;
        }
      }
      if (!Keep(other_key, std::move(fresh), &theirs)) return false;
    }
    int64_t best = 0;
    for (size_t a = 0; a < mine->pairs.size(); ++a) {
      int64_t answer = 0;  // the other player's best answer: the lowest margin for s
      for (size_t b = 0; b < theirs->pairs.size(); ++b) {
        counts[s].boatsmen = mine->pairs[a].first;
        counts[o].boatsmen = theirs->pairs[b].first;
        int fame[2];
        MajorityFame(counts, 2, fame);
        const int64_t margin = mine->pairs[a].second + kFameUnit * fame[s] -
                               theirs->pairs[b].second - kFameUnit * fame[o];
        if (b == 0 || margin < answer) answer = margin;
      }
      if (a == 0 || answer > best) best = answer;
    }
    *value = s == 0 ? best : -best;
    return true;
  }

  // The margins under max^n in round 6's large scoring (three or four players). As in
  // LastScoring, each scorer's trips are listed once: the current scorer's, then each later
  // scorer's from the end of the first path before. But a later scorer's answer can hang on an
  // earlier scorer's total, not only on the count kept (the best other player is not always the
  // same), so every distinct (count, total) pair is kept, in the order of its first end: the
  // first pair of the best margin is the full tree's first action of it.
  bool LastScoringN(const Position& p, int64_t* margins) {
    const int n = p.num_players;
    MajorityCounts fixed[kMaxPlayers];
    for (int i = 0; i < n; ++i) fixed[i] = CountMajorities(p.players[i]);
    uint8_t bytes[kMaxPositionBytes + 32];
    std::vector<std::pair<int, const Outcomes*>> chain;
    Position end = p;
    for (bool first = true; first || !IsTerminal(end); first = false) {
      // The later scorers, each from an end of the one before.
      const int scorer = CurrentPlayer(end);
      const uint64_t key = first ? LaneHash(bytes, ScorerBytes(end, scorer, bytes))
                                 : LaneHash(bytes, OtherScorerBytes(end, scorer, bytes));
      const Outcomes* outcomes = Find(key);
      if (outcomes == nullptr) {
        Outcomes fresh;
        if (!Visit(end, fixed, &fresh)) return false;
        if (!Keep(key, std::move(fresh), &outcomes)) return false;
      }
      chain.emplace_back(scorer, outcomes);
      for (int action : outcomes->first_path) ApplyLegalAction(end, action);
    }
    // The players outside the chain have scored (or have no trip): their ends are fixed.
    MajorityCounts counts[kMaxPlayers];
    int64_t totals[kMaxPlayers];
    for (int i = 0; i < n; ++i) {
      counts[i] = fixed[i];
      counts[i].boatsmen = BoatsmenKept(end.players[i]);
      totals[i] = OwnTotal(end, i, fixed);
    }
    return Pair(chain, 0, n, counts, totals, margins);
  }

  // The margins when the chain's scorers from k on choose in turn, each the first of its pairs
  // with its best margin (max^n); each full pairing counts as a node.
  bool Pair(const std::vector<std::pair<int, const Outcomes*>>& chain, size_t k, int n,
            MajorityCounts* counts, int64_t* totals, int64_t* margins) {
    if (k == chain.size()) {
      if (!Tick()) return false;
      int fame[kMaxPlayers];
      MajorityFame(counts, n, fame);
      int64_t final_totals[kMaxPlayers];
      for (int i = 0; i < n; ++i) final_totals[i] = totals[i] + kFameUnit * fame[i];
      TotalMargins(final_totals, n, margins);
      return true;
    }
    const int scorer = chain[k].first;
    bool first = true;
    for (const auto& [kept, total] : chain[k].second->pairs) {
      counts[scorer].boatsmen = kept;
      totals[scorer] = total;
      int64_t child[kMaxPlayers];
      if (!Pair(chain, k + 1, n, counts, totals, child)) return false;
      if (first || child[scorer] > margins[scorer]) {
        for (int i = 0; i < n; ++i) margins[i] = child[i];
        first = false;
      }
    }
    return true;
  }

  const Outcomes* Find(uint64_t key) const {
    const TableEntry* found = outcome_index_.Find(key);
    return found == nullptr ? nullptr : &outcomes_[found->values[0]];
  }

  // Caches `fresh` under `key`; a list counts against max_memory as one table entry and one for
  // each pair it holds.
  bool Keep(uint64_t key, Outcomes&& fresh, const Outcomes** kept) {
    const int64_t entries = 1 + static_cast<int64_t>(fresh.pairs.size());
    if (!Reserve(entries)) return false;
    try {
      outcomes_.push_back(std::move(fresh));
    } catch (const std::bad_alloc&) {
      out_of_memory_ = true;
      return false;
    }
    TableEntry index{};
    index.values[0] = static_cast<int32_t>(outcomes_.size() - 1);
    if (!outcome_index_.Put(key, index, max_entries_)) {
      outcomes_.pop_back();
      out_of_memory_ = true;
      return false;
    }
    *kept = &outcomes_.back();
    cached_ += entries;
    return true;
  }

  // The outcomes of the trips of p's scorer, visited depth first: every distinct (boatsmen kept,
  // own total) pair in the order of its first end, and the first path.
  bool Visit(const Position& p, const MajorityCounts* fixed, Outcomes* outcomes) {
    const int player = CurrentPlayer(p);
    auto& ends = outcomes->pairs;
    const auto at_end = [&](const Position& end) {
      const std::pair<int, int64_t> pair(BoatsmenKept(end.players[player]),
                                         OwnTotal(end, player, fixed));
      if (std::find(ends.begin(), ends.end(), pair) == ends.end()) ends.push_back(pair);
      return true;
    };
    return VisitTrips(p, false, at_end, &outcomes->first_path);
  }

  // Two players' outcomes of the trips of p's scorer (BestPerCount of Visit): by counts
  // (trip_ends.h) unless an A5 building stands on the scorer's board. The trips are visited with
  // each Viking on its leftmost tile; each new end of counts (the scorer's mainland and A5 tiles)
  // counts as a node, and its best tiles give its total. B7.2.1a makes those ends hang on the
  // scorer's counts alone (mainland, A5 tiles, free tiles per row): before a trip is begun they
  // are visited once per counts and then reused (ends_by_counts_), the first path left to
  // FirstEnd.
  bool BestEnds(const Position& p, const MajorityCounts* fixed, Outcomes* outcomes) {
    const int player = CurrentPlayer(p);
    const PlayerBoard& start = p.players[player];
    if (!by_counts_ || !ByCounts(start)) {
      if (!Visit(p, fixed, outcomes)) return false;
      BestPerCount(outcomes);
      return true;
    }
    uint64_t tiles[kNumRows];
    TripCandidates(p, tiles);
    const bool reusable = p.phase == Phase::kTrip;  // no trip begun
    const CountsKey counts = CountsOf(start, tiles);
    if (reusable) {
      const auto found = ends_by_counts_.find(counts);
      if (found != ends_by_counts_.end()) return ScoreEnds(start, tiles, found->second, outcomes);
    }
    int64_t best[kCounts];
    std::fill(best, best + kCounts, kUnreached);
    std::vector<EndKey> ends;
    const auto at_end = [&](const Position& end) {
      const PlayerBoard& board = end.players[player];
      EndKey key;
      std::copy(board.mainland, board.mainland + kNumColours, key.begin());
      std::copy(board.specials, board.specials + kNumSpecialKinds, key.begin() + kNumColours);
      if (std::find(ends.begin(), ends.end(), key) != ends.end()) return true;
      ends.push_back(key);
      return ScoreEnd(start, tiles, key, best);
    };
    if (!VisitTrips(p, true, at_end, &outcomes->first_path)) return false;
    if (reusable) {
      const int64_t entries = 1 + static_cast<int64_t>(ends.size());
      if (!Reserve(entries)) return false;
      try {
        ends_by_counts_.emplace(counts, std::move(ends));
      } catch (const std::bad_alloc&) {
        out_of_memory_ = true;
        return false;
      }
      cached_ += entries;
    }
    BestOfCounts(best, outcomes);
    return true;
  }

  // What decides a scorer's ends (BestEnds), `tiles` the free tiles it may take.
  static CountsKey CountsOf(const PlayerBoard& start, const uint64_t* tiles) {
    CountsKey counts{};
    std::copy(start.mainland, start.mainland + kNumColours, counts.begin());
    std::copy(start.specials, start.specials + kNumSpecialKinds, counts.begin() + kNumColours);
    for (int row = 0; row < kNumRows; ++row) {
      counts[kNumColours + kNumSpecialKinds + row] = static_cast<uint8_t>(PopCount(tiles[row]));
    }
    return counts;
  }

  // One end for the scorer whose board was `start`: a node, and its best total into best[kept].
  bool ScoreEnd(const PlayerBoard& start, const uint64_t* tiles, const EndKey& key, int64_t* best) {
    if (!Tick()) return false;
    PlayerBoard end = start;
    std::copy(key.begin(), key.begin() + kNumColours, end.mainland);
    std::copy(key.begin() + kNumColours, key.end(), end.specials);
    const int kept = BoatsmenKept(end);
    best[kept] = std::max(best[kept], BestTotal(start, end, tiles));
    return true;
  }

  // The outcomes of reused ends (no first path).
  bool ScoreEnds(const PlayerBoard& start, const uint64_t* tiles, const std::vector<EndKey>& ends,
                 Outcomes* outcomes) {
    int64_t best[kCounts];
    std::fill(best, best + kCounts, kUnreached);
    for (const EndKey& key : ends) {
      if (!ScoreEnd(start, tiles, key, best)) return false;
    }
    BestOfCounts(best, outcomes);
    return true;
  }

  static void BestOfCounts(const int64_t* best, Outcomes* outcomes) {
    for (int count = 0; count < kCounts; ++count) {
      if (best[count] != kUnreached) outcomes->pairs.emplace_back(count, best[count]);
    }
  }

  // The other player's outcomes in LastScoring, from their board where it decides them: one
  // outcome when they have scored or have no trip (B7.2 steps 2-6 and their own part of B8, as
  // the final position gives them), the ends reused by counts when they begin their trips with
  // counts met before (counts that began a visit at a decision, so theirs is one too: a single
  // legal action is played on without one). *listed is false where it does not (the caller
  // plays on to their turn and lists their trips); false when the search gave up.
  bool OtherFromBoard(const Position& p, int o, Outcomes* outcomes, bool* listed) {
    const PlayerBoard& board = p.players[o];
    const bool scored = p.scoring_index == 1;  // two players: the other scored first
    *listed = true;
    if (scored || !TripPossible(board)) {
      PlayerBoard end = board;
      if (!scored) LargeScoring(end);
      FinalScoringAlone(end);
      outcomes->pairs.emplace_back(BoatsmenKept(end), kFameUnit * end.fame + end.gold);
      return true;
    }
    *listed = false;
    if (!by_counts_ || !ByCounts(board)) return true;
    uint64_t tiles[kNumRows];
    for (int row = 1; row <= kNumRows; ++row) tiles[row - 1] = board.Row(row).FreeTiles();
    const auto found = ends_by_counts_.find(CountsOf(board, tiles));
    if (found == ends_by_counts_.end()) return true;
    *listed = true;
    return ScoreEnds(board, tiles, found->second, outcomes);
  }

  // Plays p's scorer along the first path of VisitTrips (the first action at every step, each
  // step counted as a node) to the scorer's end; false when the search gave up.
  bool FirstEnd(Position* p) {
    const int index = p->scoring_index;
    while (true) {
      int ids[kMaxLegalActions];
      LegalActions(*p, ids);
      ApplyLegalAction(*p, ids[0]);
      if (!Enter(*p)) return false;
      if (!InLastScoring(*p) || p->scoring_index != index) return true;
    }
  }

  // Depth first from p over the decisions of its scorer, each position once (counted as a node;
  // a final position each time it is reached, unhashed), actions in id order, or only the first
  // target of each Viking when `leftmost`; calls at_end at each end (the scorer done), and keeps
  // the first path to an end. False when the search gave up (at_end may stop it too).
  template <typename AtEnd>
  bool VisitTrips(const Position& root, bool leftmost, const AtEnd& at_end,
                  std::vector<int>* first_path) {
    std::unordered_set<uint64_t> seen;
    std::vector<int> path;
    return VisitFrom(root, leftmost, at_end, &seen, &path, first_path);
  }

  template <typename AtEnd>
  bool VisitFrom(const Position& p, bool leftmost, const AtEnd& at_end,
                 std::unordered_set<uint64_t>* seen, std::vector<int>* path,
                 std::vector<int>* first_path) {
    int ids[kMaxLegalActions];
    int n = LegalActions(p, ids);
    if (leftmost && p.phase == Phase::kTripTarget) n = std::min(n, 1);
    for (int i = 0; i < n; ++i) {
      Position next = p;
      ApplyLegalAction(next, ids[i]);
      if (!IsTerminal(next)) {
        const uint64_t key = SolverKey(next);
        if (seen->count(key) != 0) continue;
        if (!Reserve(static_cast<int64_t>(seen->size()) + 1)) return false;
        try {
          seen->insert(key);
        } catch (const std::bad_alloc&) {
          out_of_memory_ = true;
          return false;
        }
      }
      path->push_back(ids[i]);
      if (!Enter(next)) return false;
      if (InLastScoring(next) && next.scoring_index == p.scoring_index) {
        if (!VisitFrom(next, leftmost, at_end, seen, path, first_path)) return false;
      } else {
        if (first_path->empty()) *first_path = *path;
        if (!at_end(next)) return false;
      }
      path->pop_back();
    }
    return true;
  }

  // A solve from the entries kept (EndgameSolver): this call's budget and interrupt, its nodes
  // from 0.
  void Begin(int64_t max_nodes, Interrupt* interrupt) {
    max_nodes_ = max_nodes;
    interrupt_ = interrupt;
    nodes_ = 0;
    out_of_memory_ = false;
  }

  int64_t nodes() const { return nodes_; }
  bool out_of_memory() const { return out_of_memory_; }
  int64_t entries() const { return table_.size() + cached_; }

 private:
  // Stores a finished node; false (out of memory) for a new position beyond max_entries or
  // when the allocation fails. The reference counts the same positions.
  bool Store(uint64_t key, const TableEntry& entry) {
    if (!table_.Put(key, entry, max_entries_ - cached_)) {
      out_of_memory_ = true;  // past max_entries, or the address space ran out first (RLIMIT_AS)
      return false;
    }
    return true;
  }

  // Whether `extra` more entries fit beside the table and the cached outcomes; false (out of
  // memory) otherwise.
  bool Reserve(int64_t extra) {
    if (entries() + extra > max_entries_) {
      out_of_memory_ = true;
      return false;
    }
    return true;
  }

  // Counts a node without a position (a pairing of the scorers' outcomes); false past the budget
  // or once interrupted.
  bool Tick() { return ++nodes_ <= max_nodes_ && ((nodes_ & 1023) != 0 || !Checked(interrupt_)); }

  // Counts a node; false past the budget, at a chance node or once interrupted.
  bool Enter(const Position& p) {
    if (++nodes_ > max_nodes_ || IsChanceNode(p)) return false;
    return (nodes_ & 1023) != 0 || !Checked(interrupt_);
  }

  int64_t max_nodes_;
  int64_t max_entries_;
  Interrupt* interrupt_;
  bool by_counts_;  // two players' lists by counts (BestEnds)
  int64_t nodes_ = 0;
  bool out_of_memory_ = false;
  SolverTable table_;
  // A scorer's outcomes, found by LaneHash of ScorerBytes (a later scorer's of OtherScorerBytes)
  // in outcome_index_, a flat table of their indices (a std::unordered_map's lookups were a tenth
  // of the two-player solver's time); a deque keeps the pointers handed out valid as it grows.
  std::deque<Outcomes> outcomes_;
  SolverTable outcome_index_;
  // Two players' ends of counts (BestEnds) by the counts that decide them, in the visit's order;
  // each counts as one entry and one per end.
  std::map<CountsKey, std::vector<EndKey>> ends_by_counts_;
  int64_t cached_ = 0;  // the entries the outcomes and the ends count for
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

struct EndgameSolver::Impl {
  Solver solver;
};

EndgameSolver::EndgameSolver(int64_t max_memory, bool by_counts)
    : max_memory_(max_memory), by_counts_(by_counts) {
  Clear();
}

EndgameSolver::EndgameSolver(EndgameSolver&&) noexcept = default;
EndgameSolver& EndgameSolver::operator=(EndgameSolver&&) noexcept = default;
EndgameSolver::~EndgameSolver() = default;

void EndgameSolver::Clear() {
  impl_ = std::make_unique<Impl>(
      Impl{Solver(0, max_memory_ / kSolverEntryBytes, /*interrupt=*/nullptr, by_counts_)});
}

int64_t EndgameSolver::entries() const { return impl_->solver.entries(); }

SolveStatus EndgameSolver::Solve(const Position& p, int64_t max_nodes, Interrupt* interrupt,
                                 SolverResult* result, bool result_only) {
  Solver& solver = impl_->solver;
  solver.Begin(max_nodes, interrupt);
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

SolveStatus SolveEndgame(const Position& p, int64_t max_nodes, int64_t max_memory,
                         Interrupt* interrupt, SolverResult* result, bool result_only,
                         bool by_counts) {
  EndgameSolver solver(max_memory, by_counts);
  return solver.Solve(p, max_nodes, interrupt, result, result_only);
}

}  // namespace vikinger
