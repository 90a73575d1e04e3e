// Network features (docs/neural.md "Features"): what a network reads of a position, named and
// versioned, so that a weights file says which features it was trained on (vikinger_ref/mlp.py's
// `features`) and a network of other features is refused, never misread. The twin of
// vikinger_ref/network_features.py.
//
// For the player to move:
//   observation-v1          the observation tensor (formats/observation.h), width
//                           ObservationSize(n): what the shipped networks read.
//   observation-modules-v2  observation-v1, then one flag per module of the game (kOptionNames
//                           order, 1 when on), width ObservationSize(n) + kNumOptions: the
//                           observation cannot tell every module set apart.
//   observation-trips-v3    observation-modules-v2, then kTripFeatures per player in relative
//                           seat order (the mover first): what that player's boatsman trips
//                           could do at a large scoring with the board as it stands (B7.2.1,
//                           B7.2.1a), counts the observation shows only cell by cell. Per colour
//                           with a row (fisherman .. warrior): its free tiles, those of them a
//                           Viking would score on (rows 2-5: unthreatened, B7.0; row 1: under an
//                           unrepelled ship, which a warrior there repels), and its carriable
//                           Vikings (min(mainland, free tiles)); then the most Vikings the
//                           boatsmen can move (MostMovable), the most boatsmen kept while moving
//                           them, and that plus the A5 horns (the B8.3 count it reaches).
// Every entry is an integer; the integer network (search/network.h) reads the non-zero ones.
#ifndef VIKINGER_NETWORK_FEATURES_H_
#define VIKINGER_NETWORK_FEATURES_H_

#include <cstdint>
#include <string>

#include "rules/state.h"

namespace vikinger {

enum class FeatureSet { kObservationV1, kObservationModulesV2, kObservationTripsV3 };
constexpr int kNumFeatureSets = 3;
// observation-trips-v3: per player, (free, scoring, carriable) for each of the five colours with
// a row, then the most movable, the most boatsmen kept, and with the horns.
constexpr int kTripFeatures = 3 * 5 + 3;
// The names, in FeatureSet order (the weights file's spelling).
extern const char* const kFeatureSetNames[kNumFeatureSets];

// The set named `name`; std::invalid_argument naming `features` for an unknown name.
FeatureSet FeatureSetByName(const std::string& name);

// The number of features of `set` for a game of `num_players`: a network's input width.
int FeatureWidth(FeatureSet set, int num_players);

// The non-zero features of `set` of `p` seen by `player`: index[i], value[i] for i < the
// returned count, each index once, in no particular order; capacity FeatureWidth(set, n).
int NetworkFeatures(FeatureSet set, const Position& p, int player, int32_t* index, int32_t* value);

}  // namespace vikinger

#endif  // VIKINGER_NETWORK_FEATURES_H_
