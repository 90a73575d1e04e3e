"""Rebuilding the C++ bots from their pickles (docs/search.md "Bots").

A pickled RandomBot, GreedyBot or MCTSBot of `vikinger_fast` is one of these functions, named by
module and name, with plain data: the game's player count and option bits, the seed, the state
of the bot's stream (MCTSBot: its budget as the constructor's keywords and the searches done).
Every value is checked as the constructors check theirs, so a crafted pickle of these calls can
at worst raise TypeError or ValueError, and a restricted unpickler that allows this module and
refuses builtins loads them.
"""

from typing import Any, Dict

from . import _core


def random_bot(num_players: int, options: int, seed: int, stream: int) -> _core.RandomBot:
    return _core._random_bot_from_data(_core._game_from_data(num_players, options), seed, stream)


def greedy_bot(num_players: int, options: int, seed: int, stream: int) -> _core.GreedyBot:
    return _core._greedy_bot_from_data(_core._game_from_data(num_players, options), seed, stream)


def mcts_bot(num_players: int, options: int, seed: int, budget: Dict[str, Any],
             searches: int) -> _core.MCTSBot:
    return _core._mcts_bot_from_data(_core._game_from_data(num_players, options), seed, budget,
                                     searches)
