"""Every shipped network (az_bot.SHIPPED, the files in the package): it loads at each table it
covers, and plays a whole game of its configuration with search in both engines, move for move
alike (docs/learning.md "Networks for every table"); the files together stay small enough for
the wheel."""

import os

import numpy as np
import pytest

from games import play_game
from vikinger_ref import az_bot
from vikinger_ref.mlp import ALL_SETS, MLPEvaluator

FILES = [
    (players, name, covers)
    for players, name, covers in az_bot.SHIPPED
    if os.path.isfile(os.path.join(az_bot.MODELS, name))
]
MAX_TOTAL_BYTES = 20_000_000  # the wheel's budget for all networks (the 20 MB)


def _options(table):
    return {} if table == "none" else dict.fromkeys(table.split(","), True)


def test_every_player_count_has_a_network_at_every_table():
    for players in (2, 3, 4):
        covered = {t for n, _, covers in FILES if n == players for t in covers}
        assert covered == set(ALL_SETS), players


def test_the_networks_fit_the_wheel():
    total = sum(os.path.getsize(os.path.join(az_bot.MODELS, name)) for _, name, _ in FILES)
    assert total <= MAX_TOTAL_BYTES


@pytest.mark.parametrize("players,name,covers", FILES, ids=[name for _, name, _ in FILES])
def test_it_loads_at_every_table_it_covers(players, name, covers):
    path = os.path.join(az_bot.MODELS, name)
    for table in covers:
        MLPEvaluator.load(path, az_bot.Game(players, **_options(table)))


def _play(engine, players, table, seed, model=None):
    game = engine.Game(players, **_options(table))
    bot = engine.AZBot(game, seed, simulations=2, batch_size=2, solver_nodes=500, model=model)
    return play_game(game, bot, seed)


@pytest.mark.parametrize("players,name,covers", FILES, ids=[name for _, name, _ in FILES])
def test_it_plays_a_whole_game_alike_in_both_engines(engines, players, name, covers):
    # The widest table it covers: every module on for a file of every set.
    table = max(covers, key=lambda t: 0 if t == "none" else t.count(",") + 1)
    moves = [_play(e, players, table, 5) for e in engines]
    assert moves[0] == moves[1] and len(moves[0]) > 20


def test_a_half_file_loads_as_its_float16_values_in_both_engines(engines, tmp_path):
    game = az_bot.Game(2)
    mlp = MLPEvaluator.random(game, hidden=(16,), seed=3, score=True)
    mlp.save(str(tmp_path / "half.npz"), half=True)
    with np.load(str(tmp_path / "half.npz"), allow_pickle=False) as data:
        assert data["w0"].dtype == np.float16 and data["score_b"].dtype == np.float16
    half = MLPEvaluator.load(str(tmp_path / "half.npz"), game)
    np.testing.assert_array_equal(half.layers[0][0], mlp.layers[0][0].astype(np.float16))
    assert half.layers[0][0].dtype == np.float32
    moves = [_play(e, 2, "none", 7, str(tmp_path / "half.npz")) for e in engines]
    assert moves[0] == moves[1]
    big = MLPEvaluator(game, mlp.layers, mlp.policy, (mlp.value[0], mlp.value[1] + 70000.0))
    with pytest.raises(ValueError, match="value_b has a weight beyond float16's 65504"):
        big.save(str(tmp_path / "big.npz"), half=True)
    with pytest.raises(TypeError, match="half must be True or False"):
        mlp.save(str(tmp_path / "x.npz"), half=1)
