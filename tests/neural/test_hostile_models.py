"""Hostile weights files (docs/security.md "Loads"): every loader of a network (MLPEvaluator.load,
PuctBot's and AZBot's model=, PolicyNetBot, training checkpoints) goes through
vikinger_ref.npz.Archive, which reads only regular files, checks the declared sizes, dtypes and
shapes before inflating anything, and names the problem of every malformed file in a
ValueError. puct:model= and az:model= give the same message for the same file."""

import io
import os
import pathlib
import threading
import zipfile

import numpy as np
import pytest

from vikinger_ref.mlp import MLPEvaluator
from vikinger_ref.npz import Archive
from vikinger_fast.training import Checkpoint


def _good(engine, folder):
    path = pathlib.Path(folder) / "good.npz"
    MLPEvaluator.random(engine.Game(num_players=2), hidden=(8,)).save(path)
    return path


def _arrays(path):
    with np.load(path) as data:
        return {key: data[key] for key in data.files}


def _npz(path, arrays, **kwargs):
    buffer = io.BytesIO()
    np.savez(buffer, **arrays, **kwargs)
    path.write_bytes(buffer.getvalue())
    return path


def _with(array, value):
    """A copy of `array` with its first entry `value`."""
    array = array.copy()
    array.reshape(-1)[0] = value
    return array


def _loaders(engine):
    """Every way a bot or a user loads a model: each must refuse a file alike."""
    game = engine.Game(num_players=2)
    return {
        "MLPEvaluator.load": lambda p: MLPEvaluator.load(p, game),
        "PuctBot": lambda p: engine.PuctBot(game, 0, simulations=2, model=p),
        "AZBot": lambda p: engine.AZBot(game, 0, simulations=2, model=p),
        "PolicyNetBot": lambda p: engine.PolicyNetBot(game, model=p),
    }


def _refusals(engine, path):
    messages = {}
    for name, load in _loaders(engine).items():
        with pytest.raises(ValueError) as caught:
            load(path)
        messages[name] = str(caught.value)
    assert len(set(messages.values())) == 1, messages  # one loader, one message
    return next(iter(messages.values()))


def _malformed(engine, tmp_path):
    """{case: (path, words of the message)} of broken weights files."""
    good = _good(engine, tmp_path)
    raw, arrays = good.read_bytes(), _arrays(good)
    npy = tmp_path / "plain.npy"
    np.save(npy, arrays["w0"])
    cases = {
        "empty": (tmp_path / "empty.npz", "empty file"),
        "truncated": (tmp_path / "truncated.npz", "damaged model file"),
        "plain npy": (npy, "a plain .npy array"),
        "complex": (
            _npz(tmp_path / "complex.npz", {**arrays, "w0": arrays["w0"].astype(np.complex64)}),
            "dtype complex64, not a real number",
        ),
        "objects": (
            _npz(tmp_path / "objects.npz", {**arrays, "w0": np.array([1, "x"], dtype=object)}),
            "holds Python objects",
        ),
        "integer weights": (
            _npz(tmp_path / "ints.npz", {**arrays, "w0": arrays["w0"].astype(np.int32)}),
            "w0 must hold real floats",
        ),
        "wrong shapes": (
            _npz(tmp_path / "shapes.npz", {**arrays, "w0": arrays["w0"][:, :4]}),
            "w0 must be (3508, k) and b0 (k,), not (3508, 4) and (8,)",
        ),
        "missing array": (
            _npz(tmp_path / "missing.npz", {k: v for k, v in arrays.items() if k != "value_b"}),
            "no 'value_b'",
        ),
        "not finite": (
            _npz(tmp_path / "nan.npz", {**arrays, "b0": np.full(8, np.nan, np.float32)}),
            "must be finite",
        ),
        # Beyond what the integer network can hold (docs/neural.md "The network's input range"):
        # refused at load, in double, before any value is scaled (network.py's check_range).
        "weight beyond the network": (
            _npz(tmp_path / "weight.npz", {**arrays, "w0": _with(arrays["w0"], 1e12)}),
            "w0 must lie within [-32767, 32767] (what the integer network can hold)",
        ),
        "bias beyond the network": (
            _npz(tmp_path / "bias.npz", {**arrays, "value_b": _with(arrays["value_b"], -1e13)}),
            "value_b must lie within [-2097152, 2097152]",
        ),
        "other format": (
            _npz(tmp_path / "format.npz", {**arrays, "format": np.array("mlp/9")}),
            "format 'mlp/9'",
        ),
        # features (docs/neural.md "Features"): a network of other features is refused by name.
        "unknown features": (
            _npz(tmp_path / "features.npz", {**arrays, "features": np.array("observation-v9")}),
            "features 'observation-v9' is unknown (known: observation-v1, observation-modules-v2, "
            "observation-trips-v3)",
        ),
        "features of another width": (
            _npz(
                tmp_path / "width.npz", {**arrays, "features": np.array("observation-modules-v2")}
            ),
            "features 'observation-modules-v2' are 3513 inputs for 2 players, the first layer "
            "has 3508",
        ),
        "features not text": (
            _npz(tmp_path / "features_int.npz", {**arrays, "features": np.array(1)}),
            "features must be text, not int64",
        ),
    }
    # The optional score head (docs/learning.md "Score-aware values"): both arrays or neither,
    # checked as the other heads.
    scored = {**arrays, **_score_head(8)}
    for case, changes, words in (
        ("score_b missing", {"score_b": None}, "no 'score_b'"),
        ("score_w missing", {"score_w": None}, "no 'score_w'"),
        (
            "score shape",
            {"score_w": scored["score_w"][:, :1]},
            "score_w must be (8, 2) and score_b (2,), not (8, 1) and (2,)",
        ),
        ("score integers", {"score_w": scored["score_w"].astype(np.int32)}, "score_w must hold"),
        ("score not finite", {"score_b": np.full(2, np.nan, np.float32)}, "must be finite"),
        (
            "score beyond the network",
            {"score_b": _with(scored["score_b"], 1e13)},
            "score_b must lie within [-2097152, 2097152]",
        ),
    ):
        stored = {k: v for k, v in {**scored, **changes}.items() if v is not None}
        cases[case] = (_npz(tmp_path / f"{case.replace(' ', '_')}.npz", stored), words)
    # modules_covered (docs/neural.md "The weights file"): the sets a file plays, checked.
    for case, covered, words in (
        ("unknown module", ["none", "dragons"], "unknown module 'dragons' in 'dragons'"),
        ("module twice", ["none", "auction,auction"], "module 'auction' twice"),
        ("set twice", ["none", "draw13,auction", "auction,draw13"], "'auction,draw13' is listed"),
        ("empty list", np.array([], dtype=str), "must list 1 to 32 module sets"),
        ("too many", ["none"] * 33, "modules_covered must be text, not <U4 of shape (33,)"),
        ("numbers", np.arange(3), "modules_covered must be text, not int64"),
        ("options not covered", ["auction"], "options [] are not among modules_covered"),
    ):
        name = "covered " + case
        stored = {**arrays, "modules_covered": np.array(covered, dtype=None)}
        cases[name] = (_npz(tmp_path / f"{name.replace(' ', '_')}.npz", stored), words)
    cases["empty"][0].write_bytes(b"")
    cases["truncated"][0].write_bytes(raw[: len(raw) // 2])
    return cases


def test_every_malformed_file_is_a_value_error_naming_it(engine, tmp_path):
    for case, (path, words) in _malformed(engine, tmp_path).items():
        message = _refusals(engine, path)
        assert str(path) in message and words in message, (case, message)
        assert _refusals(engine, pathlib.Path(path)) == message  # os.PathLike alike


def test_modules_covered_admits_its_sets_and_refuses_others_by_name(engine, tmp_path):
    arrays = _arrays(_good(engine, tmp_path))
    assert list(arrays["modules_covered"]) == ["none"]  # a file covers its options' set
    old = _npz(tmp_path / "old.npz", {k: v for k, v in arrays.items() if k != "modules_covered"})
    assert MLPEvaluator.load(old, engine.Game(2)).modules_covered == ("none",)
    covered = ["special_tiles,auction", "none"]  # any order: read as the sets they spell
    path = _npz(tmp_path / "two.npz", {**arrays, "modules_covered": np.array(covered)})
    game = engine.Game(2, auction=True, special_tiles=True)
    assert MLPEvaluator.load(path, game).modules_covered == ("none", "auction,special_tiles")
    engine.AZBot(game, 0, simulations=2, model=path)
    other = engine.Game(2, auction=True)
    message = _refusals_for(engine, path, other)
    assert message == (
        f"{path}: weights for 2 players with the module sets ['none', 'auction,special_tiles'], "
        "the game has 2 with ['auction']"
    )


def _score_head(hidden):
    rng = np.random.default_rng(5)
    return {
        "score_w": (rng.standard_normal((hidden, 2)) * 0.1).astype(np.float32),
        "score_b": np.array([0.05, -0.05], np.float32),
    }


def test_a_score_head_loads_and_the_search_plays_as_without_it(engine, tmp_path):
    good = _good(engine, tmp_path)
    scored = _npz(tmp_path / "scored.npz", {**_arrays(good), **_score_head(8)})
    game = engine.Game(num_players=2)
    plain, mlp = MLPEvaluator.load(good, game), MLPEvaluator.load(scored, game)
    assert plain.score is None
    with pytest.raises(ValueError, match="these weights have no score head"):
        plain.scores(np.zeros((1, 3508), np.float32))
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    rows = np.array([state.observation_tensor(state.current_player())], np.float32)
    x = np.maximum(rows @ mlp.layers[0][0] + mlp.layers[0][1], 0)
    expected = np.tanh(x @ mlp.score[0] + mlp.score[1])
    np.testing.assert_allclose(mlp.scores(rows), expected, rtol=1e-5)
    assert (np.abs(mlp.scores(rows)) < 1).all()
    again = tmp_path / "again.npz"
    mlp.save(again)  # the score head survives a save
    np.testing.assert_array_equal(MLPEvaluator.load(again, game).score[0], mlp.score[0])
    # The search does not read the score: the same moves with and without it.
    for path in (good, scored):
        engine.PolicyNetBot(game, model=path)
    moves = []
    for path in (good, scored):
        bot = engine.AZBot(game, 3, simulations=8, model=path)
        moves.append([bot.step(state) for _ in range(3)])
    assert moves[0] == moves[1]


def _refusals_for(engine, path, game):
    messages = set()
    for load in (
        lambda: MLPEvaluator.load(path, game),
        lambda: engine.AZBot(game, 0, simulations=2, model=path),
        lambda: engine.PuctBot(game, 0, simulations=2, model=path),
        lambda: engine.PolicyNetBot(game, model=path),
    ):
        with pytest.raises(ValueError) as caught:
            load()
        messages.add(str(caught.value))
    assert len(messages) == 1, messages
    return messages.pop()


def test_a_path_like_loads_and_other_types_are_type_errors(engine, tmp_path):
    good = _good(engine, tmp_path)
    for load in _loaders(engine).values():
        load(good)  # pathlib.Path
        load(str(good))
        with pytest.raises(TypeError, match="model must be a path \\(str or os.PathLike\\)"):
            load(3)
        with pytest.raises(TypeError, match="model must be a path"):
            load(bytes(good))


def _in_thread(call):
    """call() in a thread; its outcome, or "blocked" when it has not returned after 60 s (a
    guard against a hang, not a timing measure)."""
    outcome = []

    def target():
        try:
            call()
            outcome.append("loaded")
        except Exception as error:  # noqa: BLE001 -- the outcome is what is checked
            outcome.append(error)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(60)
    return outcome[0] if outcome else "blocked"


@pytest.mark.parametrize(
    "kind, words", [("fifo", "(a pipe)"), ("device", "(a device)"), ("folder", "(a folder)")]
)
def test_only_regular_files_are_opened(engine, tmp_path, kind, words):
    path = {"fifo": tmp_path / "fifo.npz", "device": "/dev/zero", "folder": tmp_path}[kind]
    if kind == "fifo":
        os.mkfifo(path)  # no writer: a plain open() would block for ever
    for load in _loaders(engine).values():
        outcome = _in_thread(lambda: load(path))
        assert isinstance(outcome, ValueError), outcome
        assert f"not a regular file {words}" in str(outcome)


def test_a_missing_file_is_named(engine, tmp_path):
    message = _refusals(engine, tmp_path / "absent.npz")
    assert "cannot read model" in message and "No such file" in message


def _damage(path, member):
    """Overwrites 64 bytes inside the (stored) data of `member`: its CRC no longer matches."""
    raw = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as archive:
        offset = archive.getinfo(member).header_offset
    # Past the local header (30 bytes, the name, a zip64 extra) and the 128-byte .npy header.
    start = offset + 30 + len(member) + 20 + 128 + 64
    raw[start : start + 64] = bytes(255 - b for b in raw[start : start + 64])
    path.write_bytes(bytes(raw))
    return path


def test_shapes_are_checked_before_any_array_is_inflated(engine, tmp_path):
    """A member whose data are damaged (CRC) but whose header declares the wrong shape: the
    shape is what is refused, so the data were never inflated."""
    arrays = _arrays(_good(engine, tmp_path))
    wrong = _damage(_npz(tmp_path / "wrong.npz", {**arrays, "w0": arrays["w0"][:, :5]}), "w0.npy")
    assert "w0 must be (3508, k) and b0 (k,), not (3508, 5)" in _refusals(engine, wrong)
    right = _damage(_npz(tmp_path / "right.npz", arrays), "w0.npy")
    assert "member 'w0.npy' is damaged" in _refusals(engine, right)


def test_declared_sizes_are_bounded_before_inflating(tmp_path):
    """A few KB of zip may declare a GiB: the declared total is refused from the central
    directory; a header whose shape is not the member's size is refused too."""
    path = tmp_path / "zeros.npz"
    np.savez_compressed(path, w=np.zeros((1000, 1000), np.float32))
    assert path.stat().st_size < 10_000
    with pytest.raises(ValueError, match="declare 4,000,128 bytes; at most 1,000,000 are read"):
        Archive(path, max_bytes=1_000_000)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        with archive.open("w.npy", "w") as member:
            np.lib.format.write_array_header_1_0(
                member, {"descr": "<f4", "fortran_order": False, "shape": (10**6, 10**6)}
            )
    (tmp_path / "liar.npz").write_bytes(buffer.getvalue())
    with pytest.raises(ValueError, match="declares shape \\(1000000, 1000000\\)"):
        Archive(tmp_path / "liar.npz")


def test_checkpoints_go_through_the_same_reader(tmp_path):
    import vikinger_ref

    for case, (path, words) in _malformed(vikinger_ref, tmp_path).items():
        if case in ("empty", "plain npy", "complex", "objects"):
            with pytest.raises(ValueError, match=words.replace("(", "\\(").replace(")", "\\)")):
                Checkpoint.load(path)
    with pytest.raises(ValueError, match="not a regular file \\(a folder\\)"):
        Checkpoint.load(tmp_path)


def test_a_file_without_features_reads_the_observation(engine, tmp_path):
    # The files written before the field (the shipped networks among them) keep their meaning.
    good = _good(engine, tmp_path)
    arrays = _arrays(good)
    assert str(arrays["features"]) == "observation-v1"
    del arrays["features"]
    old = _npz(tmp_path / "old.npz", arrays)
    game = engine.Game(num_players=2)
    assert MLPEvaluator.load(old, game).features == "observation-v1"
    state = game.new_initial_state()
    rng = np.random.default_rng(7)
    while state.is_chance_node():
        state.apply_random_chance(rng)
    bots = [engine.AZBot(game, 1, simulations=16, model=p) for p in (good, old)]
    assert bots[0].step(state) == bots[1].step(state)
    nets = [engine.Network(MLPEvaluator.load(p, game)) for p in (good, old)]
    assert [a.tobytes() for a in nets[0].evaluate(state)] == [
        a.tobytes() for a in nets[1].evaluate(state)
    ]
