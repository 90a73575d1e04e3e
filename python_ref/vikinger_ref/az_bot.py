"""The learned player (docs/learning.md "The shipped player"): AZBot, PuctBot on the network
trained by `vikinger train` (shipped in `models/`, or any vikinger-mlp/1 file given as model=),
and PolicyNetBot, the network's policy alone (no search); both evaluate it as the integer Network
by default. vikinger_fast's classes are these on its own State, Game, PuctSearch and Network.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import numpy as np

from .arguments import type_name
from .game import Game
from .mlp import ALL_SETS, NO_MODULES, MLPEvaluator, set_name
from .network import Network
from .puct_bot import PuctBot
from .state import State

if TYPE_CHECKING:
    from .game import GameLike
    from .puct_bot import Model

MODELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "models")
# The shipped networks, the most specific first: (players, file in MODELS, the module sets it
# covers, spelled as mlp.ALL_SETS). az-{n}p.npz: the base game; az-{n}p-all.npz: every module
# set (docs/learning.md "Networks for every table"). A file not in MODELS is skipped.
SHIPPED = tuple((n, f"az-{n}p.npz", (NO_MODULES,)) for n in (2, 3, 4)) + tuple(
    (n, f"az-{n}p-all.npz", ALL_SETS) for n in (2, 3, 4)
)


def shipped_model(game: GameLike) -> str:
    """The path of the shipped network for `game`: the first file of SHIPPED in MODELS that
    covers its players and module set (ValueError when none does)."""
    table = set_name([k for k, v in game.options.items() if v])
    for players, name, covers in SHIPPED:
        path = os.path.join(MODELS, name)
        if players == game.num_players and table in covers and os.path.isfile(path):
            return path
    on = [k for k, v in game.options.items() if v]
    raise ValueError(
        f"no shipped network for {game.num_players} players with modules {on}; "
        "give model=PATH (a vikinger train export)"
    )


PRIORS = ("network", "uniform")
# The endgame solver's node budgets (docs/learning.md "The solver in the learned player"): at the
# root, and at a new round-6 leaf of the search (off: measured there not to pay for its time).
# 200,000 at the root since the solver's faster table key, which halved a game's solving time:
# most of that gain spent on more solved positions.
SOLVER_NODES = 200_000
LEAF_SOLVER_NODES = 0
# The score utility of a network with a score head, when AZBot is not told otherwise (docs/neural.md
# "Score-aware values", docs/learning.md "The centred score utility"): its weight, its centred
# scale in Fame and the first round it is used in (PuctBot's keywords). Round 6 only: the
# projected margin, its centre, is close to the final margin there, and weighing the margin in
# every round lost games (0.325 of 200 at w = 0.8); the weight was chosen on positions and seeds
# not reported.
SCORE_UTILITY = 0.3
SCORE_SCALE = 32.0
SCORE_ROUND = 6


def uniform_priors(mlp: MLPEvaluator, game: GameLike) -> MLPEvaluator:
    """The MLP with its policy head zeroed: every legal action gets the logit 0, so the search's
    priors are uniform, and the values, the layers and the cost of an evaluation are the
    network's (the ablation of docs/learning.md: the same search without the network's policy)."""
    policy_w, policy_b = mlp.policy
    zeros = (np.zeros_like(policy_w), np.zeros_like(policy_b))
    return MLPEvaluator(game, mlp.layers, zeros, mlp.value, mlp.features, mlp.score)


def _evaluator_choice(evaluator: object) -> str:
    if evaluator not in ("network", "numpy"):
        raise ValueError(f"evaluator must be 'network', 'numpy' or a callable, not {evaluator!r}")
    return evaluator


class AZBot(PuctBot):
    """PuctBot(game, seed, ..., model=the shipped network): the learned player with search. Its
    defaults are the settings measured in docs/learning.md: leaves valued half by the network and
    half by 4 random playouts (docs/neural.md "Mixed leaf values"), batches of 16 leaves; give
    playouts=0 for the network's values alone. evaluator="network" (the default) evaluates the
    network inside the search in integers (docs/neural.md "The integer network"), "numpy" with the
    float MLPEvaluator; any other evaluator (a callable of the protocol, a Network) is used as
    given, without model. priors="uniform" keeps the network's values and gives every legal
    action the same prior (the ablation of docs/learning.md "Strength": the search without the
    network's policy, at the same cost per leaf). The endgame solver is on: at a round-6 decision
    node it plays the exact move when the solver finishes within solver_nodes nodes; with
    leaf_solver_nodes > 0 the search also backs up the exact returns of the round-6 leaves it
    solves within that many nodes (PuctBot's keywords); solver_nodes=0 turns both off.
    score_utility=w > 0 backs up (1 - w) * win share + w * (score + 1) / 2 per seat, the score
    from the network's score head (PuctBot's keyword; a network without one is a ValueError);
    score_scale=D > 0 centres that score on the root's projected margin, score_round=r uses it
    from round r on (PuctBot's keywords). Left out, the three are SCORE_UTILITY, SCORE_SCALE and
    SCORE_ROUND (the centred score of round 6) on a Network with a score head, else w = 0."""

    def __init__(
        self,
        game: GameLike,
        seed: int,
        *,
        model: Model | None = None,
        evaluator: Any = "network",
        batch_size: int = 16,
        playouts: int = 4,
        playout_weight: float = 0.5,
        priors: str = "network",
        solver_nodes: int = SOLVER_NODES,
        leaf_solver_nodes: int = LEAF_SOLVER_NODES,
        score_utility: float | None = None,
        score_scale: float | None = None,
        score_round: int | None = None,
        **options: Any,
    ) -> None:
        # options: PuctBot's other keywords (simulations, max_time, c_init, c_base, reuse).
        if not isinstance(game, self._game_class):
            raise TypeError(f"game must be a Game, not {type_name(game)}")
        if not isinstance(priors, str) or priors not in PRIORS:
            raise ValueError(f"priors must be 'network' or 'uniform', not {priors!r}")
        if evaluator is None:
            evaluator = "network"
        if isinstance(evaluator, str):
            # Loaded here so that a damaged file is a ValueError too.
            choice = _evaluator_choice(evaluator)
            mlp = MLPEvaluator.load(shipped_model(game) if model is None else model, game)
            if priors == "uniform":
                mlp = uniform_priors(mlp, game)
            evaluator = mlp if choice == "numpy" else self._network_class(mlp)
        elif model is not None:
            raise ValueError("AZBot takes model or evaluator, not both")
        elif priors != "network":
            raise ValueError("priors='uniform' needs the network's evaluator, not a given one")
        # The score settings left out: the centred score of the last round where the search can
        # read a score head itself (a Network with one), else win shares alone.
        scored = isinstance(evaluator, self._network_class) and evaluator.has_score_head
        if score_utility is None:
            score_utility = SCORE_UTILITY if scored else 0.0
        if score_scale is None:
            score_scale = SCORE_SCALE if scored and score_utility != 0 else 0.0
        if score_round is None:
            score_round = SCORE_ROUND if scored else 1
        super().__init__(
            game,
            seed,
            evaluator=evaluator,
            batch_size=batch_size,
            playouts=playouts,
            playout_weight=playout_weight,
            solver_nodes=solver_nodes,
            leaf_solver_nodes=leaf_solver_nodes,
            score_utility=score_utility,
            score_scale=score_scale,
            score_round=score_round,
            **options,
        )


def legal_logits(network: Any, state: Any) -> tuple[list[int], np.ndarray]:
    """The legal actions of a decision node and the network's logits for them (float64, in
    legal_actions() order): from an MLPEvaluator in float, or from a Network (either engine's) in
    integers. PolicyNetBot plays by them; training's endgame starts draw from them."""
    legal = state.legal_actions()
    if not isinstance(network, MLPEvaluator):
        logits, _ = network.evaluate(state)
        return legal, np.asarray(logits, np.float64)
    observation = np.asarray(state.observation_tensor(state.current_player()), np.float32)[None]
    mask = np.zeros((1, network.policy[1].shape[0]), bool)
    mask[0, legal] = True
    logits, _ = network(observation, mask)
    return legal, logits[0, legal].astype(np.float64)


def policy_shares(logits: np.ndarray) -> np.ndarray:
    """The softmax of the logits (float64): the policy's share of each action."""
    weights = np.exp(logits - logits.max())
    return weights / weights.sum()


class PolicyNetBot:
    """The network's policy alone: step plays the legal action with the highest logit (the
    lowest id on a tie); policy gives the softmax over the legal actions. `seed` is accepted for
    the bots' common signature; the bot is deterministic. evaluator="network" (the default)
    computes the logits with the integer network, "numpy" with the float MLPEvaluator."""

    _state_class: Any = State
    _game_class: Any = Game
    _network_class: Any = Network

    def __init__(
        self,
        game: GameLike,
        seed: int = 0,
        *,
        model: Model | None = None,
        evaluator: str = "network",
    ) -> None:
        if not isinstance(game, self._game_class):
            raise TypeError(f"game must be a Game, not {type_name(game)}")
        choice = _evaluator_choice(evaluator) if isinstance(evaluator, str) else None
        if choice is None:
            raise TypeError(f"evaluator must be 'network' or 'numpy', not {type_name(evaluator)}")
        self._game = game
        self._mlp = MLPEvaluator.load(shipped_model(game) if model is None else model, game)
        self._network = self._network_class(self._mlp) if choice == "network" else None

    def restart(self) -> None:
        """Nothing to forget: the bot has no state."""

    def _logits(self, state: Any, method: str) -> tuple[list[int], np.ndarray]:
        if not isinstance(state, self._state_class):
            raise TypeError(f"state must be a State, not {type_name(state)}")
        if state.get_game() != self._game:
            raise ValueError(
                f"{method} got a state of {state.get_game()!r}, the bot plays {self._game!r}"
            )
        if state.is_terminal() or state.is_chance_node():
            raise ValueError(f"{method} needs a decision node")
        return legal_logits(self._mlp if self._network is None else self._network, state)

    def step(self, state: Any) -> int:
        legal, logits = self._logits(state, "step")
        return legal[int(np.argmax(logits))]

    def policy(self, state: Any) -> list[tuple[int, float]]:
        legal, logits = self._logits(state, "policy")
        return [(a, float(p)) for a, p in zip(legal, policy_shares(logits))]
