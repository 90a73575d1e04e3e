"""The network's features (docs/neural.md "Features"), the reference twin of vikinger_fast's
csrc/search/network_features.h: what a network reads of a position, named and versioned, so that
a weights file says which features it was trained on (mlp.py's `features`) and a network of other
features is refused, never misread.

Three feature sets, for the player to move:
  observation-v1           the observation tensor of docs/state.md (observation.py), width
                           observation_size(n). What the shipped networks read; a weights file
                           without a `features` field has these.
  observation-modules-v2   observation-v1, then one flag per module of the Game (OPTION_NAMES
                           order: 1 when on), width observation_size(n) + 5. The observation
                           cannot tell every module set apart (docs/learning.md "Networks for
                           every table"); with the flags one network plays all 32 knowing which.
  observation-trips-v3     observation-modules-v2, then TRIP_FEATURES per player in relative
                           seat order (the mover first): what that player's boatsman trips could
                           do at a large scoring with the board as it stands (B7.2.1, B7.2.1a),
                           counts the observation shows only cell by cell (trip_features).

Every entry is an integer. The integer network (network.py) reads a position's non-zero entries
(`sparse`); the float MLP and the training read dense rows built from observation rows
(`dense`), the same numbers.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Union

import numpy as np

from .components import (
    BOAT,
    BOATSMAN,
    HORN,
    NUM_COLUMNS,
    NUM_ROWS,
    OPTION_NAMES,
    SHIP_TABLE,
    row_of_colour,
)
from .observation import (
    ADVANCED_SIZE,
    CELL_FEATURES,
    FAME,
    GLOBAL_SIZE,
    GOLD,
    MAINLAND,
    PLAYER_ADVANCED_SIZE,
    PLAYER_SIZE,
    SHIPS,
    observation_size,
)
from .trips import most_movable

OBSERVATION_V1 = "observation-v1"
OBSERVATION_MODULES_V2 = "observation-modules-v2"
OBSERVATION_TRIPS_V3 = "observation-trips-v3"
FEATURE_SETS = (OBSERVATION_V1, OBSERVATION_MODULES_V2, OBSERVATION_TRIPS_V3)
NUM_MODULE_FLAGS = len(OPTION_NAMES)
# observation-trips-v3, per player: (free, scoring, carriable) for each colour with a row, then
# the most movable Vikings, the most boatsmen kept while moving them, and that plus the horns.
TRIP_FEATURES = 3 * BOATSMAN + 3
WEAK_BOATSMEN_FLAG = OPTION_NAMES.index("weak_boatsmen")

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
    name = check_features(name)
    if name == OBSERVATION_V1:
        return width
    if name == OBSERVATION_MODULES_V2:
        return width + NUM_MODULE_FLAGS
    return width + NUM_MODULE_FLAGS + TRIP_FEATURES * num_players


def players_of(observations: Any) -> int:
    """The player count whose observation rows are as wide as `observations`' (ValueError for a
    width no player count has)."""
    width = np.shape(observations)[-1]
    for n in range(2, 5):
        if observation_size(n) == width:
            return n
    raise ValueError(f"observation rows of width {width} belong to no game of 2-4 players")


@lru_cache(maxsize=1 << 16)
def _most_and_kept(
    counts: tuple[int, ...], boatsmen: int, boats: int, weak: bool
) -> tuple[int, int]:
    """B7.2.1a: the most Vikings the boatsmen can move, and the most boatsmen left while the
    most still move (network_features.cc's TripFeatures)."""
    most = most_movable(list(counts), boatsmen, boats, weak)
    kept = 0
    while kept < boatsmen and most_movable(list(counts), boatsmen - kept - 1, boats, weak) == most:
        kept += 1
    return most, kept


def trip_features(observations: Any, weak_boatsmen: Any) -> np.ndarray:
    """int64[B, TRIP_FEATURES * n]: observation-trips-v3's blocks of observation rows
    [B, observation_size(n)] (players in the rows' relative seat order), A4 on or off per row
    (bool, or bool[B]). Per colour with a row, fisherman .. warrior (row_of_colour):
    its free tiles; those a Viking would score on (rows 2-5: unthreatened, B7.0; row 1: under a
    ship, which a warrior there repels: a ship above a free row-1 tile is unrepelled); its
    carriable Vikings, min(mainland, free tiles). Then MostMovable, the most boatsmen kept while
    moving that many (B7.2.1a), and that plus the A5 horns (the count B8.3 would see)."""
    rows = np.asarray(observations)
    n = players_of(rows)
    batch = len(rows)
    weak = np.broadcast_to(np.asarray(weak_boatsmen, bool), (batch,))
    players = rows[:, GLOBAL_SIZE : GLOBAL_SIZE + PLAYER_SIZE * n].reshape(batch, n, PLAYER_SIZE)
    cells = players[:, :, :SHIPS].reshape(batch, n, NUM_ROWS, NUM_COLUMNS, CELL_FEATURES) != 0
    tiles = cells[..., :3].any(axis=-1)
    vikings = cells[..., 3]
    free = tiles & ~vikings  # [B, n, row - 1, col - 1]
    ships = players[:, :, SHIPS:MAINLAND].reshape(batch, n, NUM_COLUMNS, 4) != 0
    reach = np.array([ship.reach for ship in SHIP_TABLE])
    repelled = vikings[:, :, 0, :]  # a warrior on the column's row-1 tile
    out = np.zeros((batch, n, TRIP_FEATURES), np.int64)
    mainland = players[:, :, MAINLAND : MAINLAND + BOATSMAN + 1].astype(np.int64)
    for colour in range(BOATSMAN):
        row = row_of_colour(colour)
        assert row is not None  # every colour below the boatsman has a row
        row_free = free[:, :, row - 1, :]
        if row == 1:
            scoring = row_free & ships.any(axis=-1)
        else:
            threatened = (ships & (reach >= row)).any(axis=-1) & ~repelled
            scoring = row_free & ~threatened
        count = row_free.sum(axis=-1)
        out[:, :, 3 * colour] = count
        out[:, :, 3 * colour + 1] = scoring.sum(axis=-1)
        out[:, :, 3 * colour + 2] = np.minimum(mainland[:, :, colour], count)
    advanced = GLOBAL_SIZE + PLAYER_SIZE * n + ADVANCED_SIZE
    specials = rows[:, advanced : advanced + PLAYER_ADVANCED_SIZE * n].reshape(batch, n, -1)
    for b in range(batch):
        for p in range(n):
            counts = tuple(int(out[b, p, 3 * c + 2]) for c in range(BOATSMAN))
            most, kept = _most_and_kept(
                counts, int(mainland[b, p, BOATSMAN]), int(specials[b, p, BOAT]), bool(weak[b])
            )
            out[b, p, 3 * BOATSMAN :] = most, kept, kept + int(specials[b, p, HORN])
    return out.reshape(batch, n * TRIP_FEATURES)


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
    name = check_features(name)
    if name == OBSERVATION_V1:
        return observations
    observations = np.asarray(observations, np.float32)
    flags = np.broadcast_to(np.asarray(flags, np.float32), (len(observations), NUM_MODULE_FLAGS))
    parts = [observations, flags]
    if name == OBSERVATION_TRIPS_V3:
        parts.append(trip_features(observations, flags[:, WEAK_BOATSMEN_FLAG] != 0))
    return np.concatenate(parts, axis=1, dtype=np.float32)


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
    name = check_features(name)
    if name != OBSERVATION_V1:
        flags = module_flags(state.get_game().options).astype(np.int64)
        parts = [observation, flags]
        if name == OBSERVATION_TRIPS_V3:
            parts.append(trip_features(observation[None], flags[WEAK_BOATSMEN_FLAG] != 0)[0])
        observation = np.concatenate(parts)
    index = np.flatnonzero(observation)
    return index.astype(np.int32), observation[index].astype(np.int32)
