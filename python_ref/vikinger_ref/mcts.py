"""MCTSBot: UCT over decision nodes (docs/search.md "MCTS"), the algorithm of vikinger_fast's
mcts.cc step for step, so the same seed, iterations and threads give the same visit counts.

The tree is tree.py's: decision and terminal nodes, an edge (node, action) leading through chance
nodes sampled one uniform each, a child per chance history. One iteration, on the stream
splitmix64(mix(seed + search) + thread):
  - a node with unvisited edges takes unvisited edge number floor(u * unvisited) in action order;
  - else the edge maximizing w[mover] / n + uct_c * sqrt(log(N) / n), the first on a tie;
  - a child not yet in the tree is added (while the tree holds fewer than MAX_TREE_NODES) and is
    the leaf: B8.9 returns if terminal, else a random playout seeded with the stream's next 64-bit
    number, or the evaluation;
  - the leaf's value vector is added to every edge on the path.
`threads` independent searches (root parallelism, run one after another here) share the
iterations (iterations // threads, +1 for the first iterations % threads) and sum their root
visits. With max_time each of them gets max_time / threads seconds.
"""

from __future__ import annotations

import math
import threading
import time
from typing import TYPE_CHECKING, Any, Callable


from .arguments import (
    MAX_SECONDS,
    check_int,
    check_not_huge,
    check_real,
    check_seconds,
    check_uint64,
)
from .bots import check_decision_node, check_game_and_seed
from .evaluation import evaluate
from .playouts import play_random_playout
from .rng import GOLDEN, MASK64, mix
from .rng import SplitMix64
from .solver import no_chance_ahead, solve
from .tree import Node, Tree

if TYPE_CHECKING:
    from .game import Game
    from .state import State

LEAVES = ("playout", "evaluation")
MAX_TREE_NODES = 1_000_000  # once a tree holds this many nodes, leaves are valued, not added


class _Stream(SplitMix64):
    def next_bits(self) -> int:
        """The next raw 64-bit number (a playout's seed)."""
        value = mix(self.state)
        self.state = (self.state + GOLDEN) & MASK64
        return value


class _Search:
    """One thread's tree and stream."""

    def __init__(self, root: State, stream_seed: int, uct_c: float, leaf: str) -> None:
        self.root_state = root
        self.rng = _Stream(stream_seed)
        self.uct_c = uct_c
        self.leaf = leaf
        self.tree = Tree(root, keep_states=False)

    def _select(self, node: Node) -> int:
        unvisited = [i for i, visits in enumerate(node.edge_visits) if visits == 0]
        if unvisited:
            return unvisited[math.floor(self.rng.next_double() * len(unvisited))]
        log_visits = math.log(node.visits)
        best, best_score = 0, 0.0
        for i, visits in enumerate(node.edge_visits):
            score = node.edge_values[i][node.player] / visits + self.uct_c * math.sqrt(
                log_visits / visits
            )
            if i == 0 or score > best_score:
                best, best_score = i, score
        return best

    def _leaf_value(self, state: State) -> list[float]:
        if state.is_terminal():
            return state.returns()
        if self.leaf == "evaluation":
            return evaluate(state)
        final, _ = play_random_playout(state, self.rng.next_bits())
        return final.returns()

    def iterate(self) -> None:
        tree = self.tree
        state = self.root_state.clone()
        node = tree.root
        path = []
        while True:
            if state.is_terminal():
                value = state.returns()
                break
            edge = self._select(node)
            path.append((node, edge))
            child, key = tree.follow(node, edge, state, self.rng.next_double)
            if child is not None:
                node = child
                continue
            if tree.size < MAX_TREE_NODES:
                tree.add_child(node, edge, key, state)
            value = self._leaf_value(state)
            break
        tree.backup(path, value)


class MCTSBot:
    """UCT search; see the module docstring and docs/search.md."""

    def __init__(
        self,
        game: Game,
        seed: int,
        *,
        iterations: int | None = None,
        max_time: float | None = None,
        uct_c: float = 1.4,
        leaf: str = "playout",
        threads: int = 1,
        solver_nodes: int = 0,
    ) -> None:
        self._seed = check_game_and_seed(game, seed)
        self._game = game
        if iterations is not None:
            if check_int("iterations", iterations) <= 0:
                raise ValueError(f"iterations must be > 0, not {iterations}")
            check_not_huge("iterations", iterations)
        seconds = None if max_time is None else check_seconds("max_time", max_time)
        if iterations is None and max_time is None:
            raise ValueError("MCTSBot needs a budget: iterations or max_time")
        if iterations is None and seconds is not None and seconds >= MAX_SECONDS:
            raise ValueError(
                "MCTSBot needs a finite budget: iterations, or max_time below 1e9 "
                f"seconds, not {max_time}"
            )
        exploration = check_real("uct_c", uct_c)
        if not exploration >= 0.0:
            raise ValueError(f"uct_c must be >= 0, not {uct_c}")
        if math.isinf(exploration):
            raise ValueError(f"uct_c must be finite, not {uct_c}")
        if not isinstance(leaf, str):
            raise TypeError(f"leaf must be a str, not {type(leaf).__name__}")
        if leaf not in LEAVES:
            raise ValueError(f"leaf must be one of {', '.join(LEAVES)}, not {leaf!r}")
        if check_int("threads", threads) < 1:
            raise ValueError(f"threads must be >= 1, not {threads}")
        if check_int("solver_nodes", solver_nodes) < 0:
            raise ValueError(f"solver_nodes must be >= 0, not {solver_nodes}")
        check_not_huge("solver_nodes", solver_nodes)
        self._iterations = None if iterations is None else int(iterations)
        # A time budget of MAX_SECONDS or more (inf included) sets no deadline.
        self._max_time = None if seconds is None or seconds >= MAX_SECONDS else seconds
        self._uct_c = exploration
        self._leaf = leaf
        self._threads = min(int(threads), 256)
        self._solver_nodes = int(solver_nodes)
        self._searches = 0
        self._lock = threading.Lock()

    def __reduce__(self) -> tuple[Callable[..., MCTSBot], tuple[Game, int, dict[str, Any], int]]:
        """Pickling and deepcopy: the constructor's arguments and the searches done, rebuilt by
        mcts_bot_from_data (checked as the constructor checks them), so the copy goes on with
        the same searches."""
        with self._lock:
            budget = {
                "iterations": self._iterations,
                "max_time": self._max_time,
                "uct_c": self._uct_c,
                "leaf": self._leaf,
                "threads": self._threads,
                "solver_nodes": self._solver_nodes,
            }
            return mcts_bot_from_data, (self._game, self._seed, budget, self._searches)

    def _search(self, state: State, method: str) -> dict[str, Any]:
        with self._lock:
            check_decision_node(self._game, state, method)
            actions = state.legal_actions()
            result: dict[str, Any] = {
                "actions": actions,
                "visits": [0] * len(actions),
                "iterations": 0,
                "solved": False,
            }
            if len(actions) == 1:  # nothing to decide: no iteration spent
                result["visits"][0] = 1
                return result
            if self._solver_nodes > 0 and no_chance_ahead(state):
                try:
                    solved = solve(state, self._solver_nodes)
                except MemoryError:  # the table's bound: giving up, as in mcts.cc
                    solved = None
                if solved is not None:
                    result["visits"] = [int(a == solved["action"]) for a in actions]
                    result["solved"] = True
                    return result
            search_seed = mix((self._seed + self._searches) & MASK64)
            for t in range(self._threads):
                run = _Search(state.clone(), (search_seed + t) & MASK64, self._uct_c, self._leaf)
                result["iterations"] += self._run(run, t)
                for i, visits in enumerate(run.tree.root.edge_visits):
                    result["visits"][i] += visits
            self._searches += 1
            return result

    def _run(self, run: _Search, t: int) -> int:
        share = None
        if self._iterations is not None:
            share = self._iterations // self._threads + (t < self._iterations % self._threads)
        deadline = None
        if self._max_time is not None:
            deadline = time.monotonic() + self._max_time / self._threads
        done = 0
        while share is None or done < share:
            # The clock is read after the first iteration: however small the time budget, a
            # search runs at least one iteration per thread (never a silent no-search).
            if (
                deadline is not None
                and done % 16 == 0
                and done > 0
                and (time.monotonic() >= deadline)
            ):
                break
            run.iterate()
            done += 1
        return done

    def search(self, state: State) -> dict[str, Any]:
        """{"actions", "visits" (root visits summed over threads), "iterations", "solved"}."""
        return self._search(state, "search")

    def step(self, state: State) -> int:
        """The most visited root action, the lowest id on a tie."""
        result = self._search(state, "step")
        visits = result["visits"]
        return result["actions"][visits.index(max(visits))]

    def policy(self, state: State) -> list[tuple[int, float]]:
        """[(action, visit share)] over the legal actions."""
        result = self._search(state, "policy")
        total = sum(result["visits"])
        return [(a, v / total) for a, v in zip(result["actions"], result["visits"])]

    def restart(self) -> None:
        with self._lock:
            self._searches = 0


BUDGET_KEYS = ("iterations", "max_time", "uct_c", "leaf", "threads", "solver_nodes")


def mcts_bot_from_data(game: Any, seed: Any, budget: Any, searches: Any) -> MCTSBot:
    """The MCTSBot of a pickle: MCTSBot(game, seed, **budget) after `searches` searches (in
    0..2**64-1, as the C++ rebuild checks it); the same checks as the constructor's."""
    if not isinstance(budget, dict):
        raise TypeError(f"budget must be a dict, not {type(budget).__name__}")
    if len(budget) != len(BUDGET_KEYS):
        raise ValueError(f"budget must hold {', '.join(BUDGET_KEYS)}")
    for key in BUDGET_KEYS:
        if key not in budget:
            raise ValueError(f"budget lacks {key}")
    bot = MCTSBot(game, seed, **budget)
    bot._searches = check_uint64("searches", searches)
    return bot
