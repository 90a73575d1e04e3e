"""How far from the end the endgame solver reaches (docs/search.md "Solver").

    python bench/solver_reach.py GAMES [PLAYERS]

For random base games, the position at the start of each of round 6's last purchases (k = 1 ..
6 purchases from the end, the first decision of that purchase) is solved with a budget of 20
million nodes; prints, per k, how many were solved within 1 s and the median time and nodes.
"""

import random
import statistics
import sys
import time

import vikinger_fast as vk


def purchase_starts(num_players, seed):
    """{purchases left: the state at the first decision of that purchase} of one random game."""
    rng = random.Random(seed)
    state = vk.Game(num_players).new_initial_state()
    starts = {}
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_random_chance(rng.getrandbits(64))
            continue
        d = state.to_dict()
        left = 12 - d["purchases"]
        if d["round"] == 6 and d["phase"] != "trip" and left not in starts:
            starts[left] = state.clone()
        state.apply_action(rng.choice(state.legal_actions()))
    return starts


def main(games, num_players):
    rows = {}
    for seed in range(games):
        for left, state in purchase_starts(num_players, seed).items():
            if left > 6:
                continue
            start = time.perf_counter()
            result = vk.solve_endgame(state, 2_000_000)
            seconds = time.perf_counter() - start
            rows.setdefault(left, []).append((seconds, None if result is None else result["nodes"]))
    for left in sorted(rows):
        times = [t for t, _ in rows[left]]
        nodes = [n for _, n in rows[left] if n is not None]
        within = sum(t < 1.0 and n is not None for t, n in rows[left])
        print(
            f"{left} purchases from the end: {within}/{len(times)} solved within 1 s; median "
            f"{statistics.median(times):.3f} s, median nodes "
            f"{statistics.median(nodes) if nodes else 'n/a'}",
            flush=True,
        )


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 2)
