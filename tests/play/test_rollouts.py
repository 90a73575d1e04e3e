"""`rollouts` (docs/api.md): whole random games in one call. Game i uses the splitmix64 stream
seeded with seed + i (rollout.py), so the C++ engine must return exactly the reference's arrays,
for every thread count and both policies (the fused fast path and the generic list path)."""

import os
import platform
import shutil
import subprocess
import sys

import numpy as np
import pytest

from conftest import load_engine
from positions import FLAGS

CONFIGS = [
    (2, ()),
    (3, ()),
    (4, ()),
    (2, FLAGS),  # A1-A5 together
    (3, ("auction", "special_tiles")),
    (4, ("draw13", "offer_by_colour", "weak_boatsmen")),
    (2, ("weak_boatsmen", "special_tiles")),  # A4 with boats
]


def game_of(engine, num_players, flags):
    return engine.Game(num_players=num_players, **{flag: True for flag in flags})


def assert_same(a, b):
    assert a.keys() == b.keys() == {"scores", "gold", "returns", "length"}
    for key in a:
        assert a[key].dtype == b[key].dtype, key
        np.testing.assert_array_equal(a[key], b[key], err_msg=key)


@pytest.mark.parametrize("num_players, flags", CONFIGS)
def test_cpp_rollouts_are_the_reference_games(engines, num_players, flags):
    ref, fast = engines
    for seed in (0, 12345):
        expected = ref.rollouts(game_of(ref, num_players, flags), 3, seed)
        for policy in ("random", "random_generic"):
            got = fast.rollouts(game_of(fast, num_players, flags), 3, seed, policy=policy)
            assert_same(got, expected)


@pytest.mark.parametrize("seed", [-1, 2**64 - 2, 2**70 + 3])
def test_seeds_wrap_modulo_2_to_the_64(engines, seed):
    ref, fast = engines
    assert_same(
        fast.rollouts(fast.Game(num_players=2), 2, seed),
        ref.rollouts(ref.Game(num_players=2), 2, seed),
    )


def test_game_i_is_the_game_of_seed_plus_i(engine):
    game = engine.Game(num_players=3)
    many = engine.rollouts(game, 4, 100)
    one = engine.rollouts(game, 1, 102)
    for key in many:
        np.testing.assert_array_equal(many[key][2:3], one[key])


@pytest.mark.parametrize("num_players, flags", [(2, ()), (4, FLAGS)])
def test_results_do_not_depend_on_the_thread_count(num_players, flags):
    fast = load_engine("fast")
    game = game_of(fast, num_players, flags)
    one = fast.rollouts(game, 301, 7, threads=1)
    for threads in (2, 3, 8):
        assert_same(fast.rollouts(game, 301, 7, threads=threads), one)
    assert_same(fast.rollouts(game, 301, 7, threads=2, policy="random_generic"), one)


def test_result_arrays(engine):
    """Shapes and types of docs/api.md; B8.9 one win per game, split among tied winners."""
    result = engine.rollouts(engine.Game(num_players=3), 5, 1)
    assert result["scores"].shape == result["gold"].shape == result["returns"].shape == (5, 3)
    assert (
        result["scores"].dtype,
        result["gold"].dtype,
        result["returns"].dtype,
        result["length"].dtype,
    ) == (np.int32, np.int32, np.float64, np.int32)
    np.testing.assert_allclose(result["returns"].sum(axis=1), 1.0)
    assert (result["gold"] >= 0).all() and (result["length"] > 144).all()
    empty = engine.rollouts(engine.Game(num_players=2), 0, 1)
    assert empty["scores"].shape == (0, 2) and empty["length"].shape == (0,)


@pytest.mark.parametrize(
    "kwargs, error",
    [
        ({"num_games": "3"}, TypeError),
        ({"num_games": 3.0}, TypeError),
        ({"num_games": True}, TypeError),
        ({"num_games": -1}, ValueError),
        ({"seed": 1.5}, TypeError),
        ({"seed": None}, TypeError),
        ({"seed": False}, TypeError),
        ({"threads": 0}, ValueError),
        ({"threads": "2"}, TypeError),
        ({"threads": True}, TypeError),
        ({"policy": "greedy"}, ValueError),
        ({"policy": None}, TypeError),
        ({"policy": 1}, TypeError),
        ({"game": "Game(2)"}, TypeError),
        ({"game": None}, TypeError),
    ],
)
def test_argument_errors_are_the_same_in_both_engines(engine, kwargs, error):
    args = {
        "game": engine.Game(num_players=2),
        "num_games": 2,
        "seed": 0,
        "threads": 1,
        "policy": "random",
        **kwargs,
    }
    with pytest.raises(error):
        engine.rollouts(**args)


def test_numpy_integers_are_accepted(engines):
    ref, fast = engines
    assert_same(
        fast.rollouts(fast.Game(num_players=2), np.int64(2), np.uint64(9), threads=np.int32(2)),
        ref.rollouts(ref.Game(num_players=2), 2, 9),
    )


def fused_core(bit_select):
    """The C++ module, after skipping unless this CPU can run the fused playout's `bit_select`
    way of finding the k-th legal action ("pdep" needs BMI2)."""
    from vikinger_fast import _core

    if bit_select not in _core._bit_select()["available"]:
        pytest.skip(f"bit_select {bit_select!r} needs BMI2, which this CPU lacks")
    return _core


@pytest.mark.parametrize("bit_select", ["table", "pdep"])
@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_fused_playout_ends_where_the_state_machine_ends(num_players, bit_select):
    """Policy "random" plays the base game by the fused playout (csrc/play/playout.cc),
    "random_generic"
    through the state machine: every game must end in the same position, byte for byte, whichever
    way the playout finds the k-th legal action, and the result arrays must be equal."""
    _core = fused_core(bit_select)
    game = _core.Game(num_players=num_players)
    for seed in range(300):
        fused = _core._rollout_position(game, seed, "random", bit_select)
        generic = _core._rollout_position(game, seed, "random_generic")
        assert fused == generic, f"seed {seed}"
    assert_same(
        _core.rollouts(game, 5000, 10**6, policy="random"),
        _core.rollouts(game, 5000, 10**6, policy="random_generic"),
    )


def test_bit_select_names_the_ways_this_cpu_runs():
    from vikinger_fast import _core

    info = _core._bit_select()
    assert info["available"][0] == "table" and set(info["available"]) <= {"table", "pdep"}
    assert info["auto"] in info["available"]
    game = _core.Game(num_players=2)
    with pytest.raises(ValueError, match="bit_select must be one of auto, table, pdep"):
        _core._rollout_position(game, 0, "random", "fast")
    with pytest.raises(TypeError, match="bit_select must be a str"):
        _core._rollout_position(game, 0, "random", 1)
    if "pdep" not in info["available"]:
        with pytest.raises(ValueError, match="needs a CPU with BMI2"):
            _core._rollout_position(game, 0, "random", "pdep")


EMULATED_CPU_CHECK = """
import vikinger_fast as vk
from vikinger_fast import _core
game = vk.Game(num_players=2)
print(_core._bit_select()["auto"], " ".join(_core._bit_select()["available"]))
for seed in range(20):
    generic = _core._rollout_position(game, seed, "random_generic")
    assert _core._rollout_position(game, seed) == generic
print(int(vk.rollouts(game, 50, 0)["scores"].sum()))
"""


@pytest.mark.skipif(
    platform.machine() != "x86_64" or shutil.which("qemu-x86_64") is None,
    reason="needs qemu-x86_64 (Debian's qemu-user) to emulate other CPUs",
)
@pytest.mark.skipif(
    os.environ.get("VIKINGER_SANITIZED") == "1",
    reason="the sanitizer runtime (LD_PRELOAD, scripts/sanitize.sh) cannot run under emulation",
)
@pytest.mark.parametrize(
    "cpu, blas_core, auto, available",
    [
        ("Nehalem", "Nehalem", "table", "table"),  # x86-64-v2, the build's baseline: no BMI2
        ("EPYC-Rome", "Zen", "table", "table pdep"),  # Zen 2: BMI2, but PDEP in microcode
        ("Haswell", "Haswell", "pdep", "table pdep"),
    ],
)
def test_the_fused_playout_picks_its_bit_select_by_the_cpu(cpu, blas_core, auto, available):
    """The module is built for x86-64-v2 and uses PDEP only after asking the CPU: under an
    emulated CPU it must import, pick the expected way, and play the games it plays here."""
    # numpy's bundled OpenBLAS (numpy 2.4.6) reads qemu's emulated Nehalem as a Haswell and
    # dies on an AVX kernel at `import numpy`, before our module loads. Naming its kernels
    # after the emulated CPU keeps this a check of our module, not of OpenBLAS's CPU detection.
    env = {**os.environ, "OPENBLAS_CORETYPE": blas_core}
    run = subprocess.run(
        ["qemu-x86_64", "-cpu", cpu, sys.executable, "-c", EMULATED_CPU_CHECK],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )
    assert run.returncode == 0, run.stderr
    native = load_engine("fast").rollouts(load_engine("fast").Game(num_players=2), 50, 0)
    assert run.stdout.split("\n")[:2] == [f"{auto} {available}", str(int(native["scores"].sum()))]


@pytest.mark.parametrize("bit_select", ["table", "pdep"])
@pytest.mark.parametrize("seed", [132, 2945, 3284, 4037])
def test_fused_playout_on_boards_wider_than_its_packed_rows(seed, bit_select):
    """The fused playout answers B6.2 from five rows packed in one word while every tile is in
    columns 1..11 (csrc/play/packed_rows.h), then from the board's rows: in these 2-player games
    (about
    one in 1,000) a board grows past column 11, and the games must still end as the state machine's
    and the reference's do."""
    from vikinger_ref.rollout import play_random_game

    _core = fused_core(bit_select)
    game = _core.Game(num_players=2)
    final = play_random_game(load_engine("ref").Game(num_players=2), seed)
    assert (
        max(max(board.island_tiles(), key=lambda tile: tile[1])[1] for board in final.players) >= 12
    )
    fused = _core._rollout_position(game, seed, "random", bit_select)
    assert fused == _core._rollout_position(game, seed, "random_generic")
    assert final.serialize()[5 : 5 + len(fused)] == fused


@pytest.mark.parametrize("seed", [0, 3, 77])
def test_rollout_position_is_the_reference_games_final_position(seed):
    """The hook behind the test above shows the game's real end: the reference plays rollout
    game `seed` through its API, and its serialize() bytes (magic, version, position, history;
    docs/state.md) carry the same position."""
    from vikinger_ref.rollout import play_random_game
    from vikinger_fast import _core

    ref = load_engine("ref")
    final = play_random_game(ref.Game(num_players=2), seed).serialize()
    for policy in ("random", "random_generic"):
        position = _core._rollout_position(_core.Game(num_players=2), seed, policy)
        assert final[5 : 5 + len(position)] == position
