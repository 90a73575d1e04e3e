"""Whole random games, the same games as vikinger_fast.rollouts (docs/api.md, "Rollouts").

Game i is driven by the splitmix64 stream seeded with `seed + i`: the k-th number is
`mix(seed + i + k * GOLDEN)`. At a chance node its top 53 bits pick the outcome as
`apply_random_chance` does; at a decision node they pick `legal[floor(u * len(legal))]`.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from .arguments import check_count_seed_threads
from .game import Game
from .rng import SplitMix64

if TYPE_CHECKING:
    from .state import State


def play_out(state: State, seed: int) -> int:
    """Plays `state` to the end in place with the stream seeded `seed`; returns the actions
    applied. One uniform per node: the chance outcome it selects, or legal[floor(u * len)]."""
    rng = SplitMix64(seed)
    length = 0
    while not state.is_terminal():
        u = rng.next_double()
        if state.is_chance_node():
            state.apply_action(state._outcome_at(u))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[math.floor(u * len(legal))])
        length += 1
    return length


def play_random_game(game: Game, seed: int) -> State:
    """One game to the end with uniformly random decisions; returns the final state."""
    state = game.new_initial_state()
    play_out(state, seed)
    return state


def result_arrays(rows: int, n: int) -> dict[str, np.ndarray]:
    """The arrays of a rollouts or playouts result, zeroed, for `rows` games of `n` players."""
    return {
        "scores": np.zeros((rows, n), np.int32),
        "gold": np.zeros((rows, n), np.int32),
        "returns": np.zeros((rows, n), np.float64),
        "length": np.zeros(rows, np.int32),
    }


def store_result(out: dict[str, np.ndarray], row: int, state: State, length: int) -> None:
    """Row `row` of `result_arrays`: the final `state` and its number of actions applied."""
    out["scores"][row] = state.scores()
    out["gold"][row] = state.gold()
    out["returns"][row] = state.returns()
    out["length"][row] = length


# "random" and "random_generic" play the same games; the C++ engine plays the first by a fused
# playout that samples straight from legal-action bitmasks, the second through its state machine
# and legal-action lists (docs/api.md).
POLICIES = ("random", "random_generic")


def _check_rollout_args(
    game: object, num_games: Any, seed: Any, threads: Any, policy: object
) -> None:
    if not isinstance(game, Game):
        raise TypeError(f"game must be a Game, not {type(game).__name__}")
    check_count_seed_threads("num_games", num_games, seed, threads)
    if not isinstance(policy, str):
        raise TypeError(f"policy must be a str, not {type(policy).__name__}")
    if policy not in POLICIES:
        raise ValueError(f"policy must be one of {', '.join(POLICIES)}, not {policy!r}")


def rollouts(
    game: Game, num_games: int, seed: int, threads: int = 1, policy: str = "random"
) -> dict[str, np.ndarray]:
    """Play `num_games` random games; game i uses seed `seed + i`.

    Returns a dict of numpy arrays: "scores" (num_games, n) int32 final Fame, "gold" (num_games,
    n) int32, "returns" (num_games, n) float64 win shares, "length" (num_games,) int32 actions
    applied (chance included). `threads` is accepted for API parity; the reference runs in one.
    """
    _check_rollout_args(game, num_games, seed, threads, policy)
    out = result_arrays(num_games, game.num_players)
    for i in range(num_games):
        state = game.new_initial_state()
        store_result(out, i, state, play_out(state, int(seed) + i))
    return out
