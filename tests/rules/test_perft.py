"""Perft counts (tools/perft.py): the number of action sequences of length 1..d from a few
positions, chance outcomes enumerated, forced decisions not counted, a terminal state one leaf.
tests/data/perft.json holds the positions (as `to_dict`) with the reference's counts
(scripts/update_perft.py); each engine loads them and must count the same. One number checks the
legal lists, chance outcomes, automatic decisions and clone() of thousands of states.
"""

import json
import pathlib

import pytest

from conftest import ONLY_REF

try:
    from tools import perft
except ImportError:
    if not ONLY_REF:
        raise
    pytest.skip("vikinger_fast is not importable; VIKINGER_ONLY_REF=1", allow_module_level=True)

PATH = pathlib.Path(__file__).resolve().parents[1] / "data" / "perft.json"
RECORDED = {entry["name"]: entry for entry in json.loads(PATH.read_text())["positions"]}
UPDATE = "run scripts/update_perft.py"


def _load(engine, position):
    return position.config.game(engine).state_from_dict(RECORDED[position.name]["state"])


@pytest.mark.parametrize("position", perft.POSITIONS, ids=lambda position: position.name)
def test_perft_counts(engine, position):
    """B4-B8 as the positions reach them (see each position's description)."""
    expected = RECORDED[position.name]["counts"]
    assert perft.perft(_load(engine, position), len(expected)) == expected


@pytest.mark.parametrize("position", perft.POSITIONS, ids=lambda position: position.name)
def test_recorded_position_is_the_described_one(engine, position):
    """The stored state still is what the position names, e.g. ⚖ B7.2.1: in round 6 a possible
    trip cannot be stopped (no TRIP_STOP)."""
    entry = RECORDED[position.name]
    assert entry["configuration"] == position.config.name
    assert len(entry["counts"]) == position.depth, UPDATE
    assert position.matches(_load(engine, position))


def test_every_position_is_recorded():
    names = [position.name for position in perft.POSITIONS]
    assert sorted(RECORDED) == sorted(names), UPDATE


def test_a_terminal_state_is_one_leaf_at_every_depth():
    """The round-6 position ends the game within its depth: the deepest counts stop growing."""
    counts = RECORDED["round6_obligation"]["counts"]
    assert counts[-1] == counts[-2] and counts[0] < counts[-1]


def test_perft_counts_chance_outcomes_and_decisions(engine):
    """A start-of-game chance node has one child per tile kind in the stacks (B1.4: ten)."""
    state = engine.Game(num_players=2).new_initial_state()
    assert perft.perft(state, 2) == [10, 100]
