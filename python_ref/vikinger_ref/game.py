"""The game (docs/rules.md B1, B3.1): number of players and rule modules; makes states.

A Game is immutable, and every way to make one (the constructor, unpickling, the game part of a
state's bytes) goes through the same checks.
"""

from . import actions as A
from .arguments import check_int, type_name
from .observation import observation_size
from .state import State
from .components import OPTION_NAMES
from .serialization import bytes_to_dict
from .validation import from_dict


class Game:
    """Wikinger for 2-4 players; the advanced modules are keyword flags, all off by default."""

    # _flags: {name: bool}, read by the rules of this package (never handed out: `options` copies).
    __slots__ = ("_num_players", "_flags")

    def __init__(
        self,
        num_players=2,
        *,
        auction=False,
        draw13=False,
        offer_by_colour=False,
        weak_boatsmen=False,
        special_tiles=False,
    ):
        if isinstance(num_players, bool) or not isinstance(num_players, int):
            raise TypeError(f"num_players must be an int, not {type_name(num_players)}")
        options = {
            "auction": auction,
            "draw13": draw13,
            "offer_by_colour": offer_by_colour,
            "weak_boatsmen": weak_boatsmen,
            "special_tiles": special_tiles,
        }
        for name, value in options.items():
            if not isinstance(value, bool):
                raise TypeError(f"{name} must be a bool, not {type_name(value)}")
        if not 2 <= num_players <= 4:
            raise ValueError(f"num_players must be 2, 3 or 4, not {num_players}")
        object.__setattr__(self, "_num_players", num_players)
        object.__setattr__(self, "_flags", options)

    @property
    def num_players(self):
        """The number of players, 2..4."""
        return self._num_players

    @property
    def options(self):
        """The five advanced flags as a dict {name: bool} (a new dict each time)."""
        return dict(self._flags)

    def __setattr__(self, name, value):
        raise AttributeError(f"Game is immutable: {name} cannot be set")

    def __delattr__(self, name):
        raise AttributeError(f"Game is immutable: {name} cannot be deleted")

    def num_distinct_actions(self):
        return A.NUM_DISTINCT_ACTIONS

    def max_chance_outcomes(self):
        return A.MAX_CHANCE_OUTCOMES

    def observation_shape(self):
        return (observation_size(self.num_players),)

    def new_initial_state(self):
        return State(self)

    def state_from_dict(self, d):
        return from_dict(self, d)

    def deserialize_state(self, data):
        return from_dict(self, bytes_to_dict(data))

    def __eq__(self, other):
        return (
            isinstance(other, Game)
            and self._num_players == other._num_players
            and self._flags == other._flags
        )

    def __hash__(self):
        return hash((self._num_players, tuple(self._flags.values())))

    def __repr__(self):
        flags = "".join(f", {name}=True" for name, on in self.options.items() if on)
        return f"Game(num_players={self.num_players}{flags})"

    def __reduce__(self):
        # Rebuilt by game_from_data, which checks the data as the constructor does.
        return game_from_data, (self._num_players, option_bits(self))


def option_bits(game):
    """The options as the bits of docs/state.md: bit i for OPTION_NAMES[i]."""
    return sum(1 << i for i, name in enumerate(OPTION_NAMES) if game._flags[name])


def game_from_data(num_players, options):
    """A Game from a player count and option bits (unpickling), checked like the constructor."""
    num_players = check_int("num_players", num_players)
    options = check_int("options", options)
    if not 2 <= num_players <= 4:
        raise ValueError(f"num_players must be 2, 3 or 4, not {num_players}")
    if not 0 <= options < 1 << len(OPTION_NAMES):
        raise ValueError(
            f"options must be a bit set of the {len(OPTION_NAMES)} modules "
            f"(0..{(1 << len(OPTION_NAMES)) - 1}), not {options}"
        )
    flags = {name: bool(options >> i & 1) for i, name in enumerate(OPTION_NAMES)}
    return Game(num_players, **flags)
