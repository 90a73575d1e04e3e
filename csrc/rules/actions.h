// The flat action-id layout of docs/actions.md and the action strings.
//
// Two id spaces, as in OpenSpiel: decision ids (0..kNumDistinctActions-1) and chance ids
// (0..kMaxChanceOutcomes-1). Every id has one fixed string; the strings of the two spaces never
// collide, so StringToAction accepts either. The advanced ids (A1-A5) are part of the layout
// already, so adding a module never renumbers anything.
#ifndef VIKINGER_ACTIONS_H_
#define VIKINGER_ACTIONS_H_

#include <string>

#include "rules/components.h"

namespace vikinger {

// Decision ids.
constexpr int kBuy = 0;             // + wheel space 0..11 (B5)
constexpr int kStart = 12;          // + row - 1 (B6.0)
constexpr int kShip = 17;           // + column - 1, columns 1..3 (B6.1)
constexpr int kTile = 20;           // + (row - 1) * 64 + column - 1 (B6.2)
constexpr int kVikingOnTile = 340;  // B6.4
constexpr int kVikingToMainland = 341;
constexpr int kTripStop = 342;  // B7.2.1
constexpr int kTripAll = 343;   // + colour 0..4
constexpr int kTripEach = 348;
constexpr int kTripOne = 349;  // + colour 0..4 (A4)
constexpr int kTarget = 354;   // + (row - 1) * 64 + column - 1
constexpr int kPass = 674;     // A1
constexpr int kBid = 675;      // + amount 0..kMaxBid (A1)
constexpr int kMaxBid = 1023;
constexpr int kRemove = 1699;       // + colour 0..5 (A2)
constexpr int kOffer = 1705;        // + colour 0..5 (A3)
constexpr int kTakeSpecial = 1711;  // + display slot 0..3 (A5)
constexpr int kDeclineSpecial = 1715;
constexpr int kBuilding = 1716;  // + (row - 1) * 64 + column - 1 (A5)
constexpr int kNumDistinctActions = 2036;

// Chance ids.
constexpr int kReveal = 0;    // + tile kind 0..9 (B4.1)
constexpr int kDraw = 10;     // + colour 0..5 (B4.2)
constexpr int kDisplay = 16;  // + special kind 0..13 (A5)
constexpr int kMaxChanceOutcomes = 30;

constexpr int kCells = kNumRows * kNumColumns;  // 320

// The id of cell (row, col) in a cell block starting at `base` (kTile, kTarget, kBuilding).
constexpr int CellId(int base, int row, int col) {
  return base + (row - 1) * kNumColumns + (col - 1);
}

// The string of a decision id; throws std::invalid_argument outside 0..2035.
std::string DecisionToString(int action);
// The string of a chance id; throws std::invalid_argument outside 0..29.
std::string ChanceToString(int outcome);
// The id of an action string of either space, or -1 when `text` is no action string.
int StringToAction(const std::string& text);

}  // namespace vikinger

#endif  // VIKINGER_ACTIONS_H_
