"""The shipped learned player (docs/learning.md "The shipped player"): AZBot and PolicyNetBot
load the network in the package, check it against the game, and play legal moves to the end in
both engines."""

import os

import numpy as np
import pytest

from games import play_game
from vikinger_ref import az_bot
from vikinger_ref.mlp import MLPEvaluator
from vikinger_fast import arena


def play_out(engine, bot, seed):
    return play_game(bot._game, bot, seed)


SIZES = {2: 3508, 3: 5075, 4: 6642}  # observation sizes (docs/state.md)
# The search alone: the reference's solver would spend minutes on a whole game's round 6.
NO_SOLVER = {"playouts": 0, "solver_nodes": 0}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_shipped_network_is_small_and_states_its_game(players):
    path = az_bot.shipped_model(az_bot.Game(players))
    assert os.path.getsize(path) <= 5_000_000
    with np.load(path, allow_pickle=False) as data:
        assert str(data["format"]) == "vikinger-mlp/1"
        assert int(data["num_players"]) == players and list(data["options"]) == []
        assert int(data["observation_size"]) == SIZES[players]
        assert int(data["num_distinct_actions"]) == 2036


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_shipped_network_plays_to_the_end_with_search_in_both_engines(engines, players):
    ref, fast = engines
    # A small solver budget: the reference's solver gives up on 100,000 nodes (the default) in
    # seconds at each early round-6 move; the last moves still solve within 500.
    moves = [
        play_out(e, e.AZBot(e.Game(players), 3, simulations=2, batch_size=2, solver_nodes=500), 5)
        for e in (ref, fast)
    ]
    assert moves[0] == moves[1]


@pytest.mark.parametrize("players", [3, 4])
def test_the_shipped_policy_of_more_players_plays_the_same_in_both_engines(engines, players):
    moves = [play_out(e, e.PolicyNetBot(e.Game(players)), 11) for e in engines]
    assert moves[0] == moves[1]


def test_the_policy_alone_plays_the_same_in_both_engines(engines):
    moves = [play_out(e, e.PolicyNetBot(e.Game(2)), 7) for e in engines]
    assert moves[0] == moves[1]


def test_the_shipped_network_is_checked_against_the_game(engine, tmp_path, monkeypatch):
    # A models folder with one base-game network (2 players): the tables it does not cover.
    MLPEvaluator.random(az_bot.Game(2), hidden=(8,), seed=1).save(str(tmp_path / "az-2p.npz"))
    monkeypatch.setattr(az_bot, "MODELS", str(tmp_path))
    with pytest.raises(ValueError, match="no shipped network for 3 players with modules"):
        engine.AZBot(engine.Game(3, draw13=True), 0, simulations=4)
    with pytest.raises(
        ValueError, match="no shipped network for 2 players with modules \\['auction'\\]"
    ):
        engine.PolicyNetBot(engine.Game(2, auction=True))
    shipped = az_bot.shipped_model(az_bot.Game(2))
    with pytest.raises(
        ValueError, match="weights for 2 players with modules \\[\\], the game has 3"
    ):
        engine.PolicyNetBot(engine.Game(3), model=shipped)


def test_bad_model_files_are_named(engine, tmp_path):
    with pytest.raises(ValueError, match="cannot read model"):
        engine.PolicyNetBot(engine.Game(2), model=str(tmp_path / "missing.npz"))
    broken = tmp_path / "broken.npz"
    broken.write_bytes(b"PK\x03\x04 damaged")
    with pytest.raises(ValueError, match="damaged model file|cannot read model"):
        engine.AZBot(engine.Game(2), 0, simulations=2, model=str(broken))
    with pytest.raises(TypeError, match="model must be a path"):
        engine.PolicyNetBot(engine.Game(2), model=3)


def test_arena_specs_load_the_shipped_network(engine):
    for text in ("az:simulations=8", "az:time=0.05", "azpolicy"):
        arena.check_spec(text, engine)
    games = arena.run(engine.__name__.split("_")[1], ["azpolicy", "greedy"], 2, 0, 1)
    assert len(games) == 2


def test_the_learned_player_is_a_gymnasium_opponent_and_a_spiel_bot():
    import vikinger_fast as vk
    from vikinger_fast.adapters import openspiel
    from vikinger_fast.adapters.gymnasium import VikingerEnv

    game = vk.Game(2)
    env = VikingerEnv(2, seat=0, opponents=[vk.AZBot(game, 0, simulations=4)])
    observation, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    over = False
    while not over:
        mask = observation["action_mask"] if isinstance(observation, dict) else info["action_mask"]
        action = int(rng.choice(np.flatnonzero(mask)))
        observation, reward, terminated, truncated, info = env.step(action)
        over = terminated or truncated
    assert terminated and reward in (0.0, 1.0, 0.5)
    import pyspiel

    assert isinstance(openspiel.as_spiel_bot(vk.PolicyNetBot(game)), pyspiel.Bot)


def test_the_learned_player_mixes_playouts_into_the_network_values_by_default(engine):
    # docs/learning.md "The shipped player": the measured settings are AZBot's defaults.
    bot = engine.AZBot(engine.Game(2), 0, simulations=4)
    assert (bot._playouts, bot._playout_weight, bot._batch_size) == (4, 0.5, 16)
    assert engine.AZBot(engine.Game(2), 0, simulations=4, playouts=0)._playouts == 0
    with pytest.raises(ValueError, match="^playouts must be in 0..4096, not -2$"):
        engine.AZBot(engine.Game(2), 0, simulations=4, playouts=-2)


def test_uniform_priors_keep_the_networks_values(engines):
    # docs/learning.md "Strength": the ablation is the same search, the network's leaf values,
    # and the same prior for every legal action.
    ref, fast = engines
    game = fast.Game(2)
    state = game.new_initial_state()
    rng = np.random.default_rng(2)
    while state.is_chance_node():
        state.apply_random_chance(rng)
    mlp = az_bot.MLPEvaluator.load(az_bot.shipped_model(az_bot.Game(2)), game)
    logits, values = fast.Network(mlp).evaluate(state)
    flat, same = fast.Network(az_bot.uniform_priors(mlp, game)).evaluate(state)
    assert np.array_equal(same, values) and not flat.any() and np.ptp(logits) > 0
    moves = [
        play_out(e, e.AZBot(e.Game(2), 3, simulations=8, priors="uniform", **NO_SOLVER), 5)
        for e in engines
    ]
    assert moves[0] == moves[1]
    assert moves[0] != play_out(fast, fast.AZBot(game, 3, simulations=8, **NO_SOLVER), 5)
    for engine in engines:
        with pytest.raises(ValueError, match="^priors must be 'network' or 'uniform', not 'flat'$"):
            engine.AZBot(engine.Game(2), 0, simulations=4, priors="flat")
        with pytest.raises(ValueError, match="priors='uniform' needs the network's evaluator"):
            engine.AZBot(
                engine.Game(2), 0, simulations=4, priors="uniform", evaluator=lambda *a: None
            )
    arena.check_spec("az:time=0.05,playouts=0,priors=uniform", fast)


class _Watched(np.ndarray):
    """Observations that record numpy's BLAS thread counts at the evaluator's first product."""

    seen: list = []

    def __matmul__(self, other):
        from threadpoolctl import threadpool_info

        _Watched.seen.append(
            [lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"]
        )
        return np.asarray(self) @ other


def test_the_numpy_evaluator_runs_one_blas_thread_whatever_the_process_settings():
    # Launch-independent strength (docs/learning.md): the float MLP limits its own BLAS threads
    # for its calls, and gives them back after.
    from threadpoolctl import threadpool_info, threadpool_limits

    from vikinger_ref.mlp import MLPEvaluator

    game = az_bot.Game(2)
    mlp = MLPEvaluator.random(game, hidden=(8,), seed=0)
    observations = np.zeros((3, mlp.observation_size), np.float32).view(_Watched)
    legal = np.ones((3, 2036), bool)
    with threadpool_limits(2, user_api="blas"):
        before = [lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"]
        _Watched.seen.clear()
        mlp(observations, legal)
        after = [lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"]
    assert _Watched.seen and _Watched.seen[0]  # numpy's BLAS is seen
    assert all(count == 1 for count in _Watched.seen[0])
    assert before != _Watched.seen[0] or before == [1]
    assert before == after
