// Action strings (docs/actions.md): one fixed string per id, and the reverse look-up.
#include "rules/actions.h"

#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace vikinger {
namespace {

std::string CellString(const char* prefix, int offset) {
  return std::string(prefix) + "r" + std::to_string(offset / kNumColumns + 1) + "c" +
         std::to_string(offset % kNumColumns + 1);
}

std::vector<std::string> MakeDecisionStrings() {
  std::vector<std::string> names;
  names.reserve(kNumDistinctActions);
  for (int s = 0; s < kWheelSpaces; ++s) names.push_back("buy:" + std::to_string(s));
  for (int r = 1; r <= kNumRows; ++r) names.push_back("start:r" + std::to_string(r));
  for (int c = 1; c <= 3; ++c) names.push_back("ship:c" + std::to_string(c));
  for (int i = 0; i < kCells; ++i) names.push_back(CellString("tile:", i));
  names.push_back("viking:tile");
  names.push_back("viking:mainland");
  names.push_back("trip:stop");
  for (int c = 0; c < kBoatsman; ++c) names.push_back(std::string("trip:all:") + kColourNames[c]);
  names.push_back("trip:each");
  for (int c = 0; c < kBoatsman; ++c) names.push_back(std::string("trip:one:") + kColourNames[c]);
  for (int i = 0; i < kCells; ++i) names.push_back(CellString("target:", i));
  names.push_back("auction:pass");
  for (int k = 0; k <= kMaxBid; ++k) names.push_back("auction:bid:" + std::to_string(k));
  for (int c = 0; c < kNumColours; ++c) names.push_back(std::string("remove:") + kColourNames[c]);
  for (int c = 0; c < kNumColours; ++c) names.push_back(std::string("offer:") + kColourNames[c]);
  for (int i = 0; i < 4; ++i) names.push_back("special:take:" + std::to_string(i));
  names.push_back("special:decline");
  for (int i = 0; i < kCells; ++i) names.push_back(CellString("building:", i));
  if (static_cast<int>(names.size()) != kNumDistinctActions) {
    throw std::logic_error("decision string table has the wrong size");
  }
  return names;
}

std::vector<std::string> MakeChanceStrings() {
  std::vector<std::string> names;
  for (int k = 0; k < kNumTileKinds; ++k)
    names.push_back(std::string("reveal:") + kTileKindNames[k]);
  for (int c = 0; c < kNumColours; ++c) names.push_back(std::string("draw:") + kColourNames[c]);
  for (int k = 0; k < kNumSpecialKinds; ++k) {
    names.push_back(std::string("display:") + kSpecialKindNames[k]);
  }
  return names;
}

const std::vector<std::string>& DecisionStrings() {
  static const std::vector<std::string> strings = MakeDecisionStrings();
  return strings;
}

const std::vector<std::string>& ChanceStrings() {
  static const std::vector<std::string> strings = MakeChanceStrings();
  return strings;
}

const std::unordered_map<std::string, int>& StringIds() {
  static const std::unordered_map<std::string, int> ids = [] {
    std::unordered_map<std::string, int> map;
    for (int i = 0; i < kNumDistinctActions; ++i) map.emplace(DecisionStrings()[i], i);
    for (int i = 0; i < kMaxChanceOutcomes; ++i) map.emplace(ChanceStrings()[i], i);
    return map;
  }();
  return ids;
}

}  // namespace

std::string DecisionToString(int action) {
  if (action < 0 || action >= kNumDistinctActions) {
    throw std::invalid_argument("decision id " + std::to_string(action) + " is outside 0.." +
                                std::to_string(kNumDistinctActions - 1));
  }
  return DecisionStrings()[action];
}

std::string ChanceToString(int outcome) {
  if (outcome < 0 || outcome >= kMaxChanceOutcomes) {
    throw std::invalid_argument("chance id " + std::to_string(outcome) + " is outside 0.." +
                                std::to_string(kMaxChanceOutcomes - 1));
  }
  return ChanceStrings()[outcome];
}

int StringToAction(const std::string& text) {
  auto it = StringIds().find(text);
  return it == StringIds().end() ? -1 : it->second;
}

}  // namespace vikinger
