"""PuctSearch: the PUCT searches of many root states, their leaves gathered into one evaluator
batch (docs/neural.md), the twin of vikinger_fast's csrc/search/batched_search.cc and
csrc/bindings/neural.cc.

Tree i draws from splitmix64(mix(seed + i)). gather walks the trees round robin, one descent
each per round, until max_batch descents ended (at a new leaf, or at a terminal node, backed up
at once) or no tree can go on (budget spent, root waiting for its evaluation, or a descent
collided with a waiting leaf and was undone). Row r: the observation tensor of leaf r for its
player to move, and its legal-action mask; backup takes (logits, values) for the rows in that
order.
"""

from __future__ import annotations

import threading
import time
from typing import Any, Callable, Optional

import numpy as np

from .actions import NUM_DISTINCT_ACTIONS
from .arguments import (
    MAX_SECONDS,
    check_int,
    check_int64,
    check_real,
    check_seconds,
    type_name,
)
from .evaluation import evaluate
from .observation import observation_size
from .playouts import play_random_playout
from .gumbel import GumbelConfig
from .mlp import SCORE_HEAD_NEEDED
from .network import Network
from .puct import COLLISION, LEAF, PuctConfig, PuctTree
from .rng import MASK64, mix
from .solver import final_margins, head_margin, margin_score, margin_utilities, score_utility
from .state import State

# Playouts per leaf at most in playout_values: a bound, so that no call can run for hours.
MAX_PLAYOUT_VALUES = 4096
_PENDING = "the leaves of the last gather wait for backup (or cancel)"


def _roots(states: Any) -> list[State]:
    # Any sequence, as the C++ takes it (PySequence_Check: __getitem__, not a dict); not a str.
    if (
        isinstance(states, (str, dict))
        or not hasattr(type(states), "__getitem__")
        or not hasattr(type(states), "__len__")
    ):
        raise TypeError(f"states must be a sequence of State, not {type_name(states)}")
    roots: list[State] = []
    for state in states:
        if not isinstance(state, State):
            raise TypeError(f"every item of states must be a State, not {type_name(state)}")
        if roots and state.get_game() != roots[0].get_game():
            raise ValueError("states must all be of one game")
        which = f"PuctSearch needs decision nodes, states[{len(roots)}] is "
        if state.is_terminal():
            raise ValueError(which + "a terminal state")
        if state.is_chance_node():
            raise ValueError(which + "a chance node")
        roots.append(state)
    if not roots:
        raise ValueError("states must not be empty")
    return roots


def _playout_mix(playouts: Any, playout_weight: Any, playout_seed: Any) -> tuple[int, float, int]:
    """(count, weight, seed) of the mixed leaf values, checked."""
    count = check_int64("playouts", playouts)
    if not 0 <= count <= MAX_PLAYOUT_VALUES:
        raise ValueError(f"playouts must be in 0..{MAX_PLAYOUT_VALUES}, not {playouts}")
    if not 0.0 <= check_real("playout_weight", playout_weight) <= 1.0:
        raise ValueError(f"playout_weight must be in [0, 1], not {playout_weight}")
    return count, float(playout_weight), check_int("playout_seed", playout_seed) & MASK64


def _mixed(values: Any, played: np.ndarray, weight: float) -> np.ndarray:
    """(1 - w) * values + w * played in float32, the one rounding of csrc's MixedValue."""
    w = np.float32(weight)
    return (np.float32(1) - w) * np.asarray(values, np.float32) + w * played


GUMBEL_SETTINGS = ("max_considered", "c_visit", "c_scale")


def _gumbel(value: Any) -> GumbelConfig:
    """gumbel=: False/True (off, or on with the defaults), or a dict of some of its settings."""
    if isinstance(value, (bool, np.bool_)):
        return GumbelConfig(bool(value))
    if not isinstance(value, dict):
        raise TypeError(f"gumbel must be a bool or a dict of settings, not {type_name(value)}")
    for key in value:
        if key not in GUMBEL_SETTINGS:
            raise ValueError(f"gumbel has no setting {key!r} ({', '.join(GUMBEL_SETTINGS)})")
    config = GumbelConfig(True)
    if "max_considered" in value:
        config.max_considered = check_int64("max_considered", value["max_considered"])
    if "c_visit" in value:
        config.c_visit = check_real("c_visit", value["c_visit"])
    if "c_scale" in value:
        config.c_scale = check_real("c_scale", value["c_scale"])
    return config


def _mean_playout_returns(
    state: State,
    count: int,
    seed: int,
    score_utility: float = 0.0,
    centre: Any = None,
    score_scale: float = 0.0,
) -> np.ndarray:
    """float32[n]: the mean returns of `count` random playouts from `state` (playout j on stream
    seed + j), relative to its mover; with score_utility > 0 each playout's returns blended with
    its final margins, scored with `centre` and `score_scale` (docs/neural.md "Score-aware
    values")."""
    n = state.get_game().num_players
    sums = [0.0] * n
    for j in range(count):
        final, _ = play_random_playout(state, (seed + j) & MASK64)
        returns = final.returns()
        if score_utility > 0.0:
            returns = margin_utilities(
                returns, final_margins(final), score_utility, centre, score_scale
            )
        for k, value in enumerate(returns):
            sums[k] += value
    mover = state.current_player()
    return np.array([sums[(mover + k) % n] / count for k in range(n)], np.float32)


def check_output(value: Any, what: str, rows: int, columns: int) -> np.ndarray:
    """An evaluator output: a float32 ndarray of shape (rows, columns), C-contiguous."""
    if not isinstance(value, np.ndarray):
        raise TypeError(f"{what} must be a numpy.ndarray, not {type_name(value)}")
    if value.dtype != np.float32:
        raise TypeError(f"{what} must be float32, not {value.dtype}")
    if value.shape != (rows, columns):
        raise ValueError(f"{what} must have shape ({rows}, {columns}), not {value.shape}")
    return np.ascontiguousarray(value)


class PuctSearch:
    """PUCT searches of many states, leaves batched for an evaluator (module docstring)."""

    def __init__(
        self,
        states: Any,
        *,
        simulations: int,
        seed: int = 0,
        c_init: float = 1.25,
        c_base: float = 0.0,
        dirichlet_alpha: float = 0.0,
        dirichlet_fraction: float = 0.25,
        virtual_loss: int = 1,
        gumbel: Any = False,
        solver_nodes: int = 0,
        score_utility: float = 0.0,
        score_scale: float = 0.0,
    ) -> None:
        roots = _roots(states)
        seed = check_int("seed", seed) & MASK64
        config = PuctConfig(
            check_int64("simulations", simulations),
            check_real("c_init", c_init),
            check_real("c_base", c_base),
            check_real("dirichlet_alpha", dirichlet_alpha),
            check_real("dirichlet_fraction", dirichlet_fraction),
            check_int64("virtual_loss", virtual_loss),
        )
        config.gumbel = _gumbel(gumbel)
        config.solver_nodes = check_int64("solver_nodes", solver_nodes)
        config.score_utility = check_real("score_utility", score_utility)
        config.score_scale = check_real("score_scale", score_scale)
        config.check()
        self._game = roots[0].get_game()
        self._n = self._game.num_players
        self._score_utility = config.score_utility
        self._score_scale = config.score_scale
        self._trees = [
            PuctTree(root, mix((seed + i) & MASK64), config) for i, root in enumerate(roots)
        ]
        self._rows: list[tuple[int, int]] = []  # (tree, pending index)
        self._legal: Any = None  # the legal mask of the last gather
        self._lock = threading.RLock()

    @property
    def observation_size(self) -> int:
        return observation_size(self._n)

    @property
    def pending(self) -> int:
        return len(self._rows)

    @property
    def done(self) -> bool:
        return all(tree.search_done() for tree in self._trees)

    def gather(self, max_batch: int = 256) -> tuple[np.ndarray, np.ndarray]:
        max_batch = check_int64("max_batch", max_batch)
        if max_batch < 1:
            raise ValueError(f"max_batch must be >= 1, not {max_batch}")
        with self._lock:
            if self._rows:
                raise ValueError("gather: " + _PENDING)
            try:
                leaves = self._descend(max_batch)
                observations = np.zeros((len(leaves), self.observation_size), dtype=np.float32)
                legal = np.zeros((len(leaves), NUM_DISTINCT_ACTIONS), dtype=bool)
                for r, state in enumerate(leaves):
                    observations[r] = state.observation_tensor(state.current_player())
                    legal[r, state.legal_actions()] = True
            except BaseException:  # Ctrl-C: no descent of this gather stays
                for tree in self._trees:
                    tree.cancel_pending()
                self._rows = []
                raise
            self._legal = legal
            return observations, legal

    def _descend(self, max_batch: int) -> list[State]:
        leaves = []
        blocked = [False] * len(self._trees)
        steps = 0  # leaves and terminal visits: at most max_batch of them
        progress = True
        while progress and steps < max_batch:
            progress = False
            for t, tree in enumerate(self._trees):
                if steps >= max_batch:
                    break
                if blocked[t] or not tree.wants_descent():
                    continue
                descent = tree.descend()
                if descent == COLLISION:
                    blocked[t] = True
                    continue
                progress = True
                steps += 1
                if descent == LEAF:
                    index = len(tree.pending) - 1
                    self._rows.append((t, index))
                    leaves.append(tree.pending[index][1].state)
        return leaves

    def backup(self, logits: Any, values: Any) -> None:
        with self._lock:
            rows = len(self._rows)
            if rows == 0:
                raise ValueError("backup needs the leaves of a gather, and none are pending")
            logits = check_output(logits, "logits", rows, NUM_DISTINCT_ACTIONS)
            values = check_output(values, "values", rows, self._n)
            for r in range(rows):
                bad = np.flatnonzero(self._legal[r] & ~np.isfinite(logits[r]))
                if len(bad):
                    raise ValueError(f"logits row {r} is not finite at legal action {bad[0]}")
                if not np.isfinite(values[r]).all():
                    raise ValueError(f"values row {r} is not finite")
            for r, (t, index) in enumerate(self._rows):
                self._trees[t].expand(index, logits[r], values[r])
            for t, _ in self._rows:
                self._trees[t].pending = []
            self._rows = []

    def heuristic_values(self) -> np.ndarray:
        """evaluate() of the gathered leaves, float32[B, n], relative to each leaf's mover."""
        with self._lock:
            out = np.zeros((len(self._rows), self._n), dtype=np.float32)
            for r, (t, index) in enumerate(self._rows):
                state = self._trees[t].pending[index][1].state
                values = evaluate(state)
                mover = state.current_player()
                for k in range(self._n):
                    out[r, k] = values[(mover + k) % self._n]
            return out

    def playout_values(self, count: int, seed: int) -> np.ndarray:
        """The mean returns of `count` (1..4096) random playouts from each gathered leaf,
        float32[B, n], relative to each leaf's mover; playout j of row r uses stream
        seed + r * count + j (docs/neural.md "Mixed leaf values"). With score_utility > 0 each
        playout's returns are blended with its final margins (docs/neural.md "Score-aware
        values")."""
        count, seed = check_int("count", count), check_int("seed", seed)
        if not 1 <= count <= MAX_PLAYOUT_VALUES:
            raise ValueError(f"count must be in 1..{MAX_PLAYOUT_VALUES}, not {count}")
        with self._lock:
            out = np.zeros((len(self._rows), self._n), dtype=np.float32)
            for r, (t, index) in enumerate(self._rows):
                tree = self._trees[t]
                state = tree.pending[index][1].state
                out[r] = _mean_playout_returns(
                    state,
                    count,
                    seed + r * count,
                    self._score_utility,
                    tree.centre,
                    self._score_scale,
                )
            return out

    def cancel(self) -> None:
        with self._lock:
            for t, _ in self._rows:
                self._trees[t].cancel_pending()
            self._rows = []

    def _network(self, network: object) -> Network:
        if not isinstance(network, Network):
            raise TypeError(f"network must be a Network, not {type_name(network)}")
        if network.get_game() != self._game:
            raise ValueError(
                f"the network plays {network.get_game()!r}, the search plays {self._game!r}"
            )
        if self._score_utility > 0.0 and not network.has_score_head:
            raise ValueError(SCORE_HEAD_NEEDED)
        return network

    def _leaf_score(self, tree: PuctTree, state: State, k: int, score: Any) -> float:
        """The score of column k (player (mover + k) % n) of a leaf's score head: as it is, or
        centred on the tree's root (score_scale > 0) from the margin the head stands for."""
        if self._score_scale == 0.0:
            return float(score)
        seat = (state.current_player() + k) % self._n
        assert tree.centre is not None  # set at the root when score_scale > 0
        return margin_score(head_margin(score), tree.centre[seat], self._score_scale)

    def run_batch(
        self,
        network: Network,
        batch_size: int = 256,
        *,
        playouts: int = 0,
        playout_weight: float = 0.5,
        playout_seed: int = 0,
    ) -> int:
        """One gather of up to batch_size descents, the Network's evaluation of its leaves and
        their backup; the number of leaves evaluated. With playouts > 0 a leaf's values are
        (1 - playout_weight) * the network's + playout_weight * playout_values(playouts,
        playout_seed), in float32 as run mixes them. With score_utility > 0 the network's values
        are first the score utility of its value and score heads (it must have a score head):
        float32((1 - w) * win share + w * (score + 1) / 2), computed in double."""
        network = self._network(network)
        max_batch = check_int64("batch_size", batch_size)
        if max_batch < 1:
            raise ValueError(f"batch_size must be >= 1, not {batch_size}")
        count, weight, seed = _playout_mix(playouts, playout_weight, playout_seed)
        with self._lock:
            if self._rows:
                raise ValueError("run_batch: " + _PENDING)
            try:
                leaves = self._descend(max_batch)
            except BaseException:  # Ctrl-C: no descent of this gather stays
                self.cancel()
                raise
            # Row by row, as batched_search.cc: evaluated, mixed, expanded.
            lam = self._score_utility
            for r, ((t, index), state) in enumerate(zip(self._rows, leaves)):
                tree = self._trees[t]
                if lam > 0.0:  # both heads of one pass through the hidden layers
                    logits, values, scores = network._evaluate_scored(state)
                    values = np.array(
                        [
                            score_utility(float(v), self._leaf_score(tree, state, k, s), lam)
                            for k, (v, s) in enumerate(zip(values, scores))
                        ],
                        np.float32,
                    )
                else:  # of state.legal_actions(), in order
                    logits, values = network.evaluate(state)
                if count > 0:
                    played = _mean_playout_returns(
                        state, count, seed + r * count, lam, tree.centre, self._score_scale
                    )
                    values = _mixed(values, played, weight)
                self._trees[t].expand(index, dict(zip(state.legal_actions(), logits)), values)
            for t, _ in self._rows:
                self._trees[t].pending = []
            self._rows = []
            return len(leaves)

    def run(
        self,
        evaluator: Any,
        batch_size: int = 256,
        max_time: Optional[float] = None,
        *,
        playouts: int = 0,
        playout_weight: float = 0.5,
        playout_seed: int = 0,
    ) -> None:
        """gather, evaluate, backup until every search is done; with max_time (seconds), no
        batch is gathered once that time has passed since the call. With playouts > 0 a leaf's
        values are (1 - playout_weight) * the evaluator's + playout_weight * the mean returns of
        that many random playouts (docs/neural.md "Mixed leaf values"): the batches' playouts
        are numbered on from playout_seed, a batch of B leaves using playout_values(playouts,
        seed) and the next seed + B * playouts."""
        network = isinstance(evaluator, Network)
        if network:
            self._network(evaluator)
        elif not callable(evaluator):
            raise TypeError(f"evaluator must be callable, not {type_name(evaluator)}")
        if check_int64("batch_size", batch_size) < 1:
            raise ValueError(f"batch_size must be >= 1, not {batch_size}")
        seconds = float("inf") if max_time is None else check_seconds("max_time", max_time)
        count, weight, seed = _playout_mix(playouts, playout_weight, playout_seed)
        # MAX_SECONDS or more sets no deadline, as the C++ engine's clock could not hold it.
        deadline = time.monotonic() + seconds if seconds < MAX_SECONDS else None
        while not self.done:
            if deadline is not None and time.monotonic() >= deadline:
                break
            if network:
                rows = self.run_batch(
                    evaluator, batch_size, playouts=count, playout_weight=weight, playout_seed=seed
                )
            else:
                rows = self._evaluate_batch(evaluator, batch_size, count, weight, seed)
            seed = (seed + rows * count) & MASK64

    def _evaluate_batch(
        self,
        evaluator: Callable[[np.ndarray, np.ndarray], Any],
        batch_size: int,
        count: int,
        weight: float,
        seed: int,
    ) -> int:
        """One gather, the evaluator's call (its values mixed with `count` playouts per leaf)
        and the backup; the number of leaves evaluated."""
        observations, legal = self.gather(batch_size)
        rows = len(observations)
        if rows == 0:
            return 0  # only terminal visits this time
        try:
            out = evaluator(observations, legal)
            if not isinstance(out, tuple) or len(out) != 2:
                raise TypeError(f"evaluator must return (logits, values), not {type_name(out)}")
            logits, values = out
            if count > 0:
                # backup's checks first, in its order, so a bad output gets backup's message
                check_output(logits, "logits", rows, NUM_DISTINCT_ACTIONS)
                values = check_output(values, "values", rows, self._n)
                values = _mixed(values, self.playout_values(count, seed), weight)
            self.backup(logits, values)
        except BaseException:
            self.cancel()
            raise
        return rows

    def results(self) -> list[dict[str, Any]]:
        with self._lock:
            return [tree.root_stats() for tree in self._trees]

    def result_arrays(self) -> dict[str, np.ndarray]:
        """The results of every root as arrays over the action space (0 at the actions not
        legal at a root): visits int64[R, A], priors, q, improved_policy float64[R, A], legal
        bool[R, A], value float64[R, num_players], network_value float64[R], selected
        int64[R]."""
        with self._lock:
            results = [tree.root_stats() for tree in self._trees]
        shape = (len(results), NUM_DISTINCT_ACTIONS)
        out = {
            "visits": np.zeros(shape, np.int64),
            "priors": np.zeros(shape, np.float64),
            "q": np.zeros(shape, np.float64),
            "improved_policy": np.zeros(shape, np.float64),
            "legal": np.zeros(shape, bool),
            "value": np.asarray([r["value"] for r in results], np.float64),
            "network_value": np.asarray([r["network_value"] for r in results], np.float64),
            "selected": np.asarray([r["selected"] for r in results], np.int64),
        }
        for i, r in enumerate(results):
            actions = r["actions"]
            for key in ("visits", "priors", "q"):
                out[key][i, actions] = r[key]
            if r["improved_policy"]:
                out["improved_policy"][i, actions] = r["improved_policy"]
            out["legal"][i, actions] = True
        return out

    def new_search(self) -> None:
        with self._lock:
            if self._rows:
                raise ValueError("new_search: " + _PENDING)
            for tree in self._trees:
                tree.begin_search()

    def advance(self, index: int, state: object) -> bool:
        index = check_int64("index", index)
        with self._lock:
            if not 0 <= index < len(self._trees):
                raise ValueError(f"index {index} is outside 0..{len(self._trees) - 1}")
            if not isinstance(state, State):
                raise TypeError(f"state must be a State, not {type_name(state)}")
            if state.get_game() != self._game:
                raise ValueError(
                    f"advance got a state of {state.get_game()!r}, the search plays {self._game!r}"
                )
            if state.is_terminal():
                raise ValueError("advance needs a decision node, not a terminal state")
            if state.is_chance_node():
                raise ValueError("advance needs a decision node, not a chance node")
            if self._rows:
                raise ValueError("advance: " + _PENDING)
            return self._trees[index].advance(state)
