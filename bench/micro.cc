// C++ microbenchmarks of the core, without Python: the cost of a clone (a Position copy, and a
// State with its history), of one action inside random playouts, and how rollouts scale from one
// thread to two next to a loop that shares nothing (docs/benchmarks.md).
//
// Build and run (a CMake option, off by default; the wheel never contains it):
//   cmake -S . -B build/micro -DVIKINGER_MICROBENCH=ON
//   cmake --build build/micro -j2 --target vikinger_micro && build/micro/vikinger_micro
#include <chrono>
#include <cstdio>
#include <ctime>
#include <functional>
#include <thread>
#include <vector>

#include "base/rng.h"
#include "play/rollout.h"
#include "rules/legal_set.h"
#include "rules/state.h"

namespace {

using vikinger::Position;
using vikinger::State;
using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Keeps the compiler from dropping a copy that nothing reads.
template <typename T>
void Touch(T& value) {
  asm volatile("" : : "r"(&value) : "memory");
}

// A 2-player state of round 4 (a filled board, ~150 actions of history), by seeded random play.
State MidgameState() {
  State state(/*num_players=*/2, /*options=*/0);
  vikinger::SplitMix64 rng(/*seed=*/4);
  int legal[vikinger::kMaxLegalActions];
  while (state.position.round < 4 || vikinger::IsChanceNode(state.position)) {
    const double u = rng.Uniform();
    if (vikinger::IsChanceNode(state.position)) {
      state.ApplyRandomChance(u);
    } else {
      const int n = vikinger::LegalActions(state.position, legal);
      state.ApplyAction(legal[static_cast<int>(u * n)]);
    }
  }
  return state;
}

// A new copy per iteration, as State.clone() makes one (for a State: its history allocated).
template <typename T>
double NanosPerCopy(const T& original, int iterations) {
  const Clock::time_point start = Clock::now();
  for (int i = 0; i < iterations; ++i) {
    T copy(original);
    Touch(copy);
  }
  return Seconds(start) / iterations * 1e9;
}

// The result arrays of `games` rollouts (rollout.h RolloutArrays), allocated before any timing.
struct RolloutBuffers {
  RolloutBuffers(int64_t games, int num_players)
      : scores(games * num_players),
        gold(games * num_players),
        returns(games * num_players),
        length(games) {}
  vikinger::RolloutArrays Arrays() {
    return {scores.data(), gold.data(), returns.data(), length.data()};
  }

  std::vector<int32_t> scores;
  std::vector<int32_t> gold;
  std::vector<double> returns;
  std::vector<int32_t> length;
};

void Playouts(const char* name, vikinger::Policy policy, int num_players, int64_t games) {
  RolloutBuffers buffers(games, num_players);
  const Clock::time_point start = Clock::now();
  vikinger::PlayRandomGames(num_players, /*options=*/0, /*seed=*/0, policy, games,
                            /*threads=*/1, buffers.Arrays());
  const double seconds = Seconds(start);
  int64_t actions = 0;
  for (int32_t n : buffers.length) actions += n;
  std::printf("rollouts %-15s %d players: %9.0f games/s, %5.1f ns per action\n", name, num_players,
              games / seconds, seconds / actions * 1e9);
}

// --- one thread against two ------------------------------------------------------------------

double CpuSeconds() {  // of the whole process, every thread
  timespec now;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

// Six independent splitmix64 streams (rng.h Mix) for `steps` steps: integer work without memory
// traffic, with about as much instruction-level parallelism as a playout. Threads running it
// share nothing, so how it scales is the machine's own doing (the host's scheduling, cores shared
// with other guests, clock speeds with more cores busy).
uint64_t MixStreams(int64_t steps, uint64_t seed) {
  uint64_t lanes[6];
  for (int k = 0; k < 6; ++k) lanes[k] = seed + static_cast<uint64_t>(k);
  for (int64_t i = 0; i < steps; ++i) {
    for (uint64_t& lane : lanes) lane = vikinger::Mix(lane);
  }
  return lanes[0] ^ lanes[1] ^ lanes[2] ^ lanes[3] ^ lanes[4] ^ lanes[5];
}

void MixOnThreads(int64_t steps, int threads) {
  std::vector<uint64_t> results(static_cast<size_t>(threads));
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&results, steps, threads, t] {
      results[t] = MixStreams(steps / threads, static_cast<uint64_t>(t) * 64);
    });
  }
  for (std::thread& worker : workers) worker.join();
  Touch(results);
}

// `work(threads)` with 1 and 2 threads in turn, `rounds` times (the host's speed drifts: each
// round compares the two at nearly the same moment). Prints the mean of the rounds' wall-clock
// ratios and of their ratios of CPU time for the same work.
void Scaling(const char* name, int rounds, const std::function<void(int)>& work) {
  double speedup = 0;
  double cpu_cost = 0;
  for (int round = 0; round < rounds; ++round) {
    double wall[2];
    double cpu[2];
    for (int threads = 1; threads <= 2; ++threads) {
      const double cpu_start = CpuSeconds();
      const Clock::time_point start = Clock::now();
      work(threads);
      wall[threads - 1] = Seconds(start);
      cpu[threads - 1] = CpuSeconds() - cpu_start;
    }
    speedup += wall[0] / wall[1];
    cpu_cost += cpu[1] / cpu[0];
  }
  std::printf(
      "2 threads / 1, mean of %d alternating rounds: %-28s x%.2f (CPU time for the same "
      "work x%.2f)\n",
      rounds, name, speedup / rounds, cpu_cost / rounds);
}

}  // namespace

int main() {
  const State state = MidgameState();
  std::printf("sizeof(Position) = %zu bytes; history of the clone test: %zu actions\n",
              sizeof(Position), state.history.size());
  for (int repeat = 0; repeat < 3; ++repeat) {
    std::printf("clone: Position copy %5.1f ns, State (with history) %5.1f ns\n",
                NanosPerCopy(state.position, 10'000'000), NanosPerCopy(state, 2'000'000));
  }
  for (int repeat = 0; repeat < 2; ++repeat) {
    Playouts("random", vikinger::Policy::kRandom, 2, 100'000);
    Playouts("random_generic", vikinger::Policy::kRandomGeneric, 2, 100'000);
  }
  RolloutBuffers buffers(200'000, 2);
  for (int repeat = 0; repeat < 2; ++repeat) {
    Scaling("rollouts (random, 200,000 games)", 10, [&buffers](int threads) {
      vikinger::PlayRandomGames(/*num_players=*/2, /*options=*/0, /*seed=*/0,
                                vikinger::Policy::kRandom, 200'000, threads, buffers.Arrays());
    });
    Scaling("shared-nothing integer loop", 10,
            [](int threads) { MixOnThreads(100'000'000, threads); });
  }
  return 0;
}
