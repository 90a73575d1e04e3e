// The endgame solver's transposition table (solver.h): the entries of positions by their 64-bit
// keys, in one flat array of 24-byte slots with linear probing. It replaced a
// std::unordered_map, whose lookups and inserts (a node each, a pointer chase each) were about a
// fifth of the solver's time. The reference's solver keeps a dict of the same keys; which
// positions are stored, and so the node counts, do not depend on how.
//
// Memory: the solver counts kSolverEntryBytes (80) an entry against max_memory, in both engines,
// and gives the table the room its other entries leave. The slots stay within that: the array
// doubles when it is three quarters full, only while the old and the new array together
// (3 × capacity × 24 bytes) fit in room × 80 bytes; otherwise it fills on, and the room stops it
// below 90 % full.
#ifndef VIKINGER_SOLVER_TABLE_H_
#define VIKINGER_SOLVER_TABLE_H_

#include <cstdint>
#include <new>
#include <vector>

#include "rules/components.h"
#include "search/solver.h"

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
    const Slot& slot = slots_[Probe(key)];
    return slot.key == key ? &slot.entry : nullptr;
  }

  // Stores entry for key (replacing its old one). `room`: the most keys the table may hold (the
  // solver's max_entries less its other entries); the array grows only while the old and the new
  // array fit in room × kSolverEntryBytes. False, nothing stored, when a new key would pass room
  // or an allocation failed.
  bool Put(uint64_t key, const TableEntry& entry, int64_t room) {
    if (key == 0) {
      if (!has_zero_ && size_ + 1 > room) return false;
      size_ += !has_zero_;
      has_zero_ = true;
      zero_ = entry;
      return true;
    }
    uint64_t i = Probe(key);
    if (!slots_.empty() && slots_[i].key == key) {
      slots_[i].entry = entry;
      return true;
    }
    if (size_ + 1 > room) return false;
    const uint64_t capacity = slots_.size();
    const uint64_t allowance = static_cast<uint64_t>(room) * kSolverEntryBytes;
    if (capacity == 0 || (4 * (static_cast<uint64_t>(size_) + 1) > 3 * capacity &&
                          3 * capacity * sizeof(Slot) <= allowance)) {
      if (!Grow(capacity == 0 ? kFirstCapacity : 2 * capacity)) return false;
      i = Probe(key);
    }
    slots_[i] = Slot{key, entry};
    ++size_;
    return true;
  }

 private:
  struct Slot {
    uint64_t key;  // 0: free
    TableEntry entry;
  };
  static constexpr uint64_t kFirstCapacity = 64;

  // The slot of key, or the free slot where it would go (0 while the array is empty).
  uint64_t Probe(uint64_t key) const {
    if (slots_.empty()) return 0;
    uint64_t i = key & mask_;
    while (slots_[i].key != 0 && slots_[i].key != key) i = (i + 1) & mask_;
    return i;
  }

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
