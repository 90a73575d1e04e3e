"""No code from data (docs/security.md): the OpenSpiel adapter's deserialize_state never
unpickles, the Game/State/VectorGame pickles of both engines load through a restricted
unpickler that refuses anything else, self-play files are read without pickle, and a crafted
manifest cannot point outside its folder."""

import base64
import json
import os
import pickle
import pickletools

import numpy as np
import pytest

from vikinger_fast.safety import unpickle


class _Marker:
    """Unpickling this creates a file: proof that code ran."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return (os.system, (f"touch {self.path}",))


def _globals(data):
    names = []
    for op, arg, _ in pickletools.genops(data):
        if op.name in ("GLOBAL", "STACK_GLOBAL"):
            names.append(arg)
    return names


def _played(engine, seed=3, moves=25):
    state = engine.Game(num_players=3, auction=True).new_initial_state()
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        if state.is_chance_node():
            state.apply_random_chance(rng)
        else:
            state.apply_action(state.legal_actions()[-1])
    return state


def test_pickles_load_through_the_restricted_unpickler(engine):
    state = _played(engine)
    game = state.get_game()
    env = engine.VectorGame(game, 3, seed=4)
    for obj in (game, state, env):
        data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
        assert b"builtins" not in data and b"eval" not in data, _globals(data)
        copy = unpickle.loads(data)
        assert type(copy) is type(obj)
    assert unpickle.loads(pickle.dumps(state)) == state
    assert unpickle.loads(pickle.dumps(game)) == game
    np.testing.assert_array_equal(unpickle.loads(pickle.dumps(env)).final_scores, env.final_scores)


def test_bots_of_the_reference_load_through_the_restricted_unpickler():
    import vikinger_ref as ref

    for bot in (
        ref.RandomBot(ref.Game(num_players=2), 3),
        ref.GreedyBot(ref.Game(num_players=2), 3),
    ):
        copy = unpickle.loads(pickle.dumps(bot))
        state = ref.Game(num_players=2).new_initial_state()
        while state.is_chance_node():
            state.apply_random_chance(1)
        assert type(copy) is type(bot) and copy.step(state) == bot.step(state)


def test_restricted_unpickler_refuses_code(tmp_path):
    marker = tmp_path / "ran"
    with pytest.raises(pickle.UnpicklingError, match="posix.system|os.system"):
        unpickle.loads(pickle.dumps(_Marker(marker)))
    assert not marker.exists()
    evil = pickle.dumps(eval) + b""
    with pytest.raises(pickle.UnpicklingError, match="builtins.eval"):
        unpickle.loads(evil)


# --- OpenSpiel ---------------------------------------------------------------------------------

pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
from vikinger_fast.adapters import openspiel as adapter  # noqa: E402


def _spiel(engine):
    return pyspiel.load_game(adapter.register(engine), {"players": 3, "auction": True})


def _spiel_state(engine, steps=30):
    game = _spiel(engine)
    state = game.new_initial_state()
    rng = np.random.default_rng(1)
    for _ in range(steps):
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(state.legal_actions()[0])
    return game, state


def test_openspiel_text_round_trip_is_the_engine_format(engine):
    game, state = _spiel_state(engine)
    text = state.serialize()
    assert text.startswith(adapter.TEXT_HEADER) and "__dict__" not in text
    copy = game.deserialize_state(text)
    assert copy.engine_state == state.engine_state
    pairs = [(h.player, h.action) for h in state.full_history()]
    assert copy.history() == state.history()
    assert [(h.player, h.action) for h in copy.full_history()] == pairs
    assert copy.move_number() == state.move_number()
    assert copy.legal_actions() == state.legal_actions()
    copy.apply_action(copy.legal_actions()[0])  # it plays on


def test_openspiel_deserialize_never_unpickles_crafted_text(engine, tmp_path):
    """OpenSpiel's generic format for Python games ends in a base64 pickle: crafted, it ran a
    shell command inside game.deserialize_state. The adapter's own reader refuses it."""
    game, _ = _spiel_state(engine)
    marker = tmp_path / "ran"
    payload = base64.b64encode(pickle.dumps(_Marker(marker))).decode()
    crafted = [
        f"history=\nmove_number=0\n__dict__={payload}",
        f"{adapter.TEXT_HEADER}\nhistory=\nstate={payload}",
        f"{adapter.TEXT_HEADER}\nhistory=\n__dict__={payload}",
    ]
    for text in crafted:
        with pytest.raises(ValueError):
            game.deserialize_state(text)
    assert not marker.exists()


@pytest.mark.parametrize(
    "text",
    [
        "",
        "x",
        "vikinger-state 1",
        "vikinger-state 1\nhistory=\nstate=",
        "vikinger-state 1\nhistory=0:1\nstate=AAAA",
        "vikinger-state 1\nhistory=9:1\nstate=",
        "vikinger-state 1\nhistory=a:b\nstate=",
        "vikinger-state 1\nhistory=\nstate=!!!",
        "vikinger-state 1\nhistory=\nstate=" + "A" * (1 << 21),
    ],
    ids=lambda t: t[:40],
)
def test_openspiel_deserialize_bad_text_is_a_value_error(engine, text):
    game, _ = _spiel_state(engine, steps=0)
    with pytest.raises(ValueError):
        game.deserialize_state(text)


def test_openspiel_deserialize_checks_history_and_game(engine):
    game, state = _spiel_state(engine)
    header, history, data = state.serialize().split("\n")
    pairs = history[len("history=") :].split(",")
    with pytest.raises(ValueError, match="not its engine state's history"):
        game.deserialize_state("\n".join([header, "history=" + ",".join(pairs[:-1]), data]))
    other = pyspiel.load_game(adapter.register(engine), {"players": 2})
    with pytest.raises(ValueError):
        other.deserialize_state(state.serialize())
    for value in (None, b"vikinger-state 1", 5):
        with pytest.raises(TypeError):
            game.deserialize_state(value)


# --- self-play files ---------------------------------------------------------------------------


def test_selfplay_manifest_cannot_point_outside_its_folder(tmp_path):
    from vikinger_fast import selfplay_data
    from vikinger_fast.distributed import selfplay

    out = tmp_path / "run"
    selfplay.generate(str(out), 1, 0, mcts={"iterations": 2}, engine="fast")
    assert selfplay_data.load(str(out))["player"].size > 0
    manifest = json.loads((out / selfplay_data.MANIFEST).read_text())
    for file in ("../outside.npz", "/etc/passwd", "shard-00001.npz"):
        changed = dict(manifest, shards=[dict(manifest["shards"][0], file=file)])
        (out / selfplay_data.MANIFEST).write_text(json.dumps(changed))
        with pytest.raises(ValueError, match="shards"):
            selfplay_data.load(str(out))
    (out / selfplay_data.MANIFEST).write_text("[" * 5000 + "]" * 5000)
    with pytest.raises(ValueError, match="levels deep"):
        selfplay_data.load(str(out))


def test_selfplay_shards_are_read_without_pickle(tmp_path):
    from vikinger_fast import selfplay_data
    from vikinger_fast.distributed import selfplay

    out = tmp_path / "run"
    selfplay.generate(str(out), 1, 0, mcts={"iterations": 2}, engine="fast")
    manifest = json.loads((out / selfplay_data.MANIFEST).read_text())
    # A shard whose array is an object array (a pickle inside the .npy): refused, not run.
    marker = tmp_path / "ran"
    evil = {"player": np.array([_Marker(marker)], dtype=object)}
    import io

    buffer = io.BytesIO()
    np.savez(buffer, **evil)
    (out / manifest["shards"][0]["file"]).write_bytes(buffer.getvalue())
    with pytest.raises(ValueError):
        selfplay_data.load(str(out), check=False)
    assert not marker.exists()
