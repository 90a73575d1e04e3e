"""What the adapters declare about the game: proven bounds on its length (OpenSpiel's
GameInfo) and on every observation entry (the Box of PettingZoo and Gymnasium), and the final
rewards. docs/adapters.md derives each bound from the rules;
tests/adapters/test_adapter_spec.py checks them over random games of every configuration.
"""

from collections.abc import Mapping
from typing import Any, Tuple, Union  # Any: a Game or State of either engine

import numpy as np
from vikinger_ref import observation as layout
from vikinger_ref.arguments import check_int, index_value
from vikinger_ref.actions import MAX_BID
from vikinger_ref.components import GROUPS_PER_ROUND as GROUPS
from vikinger_ref.components import NUM_COLUMNS as MAX_COLUMN
from vikinger_ref.components import NUM_ROUNDS as ROUNDS
from vikinger_ref.components import (
    NUM_COLOURS,
    NUM_SPECIAL_KINDS,
    NUM_TILE_KINDS,
    SPECIAL_COUNTS,
    STACK_COUNTS,
    VIKINGS_PER_COLOUR,
)

# Gold + Fame of any player at the A1 auction of rounds 1..6 (docs/adapters.md): start 40,
# the gold5 tile 5, at most 91 per small and 267 per large scoring before that round.
MONEY_AT_AUCTION = (40, 136, 403, 494, 761, 852)
MAX_GOLD = 852 + 267  # + the large scoring of round 6; the final scoring only spends
MIN_FAME = -(46 + 78)  # B8.1 all 14 ships unpaid, B8.6 all 78 Vikings unfed
MAX_FAME = MAX_GOLD + 22 + 156 + 36  # B8.3-B8.5 bonuses, B8.6 with the fish, A5 buildings
REWARDS = ("win_share", "fame_margin")
SEAT_MODES = ("alternate", "random")
CHANCE_MODES = ("generator", "splitmix64")


def max_decisions(num_players: int, options: Mapping[str, bool]) -> int:
    """An upper bound on the decisions (chance outcomes not counted) of any game."""
    n = num_players
    total = (
        ROUNDS * GROUPS  # B5.1 one BUY per group
        + ROUNDS * GROUPS * 2  # B6.1/B6.2 placement, B6.4 Viking
        + n  # B6.0 start tile
        + VIKINGS_PER_COLOUR  # B7.2 a trip spends one of the 13 boatsmen
        + 5 * VIKINGS_PER_COLOUR  # B7.2 a target places a Viking once
        + 3 * n
    )  # B7.2 one stop per player per large scoring
    if options.get("auction", False):  # A1 strictly rising bids 0..money, n-1 passes
        total += sum(money + 1 for money in MONEY_AT_AUCTION) + ROUNDS * (n - 1)
    if options.get("draw13", False):  # A2 one removal
        total += ROUNDS
    if options.get("offer_by_colour", False):  # A3 one decision per colour
        total += ROUNDS * NUM_COLOURS
    if options.get("special_tiles", False):  # A5 the offer after a purchase at price > 0,
        total += ROUNDS * (GROUPS - 1) + 4  # and the four building tiles
    return total


def max_chance_nodes(options: Mapping[str, bool]) -> int:
    """Chance nodes of every game: 72 tiles, 12 (A2: 13) Vikings a round, and at most the
    4 + 4 * 5 special tiles the display can show over six rounds (A5)."""
    vikings = 13 if options.get("draw13", False) else 12
    specials = 4 * ROUNDS if options.get("special_tiles", False) else 0
    return sum(STACK_COUNTS) + ROUNDS * vikings + specials


def observation_bounds(engine_game: Any) -> tuple[np.ndarray, np.ndarray]:
    """(low, high) float32 arrays over the observation tensor of docs/state.md: one-hot and
    flag entries in [0, 1], counts up to the printed numbers, gold and Fame as derived."""
    n = engine_game.num_players
    low = np.zeros(engine_game.observation_shape(), np.float32)
    high = np.ones_like(low)
    high[layout.PURCHASES] = GROUPS
    for space in range(GROUPS):
        high[layout.WHEEL + layout.WHEEL_ENTRY * space + layout.WHEEL_ENTRY - 1] = GROUPS - 1
    high[layout.STACKS : layout.STACKS + NUM_TILE_KINDS] = STACK_COUNTS
    high[layout.BAG : layout.DRAWN + NUM_COLOURS] = VIKINGS_PER_COLOUR
    high[layout.PENDING_CELL : layout.PENDING_CELL + 2] = (5, MAX_COLUMN)
    high[layout.TRIP_QUEUE : layout.TRIP_QUEUE + NUM_COLOURS] = VIKINGS_PER_COLOUR
    high[layout.TRIP_LAST] = MAX_COLUMN
    for slot in range(n):
        base = layout.GLOBAL_SIZE + layout.PLAYER_SIZE * slot
        high[base + layout.MAINLAND : base + layout.MAINLAND + NUM_COLOURS] = VIKINGS_PER_COLOUR
        high[base + layout.GOLD] = MAX_GOLD
        low[base + layout.FAME], high[base + layout.FAME] = MIN_FAME, MAX_FAME
    advanced = layout.GLOBAL_SIZE + layout.PLAYER_SIZE * n
    high[advanced + layout.AUCTION_HIGH] = MAX_BID
    stack = advanced + layout.SPECIAL_STACK
    high[stack : stack + NUM_SPECIAL_KINDS] = SPECIAL_COUNTS
    for slot in range(n):
        at = advanced + layout.ADVANCED_SIZE + layout.PLAYER_ADVANCED_SIZE * slot
        high[at : at + NUM_SPECIAL_KINDS] = SPECIAL_COUNTS
        high[at + layout.BUILDINGS : at + layout.BUILDINGS + 8] = (5, MAX_COLUMN) * 4
    return low, high


def check_reward(reward: str) -> str:
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {REWARDS}, not {reward!r}")
    return reward


def final_rewards(state: Any, reward: str) -> list[float]:
    """Per player at the end of the game: the win share of returns() (B8.9), or with
    "fame_margin" the player's final Fame minus the best Fame of the other players."""
    if reward == "win_share":
        return [float(share) for share in state.returns()]
    fame = state.scores()
    return [float(mine - max(fame[:p] + fame[p + 1 :])) for p, mine in enumerate(fame)]


def action_id(action: Any) -> int:
    """An action id as the engines take it: a Python or numpy integer (or anything with
    __index__); bool, float, str and arrays of several entries are a TypeError with the engine's
    message. The range is the caller's to check."""
    return index_value("an action", action)


def check_choice(name: str, value: Any, choices: Tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name} must be one of {choices}, not {value!r}")
    return value


def check_seat(seat: Any, num_players: int) -> Union[int, str]:
    """A seat number in 0..num_players-1 (ints and numpy ints; bool and float refused), or one
    of SEAT_MODES."""
    if isinstance(seat, str):
        return check_choice("seat", seat, SEAT_MODES)
    seat = check_int("seat", seat)
    if not 0 <= seat < num_players:
        raise ValueError(f"seat {seat} is outside 0..{num_players - 1}")
    return seat


OPPONENT_FORMS = (
    "'random', a bot class or a list (per other seat: None or 'random', a bot class "
    "make(game, seed), or a bot object with step(state))"
)


def is_bot_object(form: Any) -> bool:
    """A bot itself (step(state) -> action), not a class or factory that makes one."""
    return not isinstance(form, type) and callable(getattr(form, "step", None))


def _opponent_form(form: Any) -> Any:
    if form is None or (isinstance(form, str) and form == "random"):
        return "random"
    if isinstance(form, str) or not callable(form) and not is_bot_object(form):
        raise ValueError(f"opponents must be {OPPONENT_FORMS}, not {form!r}")
    return form


def opponent_forms(opponents: Any, num_players: int) -> list[Any]:
    """The opponents of the num_players - 1 seats other than the agent's, in ascending order, one
    form each: "random" (given as None or "random": the uniform random policy), a bot class (or
    factory) called as make(game, seed), or a bot object. `opponents` is one form for every
    other seat (a bot object only when there is one other seat) or a list or tuple of
    num_players - 1 forms. The single env and the SB3 vector env take the same forms."""
    others = num_players - 1
    if isinstance(opponents, (list, tuple)):
        if len(opponents) != others:
            raise ValueError(f"{others} opponents needed, got {len(opponents)}")
        return [_opponent_form(form) for form in opponents]
    if is_bot_object(opponents) and others > 1:
        raise ValueError(
            f"one bot object cannot play {others} seats: give a list of {others}, or a bot class"
        )
    return [_opponent_form(opponents)] * others
