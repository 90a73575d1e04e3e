"""Ready evaluators (docs/neural.md "Evaluators"): they let the search run without a network
library.

- `ConstantEvaluator(num_players)`: all logits 0 (uniform priors), every value 1 / num_players;
  the cheapest evaluator, for measuring the search itself.
- `heuristic_evaluator(search)`: the heuristic evaluation (vikinger_fast.evaluate) of the
  gathered leaves with uniform priors; it reads the leaves from the search, so it is made per
  search.
- `MLPEvaluator`: a numpy multilayer perceptron whose weights come from an `.npz` file read
  without pickle (the format is in vikinger_ref/mlp.py and docs/neural.md).
"""

from typing import Any, Callable, Tuple

import numpy as np
from vikinger_ref.mlp import FORMAT, MLPEvaluator

from .._core import NUM_DISTINCT_ACTIONS

__all__ = ["ConstantEvaluator", "MLPEvaluator", "FORMAT", "heuristic_evaluator"]

Batch = Tuple[np.ndarray, np.ndarray]


class ConstantEvaluator:
    """Uniform priors and equal values; the output arrays are made once per batch size."""

    def __init__(self, num_players: int) -> None:
        self.num_players = int(num_players)
        self._cache: dict = {}

    def __call__(self, observations: np.ndarray, legal: np.ndarray) -> Batch:
        rows = len(observations)
        if rows not in self._cache:
            self._cache[rows] = (
                np.zeros((rows, NUM_DISTINCT_ACTIONS), np.float32),
                np.full((rows, self.num_players), 1.0 / self.num_players, np.float32),
            )
        return self._cache[rows]


def heuristic_evaluator(search: Any) -> Callable[[np.ndarray, np.ndarray], Batch]:
    """The evaluator of `search` (a PuctSearch of either engine) that values its gathered leaves
    with the heuristic evaluation, relative to each leaf's mover, and gives uniform priors."""

    def evaluate(observations: np.ndarray, legal: np.ndarray) -> Batch:
        return (
            np.zeros((len(observations), NUM_DISTINCT_ACTIONS), np.float32),
            search.heuristic_values(),
        )

    return evaluate
