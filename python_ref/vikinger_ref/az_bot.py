"""The learned player (docs/learning.md "The shipped player"): AZBot, PuctBot on the network
trained by `vikinger train` (shipped in `models/`, or any vikinger-mlp/1 file given as model=),
and PolicyNetBot, the network's policy alone (no search). vikinger_fast's classes are these on
its own State, Game and PuctSearch.
"""

import os
from typing import Any

import numpy as np

from .arguments import type_name
from .game import Game
from .mlp import MLPEvaluator
from .puct_bot import PuctBot
from .state import State

MODELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "models")
SHIPPED = {2: "az-2p.npz"}  # players -> the shipped network (base game)


def shipped_model(game):
    """The path of the shipped network for `game` (ValueError when none was trained for it)."""
    name = SHIPPED.get(game.num_players)
    if name is None or any(game.options.values()):
        on = [k for k, v in game.options.items() if v]
        raise ValueError(
            f"no shipped network for {game.num_players} players with modules {on}; "
            "give model=PATH (a vikinger train export)"
        )
    return os.path.join(MODELS, name)


class AZBot(PuctBot):
    """PuctBot(game, seed, ..., model=the shipped network): the learned player with search. Its
    defaults are the settings measured in docs/learning.md: leaves valued half by the network and
    half by 4 random playouts (docs/neural.md "Mixed leaf values"), batches of 16 leaves; give
    playouts=0 for the network's values alone."""

    def __init__(
        self,
        game,
        seed,
        *,
        model=None,
        evaluator=None,
        batch_size=16,
        playouts=4,
        playout_weight=0.5,
        **options,
    ):
        # options: PuctBot's other keywords (simulations, max_time, c_init, c_base, reuse).
        if not isinstance(game, self._game_class):
            raise TypeError(f"game must be a Game, not {type_name(game)}")
        if model is not None and evaluator is not None:
            raise ValueError("AZBot takes model or evaluator, not both")
        if evaluator is None:
            evaluator = MLPEvaluator.load(shipped_model(game) if model is None else model, game)
        super().__init__(
            game,
            seed,
            evaluator=evaluator,
            batch_size=batch_size,
            playouts=playouts,
            playout_weight=playout_weight,
            **options,
        )


class PolicyNetBot:
    """The network's policy alone: step plays the legal action with the highest logit (the
    lowest id on a tie); policy gives the softmax over the legal actions. `seed` is accepted for
    the bots' common signature; the bot is deterministic."""

    _state_class: Any = State
    _game_class: Any = Game

    def __init__(self, game, seed=0, *, model=None):
        if not isinstance(game, self._game_class):
            raise TypeError(f"game must be a Game, not {type_name(game)}")
        self._game = game
        self._mlp = MLPEvaluator.load(shipped_model(game) if model is None else model, game)

    def restart(self):
        """Nothing to forget: the bot has no state."""

    def _logits(self, state, method):
        if not isinstance(state, self._state_class):
            raise TypeError(f"state must be a State, not {type_name(state)}")
        if state.get_game() != self._game:
            raise ValueError(
                f"{method} got a state of {state.get_game()!r}, the bot plays {self._game!r}"
            )
        if state.is_terminal() or state.is_chance_node():
            raise ValueError(f"{method} needs a decision node")
        observation = np.asarray(state.observation_tensor(state.current_player()), np.float32)[None]
        legal = state.legal_actions()
        mask = np.zeros((1, self._mlp.policy[1].shape[0]), bool)
        mask[0, legal] = True
        logits, _ = self._mlp(observation, mask)
        return legal, logits[0, legal].astype(np.float64)

    def step(self, state):
        legal, logits = self._logits(state, "step")
        return legal[int(np.argmax(logits))]

    def policy(self, state):
        legal, logits = self._logits(state, "policy")
        weights = np.exp(logits - logits.max())
        weights /= weights.sum()
        return [(a, float(p)) for a, p in zip(legal, weights)]
