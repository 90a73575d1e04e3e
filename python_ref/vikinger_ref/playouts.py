"""Random playouts from any state (docs/search.md "Playouts"), the same as vikinger_fast's.

Playout i starts from its own copy of the state and is driven by the splitmix64 stream seeded
with `seed + i`, with the rule of `rollouts`: one uniform per node, the chance outcome it selects
(`_outcome_at`), or `legal[floor(u * len(legal))]` at a decision node. From the initial state
playout i is rollout game `seed + i`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .arguments import check_count_seed_threads
from .rng import MASK64
from .rollout import play_out, result_arrays, store_result
from .state import State


def play_random_playout(state: State, seed: int) -> tuple[State, int]:
    """One random playout from a copy of `state`; returns (final state, actions applied)."""
    state = state.clone()
    return state, play_out(state, seed)


def check_state(state: object, what: str = "state") -> State:
    if not isinstance(state, State):
        raise TypeError(f"{what} must be a State, not {type(state).__name__}")
    return state


def _play(
    starts: list[State], num_playouts: int, seed: int, shape: tuple[int, ...]
) -> dict[str, np.ndarray]:
    rows = len(starts) * num_playouts
    out = result_arrays(rows, starts[0].get_game().num_players)
    for row in range(rows):
        final, length = play_random_playout(starts[row // num_playouts], (int(seed) + row) & MASK64)
        store_result(out, row, final, length)
    return {key: value.reshape(shape + value.shape[1:]) for key, value in out.items()}


def playouts(state: State, num_playouts: int, seed: int, threads: int = 1) -> dict[str, np.ndarray]:
    """`num_playouts` random playouts from `state`; playout i uses stream `seed + i`.

    Returns a dict of numpy arrays: "scores", "gold" (num_playouts, n) int32, "returns"
    (num_playouts, n) float64, "length" (num_playouts,) int32 actions applied by each playout.
    `threads` is accepted for API parity; the reference runs in one.
    """
    check_state(state)
    check_count_seed_threads("num_playouts", num_playouts, seed, threads)
    return _play([state], num_playouts, seed, (num_playouts,))


def playouts_batch(
    states: Any, num_playouts: int, seed: int, threads: int = 1
) -> dict[str, np.ndarray]:
    """`playouts` for each state of a list (one game): playout i of states[j] uses stream
    `seed + j * num_playouts + i`; arrays of shape (len(states), num_playouts, ...)."""
    if not isinstance(states, Sequence) or isinstance(states, str):
        raise TypeError(f"states must be a sequence of State, not {type(states).__name__}")
    check_count_seed_threads("num_playouts", num_playouts, seed, threads)
    for state in states:
        check_state(state, "every item of states")
        if state.get_game() != states[0].get_game():
            raise ValueError("states must all be of one game")
    if not states:
        raise ValueError("states must not be empty")
    return _play(list(states), num_playouts, seed, (len(states), num_playouts))
