// LegalSet: legal decisions as bit masks plus one run of ids (A1 bids), see state.h.
#include "state.h"

namespace vikinger {

int LegalSet::Count() const {
  int count = range_count;
  for (int i = 0; i < num_masks; ++i) count += PopCount(masks[i]);
  return count;
}

int LegalSet::Nth(int k) const {
  for (int i = 0; i < num_masks; ++i) {
    const int here = PopCount(masks[i]);
    if (k < here) return bases[i] + NthBit(masks[i], k);
    k -= here;
  }
  return range_first + k;
}

// The masks' ids (at most kNumRows x 64) plus WriteBitIds' 8 spare entries fit any list buffer.
static_assert(kNumRows * 64 + 8 <= kMaxLegalActions, "Write needs room past the mask ids");

int LegalSet::Write(int* out) const {
  int n = 0;
  for (int i = 0; i < num_masks; ++i) n += WriteBitIds(masks[i], bases[i], out + n);
  for (int i = 0; i < range_count; ++i) out[n++] = range_first + i;
  return n;
}

bool LegalSet::Contains(int action) const {
  for (int i = 0; i < num_masks; ++i) {
    const int bit = action - bases[i];
    if (bit >= 0 && bit < 64 && ((masks[i] >> bit) & 1)) return true;
  }
  return action >= range_first && action < range_first + range_count;
}

}  // namespace vikinger
