"""The search rows of `vikinger bench` (docs/search.md "Measured"): MCTS simulations per second
against rollouts' games per second, the cost per action of playouts from a mid-game state, the C++
MCTS against a plain Python UCT over vikinger_fast and against the reference MCTS, and 2 threads
against 1.

`PythonUCT` is the baseline a user of the package would write: a dict tree in Python, UCB1 at
decision nodes, chance sampled by apply_random_chance, the leaf valued by one C++ playout
(`vikinger_fast.playouts`), the fastest leaf the package offers from Python.
"""

import math
import random
import time

import vikinger_ref as ref

import vikinger_fast as fast

from .timing import best_seconds

SEARCH_SIZES = {
    "mcts_iterations": (40_000, 4_000),
    "midgame_playouts": (50_000, 5_000),
    "python_uct_iterations": (4_000, 400),
    "reference_iterations": (20, 4),
}


class PythonUCT:
    """UCT over vikinger_fast from Python: the straightforward bot of the bench baseline."""

    def __init__(self, iterations, uct_c=1.4, seed=0):
        self.iterations = iterations
        self.uct_c = uct_c
        self.rng = random.Random(seed)

    def search(self, root):
        tree = {}  # history tuple of a decision node -> [visits, {action: [n, value sums]}]
        for _ in range(self.iterations):
            state = root.clone()
            path = []
            while not state.is_terminal():
                key = tuple(state.history())
                if key not in tree:
                    tree[key] = [0, {a: [0, None] for a in state.legal_actions()}]
                    break
                visits, edges = tree[key]
                player = state.current_player()
                unvisited = [a for a, (n, _) in edges.items() if n == 0]
                if unvisited:
                    action = self.rng.choice(unvisited)
                else:
                    log_n = math.log(visits)
                    action = max(
                        edges,
                        key=lambda a: (
                            edges[a][1][player] / edges[a][0]
                            + self.uct_c * math.sqrt(log_n / edges[a][0])
                        ),
                    )
                path.append((key, action))
                state.apply_action(action)
                while state.is_chance_node():
                    state.apply_random_chance(self.rng.getrandbits(64))
            if state.is_terminal():
                value = state.returns()
            else:
                value = fast.playouts(state, 1, self.rng.getrandbits(64))["returns"][0]
            for key, action in path:
                node = tree[key]
                node[0] += 1
                edge = node[1][action]
                edge[0] += 1
                edge[1] = (
                    list(value) if edge[1] is None else [s + v for s, v in zip(edge[1], value)]
                )
        edges = tree[tuple(root.history())][1]
        return max(edges, key=lambda a: edges[a][0])


def opening_decision(engine):
    """The first decision node of a 2-player base game (chance by seed 0)."""
    state = engine.Game(num_players=2).new_initial_state()
    while state.is_chance_node():
        state.apply_random_chance(0)
    return state


def cpu_rate(count, call, repeats):
    """count / the best CPU time of `repeats` calls."""
    return count / best_seconds(repeats, call, time.process_time)


def wall_rate(count, call, repeats):
    """count / the best wall time of `repeats` calls."""
    return count / best_seconds(repeats, call, time.perf_counter)


def search_steps(results, quick, repeats, midgame_state):
    """The search rows as (label, step) pairs, each step adding its rows to `results` (the
    rollouts' rows must be there before the playouts' step runs)."""
    size = {key: value[1 if quick else 0] for key, value in SEARCH_SIZES.items()}
    root = opening_decision(fast)

    def mcts():
        iterations = size["mcts_iterations"]
        for threads in (1, 2):
            bot = fast.MCTSBot(root.get_game(), 0, iterations=iterations, threads=threads)
            bot.search(root)  # warm-up
            results[f"mcts_{threads}thread"] = wall_rate(
                iterations, lambda b=bot: b.search(root), repeats
            )
        for threads in (1, 2):  # CPU time of all threads: the cost, whatever else runs
            bot = fast.MCTSBot(root.get_game(), 0, iterations=iterations, threads=threads)
            results[f"mcts_{threads}thread_per_cpu_second"] = cpu_rate(
                iterations, lambda b=bot: b.search(root), repeats
            )

    def midgame_playouts():
        middle = midgame_state(fast)
        count = size["midgame_playouts"]
        actions = int(fast.playouts(middle, count, 0)["length"].sum())
        results["midgame_playout_ns_per_action"] = 1e9 / cpu_rate(
            actions, lambda: fast.playouts(middle, count, 0), repeats
        )
        game = fast.Game(num_players=2)
        opening_actions = int(fast.rollouts(game, count, 0)["length"].sum())
        results["rollout_ns_per_action"] = 1e9 / cpu_rate(
            opening_actions, lambda: fast.rollouts(game, count, 0), repeats
        )

    def python_uct():
        n = size["python_uct_iterations"]
        results["python_uct_per_cpu_second"] = cpu_rate(n, lambda: PythonUCT(n).search(root), 1)

    def reference_mcts():
        ref_root = opening_decision(ref)
        n = size["reference_iterations"]
        ref_bot = ref.MCTSBot(ref_root.get_game(), 0, iterations=n)
        results["reference_mcts_per_cpu_second"] = cpu_rate(n, lambda: ref_bot.search(ref_root), 1)

    return [
        ("C++ MCTS: 1 and 2 threads", mcts),
        ("C++ playouts from a mid-game state", midgame_playouts),
        ("Python UCT over vikinger_fast (the baseline)", python_uct),
        ("reference MCTS", reference_mcts),
    ]


def search_table(r):
    """(name, value, note) rows of the search measurements."""
    cpu = r["mcts_1thread_per_cpu_second"]
    return [
        (
            "C++ MCTS, 2 players, opening, 1 thread, playout leaves",
            f"{r['mcts_1thread']:,.0f} sims/s",
            f"x{r['mcts_1thread'] / r['rollouts_2p_1thread']:.2f} of rollouts' games/s (target "
            f">= 0.5); {cpu:,.0f} per CPU second",
        ),
        (
            "C++ MCTS, 2 threads",
            f"{r['mcts_2thread']:,.0f} sims/s",
            f"x{r['mcts_2thread'] / r['mcts_1thread']:.2f} of 1 thread (target >= 1.8); CPU time "
            f"per sim x{cpu / r['mcts_2thread_per_cpu_second']:.2f} of 1 thread",
        ),
        (
            "C++ playouts from a round-4 state, per action",
            f"{r['midgame_playout_ns_per_action']:.1f} ns",
            f"x{r['midgame_playout_ns_per_action'] / r['rollout_ns_per_action']:.2f} of rollouts "
            f"from the opening, {r['rollout_ns_per_action']:.1f} ns (target <= 1.25)",
        ),
        (
            "Python UCT over vikinger_fast (C++ playout leaves)",
            f"{r['python_uct_per_cpu_second']:,.0f} sims/s",
            f"C++ MCTS / it = x{cpu / r['python_uct_per_cpu_second']:,.1f} per CPU second "
            f"(target >= 5)",
        ),
        (
            "reference MCTS (pure Python)",
            f"{r['reference_mcts_per_cpu_second']:,.1f} sims/s",
            f"C++ MCTS / it = x{cpu / r['reference_mcts_per_cpu_second']:,.0f} per CPU second "
            f"(target >= 1000)",
        ),
    ]
