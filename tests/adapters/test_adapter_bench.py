"""The `vikinger bench` row of the Gymnasium vector env (src/vikinger_fast/benchmarks/__init__.py):
measured when gymnasium is installed, else a line saying how to get it."""

import builtins
import collections

import pytest
from conftest import load_engine


def test_overhead_is_measured_with_gymnasium():
    pytest.importorskip("gymnasium")
    fast = load_engine("fast")
    from vikinger_fast import benchmarks as benchmark

    ratio = benchmark.vector_env_overhead(fast.Game(num_players=2), steps=10)
    assert isinstance(ratio, float) and ratio > 0


def test_without_gymnasium_the_row_says_how_to_install(monkeypatch):
    fast = load_engine("fast")
    from vikinger_fast import benchmarks as benchmark

    real_import = builtins.__import__

    def no_gymnasium(name, *args, **kwargs):
        if name.split(".")[0] == "gymnasium" or name.endswith("adapters.gymnasium"):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_gymnasium)
    assert benchmark.vector_env_overhead(fast.Game(num_players=2), steps=10) is None
    monkeypatch.undo()
    # Every other row reads its number with rows[key]; the Gymnasium row asks `in` first.
    rows = collections.defaultdict(lambda: 1.0)
    line = next(line for line in benchmark.table(rows).splitlines() if "Gymnasium" in line)
    assert "skipped" in line and 'pip install "vikinger-fast[gymnasium]"' in line
    rows["gymnasium_vector_env_time_ratio"] = 1.125
    line = next(line for line in benchmark.table(rows).splitlines() if "Gymnasium" in line)
    assert "+12.5 % time" in line
