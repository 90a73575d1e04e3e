"""The two targets of training (training/targets.py, docs/learning.md "Training steps"): what
each is, and that a batch names them `policy_target` and `value_target`."""

import numpy as np
import pytest

from vikinger_fast import distributed
from vikinger_fast.training import TrainConfig, replay, targets
from vikinger_fast.training.network import init_params


def shard_arrays():
    """Two samples of a 3-player game as the shards hold them: movers 2 and 0."""
    target = np.zeros((2, 2036), np.float32)
    target[0, [3, 7]] = [0.25, 0.75]
    target[1, 5] = 1.0
    return {
        "target": target,
        "player": np.array([2, 0], np.int8),
        "returns": np.array([[0.2, 0.3, 0.5], [1.0, 0.0, 0.0]], np.float32),
        "root_value": np.array([[0.4, 0.4, 0.2], [0.6, 0.2, 0.2]], np.float32),
    }


def test_the_policy_target_is_the_shards_improved_policy_held_in_float16():
    arrays = shard_arrays()
    policy = targets.policy_target(arrays)
    assert policy.dtype == np.float16
    np.testing.assert_array_equal(policy.astype(np.float32), arrays["target"])


@pytest.mark.parametrize(
    "mix, expected",
    [
        # Returns alone, column k = player (mover + k) % 3: mover 2 sees (0.5, 0.2, 0.3).
        (0.0, [[0.5, 0.2, 0.3], [1.0, 0.0, 0.0]]),
        # Half and half: seat shares (0.3, 0.35, 0.35) and (0.8, 0.1, 0.1), then the mover's view.
        (0.5, [[0.35, 0.3, 0.35], [0.8, 0.1, 0.1]]),
        (1.0, [[0.2, 0.4, 0.4], [0.6, 0.2, 0.2]]),
    ],
)
def test_the_value_target_mixes_returns_and_root_values_relative_to_the_mover(mix, expected):
    value = targets.value_target(shard_arrays(), mix)
    assert value.dtype == np.float32
    np.testing.assert_allclose(value, expected, rtol=1e-6)


def test_without_mixing_root_value_is_never_read():
    # Runs from before root_value train with value_mix 0.
    arrays = shard_arrays()
    del arrays["root_value"]
    np.testing.assert_allclose(targets.value_target(arrays, 0.0)[1], [1.0, 0.0, 0.0])
    with pytest.raises(KeyError, match="root_value"):
        targets.value_target(arrays, 0.5)


def test_a_batch_names_its_two_targets(tmp_path):
    config = TrainConfig(games=2, shard_games=1, simulations=3, max_considered=2, batch=16)
    run = str(tmp_path)
    replay.generate(run, config, init_params(2, (8,), 1), 0, distributed.LocalProcesses(1))
    data = replay.Replay(run, config)
    data.load(0)
    batch = data.batch(0)
    assert set(batch) == {
        "observation",
        "legal_mask",
        "policy_target",
        "value_target",
        "score_target",
    }
    assert batch["score_target"].shape == (16, 2)
    assert (np.abs(batch["score_target"]) < 1).all()
    policy, value = batch["policy_target"], batch["value_target"]
    assert policy.dtype == value.dtype == np.float32
    assert policy.shape == (16, 2036) and value.shape == (16, 2)
    # The policy target: a distribution over the legal actions (up to float16's rounding).
    np.testing.assert_allclose(policy.sum(axis=1), 1.0, atol=2e-3)
    assert not (policy * ~batch["legal_mask"]).any()
    # The value target: win shares, the mover's first.
    np.testing.assert_allclose(value.sum(axis=1), 1.0, atol=1e-6)


def test_the_score_target_is_the_squashed_margin_relative_to_the_mover():
    # Seats' 64 x Fame + gold: 5 Fame 3 gold, 5 Fame 1 gold, 2 Fame 0 gold.
    arrays = {"final_score": np.array([[323.0, 321.0, 128.0]] * 2), "player": np.array([1, 0])}
    margin = np.array([2 / 64, -2 / 64, -195 / 64])  # each seat minus the best other, in Fame
    np.testing.assert_allclose(targets.margins(arrays["final_score"])[0], margin)
    squashed = np.tanh(margin / targets.SCORE_SCALE)
    score = targets.score_target(arrays)
    assert score.dtype == np.float32
    np.testing.assert_allclose(score[0], squashed[[1, 2, 0]], rtol=1e-6)  # mover 1's view
    np.testing.assert_allclose(score[1], squashed, rtol=1e-6)


def test_rescored_samples_take_the_solvers_margins():
    arrays = {
        **shard_arrays(),
        "final_score": np.array([[64.0, 128.0, 0.0]] * 2, np.float32),
        # Sample 0 solved: seat 0 wins by 2 Fame; seats 1 and 2 tie behind. Sample 1 not.
        "exact_margin": np.array([[128.0, -128.0, -128.0], [np.nan] * 3], np.float32),
    }
    assert targets.rescored(arrays) == 1
    value = targets.value_target(arrays, 0.5)  # value_mix does not apply to a solved sample
    np.testing.assert_allclose(value[0], [0.0, 1.0, 0.0])  # mover 2's view of (1, 0, 0)
    np.testing.assert_allclose(value[1], [0.8, 0.1, 0.1], rtol=1e-6)
    score = targets.score_target(arrays)
    np.testing.assert_allclose(score[0], np.tanh(np.array([-2.0, 2.0, -2.0]) / 8), rtol=1e-6)
    np.testing.assert_allclose(score[1], np.tanh(np.array([-1.0, 1.0, -2.0]) / 8), rtol=1e-6)
    # Ties at the top share the win.
    np.testing.assert_allclose(
        targets.exact_returns(np.array([[0.0, 0.0, -64.0]])), [[0.5, 0.5, 0]]
    )


def test_old_configs_have_no_score_head():
    old = TrainConfig.from_json('{"players": 2}')
    assert old.rescore_nodes == 0 and TrainConfig().rescore_nodes == 2000
    assert old.score_weight == 0.0 and TrainConfig().score_weight == 0.25
    from vikinger_fast.training.checkpoint import init_shapes

    assert "score_w" not in init_shapes(old)
    assert init_shapes(TrainConfig())["score_w"] == (128, 2)


def test_the_solvers_move_is_the_policy_target_where_the_solver_finished():
    from vikinger_fast.training import selfplay

    improved = np.zeros(2036, np.float32)
    improved[[3, 7]] = [0.25, 0.75]
    unsolved = selfplay.policy_target(improved, None, 1.0)
    np.testing.assert_array_equal(unsolved, improved)
    solved = {"action": 3, "margins": [64, -64], "nodes": 5}
    exact = selfplay.policy_target(improved, solved, 1.0)
    assert exact[3] == 1.0 and exact.sum() == 1.0  # all on the solver's move
    half = selfplay.policy_target(improved, solved, 0.5)
    np.testing.assert_allclose(half[[3, 7]], [0.625, 0.375])
    np.testing.assert_array_equal(selfplay.policy_target(improved, solved, 0.0), improved)
    assert improved[3] == 0.25  # the search's array is left as it was


def test_old_configs_keep_the_searchs_policy_target():
    assert TrainConfig.from_json('{"players": 2}').solver_policy == 0.0
    assert TrainConfig().solver_policy == 1.0
    for bad in (-0.1, 1.5, float("nan"), True, "1"):
        with pytest.raises((ValueError, TypeError), match="solver_policy"):
            TrainConfig(solver_policy=bad)
