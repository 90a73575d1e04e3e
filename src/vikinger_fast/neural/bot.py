"""PuctBot on the C++ PuctSearch: vikinger_ref's PuctBot (one implementation of the bot's
logic, docs/neural.md "Evaluators and bots") with this package's search, State and Game classes."""

from vikinger_ref import puct_bot

from .._core import EndgameSolver, Game, Network, PuctSearch, State


def no_chance_ahead(state: State) -> bool:
    """Round 6 and not a chance node: the cheap test before the solver (solver.h)."""
    return bool(state.to_dict()["round"] == 6 and not state.is_chance_node())


def round_of(state: State) -> int:
    """The state's round, 1..6 (the score_round test)."""
    return int(state.to_dict()["round"])


class PuctBot(puct_bot.PuctBot):
    """PuctBot(game, seed, *, simulations=None, max_time=None, model=None, evaluator=None,
    c_init=1.25, c_base=0.0, batch_size=32, reuse=True, ..., solver_nodes=0,
    leaf_solver_nodes=0): see vikinger_ref.puct_bot."""

    _search_class = PuctSearch
    _state_class = State
    _game_class = Game
    _network_class = Network
    _endgame_solver_class = EndgameSolver
    _no_chance_ahead = staticmethod(no_chance_ahead)
    _round = staticmethod(round_of)
