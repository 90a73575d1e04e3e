"""Wikinger as an OpenSpiel game (docs/adapters.md).

`register()` registers `python_vikinger_fast` (or `python_vikinger_ref` for the reference
engine) with `pyspiel`; then `pyspiel.load_game("python_vikinger_fast(players=3,auction=True)")`
works like any OpenSpiel game, for Python and C++ algorithms alike. The OpenSpiel state keeps one
engine state in `engine_state`: cloning deep-copies it, and `state.serialize()` /
`game.deserialize_state(text)` write and read the engine's own bytes (docs/state.md, in base64)
with the OpenSpiel history, so no action is ever replayed.

Untrusted text: `game.deserialize_state(text)` called from Python is safe on any text (it parses
the engine's format and at worst raises ValueError or TypeError). OpenSpiel's C++ entry points
for Python games -- `pyspiel.deserialize_game_and_state(text)`, and `deserialize_state` reached
from C++ -- cannot be overridden: they unpickle the text, and a crafted text runs any code.
Never pass text you did not write yourself to those; use `game.deserialize_state` (docs/
adapters.md "Serialization and untrusted text").

`as_spiel_bot(bot)` turns any bot with `step(state) -> action` and `restart()` into a
`pyspiel.Bot`, so OpenSpiel's `evaluate_bots` can play the package's own bots.
"""

from __future__ import annotations

import base64
import binascii
import importlib
import pickle
import re
from types import ModuleType
from typing import Any, Callable

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

import vikinger_fast

from .spec import action_id, max_chance_nodes, max_decisions

PARAMETERS = {"players": 2, **dict.fromkeys(vikinger_fast.OPTION_NAMES, False)}


def register(engine: ModuleType = vikinger_fast, name: str | None = None) -> str:
    """Registers the game of `engine` (vikinger_fast or vikinger_ref) under `name`
    (default `python_<engine name>`) and returns the name. Registering again is a no-op."""
    name = name or f"python_{engine.__name__}"
    if name in pyspiel.registered_names():
        return name
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=f"Wikinger ({engine.__name__})",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=PARAMETERS,
    )
    # A class, as OpenSpiel's own Python games register: the registry keeps its creator until
    # the process ends, and a class (unlike a closure) is never freed before then.
    game_class = type(
        f"VikingerGame_{name}", (VikingerGame,), {"engine": engine, "game_type": game_type}
    )
    pyspiel.register_game(game_type, game_class)
    return name


class VikingerGame(pyspiel.Game):
    """One configuration (players and module flags) of the engine's `Game`; `register()`
    makes a subclass that sets the engine module and the game type."""

    engine = vikinger_fast
    game_type: Any = None

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**PARAMETERS, **(params or {})}
        self.engine_game = self.engine.Game(
            num_players=params["players"],
            **{flag: params[flag] for flag in vikinger_fast.OPTION_NAMES},
        )
        options = self.engine_game.options
        info = pyspiel.GameInfo(
            num_distinct_actions=self.engine_game.num_distinct_actions(),
            max_chance_outcomes=self.engine_game.max_chance_outcomes(),
            num_players=params["players"],
            # returns(): 1 shared by the winners (B8.9), so every game's returns sum to 1.
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=max_decisions(params["players"], options),
        )
        super().__init__(self.game_type, info, params)
        self._max_chance_nodes = max_chance_nodes(options)

    def __reduce__(self) -> tuple[Callable[..., Any], tuple[str, str, dict[str, Any]]]:
        # The class is made by register(): a new process registers it again, then loads.
        return _load_game, (self.engine.__name__, self.game_type.short_name, self.get_parameters())

    def new_initial_state(self) -> VikingerState:
        return VikingerState(self, self.engine_game.new_initial_state())

    def deserialize_state(self, text: object) -> Any:
        """The state of `text` as written by `state.serialize()`: the engine's checked loader
        reads its bytes; nothing is unpickled, so untrusted text at worst raises ValueError
        (TypeError for a non-str). Not reached by OpenSpiel's C++ deserialization (see the
        module docstring)."""
        engine_state, history = _parse_state_text(self, text)
        # OpenSpiel's own loader restores its C++ history from the fixed text below, whose
        # pickled attribute dict is the constant EMPTY_DICT; the engine state is set after.
        state = pyspiel.Game.deserialize_state(self, _spiel_text(history))
        state.engine_state = engine_state
        return state

    def max_chance_nodes_in_history(self) -> int:
        return self._max_chance_nodes

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        # Everything but the order of the stacks and the bag is public: an observation without
        # perfect recall is the position; with perfect recall it is the history.
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return VikingerObserver(self.engine_game, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


_ACTION_NAMES: dict[type, tuple[list[str], list[str]]] = {}


def action_names(engine_game: Any) -> tuple[list[str], list[str]]:
    """(decision strings, chance strings) of the engine, indexed by id. The engine names an id
    in the space of the node it is asked at; OpenSpiel asks for any player's actions at any
    node, so both tables are read once, at a chance node and at a decision node."""
    key = type(engine_game)
    if key not in _ACTION_NAMES:
        # The base game starts at a chance node (with A1 the first node is the auction).
        base = key(num_players=2)
        state = base.new_initial_state()
        chances = [state.action_to_string(a) for a in range(base.max_chance_outcomes())]
        while state.is_chance_node():
            state.apply_action(state.legal_actions()[0])
        decisions = [state.action_to_string(a) for a in range(base.num_distinct_actions())]
        _ACTION_NAMES[key] = decisions, chances
    return _ACTION_NAMES[key]


def _load_game(engine_name: str, name: str, params: dict[str, Any]) -> Any:
    return pyspiel.load_game(register(importlib.import_module(engine_name), name), params)


def _load_state(game: Any, data: str) -> Any:
    return game.deserialize_state(data)


# state.serialize(): a header line, the OpenSpiel history as player:action pairs, and the
# engine's serialize() bytes (docs/state.md) in base64.
TEXT_HEADER = "vikinger-state 1"
MAX_TEXT = 1 << 20  # a state's text is a few KB
_HISTORY = re.compile(r"(?:-?[0-9]{1,2}:[0-9]{1,5}(?:,-?[0-9]{1,2}:[0-9]{1,5})*)?")
EMPTY_DICT = base64.b64encode(pickle.dumps({})).decode("ascii")  # a constant: safe to load


def _state_text(state: VikingerState) -> str:
    history = ",".join(f"{h.player}:{h.action}" for h in state.full_history())
    data = base64.b64encode(state.engine_state.serialize()).decode("ascii")
    return f"{TEXT_HEADER}\nhistory={history}\nstate={data}"


def _parse_state_text(game: VikingerGame, text: object) -> tuple[Any, list[tuple[int, ...]]]:
    """(engine state, [(player, action)]) of a serialize() text, every part checked."""
    if not isinstance(text, str):
        raise TypeError(f"a serialized state must be a str, not {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise ValueError(f"a serialized state is at most {MAX_TEXT} characters, not {len(text)}")
    lines = text.split("\n")
    if (
        len(lines) != 3
        or lines[0] != TEXT_HEADER
        or not lines[1].startswith("history=")
        or not lines[2].startswith("state=")
    ):
        raise ValueError(
            f"not a state written by VikingerState.serialize() (it starts with "
            f"{TEXT_HEADER!r}); OpenSpiel's pickle format is refused here"
        )
    pairs = lines[1][len("history=") :]
    if not _HISTORY.fullmatch(pairs):
        raise ValueError("a serialized state's history must be player:action pairs")
    history = [tuple(int(v) for v in pair.split(":")) for pair in filter(None, pairs.split(","))]
    n = game.engine_game.num_players
    if any(not (p == pyspiel.PlayerId.CHANCE or 0 <= p < n) for p, _ in history):
        raise ValueError(
            f"a serialized state's history names a player outside 0..{n - 1} and chance"
        )
    try:
        data = base64.b64decode(lines[2][len("state=") :], validate=True)
    except binascii.Error as error:
        raise ValueError(f"a serialized state's bytes must be base64: {error}") from None
    engine_state = game.engine_game.deserialize_state(data)  # checked by the engine
    if [a for _, a in history] != list(engine_state.history()):
        raise ValueError("a serialized state's history is not its engine state's history")
    return engine_state, history


def _spiel_text(history: list[tuple[int, ...]]) -> str:
    pairs = ",".join(f"{p}:{a}" for p, a in history)
    return f"history={pairs}\nmove_number={len(history)}\n__dict__={EMPTY_DICT}"


class VikingerState(pyspiel.State):
    """An OpenSpiel state around one engine state (the only Python attribute, so that
    OpenSpiel's clone and serialization copy and pickle exactly that)."""

    def __init__(self, game: VikingerGame, engine_state: Any) -> None:
        super().__init__(game)
        self.engine_state = engine_state

    def __reduce__(self) -> tuple[Callable[[Any, str], Any], tuple[Any, str]]:
        # Through the game's own pickle, so that a new process registers the game first.
        return _load_state, (self.get_game(), self.serialize())

    def serialize(self) -> str:
        """The engine's bytes (base64) and the OpenSpiel history, read back by
        `game.deserialize_state` without unpickling (safe on untrusted text)."""
        return _state_text(self)

    def current_player(self) -> int:
        # The engine's CHANCE (-1) and TERMINAL (-4) are OpenSpiel's PlayerId values.
        return self.engine_state.current_player()

    def is_terminal(self) -> bool:
        return self.engine_state.is_terminal()

    def _legal_actions(self, player: int) -> list[int]:
        return self.engine_state.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.engine_state.chance_outcomes()

    def _apply_action(self, action: Any) -> None:
        self.engine_state.apply_action(action_id(action))

    def _action_to_string(self, player: int, action: Any) -> str:
        action = action_id(action)
        decisions, chances = action_names(self.engine_state.get_game())
        chance = player == pyspiel.PlayerId.CHANCE
        names = chances if chance else decisions
        if not 0 <= action < len(names):  # the engine's message; a negative id never wraps
            raise ValueError(
                f"{'chance' if chance else 'decision'} id {action} is outside 0..{len(names) - 1}"
            )
        return f"chance {names[action]}" if chance else f"p{player} {names[action]}"

    def returns(self) -> list[float]:
        return self.engine_state.returns()

    def __str__(self) -> str:
        return str(self.engine_state)


class VikingerObserver:
    """OpenSpiel's observer protocol: `tensor` is the buffer OpenSpiel reads; `set_from`
    copies the engine's observation tensor (docs/state.md) into it."""

    def __init__(self, engine_game: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        self.tensor = np.zeros(engine_game.observation_shape(), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: VikingerState, player: int) -> None:
        np.copyto(self.tensor, state.engine_state.observation_tensor(player))

    def string_from(self, state: VikingerState, player: int) -> str:
        return str(state.engine_state)


class SpielBot(pyspiel.Bot):
    """A `pyspiel.Bot` playing with `bot.step(engine_state)`; see `as_spiel_bot`."""

    def __init__(self, bot: Any) -> None:
        super().__init__()
        self.bot = bot

    def step(self, state: VikingerState) -> int:
        return self.bot.step(state.engine_state)

    def restart_at(self, state: VikingerState) -> None:
        self.bot.restart()

    def restart(self) -> None:
        self.bot.restart()

    def inform_action(self, state: VikingerState, player: int, action: int) -> None:
        pass  # the bot reads the whole state at every step: nothing to keep track of

    def provides_force_action(self) -> bool:
        return False

    def provides_policy(self) -> bool:
        return False


def as_spiel_bot(bot: Any) -> SpielBot:
    """Wraps a bot of this package (`step(state) -> action`, `restart()`, on engine states)
    as a `pyspiel.Bot` for states of a game registered by `register()`."""
    return SpielBot(bot)
