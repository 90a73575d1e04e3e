"""The one timing rule of `vikinger bench` (benchmark.py, search_benchmark.py): the best of
several runs, since a noisy host only ever makes a run slower."""

import time


def best_seconds(repeats, run, clock=time.perf_counter):
    """The shortest of `repeats` runs of `run()`, in seconds of `clock`."""
    best = float("inf")
    for _ in range(repeats):
        start = clock()
        run()
        best = min(best, clock() - start)
    return best
