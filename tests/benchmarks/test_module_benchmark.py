"""benchmarks/modules.py, the `vikinger bench` rows of the module sets: its configurations, its
results' shape and its errors (the speeds themselves are measured, never asserted)."""

import pytest

from vikinger_fast.benchmarks import modules as module_benchmark


def test_every_configuration_is_the_96_player_counts_and_module_sets():
    configurations = module_benchmark.every_configuration()
    assert len(set(configurations)) == 96
    assert (2, ()) in configurations and (4, module_benchmark.MODULES) in configurations


def test_measure_rates_against_the_2_player_base_game():
    results = module_benchmark.measure([(2, ()), (4, ("auction", "special_tiles"))], 20, 1)
    assert list(results) == ["2p base", "4p auction+special_tiles"]
    assert results["2p base"]["ratio_to_2p_base"] == 1.0
    for row in results.values():
        assert row["actions_per_cpu_second"] == pytest.approx(
            row["games_per_cpu_second"] * row["mean_length"]
        )
    rows = module_benchmark.table_rows(results)
    assert rows[1][0] == "C++ rollouts, 4p auction+special_tiles, 1 thread (CPU time)"
    assert "of 2p base (target >= 0.8)" in rows[1][2]


@pytest.mark.parametrize(
    "configurations, games, rounds, message",
    [
        ([(3, ())], 10, 1, "configurations must start with the 2-player base game"),
        ([], 10, 1, "configurations must start with the 2-player base game"),
        ([(2, ())], 0, 1, "games and rounds must be >= 1, not 0 and 1"),
    ],
)
def test_measure_errors(configurations, games, rounds, message):
    with pytest.raises(ValueError, match=message):
        module_benchmark.measure(configurations, games, rounds)
