"""AZBot and PolicyNetBot on this package's classes: vikinger_ref.az_bot's bots (one
implementation, docs/learning.md "The shipped player") on the C++ PuctSearch, State and Game."""

from vikinger_ref import az_bot

from .._core import EndgameSolver, Game, Network, PuctSearch, State
from .bot import no_chance_ahead, round_of


class AZBot(az_bot.AZBot):
    """AZBot(game, seed, *, simulations=None, max_time=None, model=None, ...): PuctBot on the
    shipped network (or model=PATH); see vikinger_ref.az_bot."""

    _search_class = PuctSearch
    _state_class = State
    _game_class = Game
    _network_class = Network
    _endgame_solver_class = EndgameSolver
    _no_chance_ahead = staticmethod(no_chance_ahead)
    _round = staticmethod(round_of)


class PolicyNetBot(az_bot.PolicyNetBot):
    """The network's policy alone (argmax over the legal actions); see vikinger_ref.az_bot."""

    _state_class = State
    _game_class = Game
    _network_class = Network
