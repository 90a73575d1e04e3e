"""The shipped networks by table (docs/learning.md "Networks for every table"): shipped_model
picks the most specific file of az_bot.SHIPPED that covers the game's players and module set,
and where one covers a table, `az` and `azpolicy` play there without model= (the bots, the
arena's specs, the ladder's default field). The models folder is a temporary one (az_bot.MODELS
patched) holding a real base-game network and a small random one covering every set."""

import shutil

import pytest

from games import play_game
from vikinger_ref import az_bot
from vikinger_ref.mlp import ALL_SETS, MLPEvaluator
from vikinger_fast import arena, bot_registry
from vikinger_fast.cli import ladder

MODULES = {"auction": True, "special_tiles": True}


@pytest.fixture
def models(tmp_path, monkeypatch):
    """A models folder with az-2p.npz (the shipped base-game one) and az-2p-all.npz (random
    weights covering all 32 sets)."""
    game = az_bot.Game(2)
    shutil.copy(az_bot.shipped_model(game), tmp_path / "az-2p.npz")
    MLPEvaluator.random(game, hidden=(16,), seed=5).cover(ALL_SETS).save(tmp_path / "az-2p-all.npz")
    monkeypatch.setattr(az_bot, "MODELS", str(tmp_path))
    return tmp_path


def test_the_most_specific_covering_file_is_picked(engine, models):
    assert az_bot.shipped_model(engine.Game(2)) == str(models / "az-2p.npz")
    for options in (MODULES, {"draw13": True}, dict.fromkeys(engine.OPTION_NAMES, True)):
        assert az_bot.shipped_model(engine.Game(2, **options)) == str(models / "az-2p-all.npz")
    for players, options in ((3, MODULES), (3, {}), (4, {"weak_boatsmen": True})):
        with pytest.raises(ValueError, match=f"no shipped network for {players} players"):
            az_bot.shipped_model(engine.Game(players, **options))


def test_without_the_covering_file_a_module_table_has_none(engine, models):
    (models / "az-2p-all.npz").unlink()
    with pytest.raises(ValueError) as caught:
        engine.AZBot(engine.Game(2, **MODULES), 0, simulations=2)
    assert str(caught.value) == (
        "no shipped network for 2 players with modules ['auction', 'special_tiles']; "
        "give model=PATH (a vikinger train export)"
    )
    assert not bot_registry.shipped_network_covers(2, ("auction",))


def _play(engine, bot, options, seed):
    return play_game(engine.Game(2, **options), bot, seed)


def test_the_learned_bots_play_a_module_table_alike_in_both_engines(engines, models):
    moves = [_play(e, e.PolicyNetBot(e.Game(2, **MODULES)), MODULES, 3) for e in engines]
    assert moves[0] == moves[1] and len(moves[0]) > 20
    searched = [
        _play(
            e,
            e.AZBot(e.Game(2, **MODULES), 4, simulations=2, batch_size=2, solver_nodes=2000),
            MODULES,
            4,
        )
        for e in engines
    ]
    assert searched[0] == searched[1]


def test_the_specs_and_the_ladder_offer_the_learned_players_where_covered(engine, models):
    for text in ("az:simulations=2", "azpolicy"):
        arena.check_spec(text, engine, 2, ("auction", "special_tiles"))
    assert bot_registry.shipped_network_covers(2, ("draw13",))
    assert not bot_registry.shipped_network_covers(3, ("draw13",))
    assert ladder.default_field(("auction",)) == list(ladder.DEFAULT_BOTS)
    (models / "az-2p-all.npz").unlink()
    assert ladder.default_field(()) == list(ladder.DEFAULT_BOTS)
    assert len(ladder.default_field(("auction",))) == len(ladder.DEFAULT_BOTS) - 2
