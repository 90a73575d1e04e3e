"""Endgame starts (docs/learning.md "Endgame starts"): a share of the self-play games plays
rounds 1-5 by the network's policy alone and is searched from the first decision of round 6 on
(TrainConfig.endgame_starts), and the solver rescores each game's round-6 samples from its end
back (selfplay.rescore)."""

import numpy as np
import pytest

import vikinger_fast
from vikinger_ref.az_bot import legal_logits
from vikinger_fast.training import TrainConfig, selfplay
from vikinger_fast.training.network import init_params

from tiny_training import tiny

SMALL = dict(games=2, shard_games=2, simulations=3, max_considered=2)  # two games together


@pytest.mark.parametrize(
    "share, games, late",
    [
        (0.0, 8, []),
        (0.5, 8, [1, 3, 5, 7]),
        (0.25, 8, [3, 7]),
        (1.0, 4, [0, 1, 2, 3]),
        (0.3, 10, [3, 6, 9]),
    ],
)
def test_endgame_starts_are_spread_evenly_over_the_game_numbers(share, games, late):
    config = tiny(endgame_starts=share)
    assert [g for g in range(games) if selfplay.endgame_start(config, g)] == late


def test_every_shard_holds_its_share():
    config = tiny(endgame_starts=0.5)
    for first in range(0, 64, 16):
        assert sum(selfplay.endgame_start(config, g) for g in range(first, first + 16)) == 8


def test_play_to_endgame_stops_at_the_first_decision_of_round_6(engine):
    game = engine.Game(num_players=3)
    weights = init_params(3, (8,), 1)
    evaluate = selfplay.leaf_evaluator(engine, weights, game)
    state = game.new_initial_state()
    chance, sampler = np.random.default_rng(5), np.random.default_rng(6)
    selfplay.play_to_endgame(evaluate, state, chance, sampler)
    assert not state.is_chance_node() and not state.is_terminal()
    assert state.to_dict()["round"] == selfplay.ENDGAME_ROUND
    # The move before it was in round 5 (or a chance node dealing round 6).
    previous = game.new_initial_state()
    for action in state.history()[:-1]:
        previous.apply_action(action)
    assert previous.is_chance_node() or previous.to_dict()["round"] == 5


def test_the_numpy_mlp_samples_as_the_integer_network():
    # leaf_evaluator falls back to the numpy MLP for weights the integer network cannot hold:
    # its logits are the same up to the integer network's rounding, so at these weights the
    # sampled games are the same.
    from vikinger_fast.training.network import evaluator as mlp_of

    game = vikinger_fast.Game(num_players=2)
    weights = init_params(2, (16,), 2)
    mlp = mlp_of(weights, game)
    network = vikinger_fast.Network(mlp)
    state = game.new_initial_state()
    rng = np.random.default_rng(3)
    while state.is_chance_node():
        state.apply_random_chance(rng)
    legal_a, a = legal_logits(network, state)
    legal_b, b = legal_logits(mlp, state)
    assert legal_a == legal_b and len(a) == len(legal_a)
    np.testing.assert_allclose(a, b, atol=1e-3)


def test_late_games_record_round_6_alone_and_whole_games_are_unchanged():
    weights = init_params(2, (8,), 3)
    plain = tiny(**SMALL, rescore_nodes=0)
    late = tiny(**{**plain.__dict__, "endgame_starts": 0.5})
    whole = selfplay.play(plain, weights, 4, 0, 2)
    mixed = selfplay.play(late, weights, 4, 0, 2)
    # Game 0 is a whole game in both runs: the same samples.
    for key in ("observation", "action", "ply", "target"):
        np.testing.assert_array_equal(
            whole[key][whole["game"] == 0], mixed[key][mixed["game"] == 0], err_msg=key
        )
    # Game 1 starts at round 6: its samples are the round's, fewer, later in the game.
    first_late = mixed["ply"][mixed["game"] == 1].min()
    assert first_late > whole["ply"][whole["game"] == 0].max() * 0.7
    assert (mixed["game"] == 1).sum() < (whole["game"] == 1).sum() / 3
    assert mixed["game_length"][1] > first_late


def test_warm_iterations_play_whole_games():
    # No network yet (weights None): the heuristic search plays every game from the start.
    config = tiny(**SMALL, endgame_starts=1.0)
    arrays = selfplay.play(config, None, 0, 0, 2)
    assert arrays["ply"].min() < 60 and set(arrays["game"]) == {0, 1}


def test_endgame_starts_are_the_same_in_both_engines():
    config = tiny(**SMALL, rescore_nodes=300, endgame_starts=0.5)
    weights = init_params(2, (8,), 3)
    fast = selfplay.play(config, weights, 5, 0, 2, engine="fast")
    ref = selfplay.play(config, weights, 5, 0, 2, engine="ref")
    for key in selfplay.SAMPLE_ARRAYS + selfplay.GAME_ARRAYS:
        np.testing.assert_array_equal(fast[key], ref[key], err_msg=key)
    assert np.isfinite(fast["exact_margin"]).all(axis=1).any()


def test_the_rescored_samples_are_each_games_solvable_tail():
    # Backwards from a game's end: the rescored samples of a game are its last round-6 ones,
    # each solved, and every round-6 sample before them is one the solver does not finish.
    config = tiny(**SMALL, rescore_nodes=400)
    weights = init_params(2, (8,), 6)
    arrays = selfplay.play(config, weights, 2, 0, 2)
    solved = np.isfinite(arrays["exact_margin"]).all(axis=1)
    for number in (0, 1):
        mine = np.flatnonzero(arrays["game"] == number)
        flags = solved[mine]
        assert flags.any() and not flags.all()
        first = int(np.argmax(flags))
        assert flags[first:].all()  # one tail, to the game's last sample
    # Where the solver finished, the policy target is its move (solver_policy 1).
    assert (arrays["target"][solved].max(axis=1) == 1.0).all()


def test_the_setting_is_checked_and_old_runs_have_none():
    assert TrainConfig().endgame_starts == 0.0
    assert TrainConfig.from_json('{"players": 2}').endgame_starts == 0.0
    for bad in (-0.1, 1.5, float("nan"), True, "0.5"):
        with pytest.raises((ValueError, TypeError), match="endgame_starts"):
            TrainConfig(endgame_starts=bad)


def test_the_executor_does_not_change_endgame_starts(tmp_path):
    # Shards of one game each, in one process or two: the same data (each game's start is its
    # own number's, its sampling its own seed's).
    from vikinger_fast import distributed
    from vikinger_fast.training import replay

    config = tiny(**{**SMALL, "shard_games": 1}, endgame_starts=0.5, rescore_nodes=300)
    weights = init_params(2, (8,), 4)
    replay.generate(str(tmp_path / "a"), config, weights, 1, distributed.LocalProcesses(1))
    replay.generate(str(tmp_path / "b"), config, weights, 1, distributed.LocalProcesses(2))
    a, b = (
        replay.load_iteration(str(tmp_path / x), 1, selfplay.SAMPLE_ARRAYS + ("exact_margin",))
        for x in "ab"
    )
    for key in a:
        np.testing.assert_array_equal(a[key], b[key], err_msg=key)
    assert (a["game"] == 1).sum() < (a["game"] == 0).sum() / 3  # game 1 started at round 6


def test_a_mixed_run_has_endgame_starts_at_every_table():
    # Three players, each game its own module set (A1-A5 among them, the special display's
    # refills bringing chance nodes into round 6): the late games are round 6 alone.
    from vikinger_ref.network_features import OBSERVATION_MODULES_V2

    config = tiny(
        **{**SMALL, "games": 4, "shard_games": 4},
        players=3,
        mixed=True,
        hidden=(8,),
        endgame_starts=0.5,
        rescore_nodes=300,
    )
    weights = init_params(3, (8,), 1, OBSERVATION_MODULES_V2, True)
    arrays = selfplay.play(config, weights, 2, 0, 4)
    counts = np.bincount(arrays["game"], minlength=4)
    assert (counts[1::2] < counts[0::2] / 3).all() and counts.min() > 0
    assert len({selfplay.game_modules(config, 2, g) for g in range(4)}) > 1
