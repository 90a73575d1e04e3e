"""Rollouts of every configuration: 2, 3 and 4 players with each of the 32 sets of the advanced
modules A1-A5 (96 in all), on the fused playout (csrc/playout.cc). Read actions per second as
extra_info["actions"] / mean time; the target is 0.8 times the 2-player base game's
(docs/performance-notes.md "Modules in the fused playout"; `vikinger bench` shows a
representative few, timed in alternating rounds)."""

import pytest

import vikinger_fast as fast
from vikinger_fast.benchmarks.modules import every_configuration, label

GAMES = 1000


@pytest.mark.parametrize(
    "num_players, modules",
    every_configuration(),
    ids=[label(*c).replace(" ", "-") for c in every_configuration()],
)
@pytest.mark.benchmark(group="rollouts by module set")
def test_module_rollouts(benchmark, num_players, modules):
    game = fast.Game(num_players=num_players, **{m: True for m in modules})
    result = benchmark(fast.rollouts, game, GAMES, 0)
    benchmark.extra_info["actions"] = int(result["length"].sum())
    assert result["returns"].sum() == pytest.approx(GAMES)  # B8.9 one win per game
