// Round 6's trips by their counts (docs/search.md "Solver", "Trips by counts"): a scorer's best
// own total for one end of their trips, found column by column instead of tile by tile. The
// reference's trip_ends.py holds the argument and does the same arithmetic in the same order.
//
// B7.2.1a makes the legal trips hang on counts alone, never on the tiles the Vikings land on. So
// the solver lists the ends of a scorer's trips with every Viking on the leftmost tile it may
// take, and BestTotal places them best: warriors repel as many ships as they can (each way of
// choosing them tried), then nobles, goldsmiths and fishermen take unthreatened tiles first, the
// scouts the unthreatened tiles with the most bonuses, and goldsmiths and fishermen the tiles
// under unthreatened scouts first. Every step of the scoring rises with what it counts, so that
// placement is the best. A5 buildings score their 8 neighbours: ByCounts is false on a board
// with one placed, and the solver lists it tile by tile.
#ifndef VIKINGER_TRIP_ENDS_H_
#define VIKINGER_TRIP_ENDS_H_

#include <cstdint>

#include "rules/state.h"

namespace vikinger {

// Whether BestTotal holds for the board: no A5 building placed.
bool ByCounts(const PlayerBoard& board);

// tiles[r - 1]: the free tiles of row r the scorer's Vikings may still land on. All of them,
// except in the row of an "all of one colour" trip begun, whose Vikings go right of the last one
// placed (as LegalActions has them); that trip is the last to reach its row.
void TripCandidates(const Position& p, uint64_t tiles[kNumRows]);

// The best own total (kFameUnit * Fame + gold after B7.2 steps 2-6 and the solver's OwnTotal part
// of B8) of the scorer whose board was `start` when the listing began and who reached the counts
// of `end` (its mainland and A5 tiles, all that is read of it), the Vikings on `tiles`.
int64_t BestTotal(const PlayerBoard& start, const PlayerBoard& end, const uint64_t* tiles);

}  // namespace vikinger

#endif  // VIKINGER_TRIP_ENDS_H_
