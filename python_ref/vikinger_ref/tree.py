"""Tree: the search tree both searches grow, MCTS (mcts.py) and PUCT (puct.py): node and edge
storage, node building, the chance-child step, the backup loop and re-rooting; the twin of
vikinger_fast's csrc/search/tree.cc (docs/search.md "The tree").

The tree holds decision and terminal nodes. A node's edges are its legal actions in id order. An
edge applies its action, then samples every chance node on the way with the search's stream, one
uniform each (`_outcome_at`, as apply_random_chance), until a decision or terminal node; it keeps
one child per chance history, keyed by key = mix(key ^ id) over the ids drawn (0 for none). A
backup adds one visit and the leaf's value vector to every node and edge of the path. The fields
only PUCT reads (status, solved, value, priors, virtual visits) keep their defaults in an MCTS tree.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional, Sequence

from .actions import TERMINAL
from .equality import same_position
from .rng import mix

if TYPE_CHECKING:
    from .state import State

# Node.status (PUCT): not evaluated, waiting, expanded, or solved (its exact returns in `solved`)
NEW, PENDING, EXPANDED, SOLVED = 0, 1, 2, 3


class Node:
    __slots__ = (
        "state",
        "player",
        "status",
        "solved",
        "value",
        "visits",
        "virtual",
        "actions",
        "priors",
        "edge_visits",
        "edge_virtual",
        "edge_values",
        "edge_final",
        "children",
    )

    def __init__(self, state: State, keep_state: bool) -> None:
        self.state: Any = state if keep_state else None  # a State where the tree keeps them
        terminal = state.is_terminal()
        self.player = TERMINAL if terminal else state.current_player()
        self.status = NEW
        self.solved: Optional[list[float]] = None  # PUCT: the exact returns once solved (puct.py)
        self.value = 0.0  # PUCT: the evaluator's value for the mover, once expanded
        self.visits = 0
        self.virtual = 0  # PUCT: descents through it not yet backed up, times the loss
        self.actions = [] if terminal else state.legal_actions()
        k, n = len(self.actions), state.get_game().num_players
        self.priors = [0.0] * k
        self.edge_visits = [0] * k
        self.edge_virtual = [0] * k
        self.edge_values = [[0.0] * n for _ in range(k)]
        self.edge_final = [False] * k  # PUCT: the action ends the game (puct.py)
        # chance key -> Node, the oldest first
        self.children: list[dict[int, Node]] = [{} for _ in range(k)]


class Tree:
    """See the module docstring; the methods are tree.h's."""

    def __init__(self, root: State, keep_states: bool) -> None:
        """keep_states: every node keeps its state (PUCT reads its leaves and re-roots by them);
        `root` is then kept as it is."""
        self.keep_states = keep_states
        self.reset(root)

    def reset(self, root: State) -> None:
        """Starts anew with the single node `root`."""
        self.root = Node(root, self.keep_states)
        self.size = 1  # nodes added since the reset (MCTS bounds it)

    def follow(
        self, node: Node, edge: int, state: State, uniform: Callable[[], float]
    ) -> tuple[Optional[Node], int]:
        """Applies edge `edge` of `node` to `state` (in place), then samples the chance nodes on
        the way with `uniform()`. Returns (the child kept for this chance history or None, the
        history's key)."""
        state.apply_action(node.actions[edge])
        key = 0
        while state.is_chance_node():
            outcome = state._outcome_at(uniform())
            state.apply_action(outcome)
            key = mix(key ^ outcome)
        return node.children[edge].get(key), key

    def add_child(self, node: Node, edge: int, key: int, state: State) -> Node:
        """A new node of `state` (after follow found none), the child of the edge for `key`."""
        child = node.children[edge][key] = Node(state, self.keep_states)
        self.size += 1
        return child

    def backup(self, path: Sequence[tuple[Node, int]], value: Sequence[float]) -> None:
        """One visit with `value` (one entry per player) on every node and edge of `path`."""
        for node, edge in path:
            node.visits += 1
            node.edge_visits[edge] += 1
            sums = node.edge_values[edge]
            for i, v in enumerate(value):
                sums[i] += v

    def find_root_child(self, state: State) -> Optional[Node]:
        """The first child of the root (edges in action order, each one's children the newest
        first, as tree.cc lists them) whose position is `state`'s, or None."""
        for children in self.root.children:
            for child in reversed(children.values()):
                if same_position(child.state, state):
                    return child
        return None

    def reroot(self, node: Node) -> None:
        """`node` becomes the root; the rest of the tree is dropped (`size` is not recounted:
        only MCTS reads it, and it never re-roots)."""
        self.root = node
