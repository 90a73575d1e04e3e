"""The exact endgame solver (docs/search.md "Solver"): once no chance node is left (round 6 with
its offer on the wheel), the outcome under best play. The same nodes in the same order as
vikinger_fast's solver.cc, hence the same result and node count.

Each player's final margin: u_i = 64 * Fame_i + gold_i - max over j != i of the same (gold left
after B8.2 is below 5: Fame first, gold the B8.9 tie-break). Two players: alpha-beta on u_0 with
a transposition table on hash_key of exact values and bounds; more players: max^n, the mover
maximizing its own u (first action in id order on a tie). Round 6's large scoring: each scorer's
trips are listed apart and the lists played against each other through the boatsmen's majority
(last_scoring for two players, last_scoring_n for more); at two players a list is made by counts
(trip_ends.py: the trips with every Viking on its leftmost tile, then the best tiles for each
end; the ends visited once per scorer's counts and reused). A node is counted each time the
search enters one (and each end listed by counts, and each pairing of outcomes of more than two
players); past `max_nodes`, or at a chance node, the solver gives up (None). The table holds at
most max_memory // ENTRY_BYTES positions, counted as the C++ table's entries are (this dict takes
several times their bytes): a new position beyond that is a MemoryError in both engines.
"""

from __future__ import annotations

import math
import os
import resource
from typing import Any, Callable, Iterator, NoReturn, Optional

from . import trip_ends
from .board import ROWS, PlayerBoard
from .arguments import check_int, check_not_huge, type_name
from .components import BOATSMAN, NUM_ROUNDS
from .evaluation import projected_boards
from .playouts import check_state
from .scoring import (
    boatsmen_kept,
    count_majorities,
    final_scoring_alone,
    large_scoring,
    majority_fame,
)
from .serialization import hash_bytes, other_scorer_bytes, scorer_bytes
from .game import Game
from .state import State
from .trips import trip_possible

Ends = list[tuple[int, int]]  # (boatsmen kept, own total) pairs
FAME_UNIT = 64
# The score utility (docs/neural.md "Score-aware values"): a margin u, in units of 1/64 Fame, is
# squashed as tanh(u / 64 / SCORE_SCALE), the score head's target (training/targets.py).
SCORE_SCALE = 8.0
HEAD_CLIP = 1.0 - 1.0 / (1 << 20)  # head_margin's bound on a score (solver.h's kHeadClip)
INFINITY = (1 << 63) // 2
EXACT, LOWER, UPPER = range(3)
ENTRY_BYTES = 80  # a table entry of solver.cc (kSolverEntryBytes)


class _GiveUp(Exception):
    pass


class _OutOfMemory(Exception):
    pass


def default_max_memory() -> int:
    """A quarter of the physical memory, or of the address-space limit when that is lower (the
    C++ DefaultSolverMemory)."""
    total = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    limit = resource.getrlimit(resource.RLIMIT_AS)[0]
    if limit != resource.RLIM_INFINITY:
        total = min(total, limit)
    return total // 4


def no_chance_ahead(state: State) -> bool:
    """The cheap test: round 6 and not a chance node (A5 refills may still bring one)."""
    return state.round == NUM_ROUNDS and not state.is_chance_node()


def total_margins(totals: list[int]) -> list[int]:
    """Each player's total (64 * Fame + gold) minus the best other player's."""
    return [
        total - max(t for j, t in enumerate(totals) if j != i) for i, total in enumerate(totals)
    ]


def final_margins(state: State) -> list[int]:
    return total_margins([FAME_UNIT * board.fame + board.gold for board in state.players])


def in_last_scoring(state: State) -> bool:
    """Round 6's large scoring (B7.2 step 1): a scorer's trips, the last decisions of the game."""
    return state.round == NUM_ROUNDS and state.phase in ("trip", "trip_target")


def own_total(end: State, player: int, fixed: list[list[int]]) -> int:
    """A player's total (64 * Fame + gold) at the end, without the majorities of B8.3-B8.5:
    from a final position, the total less the majorities' Fame; from a position where the player
    has scored and another has not, the board's own final scoring (final_scoring_alone).
    `fixed`: every player's counts, of which the islands cannot change in the large scoring."""
    if end.is_terminal():
        counts = [
            [boatsmen_kept(board, BOATSMAN)] + count[1:] for board, count in zip(end.players, fixed)
        ]
        fame = majority_fame(counts)  # type: ignore[arg-type]  # lists as tuples
        board = end.players[player]
        return FAME_UNIT * (board.fame - fame[player]) + board.gold
    board = end.players[player].copy()
    final_scoring_alone(board)
    return FAME_UNIT * board.fame + board.gold


class _Solver:
    def __init__(self, max_nodes: int, max_memory: int, by_counts: bool = True) -> None:
        self.max_nodes = max_nodes
        self.max_memory = max_memory
        self.by_counts = by_counts  # trips="counts": two players' lists by counts (best_ends)
        self.max_entries = max_memory // ENTRY_BYTES
        self.nodes = 0
        self.table: dict[int, Any] = {}
        # A scorer's outcomes by the hash of scorer_bytes: (the (boatsmen kept, own total) pairs,
        # the actions of the first path to an end). Two players keep the best total for each
        # count, in ascending count (best_per_count); more players every pair, in the order of
        # their first end (visit).
        self.outcomes: dict[int, tuple[Ends, list[int]]] = {}
        # Two players' ends of counts (best_ends) by the counts that decide them, in the visit's
        # order; each counts as one entry and one per end.
        self.ends_by_counts: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
        self.cached = 0  # the entries the outcomes and the ends count for

    def begin(self, max_nodes: int) -> None:
        """A solve from the entries kept (EndgameSolver): this call's budget, its nodes from 0."""
        self.max_nodes = max_nodes
        self.nodes = 0

    @property
    def entries(self) -> int:
        """The positions and list entries held, as counted against max_memory."""
        return len(self.table) + self.cached

    def reserve(self, extra: int) -> None:
        """Out of memory unless `extra` more entries fit beside the table and the outcomes."""
        if self.entries + extra > self.max_entries:
            raise _OutOfMemory

    def store(self, key: int, entry: Any) -> None:
        """table[key] = entry, unless a new position would pass max_entries."""
        if key not in self.table:
            self.reserve(1)
        self.table[key] = entry

    def tick(self) -> None:
        """Counts a node without a position (a pairing of the scorers' outcomes)."""
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise _GiveUp

    def enter(self, state: State) -> None:
        self.nodes += 1
        if self.nodes > self.max_nodes or state.is_chance_node():
            raise _GiveUp

    def children(self, state: State) -> Iterator[tuple[int, State]]:
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            yield action, child

    def alpha_beta(
        self, state: State, alpha: int, beta: int, root: bool = False
    ) -> tuple[int, Optional[int]]:
        """(u_0, best action) under best play."""
        self.enter(state)
        if state.is_terminal():
            return final_margins(state)[0], None
        key = state.hash_key()
        entry = self.table.get(key)
        if entry is not None and not root:
            value, bound = entry
            if (
                bound == EXACT
                or (bound == LOWER and value >= beta)
                or (bound == UPPER and value <= alpha)
            ):
                return value, None
        if not root and in_last_scoring(state):
            value = self.last_scoring(state)
            self.store(key, (value, EXACT))
            return value, None
        maximizing = state.current_player() == 0
        alpha0, beta0 = alpha, beta
        best_value, best_action = 0, None
        for i, (action, child) in enumerate(self.children(state)):
            value, _ = self.alpha_beta(child, alpha, beta)
            if i == 0 or (value > best_value if maximizing else value < best_value):
                best_value, best_action = value, action
            if maximizing:
                alpha = max(alpha, value)
            else:
                beta = min(beta, value)
            if alpha >= beta:
                break
        bound = UPPER if best_value <= alpha0 else LOWER if best_value >= beta0 else EXACT
        self.store(key, (best_value, bound))
        return best_value, best_action

    def last_scoring(self, state: State) -> int:
        """u_0 under best play in round 6's large scoring (two players; solver.cc's
        LastScoring). A scorer's trips change their own board alone, and the boards meet only in
        the majorities of B8.3-B8.5, where only the count of boatsmen kept can still change. So
        each scorer's outcomes are listed once and the two lists played against each other: the
        first scorer keeps a count, the second answers."""
        s = state.current_player()
        o = 1 - s
        counts = [list(count_majorities(board, BOATSMAN)) for board in state.players]
        key = hash_bytes(scorer_bytes(state, s))
        mine = self.outcomes.get(key)
        if mine is None:
            mine = self.keep(key, self.best_ends(state, counts))
        # The other player's outcomes hang on their board alone, and on whether they have
        # scored: keyed by both, found from the board (other_from_board) or after one of the
        # scorer's ends (the first path's).
        other_key = hash_bytes(other_scorer_bytes(state, o))
        theirs = self.outcomes.get(other_key)
        if theirs is None:
            listed = self.other_from_board(state, o)
            if listed is None:  # their trips from the end of one of the scorer's
                end = state.clone()
                if not mine[1]:  # ends reused by counts: no path was visited
                    self.first_end(end)
                for action in mine[1]:
                    end.apply_action(action)
                if end.is_terminal():  # their trips were forced, played on without a decision
                    outcome = (boatsmen_kept(end.players[o], BOATSMAN), own_total(end, o, counts))
                    listed = [outcome], []
                else:
                    listed = self.best_ends(end, counts)
            theirs = self.keep(other_key, listed)
        best = 0
        for a, (kept, total) in enumerate(mine[0]):
            answer = 0  # the other player's best answer: the lowest margin for s
            for b, (their_kept, their_total) in enumerate(theirs[0]):
                counts[s][0], counts[o][0] = kept, their_kept
                fame = majority_fame(counts)  # type: ignore[arg-type]  # lists as tuples
                margin = total + FAME_UNIT * fame[s] - their_total - FAME_UNIT * fame[o]
                if b == 0 or margin < answer:
                    answer = margin
            if a == 0 or answer > best:
                best = answer
        return best if s == 0 else -best

    def keep(self, key: int, fresh: Any) -> Any:
        """Caches the outcomes `fresh` under `key`; a list counts against max_memory as one
        table entry and one for each pair it holds."""
        entries = 1 + len(fresh[0])
        self.reserve(entries)
        self.cached += entries
        self.outcomes[key] = fresh
        return fresh

    def visit(self, state: State, fixed: list[list[int]]) -> tuple[Ends, list[int]]:
        """The outcomes of the trips of the state's scorer, visited depth first: every distinct
        (boatsmen kept, own total) pair in the order of its first end, and the first path."""
        player = state.current_player()
        ends: dict[tuple[int, int], None] = {}  # a dict keeps the order of insertion

        def at_end(end: State) -> None:
            kept = boatsmen_kept(end.players[player], BOATSMAN)
            ends.setdefault((kept, own_total(end, player, fixed)))

        first_path = self.visit_trips(state, False, at_end)
        return list(ends), first_path

    def best_ends(self, state: State, fixed: list[list[int]]) -> tuple[Ends, list[int]]:
        """Two players' outcomes of the trips of the state's scorer (best_per_count of visit):
        by counts (trip_ends.py) unless an A5 building stands on the scorer's board. The trips
        are visited with each Viking on its leftmost tile; each new end of counts (the scorer's
        mainland and A5 tiles) counts as a node, and its best tiles give its total. B7.2.1a makes
        those ends hang on the scorer's counts alone (mainland, A5 tiles, free tiles per row):
        before a trip is begun they are visited once per counts and then reused, the first path
        left to first_end (an empty path)."""
        player = state.current_player()
        start = state.players[player]
        if not self.by_counts or not trip_ends.by_counts(start):
            return best_per_count(self.visit(state, fixed))
        tiles = trip_ends.candidates(start, state.trip)
        reusable = state.phase == "trip"  # no trip begun
        counts = counts_of(start, tiles)
        if reusable and counts in self.ends_by_counts:
            return self.score_ends(start, tiles, self.ends_by_counts[counts]), []
        best: dict[int, int] = {}
        ends: list[tuple[int, ...]] = []

        def at_end(end: State) -> None:
            board = end.players[player]
            key = tuple(board.mainland) + tuple(board.specials)
            if key in ends:
                return
            ends.append(key)
            self.score_end(start, tiles, key, best)

        first_path = self.visit_trips(state, True, at_end)
        if reusable:
            self.reserve(1 + len(ends))
            self.cached += 1 + len(ends)
            self.ends_by_counts[counts] = ends
        return sorted(best.items()), first_path

    def score_end(
        self, start: PlayerBoard, tiles: list[list[int]], key: tuple[int, ...], best: dict[int, int]
    ) -> None:
        """One end for the scorer whose board was `start`: a node, and its best total into
        best[kept]."""
        self.tick()
        end = start.copy()
        end.mainland = list(key[: len(start.mainland)])
        end.specials = list(key[len(start.mainland) :])
        kept = boatsmen_kept(end, BOATSMAN)
        total = trip_ends.best_total(start, end, tiles)
        if kept not in best or total > best[kept]:
            best[kept] = total

    def score_ends(
        self, start: PlayerBoard, tiles: list[list[int]], ends: list[tuple[int, ...]]
    ) -> Ends:
        """The outcomes of reused ends."""
        best: dict[int, int] = {}
        for key in ends:
            self.score_end(start, tiles, key, best)
        return sorted(best.items())

    def other_from_board(self, state: State, o: int) -> Optional[tuple[Ends, list[int]]]:
        """The other player's outcomes in last_scoring, from their board where it decides them:
        one outcome when they have scored or have no trip (B7.2 steps 2-6 and their own part of
        B8, as the final position gives them), the ends reused by counts when they begin their
        trips with counts met before (counts that began a visit at a decision, so theirs is one
        too: a single legal action is played on without one); None where it does not
        (solver.cc's OtherFromBoard)."""
        board = state.players[o]
        scored = state.scoring_index == 1  # two players: the other scored first
        if scored or not trip_possible(board):
            end = board.copy()
            if not scored:
                large_scoring(end)
            final_scoring_alone(end)
            return [(boatsmen_kept(end, BOATSMAN), FAME_UNIT * end.fame + end.gold)], []
        if not self.by_counts or not trip_ends.by_counts(board):
            return None
        tiles = trip_ends.candidates(board, None)
        ends = self.ends_by_counts.get(counts_of(board, tiles))
        if ends is None:
            return None
        return self.score_ends(board, tiles, ends), []

    def first_end(self, state: State) -> None:
        """Plays the state's scorer along the first path of visit_trips (the first action at
        every step, each step counted as a node) to the scorer's end."""
        index = state.scoring_index
        while True:
            state.apply_action(state.legal_actions()[0])
            self.enter(state)
            if not in_last_scoring(state) or state.scoring_index != index:
                return

    def visit_trips(
        self, state: State, leftmost: bool, at_end: Callable[[State], None]
    ) -> list[int]:
        """Depth first over the decisions of the state's scorer, each position once (counted as
        a node; a final position each time it is reached, unhashed), actions in id order, or
        only the first target of each Viking when `leftmost`; calls at_end at each end (the
        scorer done). Returns the first path to an end."""
        seen: set[int] = set()
        path: list[int] = []
        first_path: list[int] = []

        def visit(node: State) -> None:
            actions = node.legal_actions()
            if leftmost and node.phase == "trip_target":
                actions = actions[:1]
            for action in actions:
                child = node.clone()
                child.apply_action(action)
                if not child.is_terminal():
                    key = child.hash_key()
                    if key in seen:
                        continue
                    self.reserve(len(seen) + 1)
                    seen.add(key)
                path.append(action)
                self.enter(child)
                if in_last_scoring(child) and child.scoring_index == node.scoring_index:
                    visit(child)
                else:
                    if not first_path:
                        first_path.extend(path)
                    at_end(child)
                path.pop()

        visit(state)
        return first_path

    def last_scoring_n(self, state: State) -> list[int]:
        """The margins under max^n in round 6's large scoring (three or four players; solver.cc's
        LastScoringN). As in last_scoring, each scorer's trips are listed once: the current
        scorer's, then each later scorer's from the end of the first path before. But a later
        scorer's answer can hang on an earlier scorer's total, not only on the count kept (the
        best other player is not always the same), so every distinct (count, total) pair is
        kept, in the order of its first end: the first pair of the best margin is the full
        tree's first action of it."""
        fixed = [list(count_majorities(board, BOATSMAN)) for board in state.players]
        scorer = state.current_player()
        key = hash_bytes(scorer_bytes(state, scorer))
        outcomes = self.outcomes.get(key)
        if outcomes is None:
            outcomes = self.keep(key, self.visit(state, fixed))
        chain = [(scorer, outcomes[0])]
        end = state.clone()
        for action in outcomes[1]:
            end.apply_action(action)
        while not end.is_terminal():  # the later scorers, each from an end of the one before
            scorer = end.current_player()
            key = hash_bytes(other_scorer_bytes(end, scorer))
            outcomes = self.outcomes.get(key)
            if outcomes is None:
                outcomes = self.keep(key, self.visit(end, fixed))
            chain.append((scorer, outcomes[0]))
            for action in outcomes[1]:
                end.apply_action(action)
        # The players outside the chain have scored (or have no trip): their ends are fixed.
        counts = [
            [boatsmen_kept(board, BOATSMAN)] + count[1:] for board, count in zip(end.players, fixed)
        ]
        totals = [own_total(end, player, fixed) for player in range(len(fixed))]
        return self.pair(chain, 0, counts, totals)

    def pair(
        self, chain: list[tuple[int, Ends]], k: int, counts: list[list[int]], totals: list[int]
    ) -> list[int]:
        """The margins when the chain's scorers from k on choose in turn, each the first of its
        pairs with its best margin (max^n); each full pairing counts as a node."""
        if k == len(chain):
            self.tick()
            fame = majority_fame(counts)  # type: ignore[arg-type]  # lists as tuples
            return total_margins([t + FAME_UNIT * f for t, f in zip(totals, fame)])
        scorer, ends = chain[k]
        best: Optional[list[int]] = None
        for kept, total in ends:
            counts[scorer][0], totals[scorer] = kept, total
            margins = self.pair(chain, k + 1, counts, totals)
            if best is None or margins[scorer] > best[scorer]:
                best = margins
        assert best is not None  # a scorer's trips have an end
        return best

    def max_n(self, state: State, root: bool = False) -> tuple[list[int], Optional[int]]:
        """(margins, best action) under max^n."""
        self.enter(state)
        if state.is_terminal():
            return final_margins(state), None
        key = state.hash_key()
        if key in self.table and not root:
            return self.table[key], None
        if not root and in_last_scoring(state):
            margins = self.last_scoring_n(state)
            self.store(key, margins)
            return margins, None
        mover = state.current_player()
        best, best_action = None, None
        for action, child in self.children(state):
            margins, _ = self.max_n(child)
            if best is None or margins[mover] > best[mover]:
                best, best_action = margins, action
        self.store(key, best)
        return best, best_action  # type: ignore[return-value]  # set: there is an action


def counts_of(start: PlayerBoard, tiles: list[list[int]]) -> tuple[int, ...]:
    """What decides a scorer's ends (best_ends), `tiles` the free tiles it may take."""
    return tuple(start.mainland) + tuple(start.specials) + tuple(len(tiles[row]) for row in ROWS)


def best_per_count(outcomes: tuple[Ends, list[int]]) -> tuple[Ends, list[int]]:
    """Two players' outcomes: the best own total for each count of boatsmen kept, in ascending
    count (the first scorer's margin rises with its total whatever the other answers)."""
    best: dict[int, int] = {}
    for kept, total in outcomes[0]:
        if kept not in best or total > best[kept]:
            best[kept] = total
    return sorted(best.items()), outcomes[1]


def margin_returns(margins: list[int]) -> list[float]:
    """The B8.9 returns of the final position the margins belong to: the players whose margin is
    >= 0 (the one with u > 0, or those tied at the top with u = 0) share 1 equally."""
    winners = sum(1 for u in margins if u >= 0)
    return [1.0 / winners if u >= 0 else 0.0 for u in margins]


def margin_score(margin: float, centre: float, scale: float) -> float:
    """The score of a margin (estimate) in the score utility, in (-1, 1): tanh(margin / (64 *
    SCORE_SCALE)) when scale == 0, the score head's target (the division by 2**9 is exact); with a
    scale D > 0 (Fame), centred on the root's projected margin: tanh((margin - centre) / (64 *
    D)) (solver.cc's MarginScore, the same operations in the same order)."""
    if scale == 0.0:
        return math.tanh(float(margin) / (FAME_UNIT * SCORE_SCALE))
    return math.tanh((float(margin) - centre) / (FAME_UNIT * scale))


def head_margin(score: float) -> float:
    """The margin the score head's output stands for: 64 * SCORE_SCALE * atanh(score), score
    clipped to +-HEAD_CLIP (float32 rounds tanh to 1 past about 8.7, where atanh is infinite)."""
    clipped = max(-HEAD_CLIP, min(HEAD_CLIP, float(score)))
    return FAME_UNIT * SCORE_SCALE * math.atanh(clipped)


def projected_margins(state: State) -> list[float]:
    """The margins of the boards the players would finish with if the game ended after this
    round's scoring (evaluation.projected_boards): the centre of a root's score utility."""
    boards = projected_boards(state)
    return [float(u) for u in total_margins([FAME_UNIT * b.fame + b.gold for b in boards])]


def score_utility(win_share: Any, score: Any, weight: float) -> Any:
    """(1 - weight) * win_share + weight * (score + 1) / 2: a win share and a squashed margin on
    one scale, [0, 1], in double (numpy float64 arrays too), the operations of solver.cc's
    ScoreUtility in its order."""
    return (1.0 - weight) * win_share + weight * (0.5 * (score + 1.0))


def margin_utilities(
    values: Any, margins: Any, weight: float, centre: Any = None, scale: float = 0.0
) -> list[Any]:
    """The win shares `values` of a final position blended with its `margins` (per player),
    scored by margin_score with `centre` (per player; read only when scale > 0) and `scale`."""
    return [
        score_utility(v, margin_score(u, centre[i] if scale > 0.0 else 0.0, scale), weight)
        for i, (v, u) in enumerate(zip(values, margins))
    ]


def out_of_memory_message(max_memory: int) -> str:
    return (
        f"solve_endgame: the table reached max_memory ({max_memory} bytes, "
        f"{max_memory // ENTRY_BYTES} positions); give a larger max_memory or a smaller max_nodes"
    )


def solve(
    state: State,
    max_nodes: int,
    max_memory: Optional[int] = None,
    result_only: bool = False,
    trips: str = "counts",
    solver: Optional[_Solver] = None,
) -> Optional[dict[str, Any]]:
    """{"action", "margins", "nodes"} under best play, or None past max_nodes; MemoryError
    past max_memory (default_max_memory() when None). result_only (two players): who wins, not
    by how much: the window (-1, 1) around a tie (a value past it is a bound of the right sign,
    one inside it exactly 0), "margins" the signs of the margins and "action" one of the best
    result for the mover (solver.cc's result_only). `solver`: the entries an EndgameSolver
    kept (its max_memory and trips then), else a new table."""
    if solver is None:
        if max_memory is None:
            max_memory = default_max_memory()
        solver = _Solver(max_nodes, max_memory, trips == "counts")
    solver.begin(max_nodes)
    try:
        if state.get_game().num_players == 2:
            low, high = (-1, 1) if result_only else (-INFINITY, INFINITY)
            value, action = solver.alpha_beta(state, low, high, root=True)
            if result_only:
                value = (value > 0) - (value < 0)
            margins = [value, -value]
        else:
            margins, action = solver.max_n(state, root=True)
    except _GiveUp:
        return None
    except _OutOfMemory:
        raise MemoryError(out_of_memory_message(solver.max_memory)) from None
    return {"action": action, "margins": list(margins), "nodes": solver.nodes}


def solve_endgame(
    state: State, max_nodes: int, max_memory: Optional[int] = None, trips: str = "counts"
) -> Optional[dict[str, Any]]:
    """The checked entry point of docs/search.md (same errors as vikinger_fast.solve_endgame).
    trips: how two players' last scoring is listed, "counts" (trip_ends.py) or "tiles" (every
    placement: the same values in more nodes, the solver the benchmark files were built with)."""
    return _checked(state, max_nodes, max_memory, False, trips)


def solve_endgame_result(
    state: State, max_nodes: int, max_memory: Optional[int] = None, trips: str = "counts"
) -> Optional[dict[str, Any]]:
    """Who wins under best play, not by how much (two players; docs/search.md "Solver"):
    {"action": an action of the best result for the mover, "results": the sign of each player's
    margin, "nodes"}, or None past max_nodes (same errors as vikinger_fast's)."""
    return _checked(state, max_nodes, max_memory, True, trips)


TRIPS = ("counts", "tiles")


def _checked(
    state: State, max_nodes: int, max_memory: Optional[int], result_only: bool, trips: str
) -> Optional[dict[str, Any]]:
    check_state(state)
    max_nodes = _check_budget(max_nodes)
    max_memory = _check_memory(max_memory)
    _check_trips(trips)
    name = "solve_endgame_result" if result_only else "solve_endgame"
    _check_position(state, name, "solve_endgame", result_only)
    return _answer(solve(state, max_nodes, max_memory, result_only, trips), result_only)


def _check_budget(max_nodes: Any) -> int:
    # Python and numpy ints, as everywhere in the API (arguments.py).
    if check_int("max_nodes", max_nodes) < 0:
        raise ValueError(f"max_nodes must be >= 0, not {max_nodes}")
    check_not_huge("max_nodes", max_nodes)
    if max_nodes == 0:
        raise ValueError("max_nodes must be > 0, not 0")
    return int(max_nodes)


def _check_memory(max_memory: Any) -> Optional[int]:
    if max_memory is None:
        return None
    if check_int("max_memory", max_memory) < 0:
        raise ValueError(f"max_memory must be >= 0, not {max_memory}")
    check_not_huge("max_memory", max_memory)
    if max_memory < ENTRY_BYTES:
        raise ValueError(f"max_memory must be >= {ENTRY_BYTES} (one table entry), not {max_memory}")
    return int(max_memory)


def _check_trips(trips: Any) -> None:
    if not isinstance(trips, str):
        raise TypeError(f"trips must be a str, not {type(trips).__name__}")
    if trips not in TRIPS:
        raise ValueError(f"trips must be 'counts' or 'tiles', not {trips!r}")


def _check_position(state: State, name: str, exact: str, result_only: bool) -> None:
    """A decision node the solver takes; `exact`: the call that solves more players."""
    if not no_chance_ahead(state) or state.is_terminal():
        raise ValueError(f"{name} needs a decision node of round 6 with its offer on the wheel")
    if result_only and state.get_game().num_players != 2:
        raise ValueError(f"{name} is for two players (max^n has no window): use {exact}")


def _answer(solved: Optional[dict[str, Any]], result_only: bool) -> Optional[dict[str, Any]]:
    if solved is not None and result_only:
        return {"action": solved["action"], "results": solved["margins"], "nodes": solved["nodes"]}
    return solved


# An EndgameSolver's table is a cache of this process's solves, as large as they were: the same
# refusal in both engines for pickle, copy and deepcopy.
NOT_COPIED = (
    "an EndgameSolver is not pickled or copied (its table is this process's cache): make a new one"
)


class EndgameSolver:
    """One solver table kept across solves of a game's positions (docs/search.md "A table kept
    across solves"): what one solve proved (exact values, bounds, a scorer's listed trips) is
    looked up by the next, as a chess engine keeps its transposition table between moves. The
    values are those of solve_endgame; the nodes, counted per call with max_nodes per call, are
    fewer where the positions meet. The entries are kept when a solve gives up, is interrupted
    or reaches max_memory (each is a finished result); clear() drops them. Not for use from two
    threads at once.

    Every action of a position labelled with its exact margin for the mover, on one table (the
    last scoring of a random game; 64 is a Fame, the rest gold):

    >>> import random
    >>> from vikinger_ref import Game, EndgameSolver
    >>> from vikinger_ref.solver import final_margins, in_last_scoring
    >>> game, rng = Game(2), random.Random(19)
    >>> state = game.new_initial_state()
    >>> while state.is_chance_node() or not in_last_scoring(state):
    ...     if state.is_chance_node():
    ...         outcome = state.apply_random_chance(rng.getrandbits(64))
    ...     else:
    ...         state.apply_action(rng.choice(state.legal_actions()))
    >>> solver, mover = EndgameSolver(game), state.current_player()
    >>> margins = []
    >>> for action in state.legal_actions():
    ...     child = state.clone()
    ...     child.apply_action(action)
    ...     if child.is_terminal():
    ...         margins.append(final_margins(child)[mover])
    ...     else:
    ...         margins.append(solver.solve(child, 10**5)["margins"][mover])
    >>> margins
    [-1281, -1472, -768]
    >>> solver.solve(state, 10**5)["margins"][mover] == max(margins)  # its children are entries
    True
    """

    def __init__(self, game: Game, max_memory: Optional[int] = None, trips: str = "counts") -> None:
        if not isinstance(game, Game):
            raise TypeError(f"game must be a Game, not {type_name(game)}")
        max_memory = _check_memory(max_memory)
        _check_trips(trips)
        self._game = game
        self._max_memory = default_max_memory() if max_memory is None else max_memory
        self._by_counts = trips == "counts"
        self.clear()

    def solve(self, state: State, max_nodes: int) -> Optional[dict[str, Any]]:
        """solve_endgame(state, max_nodes) from the entries kept."""
        return self._solve(state, max_nodes, False)

    def solve_result(self, state: State, max_nodes: int) -> Optional[dict[str, Any]]:
        """solve_endgame_result(state, max_nodes) from the entries kept."""
        return self._solve(state, max_nodes, True)

    def clear(self) -> None:
        """Drops every entry."""
        self._solver = _Solver(0, self._max_memory, self._by_counts)

    @property
    def entries(self) -> int:
        """The positions and list entries kept, each counted as ENTRY_BYTES of max_memory."""
        return self._solver.entries

    def __reduce__(self) -> NoReturn:
        raise TypeError(NOT_COPIED)

    def __copy__(self) -> NoReturn:
        raise TypeError(NOT_COPIED)

    def __deepcopy__(self, memo: object) -> NoReturn:
        raise TypeError(NOT_COPIED)

    def _solve(self, state: State, max_nodes: int, result_only: bool) -> Optional[dict[str, Any]]:
        name = "EndgameSolver.solve_result" if result_only else "EndgameSolver.solve"
        check_state(state)
        if state.get_game() != self._game:
            raise ValueError(
                f"{name} got a state of {state.get_game()!r}, the solver plays {self._game!r}"
            )
        max_nodes = _check_budget(max_nodes)
        _check_position(state, name, "EndgameSolver.solve", result_only)
        return _answer(
            solve(state, max_nodes, result_only=result_only, solver=self._solver), result_only
        )
