"""The high-level call: `search(states, evaluator, ...)` runs one PUCT search per state with
their leaves batched for one evaluator, and returns each root's visits, values and policy
(docs/neural.md)."""

from types import ModuleType
from typing import Any, Callable, Dict, List, Optional, Sequence, Union

import numpy as np

import vikinger_fast

from .evaluators import heuristic_evaluator


def visit_policy(visits: Sequence[int], temperature: float = 1.0) -> List[float]:
    """pi(a) = N(a)^(1/T) / sum_b N(b)^(1/T); T = 0: all on the most visited action (the first
    on a tie)."""
    if not temperature >= 0.0:
        raise ValueError(f"temperature must be >= 0, not {temperature}")
    counts = np.asarray(visits, dtype=np.float64)
    if counts.sum() <= 0:
        raise ValueError("visit_policy needs at least one visit")
    if temperature == 0.0:
        policy = np.zeros_like(counts)
        policy[int(np.argmax(counts))] = 1.0
        return policy.tolist()
    # Powers of the shares, not of the counts: no overflow for small temperatures.
    weights = (counts / counts.max()) ** (1.0 / temperature)
    return (weights / weights.sum()).tolist()


def search(
    states: Sequence[Any],
    evaluator: Union[str, Callable[..., Any]],
    *,
    simulations: int,
    batch_size: int = 256,
    seed: int = 0,
    temperature: float = 1.0,
    engine: Optional[ModuleType] = None,
    **options: Any,
) -> List[Dict[str, Any]]:
    """One PUCT search from each state (decision nodes of one game), the leaves of all of them
    gathered into evaluator calls of up to batch_size rows. `evaluator` is a callable of the
    protocol or "heuristic". `options` go to PuctSearch (c_init, c_base, dirichlet_alpha,
    dirichlet_fraction, virtual_loss). `engine` is vikinger_fast (default) or vikinger_ref, the
    module whose states these are. Returns per state PuctSearch.results() with "policy" added:
    the visit policy at `temperature`."""
    engine = vikinger_fast if engine is None else engine
    tree = engine.PuctSearch(list(states), simulations=simulations, seed=seed, **options)
    if isinstance(evaluator, str):
        if evaluator != "heuristic":
            raise ValueError(f"evaluator must be a callable or 'heuristic', not {evaluator!r}")
        evaluator = heuristic_evaluator(tree)
    tree.run(evaluator, batch_size)
    results = tree.results()
    for result in results:
        result["policy"] = visit_policy(result["visits"], temperature)
    return results
