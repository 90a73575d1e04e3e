"""Every shipped network (az_bot.SHIPPED, the files in the package): it loads at each table it
covers, and plays a whole game of its configuration with search in both engines, move for move
alike (docs/learning.md "Networks for every table"); the files together stay small enough for
the wheel."""

import os

import numpy as np
import pytest

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


def _play(engine, players, table, seed):
    game = engine.Game(players, **_options(table))
    bot = engine.AZBot(game, seed, simulations=2, batch_size=2, solver_nodes=500)
    state = game.new_initial_state()
    rng = np.random.default_rng(seed)
    moves = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_random_chance(rng)
            continue
        moves.append(bot.step(state))
        state.apply_action(moves[-1])
    return moves


@pytest.mark.parametrize("players,name,covers", FILES, ids=[name for _, name, _ in FILES])
def test_it_plays_a_whole_game_alike_in_both_engines(engines, players, name, covers):
    # The widest table it covers: every module on for a file of every set.
    table = max(covers, key=lambda t: 0 if t == "none" else t.count(",") + 1)
    moves = [_play(e, players, table, 5) for e in engines]
    assert moves[0] == moves[1] and len(moves[0]) > 20
