"""`vikinger bench` marks each row with a target met or missed (benchmarks/verdicts.py), and
names the load average in a missed row when the machine was busy."""

import collections

from vikinger_fast import benchmarks
from vikinger_fast.benchmarks import verdicts


def results(**numbers):
    # Every row reads its numbers with r[key]: 1.0 for the ones a test does not set.
    r = collections.defaultdict(lambda: 1.0)
    r.update({"gymnasium_vector_env_time_ratio": 1.1, **numbers})
    return r


def line(table, name):
    return next(row for row in table.splitlines() if row.startswith(name))


def test_every_target_names_a_row_of_the_table():
    table = benchmarks.table(results())
    for name in verdicts.CHECKS:
        assert line(table, name), name
    marked = [row for row in table.splitlines() if "  met: " in row or "  missed" in row]
    assert len(marked) == len(verdicts.CHECKS)


def test_met_and_missed_follow_the_numbers():
    fused = "C++ rollouts, 2 players, 1 thread (fused playout)"
    quick = benchmarks.table(results(rollouts_2p_1thread=250_000.0))
    assert "  met: target >= 200,000" in line(quick, fused)
    slow = benchmarks.table(results(rollouts_2p_1thread=158_940.0))
    assert "  missed: target >= 200,000" in line(slow, fused)
    gym = "Gymnasium VectorEnv over VectorGame"
    assert " met: " in line(slow, gym)  # +10 % against a goal of <= +20 %
    worse = benchmarks.table(results(gymnasium_vector_env_time_ratio=1.3))
    assert " missed: " in line(worse, gym)


def test_a_busy_machine_is_named_in_the_missed_rows_only():
    busy = {"average": 6.5, "cores": 2}
    table = benchmarks.table(results(rollouts_2p_1thread=158_940.0, load=busy))
    fused = line(table, "C++ rollouts, 2 players, 1 thread (fused playout)")
    assert "missed (busy machine: load average 6.5 on 2 cores): target" in fused
    met = line(table, "C++ playouts from a round-4 state")  # 1.0 <= 1.25
    assert " met: " in met and "busy" not in met
    quiet = benchmarks.table(
        results(rollouts_2p_1thread=158_940.0, load={"average": 0.4, "cores": 2})
    )
    assert "busy machine" not in quiet  # (the learned player's rows name a busy process)


def test_every_row_that_names_a_target_says_met_or_missed():
    module = {"actions_per_cpu_second": 7e7, "ratio_to_2p_base": 0.9}
    module.update(games_per_cpu_second=2.5e5, mean_length=280.0)
    table = benchmarks.table(results(module_rollouts={"2p base": module, "4p base": module}))
    targets = [row for row in table.splitlines() if "target" in row or "goal" in row]
    assert len(targets) == 18
    for row in targets:
        assert "  met: " in row or "  missed: " in row, row


def test_the_shipped_network_rows_need_both_targets():
    name = "C++ batched PUCT, shipped 2-player network inside the search, batch 256"

    def row(network, numpy):
        numbers = {"network_leaves_per_cpu_second_256": network}
        return line(
            benchmarks.table(results(numpy_leaves_per_cpu_second_256=numpy, **numbers)), name
        )

    assert " missed: " in row(235_000.0, 50_000.0)  # x4.7 against x5
    assert " met: " in row(260_000.0, 50_000.0)
    assert " missed: " in row(140_000.0, 20_000.0)  # x7, below 150,000 leaves per CPU second


def test_numbers_of_an_unpinned_blas_say_so():
    pinned = benchmarks.table(results(numpy_blas_one_thread=True))
    assert "BLAS" not in pinned
    loose = benchmarks.table(results(numpy_blas_one_thread=False))
    rows = [row for row in loose.splitlines() if "BLAS not held to one thread" in row]
    assert len(rows) == 3  # the two shipped-network rows and the numpy learned player
    assert all('pip install ".[bench]"' in row for row in rows)
