"""`vikinger bench --quick` (docs/benchmarks.md): the whole benchmark runs end to end on a small
workload and writes every number, the hardware and the build to --json."""

import json

import pytest
from conftest import load_engine


def test_bench_quick_writes_the_table_and_the_json(tmp_path, capsys):
    load_engine("fast")
    from vikinger_fast import cli

    path = tmp_path / "bench.json"
    assert cli.main(["bench", "--quick", "--no-cython", "--no-peers", "--json", str(path)]) == 0
    out = capsys.readouterr().out
    assert "C++ rollouts, 2 players, 1 thread" in out and "Python-driven loop" in out
    # Every optional row left out is printed in its place, saying why.
    for row, option in (
        ("OpenSpiel connect_four", "--no-peers"),
        ("OpenSpiel backgammon", "--no-peers"),
        ("Cython, rollouts", "--no-cython"),
        ("Cython-compiled reference (CPU time)", "--no-cython"),
    ):
        assert any(
            row in line and "skipped" in line and option in line for line in out.splitlines()
        ), row
    assert "C++ MCTS, 2 players, opening" in out
    info = json.loads(path.read_text())
    assert info["quick"] is True and info["hardware"]["cores"] >= 1
    assert {"build_type", "compiler", "flags"} <= info["build"].keys()
    results = info["results"]
    for key in (
        "rollouts_2p_1thread",
        "rollouts_2p_2threads",
        "rollouts_2p_generic_1thread",
        "rollouts_2p_2threads_median_round_ratio",
        "reference_rollouts_2p",
        "loop_fast",
        "loop_ref",
        "vector_fast_loop",
        "clone_fast_ns",
        "apply_fast_ns",
        "apply_inside_cpp_ns",
        "mcts_1thread",
        "mcts_2thread",
        "midgame_playout_ns_per_action",
        "python_uct_per_cpu_second",
        "reference_mcts_per_cpu_second",
        "puct_leaves_per_cpu_second",
        "network_leaves_per_cpu_second_16",
        "numpy_leaves_per_cpu_second_256",
        "python_puct_leaves_per_cpu_second",
        "az_network_visits_quiet",
        "az_network_visits_busy",
        "az_numpy_visits_quiet",
        "az_numpy_visits_busy",
    ):
        assert results[key] > 0, key
    assert 0 < results["puct_share_outside_mlp"] < 1  # docs/neural.md
    assert "cython_rollouts_2p" not in results and "loop_open_spiel_connect_four" not in results
    assert 270 < results["mean_game_length_2p"] < 285  # ~275 actions in a 2-player game


def test_skipped_rows_say_what_to_install():
    """Without the option that leaves a row out, its line names the package extra to install."""
    load_engine("fast")
    import argparse

    from vikinger_fast import benchmarks as benchmark

    given = argparse.Namespace(no_peers=False, no_cython=False)
    reasons = benchmark.skipped(given, peers={}, cython=False)
    assert reasons == {
        "open_spiel": benchmark.INSTALL_HINTS["open_spiel"],
        "cython": benchmark.INSTALL_HINTS["cython"],
    }
    assert 'pip install "vikinger-fast[openspiel]"' in reasons["open_spiel"]
    assert 'pip install ".[bench]"' in reasons["cython"]
    assert 'pip install ".[gymnasium]"' in benchmark.INSTALL_HINTS["gymnasium"]
    assert benchmark.skipped(given, peers={"connect_four": object()}, cython=True) == {}
    left_out = argparse.Namespace(no_peers=True, no_cython=True)
    assert benchmark.skipped(left_out, peers={}, cython=False) == {
        "open_spiel": "left out by --no-peers",
        "cython": "left out by --no-cython",
    }


def test_bench_repeats_is_recorded_and_checked(tmp_path, capsys):
    load_engine("fast")
    from vikinger_fast import cli

    path = tmp_path / "bench.json"
    args = ["bench", "--quick", "--no-cython", "--no-peers", "--repeats", "2", "--json", str(path)]
    assert cli.main(args) == 0
    assert "best of 2 repetitions" in capsys.readouterr().out
    assert json.loads(path.read_text())["repeats"] == 2
    for bad in ("0", "-3", "two"):
        with pytest.raises(SystemExit) as exit_info:
            cli.main(["bench", "--quick", "--repeats", bad])
        assert exit_info.value.code == 2
        assert "--repeats" in capsys.readouterr().err
