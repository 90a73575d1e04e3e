"""The functions the C++ module's pickles call to rebuild a Game, a State, a VectorGame or a bot.

Plain module-level Python functions, so that a pickle names them as `module.name` (pybind11's
own functions pickle as a call of `builtins.eval`, which a restricted unpickler must refuse).
Each one checks its data as the constructor does (the _core functions it calls)."""

from typing import Any, Dict

from .. import _core


def game_from_data(num_players: int, options: int) -> Any:
    """A Game from its player count and option bits (docs/state.md), checked."""
    return _core._game_from_data(num_players, options)


def state_from_bytes(data: bytes) -> Any:
    """A State from its serialize() bytes, checked."""
    return _core._state_from_bytes(data)


def vector_game_from_data(
    game: Any, positions: Any, streams: Any, lengths: Any, *arrays: Any
) -> Any:
    """A VectorGame from its __reduce__ data, checked completely."""
    return _core._vector_game_from_data(game, positions, streams, lengths, *arrays)


# The bots (docs/search.md "Bots") store their game as its player count and option bits, the seed
# and the state of their stream (MCTSBot: its budget as the constructor's keywords and the
# searches done), each checked as the constructors check theirs (a stream state or a count of
# searches outside 0..2**64-1 is a ValueError, as in the reference's rebuild).
def random_bot(num_players: int, options: int, seed: int, stream: int) -> Any:
    return _core._random_bot_from_data(_core._game_from_data(num_players, options), seed, stream)


def greedy_bot(num_players: int, options: int, seed: int, stream: int) -> Any:
    return _core._greedy_bot_from_data(_core._game_from_data(num_players, options), seed, stream)


def mcts_bot(
    num_players: int, options: int, seed: int, budget: Dict[str, Any], searches: int
) -> Any:
    return _core._mcts_bot_from_data(
        _core._game_from_data(num_players, options), seed, budget, searches
    )
