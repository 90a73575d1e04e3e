"""Fixtures of the pytest-benchmark suites: both engines, and positions met in real games.

Every benchmark runs on `vikinger_ref` (pure Python) and `vikinger_fast` (C++), grouped per
operation, so `pytest bench/ --benchmark-group-by=group` prints the two side by side. The
positions are reached by seeded random play (chance from `apply_random_chance(int)`, decisions
from `random.Random`), so both engines benchmark the very same states. With
`--benchmark-disable` every body runs once: the smoke test of CI.
"""

import importlib
import os

import pytest

from tools.random_games import random_game

ENGINES = {"ref": "vikinger_ref", "fast": "vikinger_fast"}


def load_engine(which):
    """The engine module (python_ref/ is on pytest's `pythonpath`, so a source checkout finds the
    reference). A missing vikinger_fast fails the benchmark unless VIKINGER_ONLY_REF=1 (then it
    is skipped)."""
    try:
        return importlib.import_module(ENGINES[which])
    except ImportError as error:
        if which == "fast" and os.environ.get("VIKINGER_ONLY_REF") == "1":
            pytest.skip(f"vikinger_fast not importable ({error}); VIKINGER_ONLY_REF=1")
        raise


@pytest.fixture(params=list(ENGINES), scope="module")
def engine(request):
    return load_engine(request.param)


def play_until(engine, seed, stop):
    """A seeded random game, stopped at the first state where `stop(state)` is true."""
    return random_game(engine, seed, stop=stop, required=True)


def late_island_cell(state):
    """Round 6, placing an island tile: the widest boards and longest legal-cell lists."""
    return state.to_dict()["round"] == 6 and state.to_dict()["phase"] == "island_cell"


@pytest.fixture(scope="module")
def island_cell_state(engine):
    return play_until(engine, 1, late_island_cell)


@pytest.fixture(scope="module")
def round6_buy_state(engine):
    """Round 6 after ten purchases, at a decision node: a full board, ships included."""
    return play_until(
        engine,
        2,
        lambda s: (
            s.current_player() >= 0 and s.to_dict()["round"] == 6 and s.to_dict()["purchases"] >= 10
        ),
    )


@pytest.fixture(scope="module")
def finished_game(engine):
    """A whole game: its history replays every kind of action."""
    return play_until(engine, 3, lambda s: s.is_terminal())
