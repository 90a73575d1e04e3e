// C++ microbenchmarks of the core, without Python: the cost of a clone (a Position copy, and a
// State with its history) and of one action inside random playouts (docs/benchmarks.md).
//
// Build and run (a CMake option, off by default; the wheel never contains it):
//   cmake -S . -B build/micro -DVIKINGER_MICROBENCH=ON
//   cmake --build build/micro -j2 --target vikinger_micro && build/micro/vikinger_micro
#include <chrono>
#include <cstdio>
#include <vector>

#include "rng.h"
#include "rollout.h"
#include "state.h"

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

void Playouts(const char* name, vikinger::Policy policy, int num_players, int64_t games) {
  std::vector<int32_t> scores(games * num_players), gold(games * num_players), length(games);
  std::vector<double> returns(games * num_players);
  const vikinger::RolloutArrays out{scores.data(), gold.data(), returns.data(), length.data()};
  const Clock::time_point start = Clock::now();
  vikinger::PlayRandomGames(num_players, /*options=*/0, /*seed=*/0, policy, games,
                            /*threads=*/1, out);
  const double seconds = Seconds(start);
  int64_t actions = 0;
  for (int32_t n : length) actions += n;
  std::printf("rollouts %-15s %d players: %9.0f games/s, %5.1f ns per action\n", name,
              num_players, games / seconds, seconds / actions * 1e9);
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
  return 0;
}
