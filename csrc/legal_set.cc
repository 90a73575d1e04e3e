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

int LegalSet::Write(int* out) const {
  int n = 0;
  for (int i = 0; i < num_masks; ++i) {
    for (uint64_t mask = masks[i]; mask; mask &= mask - 1)
      out[n++] = bases[i] + __builtin_ctzll(mask);
  }
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
