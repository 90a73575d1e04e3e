"""`vikinger train --init` (docs/learning.md "Starting from a network"): a run starts from a
network's weights (the shipped one, or a file of as many layers, each at most as wide), a mixed
run from a base-game network with its module flags' rows at 0, so its first export plays as that
network, and a wider run with its new units' rows out at 0, so it computes what the file does; a
file of other layers or features is refused by name before the run's folder is made."""

import os

import numpy as np
import pytest

import vikinger_ref
from vikinger_ref.mlp import MLPEvaluator
from vikinger_ref.network_features import OBSERVATION_MODULES_V2, OBSERVATION_TRIPS_V3
from vikinger_fast.cli import build_parser
from vikinger_fast.cli.train import config_of
from vikinger_fast.training import TrainConfig, loop
from vikinger_fast.training.network import init_params, warm_start


def _random_file(tmp_path, hidden=(16,), features="observation-v1", name="init.npz"):
    path = str(tmp_path / name)
    MLPEvaluator.random(
        vikinger_ref.Game(num_players=2), hidden=hidden, seed=5, features=features
    ).save(path)
    return path


def test_a_mixed_run_starts_as_the_base_game_network(tmp_path):
    path = _random_file(tmp_path)
    config = TrainConfig(hidden=(16,), mixed=True, init=path, rescore_nodes=0)
    checkpoint = loop.start(str(tmp_path / "run"), config)
    source = MLPEvaluator.load(path, vikinger_ref.Game(num_players=2))
    params = checkpoint.params
    rows = source.layers[0][0].shape[0]
    assert params["w0"].shape[0] == rows + 5  # the observation's rows, then the 5 module flags
    np.testing.assert_array_equal(params["w0"][:rows], source.layers[0][0])
    assert not params["w0"][rows:].any()
    np.testing.assert_array_equal(params["policy_w"], source.policy[0])
    np.testing.assert_array_equal(params["value_b"], source.value[1])
    assert "score_w" in params  # the score head the file lacks keeps its drawn weights
    # At the base game the started network answers as the file does.
    game = vikinger_ref.Game(num_players=2)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    started = loop.network_evaluator(params, game, OBSERVATION_MODULES_V2)
    observation = np.asarray([state.observation_tensor(state.current_player())], np.float32)
    legal = np.ones((1, 2036), bool)
    for ours, theirs in zip(started(observation, legal), source(observation, legal)):
        np.testing.assert_allclose(ours, theirs, atol=1e-5)


def test_shipped_is_the_shipped_network_of_the_players():
    config = TrainConfig(players=3, init="shipped")
    network = loop.initial_network(config)
    shipped = MLPEvaluator.load(
        vikinger_ref.az_bot.shipped_model(vikinger_ref.Game(num_players=3)),
        vikinger_ref.Game(num_players=3),
    )
    np.testing.assert_array_equal(network.layers[0][0], shipped.layers[0][0])


def _outputs(evaluator, game):
    """The evaluator's outputs at some decision nodes of a random game of `game`."""
    rng = np.random.default_rng(3)
    state, observations = game.new_initial_state(), []
    while not state.is_terminal() and len(observations) < 40:
        if not state.is_chance_node():
            observations.append(state.observation_tensor(state.current_player()))
        actions = state.legal_actions()
        state.apply_action(actions[int(rng.integers(len(actions)))])
    observations = np.asarray(observations, np.float32)
    legal = np.ones((len(observations), 2036), bool)
    return evaluator(observations, legal), evaluator.scores(observations)


@pytest.mark.parametrize(
    "mixed, features",
    [
        (False, "observation-v1"),
        (True, OBSERVATION_MODULES_V2),
        (False, OBSERVATION_TRIPS_V3),
        (True, OBSERVATION_TRIPS_V3),
    ],
)
def test_a_wider_run_computes_what_the_file_does(tmp_path, mixed, features):
    # The file (observation-v1) has a score head; its hidden layers (16, 8) go into a run of
    # (24, 20), whose features may add module flags and trip counts (their rows start at 0).
    path = str(tmp_path / "init.npz")
    game = vikinger_ref.Game(num_players=2)
    MLPEvaluator.random(game, hidden=(16, 8), seed=5, score=True).save(path)
    source = MLPEvaluator.load(path, game)
    config = TrainConfig(
        hidden=(24, 20), mixed=mixed, features=features, init=path, rescore_nodes=0
    )
    params = loop.start(str(tmp_path / "run"), config).params
    assert params["w0"].shape[1] == 24 and params["policy_w"].shape[0] == 20
    assert params["w0"][:, 16:].any() and params["w1"][:, 8:].any()  # new units read, drawn
    assert not params["w1"][16:, :8].any() and not params["policy_w"][8:].any()
    started = loop.network_evaluator(params, game, features)
    ours, theirs = _outputs(started, game), _outputs(source, game)
    for a, b in zip([*ours[0], ours[1]], [*theirs[0], theirs[1]]):
        np.testing.assert_allclose(a, b, atol=1e-5)


def test_a_network_of_other_layers_or_features_is_refused_before_any_file(tmp_path):
    path = _random_file(tmp_path, hidden=(16,))
    run = str(tmp_path / "run")
    with pytest.raises(ValueError, match=r"--init .*hidden layers \(16,\), the run's are \(8,\)"):
        loop.start(run, TrainConfig(hidden=(8,), init=path))
    with pytest.raises(ValueError, match=r"hidden layers \(16,\), the run's are \(16, 16\)"):
        loop.start(run, TrainConfig(hidden=(16, 16), init=path))
    assert not os.path.exists(run)
    v2 = _random_file(tmp_path, features=OBSERVATION_MODULES_V2, name="v2.npz")
    with pytest.raises(ValueError, match="its features are 'observation-modules-v2'"):
        warm_start(
            init_params(2, (16,), 0),
            MLPEvaluator.load(v2, vikinger_ref.Game(num_players=2)),
            "observation-v1",
            v2,
        )
    v3 = _random_file(tmp_path, features=OBSERVATION_TRIPS_V3, name="v3.npz")
    with pytest.raises(ValueError, match="an earlier set, in the order observation-v1, "):
        warm_start(
            init_params(2, (16,), 0, features=OBSERVATION_MODULES_V2),
            MLPEvaluator.load(v3, vikinger_ref.Game(num_players=2)),
            OBSERVATION_MODULES_V2,
            v3,
        )
    with pytest.raises(ValueError, match="weights for 2 players"):
        loop.start(run, TrainConfig(players=3, hidden=(16,), init=path))
    with pytest.raises(ValueError, match="init must be"):
        TrainConfig(init=7)
    assert not os.path.exists(run)


def test_the_flag_is_a_setting_of_the_run(tmp_path):
    args = build_parser().parse_args(
        ["train", "--out", "x", "--iterations", "1", "--init", "shipped"]
    )
    assert config_of(args).init == "shipped"
    assert TrainConfig.from_json(TrainConfig(init="a.npz").to_json()).init == "a.npz"
    assert TrainConfig.from_json('{"players": 2}').init == ""
