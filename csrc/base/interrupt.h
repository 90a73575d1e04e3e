// Cooperative cancellation of long C++ calls (Ctrl-C within about 0.2 s, docs/api.md "Threads
// and Ctrl-C").
//
// The calling thread owns an Interrupt and calls Check() now and then from its loop; Check()
// runs the owner's poll at most once every kPollInterval (the bindings' poll takes the GIL and
// runs Python's signal handlers) and, when the poll says stop, raises the flag. Worker threads
// only read the flag (Stopped(): one relaxed atomic load) and leave their loops. The core knows
// nothing of Python: a null poll never stops.
//
// The one parameter style of every long call: `Interrupt* interrupt`, where nullptr means the
// call cannot be stopped (C++ callers, tests); Checked() and Stopped() below read either.
#ifndef VIKINGER_INTERRUPT_H_
#define VIKINGER_INTERRUPT_H_

#include <atomic>
#include <chrono>
#include <functional>
#include <utility>

namespace vikinger {

class Interrupt {
 public:
  // 50 ms: four polls fit in the 0.2 s a user waits for Ctrl-C, and a poll costs about a
  // microsecond, so the loops lose nothing measurable.
  static constexpr std::chrono::milliseconds kPollInterval{50};

  explicit Interrupt(std::function<bool()> poll = nullptr)
      : poll_(std::move(poll)), next_poll_(std::chrono::steady_clock::now() + kPollInterval) {}
  Interrupt(const Interrupt&) = delete;
  Interrupt& operator=(const Interrupt&) = delete;

  // Any thread.
  bool Stopped() const { return stopped_.load(std::memory_order_relaxed); }
  void Stop() { stopped_.store(true, std::memory_order_relaxed); }

  // The owning thread only: polls when one is due; returns Stopped().
  bool Check() {
    if (poll_ && !Stopped()) {
      const auto now = std::chrono::steady_clock::now();
      if (now >= next_poll_) {
        next_poll_ = now + kPollInterval;
        if (poll_()) Stop();
      }
    }
    return Stopped();
  }

 private:
  std::function<bool()> poll_;
  std::chrono::steady_clock::time_point next_poll_;
  std::atomic<bool> stopped_{false};
};

// The owning thread's check of an optional Interrupt: false for nullptr.
inline bool Checked(Interrupt* interrupt) { return interrupt != nullptr && interrupt->Check(); }
// Any thread's read of an optional Interrupt's flag: false for nullptr.
inline bool Stopped(const Interrupt* interrupt) {
  return interrupt != nullptr && interrupt->Stopped();
}

}  // namespace vikinger

#endif  // VIKINGER_INTERRUPT_H_
