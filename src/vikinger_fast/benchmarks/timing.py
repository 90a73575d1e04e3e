"""The one timing rule of `vikinger bench` (benchmark.py, search_benchmark.py): the best of
several runs, since a noisy host only ever makes a run slower."""

import time
from typing import Any, Callable


def best_seconds(
    repeats: int, run: Callable[[], Any], clock: Callable[[], float] = time.perf_counter
) -> float:
    """The shortest of `repeats` runs of `run()`, in seconds of `clock`."""
    best = float("inf")
    for _ in range(repeats):
        start = clock()
        run()
        best = min(best, clock() - start)
    return best
