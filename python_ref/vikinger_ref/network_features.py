"""The network's features (docs/neural.md "Features"), the reference twin of vikinger_fast's
csrc/search/network_features.h: what a network reads of a position, named and versioned, so that
a weights file says which features it was trained on (mlp.py's `features`) and a network of other
features is refused, never misread.

Two feature sets, for the player to move:
  observation-v1           the observation tensor of docs/state.md (observation.py), width
                           observation_size(n). What the shipped networks read; a weights file
                           without a `features` field has these.
  observation-modules-v2   observation-v1, then one flag per module of the Game (OPTION_NAMES
                           order: 1 when on), width observation_size(n) + 5. The observation
                           cannot tell every module set apart (docs/learning.md "Networks for
                           every table"); with the flags one network plays all 32 knowing which.

Every entry is an integer. The integer network (network.py) reads a position's non-zero entries
(`sparse`); the float MLP and the training read dense rows built from observation rows
(`dense`), the same numbers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Mapping, Union

import numpy as np

from .components import OPTION_NAMES
from .observation import FAME, GLOBAL_SIZE, GOLD, PLAYER_SIZE, observation_size

OBSERVATION_V1 = "observation-v1"
OBSERVATION_MODULES_V2 = "observation-modules-v2"
FEATURE_SETS = (OBSERVATION_V1, OBSERVATION_MODULES_V2)
NUM_MODULE_FLAGS = len(OPTION_NAMES)

if TYPE_CHECKING:
    from .state import State


def check_features(name: object) -> str:
    """`name` if it is a feature set's; ValueError naming `features` otherwise."""
    if not isinstance(name, str) or name not in FEATURE_SETS:
        raise ValueError(f"features {name!r} is unknown (known: {', '.join(FEATURE_SETS)})")
    return name


def feature_width(name: object, num_players: int) -> int:
    """The number of features of set `name` for a game of `num_players`: a network's input
    width."""
    width = observation_size(num_players)
    return width + NUM_MODULE_FLAGS if check_features(name) == OBSERVATION_MODULES_V2 else width


def module_flags(options: Union[Mapping[str, bool], Iterable[str]]) -> np.ndarray:
    """float32[5]: 1 for each module of `options` (names, or a Game's {name: on} dict), in
    OPTION_NAMES order."""
    on = (
        [name for name, value in options.items() if value] if isinstance(options, dict) else options
    )
    return np.array([name in on for name in OPTION_NAMES], np.float32)


def dense(name: object, observations: Any, flags: Any) -> np.ndarray:
    """float32[B, feature_width]: the features of set `name` of observation rows
    float32[B, observation_size] and their games' module flags (float32[5], or [B, 5] per row).
    observation-v1 returns the rows themselves."""
    if check_features(name) == OBSERVATION_V1:
        return observations
    observations = np.asarray(observations, np.float32)
    flags = np.broadcast_to(np.asarray(flags, np.float32), (len(observations), NUM_MODULE_FLAGS))
    return np.concatenate([observations, flags], axis=1)


def sparse(name: object, state: State) -> tuple[np.ndarray, np.ndarray]:
    """(indices int32[m], values int32[m]): the non-zero features of set `name` of a decision
    node for the player to move, by index, as exact integers (the observation tensor's float32
    rounds gold and Fame above 2^24)."""
    player = state.current_player()
    observation = state.observation_tensor(player).astype(np.int64)
    # float32 holds integers exactly up to 2^24 only: gold and Fame (up to 2^30 and a game's
    # gains beyond) are taken from the boards, so the input is the position's integers.
    n = len(state.players)
    for p, board in enumerate(state.players):
        base = GLOBAL_SIZE + PLAYER_SIZE * ((p - player) % n)
        observation[base + GOLD] = board.gold
        observation[base + FAME] = board.fame
    if check_features(name) == OBSERVATION_MODULES_V2:
        flags = module_flags(state.get_game().options).astype(np.int64)
        observation = np.concatenate([observation, flags])
    index = np.flatnonzero(observation)
    return index.astype(np.int32), observation[index].astype(np.int32)
