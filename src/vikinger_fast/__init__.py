"""vikinger_fast: a fast, exact engine of the board game Wikinger (Vikings) for game-AI research.

The C++ core (`_core`) behind the API of docs/api.md; `vikinger_ref` is its pure-Python twin.
The rules it plays, with their ids (B1-B9, A0-A5) and rulings, are docs/rules.md.

>>> import vikinger_fast as vk
>>> state = vk.Game(num_players=2).new_initial_state()
>>> state.current_player() == vk.CHANCE
True
"""

from importlib import metadata as _metadata

from ._core import (
    CHANCE,
    MAX_CHANCE_OUTCOMES,
    NUM_DISTINCT_ACTIONS,
    OPTION_NAMES,
    PHASES,
    TERMINAL,
    Game,
    GreedyBot,
    MCTSBot,
    Network,
    PuctSearch,
    RandomBot,
    State,
    VectorGame,
    evaluate,
    playouts,
    playouts_batch,
    rollouts,
    solve_endgame,
)

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
    "RandomBot",
    "GreedyBot",
    "MCTSBot",
    "PuctSearch",
    "Network",
    "PuctBot",
    "AZBot",
    "PolicyNetBot",
]
# The one version source is pyproject.toml; the C++ module exists only installed, with metadata.
__version__ = _metadata.version("vikinger-fast")


def __getattr__(name):
    # The network bots' logic is shared with the reference (vikinger_ref.puct_bot, az_bot):
    # imported on first use, so that `import vikinger_fast` does not load the reference engine.
    if name == "PuctBot":
        from .neural.bot import PuctBot

        return PuctBot
    if name in ("AZBot", "PolicyNetBot"):
        from .neural import az_bot

        return getattr(az_bot, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
