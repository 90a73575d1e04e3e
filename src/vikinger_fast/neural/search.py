"""The high-level call: `search(states, evaluator, ...)` runs one PUCT search per state (a Gumbel
root if asked) with their leaves batched for one evaluator, within a simulation or time budget,
and returns the roots' visits, values, policies and choices as arrays (docs/neural.md)."""

from types import ModuleType
from typing import Any, Callable, Dict, List, Optional, Sequence, Union

import numpy as np

from vikinger_ref.arguments import MAX_SECONDS, check_seconds
from vikinger_ref.puct_bot import UNLIMITED

import vikinger_fast

from .evaluators import heuristic_evaluator


def _check_temperature(temperature: float) -> None:
    if not temperature >= 0.0:
        raise ValueError(f"temperature must be >= 0, not {temperature}")


def visit_policy(visits: Sequence[int], temperature: float = 1.0) -> List[float]:
    """pi(a) = N(a)^(1/T) / sum_b N(b)^(1/T); T = 0: all on the most visited action (the first
    on a tie)."""
    _check_temperature(temperature)
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
    simulations: Optional[int] = None,
    max_time: Optional[float] = None,
    gumbel: Union[bool, Dict[str, Any]] = False,
    batch_size: int = 256,
    seed: int = 0,
    temperature: float = 1.0,
    engine: Optional[ModuleType] = None,
    **options: Any,
) -> Dict[str, np.ndarray]:
    """One search from each of the B states (decision nodes of one game), the leaves of all of
    them gathered into evaluator calls of up to batch_size rows. `evaluator` is a callable of the
    protocol, a Network, or "heuristic". The budget: `simulations` per root and/or `max_time`
    seconds for the call (no batch is gathered once they have passed; 1e9 s or more sets no
    deadline, so it needs `simulations`). `gumbel`: the Gumbel root (True, or a dict of some of
    max_considered, c_visit, c_scale, as training's self-play plays it). `options` go to
    PuctSearch (c_init, c_base, dirichlet_alpha, dirichlet_fraction, virtual_loss,
    solver_nodes). `engine` is vikinger_fast (default) or vikinger_ref, the module whose states
    these are.

    Returns PuctSearch.result_arrays() (visits int64[B, 2036], priors, q, improved_policy
    float64[B, 2036], legal bool[B, 2036], value float64[B, n], network_value float64[B],
    selected int64[B], the search's choice) with policy float64[B, 2036], the visit policy at
    `temperature`. A root that max_time left without a visited child has its priors as policy
    (uniform over the legal actions where it was not evaluated either), and that policy's first
    most likely action as selected where the search chose none."""
    engine = vikinger_fast if engine is None else engine
    _check_temperature(temperature)
    seconds = None if max_time is None else check_seconds("max_time", max_time)
    if simulations is None and seconds is None:
        raise ValueError("search needs a budget: simulations or max_time")
    if simulations is None and seconds is not None and seconds >= MAX_SECONDS:
        raise ValueError(
            f"search needs a finite budget: simulations, or max_time below 1e9 seconds, not "
            f"{max_time}"
        )
    tree = engine.PuctSearch(
        list(states),
        simulations=UNLIMITED if simulations is None else simulations,
        seed=seed,
        gumbel=gumbel,
        **options,
    )
    if isinstance(evaluator, str):
        if evaluator != "heuristic":
            raise ValueError(f"evaluator must be a callable or 'heuristic', not {evaluator!r}")
        evaluator = heuristic_evaluator(tree)
    deadline = None if seconds is None or seconds >= MAX_SECONDS else seconds
    tree.run(evaluator, batch_size, max_time=deadline)
    results: Dict[str, np.ndarray] = tree.result_arrays()
    policy = np.zeros(results["visits"].shape, np.float64)
    for i, visits in enumerate(results["visits"]):
        if visits.sum() > 0:
            policy[i] = visit_policy(visits.tolist(), temperature)
            continue
        priors = results["priors"][i]
        policy[i] = priors if priors.sum() > 0 else results["legal"][i]
        policy[i] /= policy[i].sum()
        if results["selected"][i] < 0:
            results["selected"][i] = int(np.argmax(policy[i]))
    results["policy"] = policy
    return results
