"""vikinger_ref: the pure-Python reference engine of Wikinger (Vikings).

The readable statement of the rules in docs/rules.md and the oracle that vikinger_fast is
tested against. Same API as vikinger_fast (docs/api.md); it never imports the C++ module.

>>> import vikinger_ref as vk
>>> state = vk.Game(num_players=2).new_initial_state()
>>> state.current_player() == vk.CHANCE
True
"""

from ._version import version as _version
from .actions import CHANCE, MAX_CHANCE_OUTCOMES, NUM_DISTINCT_ACTIONS, PHASES, TERMINAL
from .az_bot import AZBot, PolicyNetBot
from .batched_search import PuctSearch
from .bots import GreedyBot, RandomBot
from .components import OPTION_NAMES
from . import svg  # noqa: F401  (gives State its _repr_svg_, as evaluation its scoring gains)
from .evaluation import evaluate
from .game import Game
from .mcts import MCTSBot
from .network import Network
from .playouts import playouts, playouts_batch
from .puct_bot import PuctBot
from .rollout import rollouts
from .solver import EndgameSolver, solve_endgame, solve_endgame_result
from .state import State
from .vector_game import VectorGame

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
    "RandomBot",
    "GreedyBot",
    "MCTSBot",
    "PuctSearch",
    "Network",
    "PuctBot",
    "AZBot",
    "PolicyNetBot",
]
__version__ = _version()
