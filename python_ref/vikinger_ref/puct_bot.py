"""PuctBot: a bot on PuctSearch (docs/neural.md "Evaluators and bots"), with the interface of
the other bots (step, policy, restart). vikinger_fast.neural.PuctBot is this class on the C++
search.

PuctBot(game, seed, *, simulations=None, max_time=None, model=None, evaluator=None, c_init=1.25,
c_base=0.0, batch_size=32, reuse=True, playouts=0, playout_weight=0.5, solver_nodes=0,
leaf_solver_nodes=0, score_utility=0.0, score_scale=0.0, score_round=1): the evaluator is
`evaluator`
(any callable of the protocol, or a Network, which the search runs itself), else the MLP of the
weights file `model`, else the heuristic
evaluation with uniform priors. With `playouts` > 0 a leaf's value is (1 - playout_weight) * the
evaluator's + playout_weight * the mean returns of that many random playouts from the leaf
(docs/neural.md "Mixed leaf values"); the playouts of search k use the streams mix(seed + k + 1) +
i, i counting the search's playouts. A search spends `simulations` leaves and/or `max_time` seconds
(checked between batches, once the root's children have a visit); a max_time of 1e9 s or more
sets no deadline, so alone it is refused (a search that could not end). Search k (since
construction or restart) uses seed mix(seed + k); with `reuse` the tree of the last search is
kept when the new state is one of its root's children. step plays the most visited action (the
lowest id on a tie); a state with one legal action is answered at once.

The endgame solver (docs/search.md "Solver"; docs/neural.md "The solver in the search"): with
`solver_nodes` > 0, step and policy first solve a round-6 decision node with no chance ahead within
that many nodes; when it finishes, its action is played (policy: 1 for it, 0 elsewhere) and no
search is run. Two players: who wins is asked first (solve_endgame_result, the same budget; where
it does not finish, neither solve is tried further), and where the exact solve then gives up the
search's move is played only when it keeps the best result the result solve found (else the
result solve's action). With `leaf_solver_nodes` > 0 as well, the search solves every new
round-6 leaf within that many nodes, and a solved leaf backs up its exact returns instead of the
evaluator's values (PuctSearch(solver_nodes=)). solver_nodes=0 turns both off. A move's solves
share one EndgameSolver table (docs/search.md "A table kept across solves").

The score utility (docs/neural.md "Score-aware values"): with `score_utility` = w > 0 every value
the search backs up is (1 - w) * win share + w * (score + 1) / 2 per seat, the score being the
network's score head at a leaf and tanh(margin in Fame / 8) at a terminal node, a solved leaf and
the end of a playout. It needs a network with a score head (a Network, an MLPEvaluator or the
weights file of `model`): anything else is a ValueError at construction. With `score_scale` = D > 0
(Fame; it needs score_utility > 0) the score is centred on the root: tanh((margin - centre) / (64 *
D)), the centre the root's projected margin and a leaf's margin read from the score head, so that
a margin keeps counting once the winner is known (PuctSearch(score_scale=)); the search itself reads
the head then, so the evaluator must be a Network (AZBot's default). `score_round` (1 to 6): the
first round whose searches use the score utility; the searches of earlier rounds use win shares
alone (a search of another kind than the last one starts a new tree).
"""

from __future__ import annotations

import math
import threading

from typing import TYPE_CHECKING, Any, Callable, Union

import numpy as np

from .actions import NUM_DISTINCT_ACTIONS
from .components import NUM_ROUNDS
from .arguments import MAX_SECONDS, check_int, check_not_huge, check_seconds, type_name
from .batched_search import MAX_PLAYOUT_VALUES, PuctSearch
from .game import Game
from .mlp import SCORE_HEAD_NEEDED, MLPEvaluator
from .network import Network
from .rng import MASK64, mix
from .solver import EndgameSolver, no_chance_ahead
from .state import State

if TYPE_CHECKING:
    import os

    from .game import GameLike

    Model = Union[str, os.PathLike[str]]

UNLIMITED = 1 << 62  # the simulations of a search bounded by time alone
SCORE_SCALE_NEEDS_NETWORK = (
    "score_scale > 0 needs the integer Network as evaluator (AZBot's default), not the numpy "
    "MLPEvaluator: the search centres the score head itself"
)


def _check_number(name: str, value: Any) -> None:
    """TypeError unless `value` is an int or float (numpy's included), bools refused."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(
        value, (int, float, np.integer, np.floating)
    ):
        raise TypeError(f"{name} must be a number, not {type_name(value)}")


def _check_nodes(name: str, value: Any) -> int:
    """A node budget: an int in 0..2**63-1 (0: off), as MCTSBot(solver_nodes=)."""
    if check_int(name, value) < 0:
        raise ValueError(f"{name} must be >= 0, not {value}")
    return int(check_not_huge(name, value))


class PuctBot:
    """See the module docstring."""

    # The engine's classes: the C++ twin (vikinger_fast.neural) puts its own in their place.
    _search_class: Any = PuctSearch
    _state_class: Any = State
    _game_class: Any = Game
    _network_class: Any = Network
    _endgame_solver_class: Any = EndgameSolver
    _no_chance_ahead: Any = staticmethod(no_chance_ahead)
    _round: Any = staticmethod(lambda state: state.round)

    def __init__(
        self,
        game: GameLike,
        seed: int,
        *,
        simulations: int | None = None,
        max_time: float | None = None,
        model: Model | None = None,
        evaluator: Any = None,
        c_init: float = 1.25,
        c_base: float = 0.0,
        batch_size: int = 32,
        reuse: bool = True,
        playouts: int = 0,
        playout_weight: float = 0.5,
        solver_nodes: int = 0,
        leaf_solver_nodes: int = 0,
        score_utility: float = 0.0,
        score_scale: float = 0.0,
        score_round: int = 1,
    ) -> None:
        if not isinstance(game, self._game_class):
            raise TypeError(f"game must be a Game, not {type_name(game)}")
        self._seed = check_int("seed", seed) & MASK64
        self._game = game
        if simulations is not None and check_int("simulations", simulations) <= 0:
            raise ValueError(f"simulations must be > 0, not {simulations}")
        seconds = None if max_time is None else check_seconds("max_time", max_time)
        if simulations is None and max_time is None:
            raise ValueError("PuctBot needs a budget: simulations or max_time")
        if simulations is None and seconds is not None and seconds >= MAX_SECONDS:
            # A search bounded by nothing would never return (docs/search.md "Budgets").
            raise ValueError(
                "PuctBot needs a finite budget: simulations, or max_time below 1e9 "
                f"seconds, not {max_time}"
            )
        if (
            evaluator is not None
            and not callable(evaluator)
            and not isinstance(evaluator, self._network_class)
        ):
            raise TypeError(f"evaluator must be callable, not {type_name(evaluator)}")
        if model is not None and evaluator is not None:
            raise ValueError("PuctBot takes model or evaluator, not both")
        if check_int("batch_size", batch_size) < 1:
            raise ValueError(f"batch_size must be >= 1, not {batch_size}")
        if not 0 <= check_int("playouts", playouts) <= MAX_PLAYOUT_VALUES:
            raise ValueError(f"playouts must be in 0..{MAX_PLAYOUT_VALUES}, not {playouts}")
        _check_number("playout_weight", playout_weight)
        if not 0.0 <= playout_weight <= 1.0:
            raise ValueError(f"playout_weight must be in [0, 1], not {playout_weight}")
        _check_number("score_utility", score_utility)
        if not 0.0 <= score_utility <= 1.0:
            raise ValueError(f"score_utility must be in [0, 1], not {score_utility}")
        _check_number("score_scale", score_scale)
        if not 0.0 <= score_scale < math.inf:
            raise ValueError(f"score_scale must be finite and >= 0, not {score_scale}")
        if score_scale > 0.0 and score_utility == 0.0:
            raise ValueError("score_scale > 0 needs score_utility > 0 (the score's weight)")
        if not 1 <= check_int("score_round", score_round) <= NUM_ROUNDS:
            raise ValueError(f"score_round must be in 1..{NUM_ROUNDS}, not {score_round}")
        self._score_round = int(score_round)
        self._solver_nodes = _check_nodes("solver_nodes", solver_nodes)
        leaf_solver_nodes = _check_nodes("leaf_solver_nodes", leaf_solver_nodes)
        self._playouts = int(playouts)
        self._playout_weight = float(playout_weight)
        self._simulations = None if simulations is None else int(simulations)
        # As MCTSBot: a time budget of MAX_SECONDS or more (inf included) sets no deadline.
        self._max_time = None if seconds is None or seconds >= MAX_SECONDS else seconds
        self._evaluator = evaluator
        if model is not None:  # the one model loader of every bot (mlp.py, npz.py)
            self._evaluator = MLPEvaluator.load(model, game)
        self._options = {"c_init": c_init, "c_base": c_base}
        if self._solver_nodes > 0 and leaf_solver_nodes > 0:
            self._options["solver_nodes"] = leaf_solver_nodes
        # The evaluator and search options of the rounds with the score utility (from
        # score_round on); the others' when it is off.
        self._scored = (self._evaluator, self._options)
        self._score_on = score_utility > 0.0
        if self._score_on:
            scored = self._score_evaluator(
                self._evaluator, float(score_utility), float(score_scale)
            )
            options = {**self._options, "score_utility": float(score_utility)}
            if score_scale > 0.0:
                options["score_scale"] = float(score_scale)
            self._scored = (scored, options)
        self._batch_size = int(batch_size)
        self._reuse = bool(reuse)
        # Checks c_init and c_base now, with the search's messages.
        self._search_class([self._some_decision_node()], simulations=1, **self._scored[1])
        self._lock = threading.Lock()
        self.restart()

    def _score_evaluator(self, evaluator: Any, weight: float, scale: float) -> Any:
        """The evaluator of the score utility `weight`: a Network as it is (the search blends its
        heads), an MLPEvaluator's with_score_utility (not with a centred score: its values would
        be blended before the search knows the root); ValueError for anything without a score
        head."""
        if isinstance(evaluator, self._network_class) and evaluator.has_score_head:
            return evaluator
        if isinstance(evaluator, MLPEvaluator) and evaluator.score is not None:
            if scale > 0.0:
                raise ValueError(SCORE_SCALE_NEEDS_NETWORK)
            return evaluator.with_score_utility(weight)
        raise ValueError(SCORE_HEAD_NEEDED)

    def _some_decision_node(self) -> Any:
        state = self._game.new_initial_state()
        while state.is_chance_node():
            state.apply_random_chance(0)
        return state

    def restart(self) -> None:
        """Back to the first search's seed, no tree kept."""
        self._searches = 0
        self._search: Any = None
        self._search_scored = False

    def _check(self, state: Any, method: str) -> None:
        if not isinstance(state, self._state_class):
            raise TypeError(f"state must be a State, not {type_name(state)}")
        if state.get_game() != self._game:
            raise ValueError(
                f"{method} got a state of {state.get_game()!r}, the bot plays {self._game!r}"
            )
        if state.is_terminal():
            raise ValueError(f"{method} needs a decision node, not a terminal state")
        if state.is_chance_node():
            raise ValueError(f"{method} needs a decision node, not a chance node")

    def _evaluator_of(self, search: Any, evaluator: Any) -> Callable[..., Any]:
        """The evaluator `search.run` calls: `evaluator` (the bot's), else the heuristic values
        with uniform priors (zero logits) of the search's own leaves."""
        if evaluator is not None:
            return evaluator

        def heuristic(observations: Any, legal: Any) -> tuple[np.ndarray, np.ndarray]:
            zeros = np.zeros((len(observations), NUM_DISTINCT_ACTIONS), np.float32)
            return zeros, search.heuristic_values()

        return heuristic

    def search(self, state: Any, method: str = "search") -> dict[str, Any]:
        """The root's results after a search from `state` (PuctSearch.results()[0])."""
        with self._lock:
            self._check(state, method)
            budget = self._simulations if self._simulations is not None else UNLIMITED
            scored = self._score_on and self._round(state) >= self._score_round
            evaluator, options = self._scored if scored else (self._evaluator, self._options)
            search = self._search
            if (
                search is None
                or not self._reuse
                or scored != self._search_scored
                or not search.advance(0, state)
            ):
                search = self._search_class(
                    [state],
                    simulations=budget,
                    seed=mix((self._seed + self._searches) & MASK64),
                    **options,
                )
            self._searches += 1
            # Mixed leaf values (AlphaGo, Silver et al. 2016): search k's playouts are numbered
            # on from the stream mix(seed + k + 1), as run() counts them.
            search.run(
                self._evaluator_of(search, evaluator),
                self._batch_size,
                max_time=self._max_time,
                playouts=self._playouts,
                playout_weight=self._playout_weight,
                playout_seed=mix((self._seed + self._searches) & MASK64),
            )
            self._search, self._search_scored = search, scored
            return search.results()[0]

    def solved_action(self, state: Any) -> int | None:
        """The solver's action at a round-6 decision node with no chance ahead when it finishes
        within solver_nodes nodes; None otherwise (solver off, too many nodes, or the table's
        memory bound reached, which is giving up as in MCTSBot)."""
        return self._solve(state)[0]

    def _solve(self, state: Any) -> tuple[int | None, dict[str, Any] | None, Any]:
        """(the exact action or None, the result solve or None, the move's solver table). Two
        players: who wins first (solve_endgame_result, often far fewer nodes), then, where that
        finished, the exact solve; where the result did not finish the exact solve would seldom
        either, so a hopeless position costs one budget, as before. More players: the exact
        solve (max^n has no window). The move's solves share one EndgameSolver table (docs/search.md
        "A table kept across solves"): the exact solve starts from the result solve's bounds, and
        _result_of's check from both. It is dropped with the move."""
        if self._solver_nodes == 0 or not self._no_chance_ahead(state):
            return None, None, None
        table = self._endgame_solver_class(self._game)
        result = None
        try:
            if self._game.num_players == 2:
                result = table.solve_result(state, self._solver_nodes)
                if result is None:
                    return None, None, None
            solved = table.solve(state, self._solver_nodes)
        except MemoryError:
            return None, result, None
        return (None if solved is None else solved["action"]), result, table

    def _result_of(self, state: Any, action: int, mover: int, table: Any) -> int | None:
        """The mover's result (1 win, 0 shared, -1 loss) after `action` under best play, or None
        where the solver does not finish (or a chance node lies ahead, or the move's `table` is
        full)."""
        child = state.clone()
        child.apply_action(action)
        if child.is_terminal():
            share = child.returns()[mover]
            return 1 if share == 1.0 else 0 if share > 0.0 else -1
        if not self._no_chance_ahead(child):
            return None
        if table is None:
            return None
        try:
            solved = table.solve_result(child, self._solver_nodes)
        except MemoryError:
            return None
        return None if solved is None else int(solved["results"][mover])

    def _keep_result(
        self, state: Any, chosen: int, result: dict[str, Any] | None, table: Any
    ) -> int:
        """The search's `chosen` action, unless the result solve knows it gives away the best
        result the mover can reach (a result-changing blunder): then the solver's action of that
        result. Where every action loses, the search's move stands (only the margin is left to
        play for); where the check of the chosen action does not finish, the result solve's
        action is played, its result sure (docs/learning.md "The solver in the learned
        player")."""
        if result is None:
            return chosen
        mover = state.current_player()
        best = int(result["results"][mover])
        if best < 0:
            return chosen
        got = self._result_of(state, chosen, mover, table)
        return chosen if got is not None and got >= best else int(result["action"])

    def step(self, state: Any) -> int:
        """The solver's action where it finishes, else the most visited root action (the lowest
        id on a tie), kept only when it keeps the best result the result solve knows."""
        self._check(state, "step")
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        solved, result, table = self._solve(state)
        if solved is not None:
            return solved
        searched = self.search(state, "step")
        visits = searched["visits"]
        chosen = searched["actions"][visits.index(max(visits))]
        return self._keep_result(state, chosen, result, table)

    def policy(self, state: Any) -> list[tuple[int, float]]:
        """[(action, visit share)] over the legal actions (1 for the solver's action where it
        finishes, or where the result solve replaces the most visited action, 0 elsewhere)."""
        self._check(state, "policy")
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        solved, solved_result, table = self._solve(state)
        if solved is not None:
            return [(a, 1.0 if a == solved else 0.0) for a in legal]
        result = self.search(state, "policy")
        visits = result["visits"]
        chosen = result["actions"][visits.index(max(visits))]  # step's
        kept = self._keep_result(state, chosen, solved_result, table)
        if kept != chosen:
            return [(a, 1.0 if a == kept else 0.0) for a in legal]
        total = sum(visits)
        if total == 0:
            # A time budget so small that no child was visited: the priors (uniform before
            # the root was evaluated), never a division by zero.
            priors = list(result.get("priors") or [])
            if len(priors) != len(result["actions"]) or sum(priors) <= 0:
                priors = [1.0] * len(result["actions"])
            return [(a, p / sum(priors)) for a, p in zip(result["actions"], priors)]
        return [(a, v / total) for a, v in zip(result["actions"], result["visits"])]
