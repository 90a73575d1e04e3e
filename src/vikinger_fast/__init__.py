"""vikinger_fast: a fast, exact engine of the board game Wikinger (Vikings) for game-AI research.

The C++ core (`_core`) behind the API of docs/api.md; `vikinger_ref` is its pure-Python twin.
The rules it plays, with their ids (B1-B9, A0-A5) and rulings, are docs/rules.md.

>>> import vikinger_fast as vk
>>> state = vk.Game(num_players=2).new_initial_state()
>>> state.current_player() == vk.CHANCE
True
"""

import typing as _typing
from importlib import metadata as _metadata

from ._core import (
    CHANCE,
    MAX_CHANCE_OUTCOMES,
    NUM_DISTINCT_ACTIONS,
    OPTION_NAMES,
    PHASES,
    TERMINAL,
    Game,
    Network,
    PuctSearch,
    State,
    VectorGame,
    evaluate,
    playouts,
    playouts_batch,
    rollouts,
    EndgameSolver,
    solve_endgame,
    solve_endgame_result,
)

from . import bot_registry as _bot_registry
from . import pictures  # noqa: F401  (gives State its _repr_svg_)

__all__ = [
    "CHANCE",
    "TERMINAL",
    "PHASES",
    "OPTION_NAMES",
    "NUM_DISTINCT_ACTIONS",
    "MAX_CHANCE_OUTCOMES",
    "Game",
    "State",
    "VectorGame",
    "rollouts",
    "playouts",
    "playouts_batch",
    "evaluate",
    "solve_endgame",
    "solve_endgame_result",
    "EndgameSolver",
    "PuctSearch",
    "Network",
    # the bots, one per entry of the registry (bot_registry.py): RandomBot, GreedyBot, MCTSBot,
    # PuctBot, AZBot, PolicyNetBot
    *(entry.class_name for entry in _bot_registry.BOTS.values()),
]
# The one version source is pyproject.toml; the C++ module exists only installed, with metadata.
__version__ = _metadata.version("vikinger-fast")


def __getattr__(name: str) -> _typing.Any:
    # The bots' classes, from the registry: the C++ ones, and the network bots whose logic is
    # shared with the reference (vikinger_ref.puct_bot, az_bot), imported on first use so that
    # `import vikinger_fast` does not load the reference engine.
    entry = _bot_registry.by_class_name(name)
    if entry is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return entry.fast_class()
