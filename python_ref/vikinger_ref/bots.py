"""Bots with one interface (docs/search.md "Bots"): `step(state) -> action`, `policy(state)` ->
[(action, probability)], `restart()`. RandomBot and GreedyBot; MCTSBot is in mcts.py. The same
actions as vikinger_fast's bots for the same seeds.
"""

from __future__ import annotations

import math
from typing import Any, Callable, TypeVar

import numpy as np

from .arguments import check_uint64
from .evaluation import evaluate
from .game import Game
from .rng import MASK64
from .rng import SplitMix64
from .state import State

_Bot = TypeVar("_Bot", "RandomBot", "GreedyBot")


def check_game_and_seed(game: object, seed: object) -> int:
    if not isinstance(game, Game):
        raise TypeError(f"game must be a Game, not {type(game).__name__}")
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be an int, not {type(seed).__name__}")
    return int(seed) & MASK64


def check_decision_node(game: Game, state: object, method: str) -> State:
    """The state a bot may answer: a decision node of the bot's game."""
    if not isinstance(state, State):
        raise TypeError(f"state must be a State, not {type(state).__name__}")
    if state.get_game() != game:
        raise ValueError(f"{method} got a state of {state.get_game()!r}, the bot plays {game!r}")
    if state.is_terminal():
        raise ValueError(f"{method} needs a decision node, not a terminal state")
    if state.is_chance_node():
        raise ValueError(f"{method} needs a decision node, not a chance node")
    return state


class RandomBot:
    """`legal[floor(u * len(legal))]` with u the next uniform of splitmix64(seed)."""

    def __init__(self, game: Game, seed: int) -> None:
        self._seed = check_game_and_seed(game, seed)
        self._game = game
        self._rng = SplitMix64(self._seed)

    def step(self, state: State) -> int:
        legal = check_decision_node(self._game, state, "step").legal_actions()
        return legal[math.floor(self._rng.next_double() * len(legal))]

    def policy(self, state: State) -> list[tuple[int, float]]:
        legal = check_decision_node(self._game, state, "policy").legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]

    def restart(self) -> None:
        self._rng = SplitMix64(self._seed)

    def __reduce__(self) -> tuple[Callable[..., RandomBot], tuple[Game, int, int]]:
        return random_bot_from_data, (self._game, self._seed, self._rng.state)


class GreedyBot:
    """One ply on the evaluation: the action whose successor gives the mover the highest value;
    on an exact tie `tied[floor(u * len(tied))]`, u from splitmix64(seed), drawn only for ties."""

    def __init__(self, game: Game, seed: int) -> None:
        self._seed = check_game_and_seed(game, seed)
        self._game = game
        self._rng = SplitMix64(self._seed)

    def _best_actions(self, state: State) -> tuple[list[int], list[int]]:
        legal = state.legal_actions()
        mover = state.current_player()
        best: list[int] = []
        best_value = -1.0
        for action in legal:
            after = state.clone()
            after.apply_action(action)
            value = evaluate(after)[mover]
            if value > best_value:
                best, best_value = [], value
            if value == best_value:
                best.append(action)
        return legal, best

    def step(self, state: State) -> int:
        _, best = self._best_actions(check_decision_node(self._game, state, "step"))
        if len(best) == 1:
            return best[0]
        return best[math.floor(self._rng.next_double() * len(best))]

    def policy(self, state: State) -> list[tuple[int, float]]:
        legal, best = self._best_actions(check_decision_node(self._game, state, "policy"))
        return [(action, 1.0 / len(best) if action in best else 0.0) for action in legal]

    def restart(self) -> None:
        self._rng = SplitMix64(self._seed)

    def __reduce__(self) -> tuple[Callable[..., GreedyBot], tuple[Game, int, int]]:
        return greedy_bot_from_data, (self._game, self._seed, self._rng.state)


# Pickles rebuild the bots through these functions, which check the data as the constructors
# do (safety.unpickle allows them and nothing of the bots' insides): the game, the seed and
# the state of the stream, in 0..2**64-1 (what __reduce__ writes), as the C++ rebuild checks it.
def _seeded_bot(cls: type[_Bot], game: Game, seed: int, stream: Any) -> _Bot:
    bot = cls(game, seed)
    bot._rng.state = check_uint64("stream", stream)
    return bot


def random_bot_from_data(game: Game, seed: int, stream: Any) -> RandomBot:
    return _seeded_bot(RandomBot, game, seed, stream)


def greedy_bot_from_data(game: Game, seed: int, stream: Any) -> GreedyBot:
    return _seeded_bot(GreedyBot, game, seed, stream)
