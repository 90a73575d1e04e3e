"""The functions the C++ module's pickles call to rebuild a Game, a State or a VectorGame.

Plain module-level Python functions, so that a pickle names them as `module.name` (pybind11's
own functions pickle as a call of `builtins.eval`, which a restricted unpickler must refuse).
Each one checks its data as the constructor does (the _core functions it calls)."""

from typing import Any

from .. import _core


def game_from_data(num_players: int, options: int) -> Any:
    """A Game from its player count and option bits (docs/state.md), checked."""
    return _core._game_from_data(num_players, options)


def state_from_bytes(data: bytes) -> Any:
    """A State from its serialize() bytes, checked."""
    return _core._state_from_bytes(data)


def vector_game_from_data(game: Any, positions: Any, streams: Any, lengths: Any,
                          *arrays: Any) -> Any:
    """A VectorGame from its __reduce__ data, checked completely."""
    return _core._vector_game_from_data(game, positions, streams, lengths, *arrays)
