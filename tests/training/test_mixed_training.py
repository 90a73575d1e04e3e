"""A mixed run (`vikinger train --modules mixed`, docs/learning.md "Networks for every table"):
each self-play game draws its module set from the run's seed and its number, the exports cover
every set, and the evaluation plays at the tables of EVAL_ORDER. Tiny runs end to end: the
export loads for several module sets and plays a whole game with modules on in both engines,
move for move alike."""

import json
import os
from collections import Counter

import numpy as np
import pytest

import tiny_training
from vikinger_ref import Game
from vikinger_ref.mlp import ALL_SETS, MLPEvaluator
from vikinger_ref.network_features import OBSERVATION_MODULES_V2, OBSERVATION_V1, feature_width
from vikinger_fast import arena, distributed, module_sets
from vikinger_fast.cli import build_parser
from vikinger_fast.cli.train import check_resume_flags, config_of
from vikinger_fast.training import TrainConfig, evaluation, loop, replay, selfplay
from vikinger_fast.training.config import EVAL_ORDER
from vikinger_fast.training.network import init_params

TINY = dict(
    tiny_training.TINY,
    games=3,
    shard_games=3,
    steps=2,
    batch=16,
    mixed=True,
    rescore_nodes=0,  # the solver's rescoring has tests of its own (test_targets.py)
)


def test_each_game_draws_its_set_from_the_seed_and_its_number():
    config = TrainConfig(**TINY)
    drawn = [selfplay.game_modules(config, 0, g) for g in range(640)]
    assert drawn == [selfplay.game_modules(config, 0, g) for g in range(640)]
    assert drawn != [selfplay.game_modules(config, 1, g) for g in range(640)]
    counts = Counter(module_sets.name(s) for s in drawn)
    assert set(counts) == set(ALL_SETS)  # every set is played
    assert 0.2 < counts["none"] / 640 < 0.3  # the base game a quarter of the games
    assert max(n for s, n in counts.items() if s != "none") < 50  # the rest about 15 each
    assert selfplay.game_modules(TrainConfig(options=("draw13",)), 0, 5) == ("draw13",)


def test_a_mixed_run_names_its_settings():
    with pytest.raises(ValueError, match="a mixed run draws each game's modules"):
        TrainConfig(mixed=True, options=("auction",))
    with pytest.raises(ValueError, match="mixed must be true or false"):
        TrainConfig(mixed=1)
    assert TrainConfig(**TINY).covered() == ALL_SETS
    assert TrainConfig(options=("special_tiles", "auction")).covered() == ("auction,special_tiles",)
    config = TrainConfig(**TINY)
    assert [config.eval_options(d) for d in (0, 2, 32)] == [{}, {"auction": True}, {}]
    assert sorted(EVAL_ORDER) == sorted(ALL_SETS)
    parser = build_parser()
    args = parser.parse_args(["train", "--out", "x", "--iterations", "1", "--modules", "mixed"])
    assert config_of(args).mixed and config_of(args).options == ()
    again = parser.parse_args(["train", "--out", "x", "--iterations", "2", "--resume"])
    check_resume_flags(again, config_of(args))  # no flag: the run's settings
    other = parser.parse_args(["train", "--out", "x", "--iterations", "2", "--modules", "draw13"])
    with pytest.raises(ValueError, match="--modules: the run is mixed, not a module set"):
        check_resume_flags(other, config_of(args))
    with pytest.raises(ValueError, match="the run is of one module set, not mixed"):
        check_resume_flags(args, config_of(other))
    # The features (docs/neural.md "Features"): the module flags by default in a mixed run.
    assert config_of(args).features == OBSERVATION_MODULES_V2
    assert config_of(other).features == OBSERVATION_V1
    plain = parser.parse_args(
        [
            "train",
            "--out",
            "x",
            "--iterations",
            "1",
            "--modules",
            "mixed",
            "--features",
            "observation-v1",
        ]
    )
    assert config_of(plain).features == OBSERVATION_V1
    with pytest.raises(ValueError, match="^--features 'observation-v1' differs from the run's"):
        check_resume_flags(plain, config_of(args))
    with pytest.raises(ValueError, match="^features 'v3' is unknown"):
        TrainConfig(**{**TINY, "features": "v3"})
    stored = json.loads(config_of(args).to_json())
    del stored["features"]  # a config.json from before the field
    assert TrainConfig.from_json(json.dumps(stored)).features == OBSERVATION_V1


def test_the_data_do_not_depend_on_the_executor(tmp_path):
    config = TrainConfig(**{**TINY, "games": 4, "shard_games": 2})
    weights = init_params(2, (16,), 4, config.features)
    manifests = [
        replay.generate(str(tmp_path / x), config, weights, 0, distributed.LocalProcesses(jobs))
        for x, jobs in (("a", 1), ("b", 2))
    ]
    assert all(m["modules"] == "mixed" for m in manifests)
    a, b = (replay.load_iteration(str(tmp_path / x), 0, selfplay.SAMPLE_ARRAYS) for x in "ab")
    for key in a:
        np.testing.assert_array_equal(a[key], b[key], err_msg=key)
    assert sorted(set(a["game"].tolist())) == [0, 1, 2, 3]
    sets = {module_sets.name(selfplay.game_modules(config, 0, g)) for g in range(4)}
    assert len(sets) > 1  # games of several sets in one iteration
    # The training's input: each sample's observation, then its game's module flags.
    assert config.features == OBSERVATION_MODULES_V2
    rows = replay.network_input(config, 0, a)
    assert rows.shape == (len(a["game"]), feature_width(OBSERVATION_MODULES_V2, 2))
    np.testing.assert_array_equal(rows[:, : a["observation"].shape[1]], a["observation"])
    for row, game in zip(rows, a["game"]):
        on = selfplay.game_modules(config, 0, int(game))
        assert row[-5:].tolist() == [float(name in on) for name in Game(2).options]


@pytest.mark.parametrize("players", [2, 3])
def test_a_tiny_mixed_run_exports_a_network_for_every_table(tmp_path, players, engines):
    config = TrainConfig(**{**TINY, "players": players})
    checkpoint = loop.train(str(tmp_path), 2, config, quiet=True)
    assert checkpoint.iteration == 2 and checkpoint.config.mixed
    assert checkpoint.config.features == OBSERVATION_MODULES_V2  # a mixed run's default
    assert json.loads((tmp_path / "config.json").read_text())["mixed"] is True
    model = os.path.join(str(tmp_path), "models", "iter-00001.npz")
    ref, fast = engines
    for options in ({}, {"draw13": True}, dict.fromkeys(ref.OPTION_NAMES, True)):
        mlp = MLPEvaluator.load(model, ref.Game(players, **options))
        assert mlp.modules_covered == ALL_SETS
        assert mlp.features == OBSERVATION_MODULES_V2
        assert mlp.layers[0][0].shape[0] == feature_width(OBSERVATION_MODULES_V2, players)
    options = {"auction": True, "offer_by_colour": True, "special_tiles": True}
    histories = []
    for engine in engines:
        game = engine.Game(num_players=players, **options)
        bots = [
            engine.AZBot(game, seat, model=model, simulations=4, playouts=0, solver_nodes=2000)
            for seat in range(players)
        ]
        state = arena.play_bots(game.new_initial_state(), bots, np.random.default_rng(players))
        assert state.is_terminal()
        histories.append(list(state.history()))
    assert histories[0] == histories[1]
    best = json.loads((tmp_path / "best.json").read_text())
    assert "search_vs_mcts" in json.dumps(best)


def test_a_mixed_runs_evaluation_plays_at_the_tables_of_eval_order(tmp_path):
    # 3 deals: the base game, every module, the auction alone (EVAL_ORDER). A network of the
    # base game alone is refused at the second deal's table; one covering every set plays all.
    config = TrainConfig(**{**TINY, "eval_games": 6, "eval_simulations": 2})
    base_only = tmp_path / "base.npz"
    MLPEvaluator.random(Game(2), hidden=(16,), seed=3).save(base_only)
    with pytest.raises(ValueError, match=r"the game has 2 with \['auction', 'draw13', "):
        evaluation.evaluate(config, str(base_only), seed=1)
    every = tmp_path / "every.npz"
    MLPEvaluator.random(Game(2), hidden=(16,), seed=3).cover(ALL_SETS).save(every)
    results = evaluation.evaluate(config, str(every), seed=1)
    assert all(results[name]["games"] == 6 for name in evaluation.MATCHES)
