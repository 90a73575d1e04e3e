// Network features (see network_features.h; docs/neural.md "Features").
#include "search/network_features.h"

#include <stdexcept>

#include "formats/observation.h"

namespace vikinger {

const char* const kFeatureSetNames[kNumFeatureSets] = {"observation-v1", "observation-modules-v2"};

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
  return set == FeatureSet::kObservationModulesV2 ? width + kNumOptions : width;
}

int NetworkFeatures(FeatureSet set, const Position& p, int player, int32_t* index, int32_t* value) {
  int count = ObservationFeatures(p, player, index, value);
  if (set == FeatureSet::kObservationModulesV2) {
    const int base = ObservationSize(p.num_players);
    for (int option = 0; option < kNumOptions; ++option) {
      if (!HasOption(p, option)) continue;
      index[count] = base + option;
      value[count] = 1;
      ++count;
    }
  }
  return count;
}

}  // namespace vikinger
