// Network features (see network_features.h; docs/neural.md "Features").
#include "search/network_features.h"

#include <stdexcept>

#include "base/bits.h"
#include "formats/observation.h"
#include "rules/trips.h"

namespace vikinger {

const char* const kFeatureSetNames[kNumFeatureSets] = {"observation-v1", "observation-modules-v2",
                                                       "observation-trips-v3"};

FeatureSet FeatureSetByName(const std::string& name) {
  std::string known;
  for (int i = 0; i < kNumFeatureSets; ++i) {
    if (name == kFeatureSetNames[i]) return static_cast<FeatureSet>(i);
    known += std::string(i ? ", " : "") + kFeatureSetNames[i];
  }
  throw std::invalid_argument("features '" + name + "' is unknown (known: " + known + ")");
}

int FeatureWidth(FeatureSet set, int num_players) {
  const int width = ObservationSize(num_players);
  switch (set) {
    case FeatureSet::kObservationV1:
      return width;
    case FeatureSet::kObservationModulesV2:
      return width + kNumOptions;
    case FeatureSet::kObservationTripsV3:
      return width + kNumOptions + kTripFeatures * num_players;
  }
  return width;
}

namespace {

// observation-trips-v3's block of one board (network_features.h), in order.
void TripFeatures(const PlayerBoard& board, bool weak_boatsmen, int* out) {
  int counts[kBoatsman];
  for (int c = 0; c < kBoatsman; ++c) {
    const int row = RowOfColour(c);
    const uint64_t free_tiles = board.Row(row).FreeTiles();
    // B7.0: a Viking on a free tile of rows 2-5 scores unless threatened; a warrior on a free
    // row-1 tile under a ship repels it (a ship above a free row-1 tile is never repelled).
    const uint64_t scoring =
        row == 1 ? free_tiles & board.ShipColumns() : free_tiles & ~board.ThreatenedMask(row);
    counts[c] = TripVikings(board.mainland[c], free_tiles);
    out[3 * c] = PopCount(free_tiles);
    out[3 * c + 1] = PopCount(scoring);
    out[3 * c + 2] = counts[c];
  }
  const int boatsmen = board.mainland[kBoatsman];
  const int boats = board.specials[kBoat];
  const int most = MostMovable(counts, boatsmen, boats, weak_boatsmen);
  int kept = 0;  // B7.2.1a: the most boatsmen left while the most Vikings still move
  while (kept < boatsmen &&
         MostMovable(counts, boatsmen - kept - 1, boats, weak_boatsmen) == most) {
    ++kept;
  }
  out[3 * kBoatsman] = most;
  out[3 * kBoatsman + 1] = kept;
  out[3 * kBoatsman + 2] = kept + board.specials[kHorn];
}

}  // namespace

int NetworkFeatures(FeatureSet set, const Position& p, int player, int32_t* index, int32_t* value) {
  int count = ObservationFeatures(p, player, index, value);
  if (set != FeatureSet::kObservationV1) {
    const int base = ObservationSize(p.num_players);
    for (int option = 0; option < kNumOptions; ++option) {
      if (!HasOption(p, option)) continue;
      index[count] = base + option;
      value[count] = 1;
      ++count;
    }
  }
  if (set == FeatureSet::kObservationTripsV3) {
    const int n = p.num_players;
    const int base = ObservationSize(n) + kNumOptions;
    const bool weak = HasOption(p, kOptWeakBoatsmen);
    for (int i = 0; i < n; ++i) {
      int block[kTripFeatures];
      TripFeatures(p.players[i], weak, block);
      const int at = base + kTripFeatures * ((i - player + n) % n);
      for (int f = 0; f < kTripFeatures; ++f) {
        if (block[f] == 0) continue;
        index[count] = at + f;
        value[count] = block[f];
        ++count;
      }
    }
  }
  return count;
}

}  // namespace vikinger
