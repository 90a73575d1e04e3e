"""PuctTree: one search tree guided by an evaluator's priors and values (docs/neural.md), the
reference twin of vikinger_fast's puct.cc, step for step and float for float.

The nodes, edges and chance children are tree.py's, the chance outcomes drawn from the tree's own
splitmix64 stream; a backup adds a visit to every node and edge of the path and to the leaf.
Selection at an expanded node s with mover m, N = N(s) + V(s), n = N(s, a) + V(s, a) (V: virtual
visits):
    Q = W_m(s, a) / n (0 when n = 0),   c = c_init (+ log((1 + N + c_base) / c_base) if c_base),
    score = Q + c * P(s, a) * sqrt(N) / (1 + n),   the first best in action order;
a final edge (its action ends the game, marked when s is first reached in round 6) scores +inf
until visited, then its exact Q alone (puct.h).
With solver_nodes > 0, a new leaf other than the root that is a round-6 decision node with no
chance ahead is first solved within that many nodes; a solved leaf is never evaluated and backs up
the B8.9 returns of its exact margins at every descent, as a terminal node (puct.h). With
score_utility = w > 0 a terminal node and a solved leaf back up (1 - w) * their returns + w *
(score + 1) / 2 per player, the score tanh(margin / 512), or with score_scale = D > 0
tanh((margin - centre) / (64 * D)), the centre the root's projected margin (solver.margin_utilities;
docs/neural.md "Score-aware values"); such a tree starts anew at advance.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Optional

from .actions import TERMINAL
from .components import NUM_ROUNDS
from .gumbel import GumbelConfig, GumbelRoot, improved_policy
from .rng import GOLDEN, MASK64, mix, unit_double
from .solver import (
    final_margins,
    margin_returns,
    margin_utilities,
    no_chance_ahead,
    projected_margins,
    solve,
)
from .tree import EXPANDED, NEW, PENDING, SOLVED, Node, Tree

if TYPE_CHECKING:
    from .state import State

LEAF, TERMINAL_LEAF, COLLISION = "leaf", "terminal", "collision"


class Stream:
    """splitmix64, as SplitMix64 of rng.h."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def uniform(self) -> float:
        value = mix(self.state)
        self.state = (self.state + GOLDEN) & MASK64
        return unit_double(value)


def sample_normal(rng: Stream) -> float:
    """Box-Muller, one normal from two uniforms (puct.cc's SampleNormal)."""
    u1 = 1.0 - rng.uniform()
    u2 = rng.uniform()
    return math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)


def sample_gamma(alpha: float, rng: Stream) -> float:
    """Gamma(alpha, 1): Marsaglia and Tsang (2000); alpha < 1 via Gamma(alpha + 1) U^(1/alpha)."""
    if alpha < 1.0:
        g = sample_gamma(alpha + 1.0, rng)
        u = 1.0 - rng.uniform()
        return g * math.pow(u, 1.0 / alpha)
    d = alpha - 1.0 / 3.0
    c = 1.0 / math.sqrt(9.0 * d)
    while True:
        x = sample_normal(rng)
        v = 1.0 + c * x
        if v <= 0.0:
            continue
        v = v * v * v
        u = 1.0 - rng.uniform()
        if math.log(u) < 0.5 * x * x + d - d * v + d * math.log(v):
            return d * v


class PuctConfig:
    __slots__ = (
        "simulations",
        "c_init",
        "c_base",
        "dirichlet_alpha",
        "dirichlet_fraction",
        "virtual_loss",
        "gumbel",
        "solver_nodes",
        "score_utility",
        "score_scale",
    )

    def __init__(
        self,
        simulations: int,
        c_init: float,
        c_base: float,
        dirichlet_alpha: float,
        dirichlet_fraction: float,
        virtual_loss: int,
        gumbel: Optional[GumbelConfig] = None,
        solver_nodes: int = 0,
        score_utility: float = 0.0,
        score_scale: float = 0.0,
    ) -> None:
        self.gumbel = GumbelConfig() if gumbel is None else gumbel
        self.solver_nodes = solver_nodes
        self.score_utility = score_utility
        self.score_scale = score_scale
        self.simulations = simulations
        self.c_init = c_init
        self.c_base = c_base
        self.dirichlet_alpha = dirichlet_alpha
        self.dirichlet_fraction = dirichlet_fraction
        self.virtual_loss = virtual_loss

    def check(self) -> None:
        """ValueError naming the first bad field (puct.cc's CheckPuctConfig)."""
        if self.simulations < 1:
            raise ValueError("simulations must be >= 1")
        if not self.c_init >= 0.0 or math.isinf(self.c_init):
            raise ValueError("c_init must be finite and >= 0")
        if not self.c_base >= 0.0 or math.isinf(self.c_base):
            raise ValueError("c_base must be finite and >= 0 (0: c fixed at c_init)")
        if not self.dirichlet_alpha >= 0.0 or math.isinf(self.dirichlet_alpha):
            raise ValueError("dirichlet_alpha must be finite and >= 0 (0: no noise)")
        if not 0.0 <= self.dirichlet_fraction <= 1.0:
            raise ValueError("dirichlet_fraction must be in [0, 1]")
        if self.virtual_loss < 0:
            raise ValueError("virtual_loss must be >= 0")
        if self.solver_nodes < 0:
            raise ValueError("solver_nodes must be >= 0")
        if not 0.0 <= self.score_utility <= 1.0:
            raise ValueError("score_utility must be in [0, 1]")
        if not self.score_scale >= 0.0 or math.isinf(self.score_scale):
            raise ValueError("score_scale must be finite and >= 0 (0: not centred)")
        g = self.gumbel
        if g.enabled:
            if self.dirichlet_alpha > 0.0:
                raise ValueError("gumbel and dirichlet_alpha exclude each other")
            if g.max_considered < 1:
                raise ValueError("max_considered must be >= 1")
            if not g.c_visit >= 0.0 or math.isinf(g.c_visit):
                raise ValueError("c_visit must be finite and >= 0")
            if not g.c_scale >= 0.0 or math.isinf(g.c_scale):
                raise ValueError("c_scale must be finite and >= 0")


class PuctTree:
    """See the module docstring; the methods are puct.h's."""

    def __init__(self, root: State, seed: int, config: PuctConfig) -> None:
        self.config = config
        self.rng = Stream(seed)
        self.num_players = root.get_game().num_players
        self.gumbel = GumbelRoot()
        self._reset(root)

    @property
    def root(self) -> Node:
        return self.tree.root

    def _reset(self, root: State) -> None:
        self.tree = Tree(root.clone(), keep_states=True)
        # (path [(node, edge)], leaf node)
        self.pending: list[tuple[list[tuple[Node, int]], Node]] = []
        self.root_priors: Optional[list[float]] = None
        self.done = 0
        # The root's projected margins, the centre of the score (score_scale > 0).
        self.centre = projected_margins(root) if self.config.score_scale > 0.0 else None

    def begin_search(self) -> None:
        self.done = 0
        if self.root.status != EXPANDED:
            return
        if self.config.dirichlet_alpha > 0.0:
            self._add_noise()
        if self.config.gumbel.enabled:
            self._start_gumbel()

    def _start_gumbel(self) -> None:
        self.gumbel.start(
            self.config.gumbel, self._network_priors(), self.config.simulations, self.rng
        )

    def _network_priors(self) -> list[float]:
        return list(self.root_priors if self.root_priors is not None else self.root.priors)

    def _root_arrays(self) -> tuple[list[int], list[float]]:
        root = self.root
        q = [
            root.edge_values[i][root.player] / float(v) if v > 0 else 0.0
            for i, v in enumerate(root.edge_visits)
        ]
        return list(root.edge_visits), q

    def wants_descent(self) -> bool:
        if self.root.status == NEW:
            return True
        if self.root.status == PENDING:
            return False
        if self.config.gumbel.enabled and self.gumbel.next() < 0:
            return False
        return self.done + len(self.pending) < self.config.simulations

    def search_done(self) -> bool:
        return self.done >= self.config.simulations and not self.pending

    def _select(self, node: Node) -> int:
        total = float(node.visits + node.virtual)
        c = self.config.c_init
        if self.config.c_base > 0.0:
            c = (
                math.log((1.0 + total + self.config.c_base) / self.config.c_base)
                + self.config.c_init
            )
        scale = c * math.sqrt(total)
        best, best_score = 0, 0.0
        for i in range(len(node.actions)):
            n = node.edge_visits[i] + node.edge_virtual[i]
            q = node.edge_values[i][node.player] / float(n) if n > 0 else 0.0
            if node.edge_final[i]:  # tried first, then its exact value: nothing to explore
                score = q if n > 0 else math.inf
            else:
                score = q + scale * node.priors[i] / float(1 + n)
            if i == 0 or score > best_score:
                best, best_score = i, score
        return best

    def descend(self) -> str:
        """LEAF (appended to pending), TERMINAL_LEAF (backed up) or COLLISION (undone)."""
        loss = self.config.virtual_loss
        path: list[tuple[Node, int]] = []
        node = self.root
        while True:
            if node.player == TERMINAL:
                self._backup(path, node, self._final_value(node.state), True)
                self.done += 1
                return TERMINAL_LEAF
            if node.status == PENDING:
                self._backup(path, node, None, False)
                return COLLISION
            if node.status == SOLVED or (
                node.status == NEW and node is not self.root and self._solve(node)
            ):
                self._backup(path, node, node.solved, True)
                self.done += 1
                return TERMINAL_LEAF
            if node.status == NEW:
                node.status = PENDING
                self._mark_final_edges(node)
                self.pending.append((path, node))
                return LEAF
            if node is self.root and self.config.gumbel.enabled:
                edge = self.gumbel.next()
                self.gumbel.scheduled[edge] += 1
            else:
                edge = self._select(node)
            node.virtual += loss
            node.edge_virtual[edge] += loss
            path.append((node, edge))
            state = node.state.clone()
            child, key = self.tree.follow(node, edge, state, self.rng.uniform)
            if child is None:
                child = self.tree.add_child(node, edge, key, state)
            node = child

    def _mark_final_edges(self, node: Node) -> None:
        """Marks the edges of the new leaf `node` whose action ends the game (in round 6, the
        only round where one can; puct.cc's MarkFinalEdges)."""
        if node.state.round != NUM_ROUNDS:
            return
        for i, action in enumerate(node.actions):
            child = node.state.clone()
            child.apply_action(action)
            node.edge_final[i] = child.is_terminal()

    def _solve(self, node: Node) -> bool:
        """Solves the new leaf `node` when the solver is on and may take it (puct.cc's Solve)."""
        if self.config.solver_nodes == 0 or not no_chance_ahead(node.state):
            return False
        try:
            solved = solve(node.state, self.config.solver_nodes)
        except MemoryError:  # the memory bound reached is giving up too, as in MCTSBot
            return False
        if solved is None:
            return False
        node.status = SOLVED
        node.solved = margin_returns(solved["margins"])
        weight = self.config.score_utility
        if weight > 0.0:
            node.solved = margin_utilities(
                node.solved, solved["margins"], weight, self.centre, self.config.score_scale
            )
        return True

    def _final_value(self, state: State) -> Any:
        """The value of terminal `state`: its returns, blended with its margins by the score
        utility when it is on."""
        weight = self.config.score_utility
        if weight > 0.0:
            return margin_utilities(
                state.returns(), final_margins(state), weight, self.centre, self.config.score_scale
            )
        return state.returns()

    def _backup(
        self,
        path: list[tuple[Node, int]],
        leaf: Node,
        value: Any,  # the leaf's values when real, else None
        real: bool,
    ) -> None:
        loss = self.config.virtual_loss
        for node, edge in path:
            node.virtual -= loss
            node.edge_virtual[edge] -= loss
        if real:
            self.tree.backup(path, value)
            leaf.visits += 1
        if self.config.gumbel.enabled and path:
            edge = path[0][1]
            if not real:
                self.gumbel.scheduled[edge] -= 1
                return
            visits, q = self._root_arrays()
            self.gumbel.completed_edge(edge, visits, q, self.root.value)

    def expand(self, index: int, logits: Any, values: Any) -> None:
        """Pending leaf `index`: logits over all decision ids (a float32 row; only the legal ones
        read), values relative to the leaf's mover."""
        path, node = self.pending[index]
        row = [float(logits[a]) for a in node.actions]
        top = row[0]
        for logit in row[1:]:
            if logit > top:
                top = logit
        total = 0.0
        for i, logit in enumerate(row):
            node.priors[i] = math.exp(logit - top)
            total += node.priors[i]
        for i in range(len(row)):
            node.priors[i] /= total
        node.status = EXPANDED
        node.value = float(values[0])
        n = self.num_players
        value = [0.0] * n
        for k in range(n):
            value[(node.player + k) % n] = float(values[k])
        self._backup(path, node, value, True)
        if node is self.root:
            self.root_priors = None
            if self.config.dirichlet_alpha > 0.0:
                self._add_noise()
            if self.config.gumbel.enabled:
                self._start_gumbel()
        else:
            self.done += 1

    def cancel_pending(self) -> None:
        for path, node in self.pending:
            self._backup(path, node, None, False)
            node.status = NEW
        self.pending = []

    def _add_noise(self) -> None:
        """P = (1 - fraction) * P_net + fraction * eta, eta ~ Dirichlet(alpha) in action order."""
        root = self.root
        if self.root_priors is None:
            self.root_priors = list(root.priors)
        eta = []
        total = 0.0
        for _ in root.actions:
            eta.append(sample_gamma(self.config.dirichlet_alpha, self.rng))
            total += eta[-1]
        f = self.config.dirichlet_fraction
        for i in range(len(root.actions)):
            share = eta[i] / total if total > 0.0 else 1.0 / len(root.actions)
            root.priors[i] = (1.0 - f) * self.root_priors[i] + f * share

    def advance(self, state: State) -> bool:
        """The root moves to the child whose position is `state` (True), else a new tree."""
        child = self.tree.find_root_child(state)
        # A solved node is no root: the search would never expand it. A centred score utility
        # starts anew: the subtree's values are centred on the old root.
        if child is None or child.status in (PENDING, SOLVED) or self.config.score_scale > 0.0:
            self._reset(state)
            return False
        self.tree.reroot(child)
        self.root_priors = None
        self.begin_search()
        return True

    def root_stats(self) -> dict[str, Any]:
        root = self.root
        n = self.num_players
        value = [0.0] * n
        total = 0
        q = []
        for i in range(len(root.actions)):
            visits = root.edge_visits[i]
            q.append(root.edge_values[i][root.player] / float(visits) if visits > 0 else 0.0)
            for k in range(n):
                value[k] += root.edge_values[i][k]
            total += visits
        if total > 0:
            value = [v / float(total) for v in value]
        result: dict[str, Any] = {
            "actions": list(root.actions),
            "visits": list(root.edge_visits),
            "priors": list(root.priors),
            "q": q,
            "value": value,
            "improved_policy": [],
            "network_value": root.value,
            "selected": -1,
        }
        if root.status != EXPANDED:
            return result
        visits = result["visits"]
        result["improved_policy"] = improved_policy(
            self.config.gumbel, self._network_priors(), visits, q, root.value
        )
        if self.config.gumbel.enabled:
            result["selected"] = root.actions[self.gumbel.selected(visits, q, root.value)]
        else:
            result["selected"] = root.actions[visits.index(max(visits))]
        return result
