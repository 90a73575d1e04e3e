"""Search guided by a network (docs/neural.md): the evaluator protocol, ready evaluators, the
high-level `search` call over many states, PuctBot, and the path of the shipped networks
(`shipped_model(game)`).

The evaluator protocol: `evaluator(observations, legal) -> (logits, values)` with observations
float32[B, observation_size] (the observation tensor of docs/state.md for the player to move at
each leaf), legal bool[B, NUM_DISTINCT_ACTIONS], logits float32[B, NUM_DISTINCT_ACTIONS] (only the
legal entries are read) and values float32[B, num_players] on the returns' scale, relative to the
player to move (column k: player (mover + k) % num_players).
"""

from vikinger_ref.az_bot import shipped_model

from .bot import PuctBot
from .evaluators import ConstantEvaluator, MLPEvaluator, heuristic_evaluator
from .search import search, visit_policy

__all__ = [
    "PuctBot",
    "ConstantEvaluator",
    "MLPEvaluator",
    "heuristic_evaluator",
    "search",
    "shipped_model",
    "visit_policy",
]
