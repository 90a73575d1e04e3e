"""Hostile arguments for distributed runs (docs/distributed.md): numpy integers are ints for
every count, shard size and executor size; other types and values are refused before any
work, with the same messages whatever the integer type."""

import numpy as np
import pytest

from vikinger_fast import distributed

INT_TYPES = [int, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint32, np.uint64]


@pytest.mark.parametrize("kind", INT_TYPES, ids=lambda k: k.__name__)
def test_numpy_ints_everywhere(engine, kind):
    game = engine.Game(num_players=2)
    expected = engine.rollouts(game, 5, 7)
    local = distributed.LocalProcesses(kind(1))
    assert local.jobs == 1 and type(local.jobs) is int
    assert distributed.ranges(kind(5), kind(2)) == [(0, 2), (2, 2), (4, 1)]
    result = distributed.rollouts(game, kind(5), kind(7), shard_size=kind(2), executor=local)
    for key in expected:
        np.testing.assert_array_equal(result[key], expected[key])
    state = game.new_initial_state()
    result = distributed.playouts(state, kind(3), kind(1), shard_size=kind(2))
    np.testing.assert_array_equal(result["scores"], engine.playouts(state, 3, 1)["scores"])


def test_local_processes_two_numpy_jobs():
    import vikinger_fast as fast

    game = fast.Game(num_players=2)
    result = distributed.rollouts(
        game, 6, 3, shard_size=np.int64(2), executor=distributed.LocalProcesses(np.int64(2))
    )
    np.testing.assert_array_equal(result["scores"], fast.rollouts(game, 6, 3)["scores"])


@pytest.mark.parametrize(
    "value",
    [0, -1, 1.0, 2.5, True, np.bool_(True), "2", None, np.float64(2), np.timedelta64(2)],
    ids=repr,
)
def test_bad_sizes_refused(value):
    with pytest.raises(ValueError, match="jobs must be an int >= 1"):
        distributed.LocalProcesses(value)
    with pytest.raises(ValueError, match="shard_size must be an int >= 1"):
        distributed.ranges(10, value)


@pytest.mark.parametrize("value", [0, -1, 1.5, True, "2"], ids=repr)
def test_ray_sizes_checked_before_connecting(value):
    """Refused before Ray is imported or contacted (no cluster is started)."""
    with pytest.raises(ValueError, match="cpus_per_shard must be an int >= 1"):
        distributed.RayCluster("127.0.0.1:1", cpus_per_shard=value)
    with pytest.raises(ValueError, match="num_cpus must be None or an int >= 1"):
        distributed.RayCluster("127.0.0.1:1", num_cpus=value)


@pytest.mark.parametrize("count", [1.0, "3", None, True], ids=repr)
def test_counts_and_seeds_must_be_ints(engine, count):
    game = engine.Game(num_players=2)
    with pytest.raises(TypeError, match="count must be an int"):
        distributed.rollouts(game, count, 0)
    with pytest.raises(TypeError, match="seed must be an int"):
        distributed.rollouts(game, 3, count)


def test_negative_count_refused(engine):
    with pytest.raises(ValueError, match="number of games must be >= 0"):
        distributed.rollouts(engine.Game(num_players=2), np.int64(-1), 0)


def test_selfplay_numpy_counts(tmp_path):
    from vikinger_fast.distributed import selfplay

    manifest = selfplay.generate(
        str(tmp_path / "run"),
        np.int64(1),
        0,
        mcts={"iterations": 2},
        sample_moves=np.int32(3),
        shard_size=np.int64(1),
    )
    assert manifest["games"] == 1 and manifest["sample_moves"] == 3
    assert type(manifest["games"]) is int
