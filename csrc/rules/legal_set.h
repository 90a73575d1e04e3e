// The legal actions of a node (docs/actions.md, docs/rules.md B5-B7, A1-A5): which decisions
// each phase allows, as bit masks, and which chance outcomes a chance node can draw.
//
// A decision node's legal ids are a handful of machine words (the wheel's buyable spaces, a row's
// free cells, ...), so the state machine keeps them as masks: counting them is a popcount and
// the k-th one is the k-th set bit, with no list written. Lists are written only for callers that
// want one (legal_actions(), list-based policies).
#ifndef VIKINGER_LEGAL_SET_H_
#define VIKINGER_LEGAL_SET_H_

#include <cstdint>

#include "base/bits.h"
#include "rules/components.h"
#include "rules/state.h"

namespace vikinger {

// The legal decisions of a node as bit masks: the ids are bases[i] + (index of a set bit of
// masks[i]), ascending over i and bits, then the run range_first .. range_first + range_count - 1
// (A1 bids), above every mask id. Counting and picking the k-th id need no list.
// Only the first num_masks masks and bases are ever read, so a set is cheap to make: `LegalSet{}`
// or OneMask-style filling of masks[0].
struct LegalSet {
  uint64_t masks[kNumRows];
  int16_t bases[kNumRows];
  int num_masks = 0;
  int16_t range_first = 0;
  int16_t range_count = 0;

  LegalSet() {}  // masks and bases stay unset: nothing reads beyond num_masks

  int Count() const;
  // The k-th legal id in ascending order, 0 <= k < Count().
  int Nth(int k) const;
  // Writes the sorted ids to `out` (kMaxLegalActions entries); returns how many. Entries past
  // them may be overwritten (WriteBitIds, bits.h).
  int Write(int* out) const;
  bool Contains(int action) const;
};

// The legal decisions at a decision node (empty at chance and terminal nodes); returns their
// number.
int LegalDecisions(const Position& p, LegalSet* set);
LegalSet LegalDecisionSet(const Position& p);

// The counts behind the chance node: `*first_id` is the chance id of counts[0].
const uint8_t* ChanceCounts(const Position& p, int* num_kinds, int* first_id);
// Writes the sorted legal ids (chance ids at chance nodes) to `out`; returns how many.
int LegalActions(const Position& p, int* out);
bool IsLegal(const Position& p, int action);

}  // namespace vikinger

#endif  // VIKINGER_LEGAL_SET_H_
