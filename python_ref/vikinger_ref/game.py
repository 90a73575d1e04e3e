"""The game (docs/rules.md B1, B3.1): number of players and rule modules; makes states.

A Game is immutable, and every way to make one (the constructor, unpickling, the game part of a
state's bytes) goes through the same checks.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, NoReturn, Protocol

from . import actions as A
from .arguments import check_int, type_name
from .observation import observation_size
from .state import State
from .components import OPTION_NAMES
from .serialization import bytes_to_dict
from .validation import from_dict


class GameLike(Protocol):
    """Either engine's Game, as the code both engines share (the search's evaluators and bots,
    vikinger_fast.neural) reads it."""

    @property
    def num_players(self) -> int: ...

    @property
    def options(self) -> dict[str, bool]: ...

    def new_initial_state(self) -> Any: ...


class Game:
    """Wikinger for 2-4 players; the advanced modules are keyword flags, all off by default."""

    # _flags: {name: bool}, read by the rules of this package (never handed out: `options` copies).
    __slots__ = ("_num_players", "_flags")
    _num_players: int
    _flags: dict[str, bool]

    def __init__(
        self,
        num_players: int = 2,
        *,
        auction: bool = False,
        draw13: bool = False,
        offer_by_colour: bool = False,
        weak_boatsmen: bool = False,
        special_tiles: bool = False,
    ) -> None:
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
    def num_players(self) -> int:
        """The number of players, 2..4."""
        return self._num_players

    @property
    def options(self) -> dict[str, bool]:
        """The five advanced flags as a dict {name: bool} (a new dict each time)."""
        return dict(self._flags)

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"Game is immutable: {name} cannot be set")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"Game is immutable: {name} cannot be deleted")

    def num_distinct_actions(self) -> int:
        return A.NUM_DISTINCT_ACTIONS

    def max_chance_outcomes(self) -> int:
        return A.MAX_CHANCE_OUTCOMES

    def observation_shape(self) -> tuple[int]:
        return (observation_size(self.num_players),)

    def new_initial_state(self) -> State:
        return State(self)

    def state_from_dict(self, d: Mapping[str, Any]) -> State:
        return from_dict(self, d)

    def deserialize_state(self, data: bytes | bytearray | memoryview) -> State:
        return from_dict(self, bytes_to_dict(data))

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Game)
            and self._num_players == other._num_players
            and self._flags == other._flags
        )

    def __hash__(self) -> int:
        return hash((self._num_players, tuple(self._flags.values())))

    def __repr__(self) -> str:
        flags = "".join(f", {name}=True" for name, on in self.options.items() if on)
        return f"Game(num_players={self.num_players}{flags})"

    def __reduce__(self) -> tuple[Callable[[Any, Any], Game], tuple[int, int]]:
        # Rebuilt by game_from_data, which checks the data as the constructor does.
        return game_from_data, (self._num_players, option_bits(self))


def option_bits(game: Game) -> int:
    """The options as the bits of docs/state.md: bit i for OPTION_NAMES[i]."""
    return sum(1 << i for i, name in enumerate(OPTION_NAMES) if game._flags[name])


def game_from_data(num_players: Any, options: Any) -> Game:
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
