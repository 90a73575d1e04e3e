"""Self-play data (src/vikinger_fast/distributed/selfplay.py, src/vikinger_fast/selfplay_data.py,
docs/distributed.md "Self-play data"): the arrays say what happened in the games (replayed here
from the chance seed and the recorded actions), both engines write the same arrays, the sharding
and the process count change nothing (the manifests, SHA-256 included, are equal), the files
load with numpy alone, and an unfinished run leaves no manifest and no file under a final name
that is half-written."""

import json
import os

import numpy as np
import pytest

from vikinger_fast import distributed
from vikinger_fast import selfplay_data
from vikinger_fast.distributed import selfplay

from conftest import load_engine

# Evaluation leaves keep the reference's search cheap; two iterations still give visit shares.
CHEAP = {"iterations": 2, "leaf": "evaluation"}


def load_with_numpy(folder):
    """What docs/distributed.md tells a training script to do: json and numpy, nothing else."""
    with open(os.path.join(folder, "manifest.json")) as source:
        manifest = json.load(source)
    shards = [np.load(os.path.join(folder, entry["file"])) for entry in manifest["shards"]]
    return manifest, {
        key: np.concatenate([shard[key] for shard in shards])
        for key in manifest["sample_arrays"] + manifest["game_arrays"]
    }


def test_the_arrays_replay_the_games(engine, tmp_path):
    name = "ref" if engine.__name__ == "vikinger_ref" else "fast"
    manifest = selfplay.generate(
        tmp_path / "run", 2, 4, engine=name, mcts=CHEAP, sample_moves=5, shard_size=1
    )
    _, data = load_with_numpy(tmp_path / "run")
    game = engine.Game(num_players=2)
    assert manifest["samples"] == len(data["player"]) > 0
    assert data["observation"].shape == (manifest["samples"], game.observation_shape()[0])
    assert data["policy"].shape == data["legal_mask"].shape == (manifest["samples"], 2036)
    assert np.allclose(data["policy"].sum(axis=1), 1.0)
    assert not data["policy"][~data["legal_mask"]].any()
    assert data["legal_mask"][np.arange(len(data["action"])), data["action"]].all()
    for g, number in enumerate(data["game_number"]):
        rows = np.flatnonzero(data["game"] == number)
        by_ply = {int(data["ply"][r]): r for r in rows}
        state = game.new_initial_state()
        rng = np.random.default_rng(int(data["game_chance_seed"][g]))
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_random_chance(rng)
                continue
            row = by_ply.pop(len(state.history()))  # every decision had 2+ actions here
            player = state.current_player()
            assert data["player"][row] == player
            assert np.array_equal(data["observation"][row], state.observation_tensor(player))
            assert np.array_equal(data["legal_mask"][row], state.legal_actions_mask())
            state.apply_action(int(data["action"][row]))
        assert not by_ply
        assert list(data["game_fame"][g]) == state.scores()
        assert list(data["game_returns"][g]) == pytest.approx(state.returns())
        assert data["game_length"][g] == len(state.history())
        assert np.array_equal(
            data["returns"][rows], np.tile(data["game_returns"][g], (len(rows), 1))
        )


def test_both_engines_write_the_same_arrays(tmp_path):
    load_engine("ref"), load_engine("fast")
    for name in ("ref", "fast"):
        selfplay.generate(tmp_path / name, 1, 9, engine=name, mcts=CHEAP, sample_moves=40)
    ref, fast = selfplay_data.load(tmp_path / "ref"), selfplay_data.load(tmp_path / "fast")
    for key in ref:
        assert np.array_equal(ref[key], fast[key]), key


def test_sharding_and_processes_change_nothing(tmp_path):
    mcts = {"iterations": 8}
    one = selfplay.generate(tmp_path / "one", 3, 2, mcts=mcts, shard_size=3)
    many = selfplay.generate(
        tmp_path / "many", 3, 2, mcts=mcts, shard_size=1, executor=distributed.LocalProcesses(2)
    )
    again = selfplay.generate(tmp_path / "again", 3, 2, mcts=mcts, shard_size=1)
    assert many == again  # the same shards: the same bytes (SHA-256 in the manifest)
    assert [s["samples"] for s in many["shards"]] and one["samples"] == many["samples"]
    a, b = selfplay_data.load(tmp_path / "one"), selfplay_data.load(tmp_path / "many")
    for key in a:
        assert np.array_equal(a[key], b[key]), key


def test_sampled_moves_follow_the_visits_then_the_most_visited(tmp_path):
    # With sample_moves=0 every move is the most visited action: the bot's own step().
    vk = load_engine("fast")
    selfplay.generate(tmp_path / "run", 1, 3, mcts={"iterations": 6}, sample_moves=0)
    data = selfplay_data.load(tmp_path / "run")
    best = data["policy"].argmax(axis=1)
    assert np.array_equal(best, data["action"])
    selfplay.generate(tmp_path / "sampled", 1, 3, mcts={"iterations": 6}, sample_moves=1000)
    sampled = selfplay_data.load(tmp_path / "sampled")
    assert (sampled["policy"][np.arange(len(sampled["action"])), sampled["action"]] > 0).all()
    assert not np.array_equal(sampled["policy"].argmax(axis=1), sampled["action"])
    assert vk.NUM_DISTINCT_ACTIONS == data["policy"].shape[1]


class _FailsAfterOneShard:
    """An executor that delivers the first shard and is then interrupted."""

    def run(self, shards):
        yield 0, shards[0].fn(shards[0].payload)
        raise KeyboardInterrupt


def test_an_interrupted_run_leaves_no_manifest(tmp_path):
    with pytest.raises(KeyboardInterrupt):
        selfplay.generate(
            tmp_path / "run",
            3,
            1,
            mcts={"iterations": 4},
            shard_size=1,
            executor=_FailsAfterOneShard(),
        )
    assert sorted(os.listdir(tmp_path / "run")) == ["shard-00000.npz"]
    with pytest.raises(FileNotFoundError):
        selfplay_data.load(tmp_path / "run")
    # The folder is not finished, so it may be written again; a finished one is refused.
    selfplay.generate(tmp_path / "run", 3, 1, mcts={"iterations": 4}, shard_size=1)
    assert selfplay_data.load_manifest(tmp_path / "run")["games"] == 3
    with pytest.raises(FileExistsError, match="holds a finished run"):
        selfplay.generate(tmp_path / "run", 3, 1, mcts={"iterations": 4})


def test_a_changed_file_is_refused(tmp_path):
    selfplay.generate(tmp_path / "run", 1, 1, mcts={"iterations": 4})
    path = tmp_path / "run" / "shard-00000.npz"
    data = bytearray(path.read_bytes())
    data[-30] ^= 1
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="SHA-256 is not the manifest's"):
        selfplay_data.load(tmp_path / "run")


def test_bad_parameters(tmp_path):
    with pytest.raises(ValueError, match="needs an iteration budget"):
        selfplay.generate(tmp_path / "a", 1, mcts={"max_time": 0.1})
    with pytest.raises(ValueError, match="unknown MCTS parameter 'depth'"):
        selfplay.generate(tmp_path / "a", 1, mcts={"iterations": 3, "depth": 2})
    with pytest.raises(ValueError, match="iterations must be > 0"):
        selfplay.generate(tmp_path / "a", 1, mcts={"iterations": 0})
    with pytest.raises(ValueError, match="games must be an int >= 1"):
        selfplay.generate(tmp_path / "a", 0)
    assert not (tmp_path / "a").exists()


def test_the_selfplay_command(tmp_path, capsys):
    from vikinger_fast import cli

    out = str(tmp_path / "run")
    argv = [
        "selfplay",
        "--games",
        "3",
        "--out",
        out,
        "--iterations",
        "4",
        "--seed",
        "6",
        "--jobs",
        "2",
        "--shard-size",
        "2",
        "--no-progress",
    ]
    assert cli.main(argv) == 0
    assert "3 games, " in capsys.readouterr().out
    manifest = selfplay_data.load_manifest(out)
    assert manifest["games"] == 3 and len(manifest["shards"]) == 2
    assert manifest["bot"]["params"]["iterations"] == 4
    expected = selfplay.generate(
        tmp_path / "api", 3, 6, mcts=manifest["bot"]["params"], shard_size=2
    )
    assert expected["shards"] == manifest["shards"]
    with pytest.raises(SystemExit) as refused:  # a finished folder is not overwritten
        cli.main(argv)
    assert refused.value.code == 2
    assert "holds a finished run" in capsys.readouterr().err


def test_rows_give_the_format_of_every_writer(engine):
    # The one home of the format: an extra array follows the self-play arrays, shapes come from
    # the game, a sample's returns are its game's, and the policy is the visit shares.
    game = engine.Game(num_players=3)
    state = game.new_initial_state()
    rng = np.random.default_rng(1)
    while state.is_chance_node():
        state.apply_random_chance(rng)
    actions = state.legal_actions()[:3]
    rows = selfplay_data.Rows(3, ("target",))
    policy = selfplay_data.visit_shares(actions, [1, 2, 5])
    rows.add(state, 7, policy, actions[2], target=selfplay_data.over_actions(actions, 1 / 3))
    rows.end_game(7, 99, state)
    arrays = rows.arrays()
    assert list(arrays) == list(
        selfplay_data.SAMPLE_ARRAYS + ("target",) + selfplay_data.GAME_ARRAYS
    )
    assert arrays["observation"].shape == (1, game.observation_shape()[0])
    assert arrays["policy"].shape == arrays["target"].shape == (1, engine.NUM_DISTINCT_ACTIONS)
    assert arrays["policy"][0, actions].tolist() == [0.125, 0.25, 0.625]
    assert arrays["policy"].sum() == arrays["target"].sum() == pytest.approx(1.0)
    assert np.array_equal(arrays["returns"], arrays["game_returns"])
    assert arrays["game_chance_seed"].tolist() == [99] and arrays["action"][0] == actions[2]
    empty = selfplay_data.Rows(2).arrays()
    assert empty["legal_mask"].shape == (0, engine.NUM_DISTINCT_ACTIONS)
    # A per-player extra array has a column per seat.
    rows = selfplay_data.Rows(3, ("target", "root_value"), ("root_value",))
    rows.add(state, 1, policy, actions[0], target=policy, root_value=np.full(3, 1 / 3))
    rows.end_game(1, 5, state)
    assert rows.arrays()["root_value"].shape == (1, 3)
    with pytest.raises(ValueError, match="per_player names 'value', which is not an extra"):
        selfplay_data.Rows(3, ("target",), ("value",))


def test_load_reads_the_keys_asked_for(tmp_path):
    selfplay.generate(tmp_path / "run", 2, 1, mcts={"iterations": 4}, shard_size=1)
    some = selfplay_data.load(tmp_path / "run", ("player", "game_number"))
    every = selfplay_data.load(tmp_path / "run")
    assert set(some) == {"player", "game_number"}
    assert np.array_equal(some["player"], every["player"])
    assert every["game_number"].tolist() == [0, 1]
