"""The game (docs/rules.md B1, B3.1): number of players and rule modules; makes states."""

from . import actions as A
from .observation import observation_size
from .state import State
from .serialization import bytes_to_dict
from .validation import from_dict

ADVANCED_MODULES = {"auction": "A1", "draw13": "A2", "offer_by_colour": "A3",
                    "weak_boatsmen": "A4", "special_tiles": "A5"}


class Game:
    """Wikinger for 2-4 players; the advanced modules are keyword flags, all off by default."""

    def __init__(self, num_players=2, *, auction=False, draw13=False, offer_by_colour=False,
                 weak_boatsmen=False, special_tiles=False):
        if isinstance(num_players, bool) or not isinstance(num_players, int):
            raise TypeError(f"num_players must be an int, not {type(num_players).__name__}")
        if not 2 <= num_players <= 4:
            raise ValueError(f"num_players must be 2, 3 or 4, not {num_players}")
        options = {"auction": auction, "draw13": draw13, "offer_by_colour": offer_by_colour,
                   "weak_boatsmen": weak_boatsmen, "special_tiles": special_tiles}
        for name, value in options.items():
            if not isinstance(value, bool):
                raise TypeError(f"{name} ({ADVANCED_MODULES[name]}) must be a bool, "
                                f"not {type(value).__name__}")
        self.num_players = num_players
        self.options = options

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
        return (isinstance(other, Game) and self.num_players == other.num_players
                and self.options == other.options)

    def __hash__(self):
        return hash((self.num_players, tuple(self.options.items())))

    def __repr__(self):
        flags = "".join(f", {name}=True" for name, on in self.options.items() if on)
        return f"Game(num_players={self.num_players}{flags})"
