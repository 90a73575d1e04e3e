// The endgame solver's transposition table (solver.h): the entries of positions by their 64-bit
// keys, in one flat array of 24-byte slots with linear probing. It replaced a
// std::unordered_map, whose lookups and inserts (a node each, a pointer chase each) were about a
// fifth of the solver's time. The reference's solver keeps a dict of the same keys; which
// positions are stored, and so the node counts, do not depend on how.
//
// Memory: the solver counts kSolverEntryBytes (80) an entry against max_memory, in both engines.
// The slots stay within that: the array doubles when it is three quarters full, only while the
// old and the new array together (3 × capacity × 24 bytes) fit in the bytes the solver still
// allows it; otherwise it fills on, which the solver's count of entries stops below 90 % full.
#ifndef VIKINGER_SOLVER_TABLE_H_
#define VIKINGER_SOLVER_TABLE_H_

#include <cstdint>
#include <new>
#include <vector>

#include "rules/components.h"

namespace vikinger {

// An entry: the margins under max^n (three or four players), or u_0 and its bound (two players;
// solver.cc's Bound in values[1]). Margins are 64 × Fame + gold, far inside 32 bits.
struct TableEntry {
  int32_t values[kMaxPlayers];
};

class SolverTable {
 public:
  int64_t size() const { return size_; }

  // The entry stored for key, or nullptr.
  const TableEntry* Find(uint64_t key) const {
    if (key == 0) return has_zero_ ? &zero_ : nullptr;
    if (slots_.empty()) return nullptr;
    for (uint64_t i = key & mask_;; i = (i + 1) & mask_) {
      const Slot& slot = slots_[i];
      if (slot.key == key) return &slot.entry;
      if (slot.key == 0) return nullptr;
    }
  }

  // Stores entry for key (replacing its old one); `allowance` is the bytes the table may take
  // while it grows. False when an allocation failed.
  bool Put(uint64_t key, const TableEntry& entry, int64_t allowance) {
    if (key == 0) {
      size_ += !has_zero_;
      has_zero_ = true;
      zero_ = entry;
      return true;
    }
    const uint64_t capacity = slots_.size();
    if (capacity == 0 || (4 * (static_cast<uint64_t>(size_) + 1) > 3 * capacity &&
                          3 * capacity * sizeof(Slot) <= static_cast<uint64_t>(allowance))) {
      if (!Grow(capacity == 0 ? kFirstCapacity : 2 * capacity)) return false;
    }
    uint64_t i = key & mask_;
    while (slots_[i].key != 0 && slots_[i].key != key) i = (i + 1) & mask_;
    size_ += slots_[i].key == 0;
    slots_[i] = Slot{key, entry};
    return true;
  }

 private:
  struct Slot {
    uint64_t key;  // 0: free
    TableEntry entry;
  };
  static constexpr uint64_t kFirstCapacity = 64;

  bool Grow(uint64_t capacity) {
    std::vector<Slot> grown;
    try {
      grown.assign(capacity, Slot{0, TableEntry{}});
    } catch (const std::bad_alloc&) {  // the address space ran out first (RLIMIT_AS)
      return false;
    }
    const uint64_t mask = capacity - 1;
    for (const Slot& slot : slots_) {
      if (slot.key == 0) continue;
      uint64_t i = slot.key & mask;
      while (grown[i].key != 0) i = (i + 1) & mask;
      grown[i] = slot;
    }
    slots_.swap(grown);
    mask_ = mask;
    return true;
  }

  std::vector<Slot> slots_;
  uint64_t mask_ = 0;
  int64_t size_ = 0;  // the keys stored, the key 0 included
  bool has_zero_ = false;
  TableEntry zero_{};  // the entry of the key 0, which marks free slots in the array
};

}  // namespace vikinger

#endif  // VIKINGER_SOLVER_TABLE_H_
