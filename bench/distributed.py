"""Scaling of the sharded work (docs/distributed.md "Measured"): 2 worker processes against 1
for rollouts and for arena games, on a local Ray cluster of 2 CPUs and on local processes, and
what one shard costs beyond its work. Ratios are taken within one run.

    python bench/distributed.py [--games 2000000] [--shard-size 100000] [--arena-games 96] \
        [--repeats 2]

"1 worker" on Ray is the same cluster with every task reserving both CPUs, so one task runs at
a time; on local processes it is the calling process itself (`--jobs 1`) against a pool of 2.
The merged results are checked against the single call each time. Shards that only sleep show
the executors' own concurrency, apart from how busy the cores are.
"""

import argparse
import os
import time

import numpy as np

import vikinger_fast as vk
from vikinger_fast import arena, distributed
from vikinger_fast.benchmarks.timing import best_seconds

ARENA_BOTS = ["mcts:iterations=500", "greedy"]


def rollouts_seconds(executor, games, shard_size, expected, repeats):
    game = vk.Game(num_players=2)

    def work():
        got = distributed.rollouts(game, games, 1, shard_size=shard_size, executor=executor)
        assert all(np.array_equal(got[k], expected[k]) for k in expected)

    return best_seconds(repeats, work)


def arena_seconds(executor, deals, expected, repeats):
    def work():
        got = distributed.arena("fast", ARENA_BOTS, 2, 1, deals, shard_size=1, executor=executor)
        assert got == expected

    return best_seconds(repeats, work)


def nap(seconds):
    time.sleep(seconds)


def no_rollouts(game):
    return vk.rollouts(game, 0, 0)


def nap_seconds(executor, repeats):
    """8 shards that sleep 0.25 s each: the executor's own concurrency, apart from the CPUs
    (x2 when two shards run at once, however busy the cores are)."""
    naps = [distributed.Shard(nap, 0.25, 1, f"nap {i}") for i in range(8)]
    return best_seconds(repeats, lambda: distributed.run_shards(naps, executor))


def overhead_seconds(executor, shards):
    """Seconds per shard of `shards` shards that do nothing (rollouts of 0 games)."""
    game = vk.Game(num_players=2)
    empty = [distributed.Shard(no_rollouts, game, 0, f"empty {i}") for i in range(shards)]
    distributed.run_shards(empty[:4], executor)  # workers started and warm
    start = time.perf_counter()
    distributed.run_shards(empty, executor)
    return (time.perf_counter() - start) / shards


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2_000_000, help="rollouts per measurement")
    # 0.4 s shards: 10 a worker and each ~400x its overhead (docs/distributed.md "Shard sizing").
    parser.add_argument("--shard-size", type=int, default=100_000)
    parser.add_argument("--arena-games", type=int, default=96, help="arena games (even)")
    parser.add_argument("--repeats", type=int, default=2, help="the best of this many")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}, {os.cpu_count()} CPUs")
    game = vk.Game(num_players=2)
    expected_rollouts = vk.rollouts(game, args.games, 1)
    deals = max(1, args.arena_games // 2)
    expected_games = arena.run("fast", ARENA_BOTS, 2, 1, deals)
    rows = []
    with distributed.RayCluster("local", num_cpus=2) as two:
        one = distributed.RayCluster("local", cpus_per_shard=2)  # the same cluster, 1 at a time
        for name, single, double in (
            ("Ray", one, two),
            ("local processes", distributed.LocalProcesses(1), distributed.LocalProcesses(2)),
        ):
            r1 = rollouts_seconds(
                single, args.games, args.shard_size, expected_rollouts, args.repeats
            )
            r2 = rollouts_seconds(
                double, args.games, args.shard_size, expected_rollouts, args.repeats
            )
            a1 = arena_seconds(single, deals, expected_games, args.repeats)
            a2 = arena_seconds(double, deals, expected_games, args.repeats)
            n1, n2 = nap_seconds(single, args.repeats), nap_seconds(double, args.repeats)
            rows.append((name, r1, r2, a1, a2, n1 / n2, overhead_seconds(double, 200)))
    print(
        f"rollouts: {args.games:,} games in shards of {args.shard_size:,}; arena: "
        f"{2 * deals} games {' vs '.join(ARENA_BOTS)}, shards of 1 game"
    )
    print(
        "executor          rollouts 1 -> 2 workers (games/s)      arena 1 -> 2 workers "
        "(games/s)   sleeping shards   per-shard overhead"
    )
    for name, r1, r2, a1, a2, naps, overhead in rows:
        print(
            f"{name:<16}  {args.games / r1:>9,.0f} -> {args.games / r2:>9,.0f}  x{r1 / r2:.2f}"
            f"        {2 * deals / a1:>6.2f} -> {2 * deals / a2:>6.2f}  x{a1 / a2:.2f}"
            f"            x{naps:.2f}           {overhead * 1e3:.2f} ms"
        )
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
