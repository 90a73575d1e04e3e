// Scoring (docs/rules.md B7.1, B7.2 steps 2-6, B8.1-B8.9) as popcounts over the board's bit planes.
#include "rules/scoring.h"

namespace vikinger {
namespace {

// B8.7: the bonus goes to every player with the highest count, unless that count is 0.
void AwardMajority(const int* counts, int num_players, int bonus, int* fame) {
  int best = 0;
  for (int p = 0; p < num_players; ++p) {
    if (counts[p] > best) best = counts[p];
  }
  if (best == 0) return;
  for (int p = 0; p < num_players; ++p) {
    if (counts[p] == best) fame[p] += bonus;
  }
}

// B8.1: a Fame ship costs its value in Fame; a gold ship costs gold, and each gold that cannot
// be paid costs 1 Fame (B8.8: Fame may go below 0).
void PayForUnrepelledShips(PlayerBoard& board) {
  const uint64_t repelled = board.Row(kWarriorRow).vikings;
  int gold_cost = 0;
  for (int s = 0; s < kNumSails; ++s) {
    const int unrepelled = PopCount(board.ships[s] & ~repelled);
    if (kShipTable[s].pays_fame) {
      board.fame -= unrepelled * kShipTable[s].value;
    } else {
      gold_cost += unrepelled * kShipTable[s].value;
    }
  }
  const int paid = board.gold < gold_cost ? board.gold : gold_cost;
  board.gold -= paid;
  board.fame -= gold_cost - paid;
}

// B8.6: each unthreatened fisherman feeds 5 Vikings; +2 Fame per spare meal (+3 with the A5
// fish tile), -1 per hungry one.
void Feeding(PlayerBoard& board) {
  const int fed = kFedPerFisherman * PopCount(board.UnthreatenedVikings(kFishermanRow));
  const int vikings = board.VikingCount();
  if (fed >= vikings) {
    board.fame += (board.specials[kFish] ? kFishSurplusFame : kSurplusFame) * (fed - vikings);
  } else {
    board.fame -= vikings - fed;
  }
}

// B7.1/B7.2.5: 3 gold per goldsmith, plus the A5 goldsmith tiles (+1, +2; they add up).
int GoldsmithGold(const PlayerBoard& board) {
  return kGoldsmithGold + board.specials[kGoldsmith1] + 2 * board.specials[kGoldsmith2];
}

}  // namespace

int BuildingFame(const PlayerBoard& board) {
  int fame = 0;
  for (int b = 0; b < kNumBuildings; ++b) {
    const int row = board.building_row[b];
    const int col = board.building_col[b];
    if (row == 0 || board.IsThreatened(row, col)) continue;
    for (int r = row - 1; r <= row + 1; ++r) {
      for (int c = col - 1; c <= col + 1; ++c) fame += board.HasViking(r, c);
    }
  }
  return fame;
}

void SmallScoring(PlayerBoard& board) {
  board.gold += GoldsmithGold(board) * PopCount(board.UnthreatenedVikings(kGoldsmithRow));
}

void LargeScoring(PlayerBoard& board) {
  // 2. Each ship repelled by a warrior in row 1 of its column pays its value to its owner.
  const uint64_t repelled = board.Row(kWarriorRow).vikings;
  for (int s = 0; s < kNumSails; ++s) {
    const int value = PopCount(board.ships[s] & repelled) * kShipTable[s].value;
    if (kShipTable[s].pays_fame) {
      board.fame += value;
    } else {
      board.gold += value;
    }
  }
  // 3. Nobles: 2 Fame each, unthreatened (+1 per A5 noble tile).
  board.fame +=
      (kNobleFame + board.specials[kNoble1]) * PopCount(board.UnthreatenedVikings(kNobleRow));
  // 4. Scouts: 1 Fame, +1 for a goldsmith in row 4 and +1 for a fisherman in row 5 of the same
  // column (⚖ independent bonuses; a threatened scout gives nothing).
  const uint64_t scouts = board.UnthreatenedVikings(kScoutRow);
  board.fame += (1 + board.specials[kScout1]) * PopCount(scouts) +
                PopCount(scouts & board.Row(kGoldsmithRow).vikings) +
                PopCount(scouts & board.Row(kFishermanRow).vikings);  // +1 per A5 scout tile
  // 5. Goldsmiths: 3 gold each, unthreatened (A5 tiles add).
  board.gold += GoldsmithGold(board) * PopCount(board.UnthreatenedVikings(kGoldsmithRow));
  // 6. Fishermen: nothing, except +1 Fame per A5 fisherman tile.
  board.fame += board.specials[kFisherman1] * PopCount(board.UnthreatenedVikings(kFishermanRow));
}

void FinalScoringAlone(PlayerBoard& board) {
  PayForUnrepelledShips(board);  // B8.1
  // B8.2: the rest of the gold stays (tie-break). A5 the treasury's rate; each a constant, so
  // that no division instruction is needed.
  const int gold = board.gold;
  const bool treasury = board.specials[kTreasury] != 0;
  const int fame = treasury ? gold / kTreasuryGoldPerFame : gold / kGoldPerFame;
  board.fame += fame;
  board.gold = gold - fame * (treasury ? kTreasuryGoldPerFame : kGoldPerFame);
  Feeding(board);                     // B8.6
  board.fame += BuildingFame(board);  // A5 (⚖ after B8.6)
}

MajorityCounts CountMajorities(const PlayerBoard& board) {
  MajorityCounts counts{};
  counts.boatsmen = BoatsmenKept(board);
  board.CompletedIslands(&counts.islands, &counts.longest);
  return counts;
}

void MajorityFame(const MajorityCounts* counts, int num_players, int* fame) {
  int boatsmen[kMaxPlayers];
  int islands[kMaxPlayers];
  int longest[kMaxPlayers];
  for (int p = 0; p < num_players; ++p) {
    fame[p] = 0;
    boatsmen[p] = counts[p].boatsmen;
    islands[p] = counts[p].islands;
    longest[p] = counts[p].longest;
  }
  AwardMajority(boatsmen, num_players, kBoatsmenBonus, fame);  // B8.3
  AwardMajority(islands, num_players, kIslandsBonus, fame);    // B8.4
  AwardMajority(longest, num_players, kLongestBonus, fame);    // B8.5
}

void FinalScoring(PlayerBoard* boards, int num_players) {
  MajorityCounts counts[kMaxPlayers];
  int fame[kMaxPlayers];
  for (int p = 0; p < num_players; ++p) counts[p] = CountMajorities(boards[p]);
  MajorityFame(counts, num_players, fame);
  for (int p = 0; p < num_players; ++p) {
    FinalScoringAlone(boards[p]);
    boards[p].fame += fame[p];
  }
}

void WinShares(const PlayerBoard* boards, int num_players, double* shares) {
  int best = 0;
  for (int p = 1; p < num_players; ++p) {
    if (boards[p].fame > boards[best].fame ||
        (boards[p].fame == boards[best].fame && boards[p].gold > boards[best].gold)) {
      best = p;
    }
  }
  int winners = 0;
  for (int p = 0; p < num_players; ++p) {
    winners += boards[p].fame == boards[best].fame && boards[p].gold == boards[best].gold;
  }
  const double share = 1.0 / winners;
  for (int p = 0; p < num_players; ++p) {
    const bool won = boards[p].fame == boards[best].fame && boards[p].gold == boards[best].gold;
    shares[p] = won ? share : 0.0;
  }
}

}  // namespace vikinger
