"""Sharded work in local processes (src/vikinger_fast/distributed.py, docs/distributed.md): the
merged rollouts, playouts and arena games are exactly those of one call, on both engines,
whatever the shard size and the number of processes; a failing shard is named with its seeds; a
worker process that dies has its shards run again. The Ray executor: test_distributed_ray.py."""

import os
import textwrap

import numpy as np
import pytest

from vikinger_fast import arena, distributed, selfplay_data
from vikinger_fast.distributed import selfplay

from cli_runs import start_cli
from conftest import load_engine


def assert_same_arrays(expected, got):
    assert sorted(expected) == sorted(got)
    for key in expected:
        assert got[key].dtype == expected[key].dtype, key
        assert np.array_equal(got[key], expected[key]), key


@pytest.mark.parametrize("shard_size", [1, 3, 7, 40])
def test_rollouts_in_shards_are_the_single_call(engine, shard_size):
    game = engine.Game(num_players=3)
    count = 12 if engine.__name__ == "vikinger_ref" else 40
    got = distributed.rollouts(game, count, 11, shard_size=shard_size)
    assert_same_arrays(engine.rollouts(game, count, 11), got)


def test_rollouts_in_two_processes_across_the_seed_wrap(engine):
    # Seeds near 2**64: shard (first, count) starts at (seed + first) mod 2**64, as game `first`
    # of the single call does.
    game = engine.Game(num_players=2)
    seed = (1 << 64) - 5
    got = distributed.rollouts(game, 10, seed, shard_size=3, executor=distributed.LocalProcesses(2))
    assert_same_arrays(engine.rollouts(game, 10, seed), got)


@pytest.mark.parametrize("jobs", [1, 2])
def test_zero_games_give_the_empty_arrays(engine, jobs):
    game = engine.Game(num_players=2)
    got = distributed.rollouts(game, 0, 4, executor=distributed.LocalProcesses(jobs))
    assert_same_arrays(engine.rollouts(game, 0, 4), got)


def test_playouts_in_shards_are_the_single_call(engine):
    game = engine.Game(num_players=2)
    state = game.new_initial_state()
    rng = np.random.default_rng(3)
    while len(state.history()) < 60:
        if state.is_chance_node():
            state.apply_random_chance(rng)
        else:
            state.apply_action(state.legal_actions()[0])
    got = distributed.playouts(state, 9, 21, shard_size=4, executor=distributed.LocalProcesses(2))
    assert_same_arrays(engine.playouts(state, 9, 21), got)


def test_arena_in_shards_is_arena_run(engine):
    name = "ref" if engine.__name__ == "vikinger_ref" else "fast"
    texts = ["random", "greedy", "random"]
    expected = arena.run(name, texts, 2, 5, 2)
    got = distributed.arena(
        name, texts, 2, 5, 2, shard_size=5, executor=distributed.LocalProcesses(2)
    )
    assert got == expected


def test_a_module_set_reaches_every_worker_process(engine, tmp_path):
    """Rollouts of a Game with modules, arena games and self-play data of a set: in two
    processes, the single call's results (docs/distributed.md)."""
    name = "ref" if engine.__name__ == "vikinger_ref" else "fast"
    modules = ("auction", "special_tiles")
    game = engine.Game(num_players=3, auction=True, special_tiles=True)
    two = distributed.LocalProcesses(2)
    got = distributed.rollouts(game, 6, 9, shard_size=2, executor=two)
    assert_same_arrays(engine.rollouts(game, 6, 9), got)
    texts = ["random", "greedy"]
    expected = arena.run(name, texts, 2, 5, 2, modules=modules)
    got = distributed.arena(name, texts, 2, 5, 2, shard_size=1, executor=two, modules=modules)
    assert got == expected and got != arena.run(name, texts, 2, 5, 2)
    assert all(g["record"]["game"]["options"]["auction"] for g in got)
    options = {"draw13": True}
    local = selfplay.generate(tmp_path / "one", 2, 5, mcts={"iterations": 4}, options=options)
    shards = selfplay.generate(
        tmp_path / "two", 2, 5, mcts={"iterations": 4}, options=options, shard_size=1, executor=two
    )
    assert shards["game"] == local["game"] and shards["game"]["options"]["draw13"]
    assert_same_arrays(selfplay_data.load(tmp_path / "one"), selfplay_data.load(tmp_path / "two"))


def test_bad_shard_size_and_jobs():
    game = load_engine("fast").Game(num_players=2)
    with pytest.raises(ValueError, match="shard_size must be an int >= 1, not 0"):
        distributed.rollouts(game, 5, 0, shard_size=0)
    with pytest.raises(ValueError, match="jobs must be an int >= 1"):
        distributed.LocalProcesses(0)
    with pytest.raises(TypeError, match="expected a Game or State"):
        distributed.rollouts("game", 5, 0)


def failing_bot_module(folder, bad_seed):
    """A user bot that cannot be built with one seed: a shard failing on its input."""
    (folder / "failbot.py").write_text(
        textwrap.dedent(f"""
        import vikinger_fast

        class FailBot(vikinger_fast.RandomBot):
            def __init__(self, game, seed, bad=None):
                if seed == {bad_seed}:
                    raise RuntimeError("FailBot cannot play with seed {bad_seed}")
                super().__init__(game, seed)
        """)
    )


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_failing_shard_is_named_with_its_games_and_seed(tmp_path, monkeypatch, jobs):
    # Deal 3 of seed 8 builds entrant 0 with bot_seed(8, 3, 0): games 6 and 7 (two seatings a
    # deal), which shard 3 of size 2 holds.
    failing_bot_module(tmp_path, arena.bot_seed(8, 3, 0))
    monkeypatch.chdir(tmp_path)
    with pytest.raises(distributed.ShardError) as caught:
        distributed.arena(
            "fast",
            ["failbot:FailBot", "random"],
            2,
            8,
            5,
            shard_size=2,
            executor=distributed.LocalProcesses(jobs),
        )
    error = caught.value
    assert error.shard == 3
    assert str(error).startswith("shard 3 (games 6..7: table 0 deal 3 to table 0 deal 3, seed 8)")
    assert "FailBot cannot play with seed" in str(error)
    assert isinstance(error.cause, RuntimeError)


def rollouts_shard(game, first, count):
    """The shard of games first..first+count-1 of rollouts(game, ..., seed 0)."""
    return distributed.Shard(
        distributed._engine_call_shard,
        ("rollouts", game, count, first),
        count,
        f"games {first}..{first + count - 1}",
    )


def failed(shards, match):
    """Checks that the shards, run in 2 local processes, raise the ShardError `match` says."""
    with pytest.raises(distributed.ShardError, match=match):
        distributed.run_shards(shards, distributed.LocalProcesses(2))


def test_a_rollouts_shard_error_names_its_seeds():
    game = load_engine("fast").Game(num_players=2)
    shards = [
        rollouts_shard(game, 0, 2),
        distributed.Shard(
            distributed._engine_call_shard, ("rollouts", game, -1, 2), 1, "games 2..2"
        ),
    ]
    failed(shards, r"shard 1 \(games 2..2\) failed: ValueError: num_games must be >= 0")


def die_once(payload):
    """A shard whose first attempt kills its worker process (the marker file says it did)."""
    marker, game, count, seed = payload
    if not os.path.exists(marker):
        open(marker, "w").close()
        os._exit(1)
    return distributed._engine_call_shard(("rollouts", game, count, seed))


def test_a_killed_worker_has_its_shards_run_again(tmp_path):
    vk = load_engine("fast")
    game = vk.Game(num_players=2)
    marker = str(tmp_path / "died")
    shards = [
        rollouts_shard(game, 0, 5),
        distributed.Shard(die_once, (marker, game, 5, 5), 5, "games 5..9"),
        rollouts_shard(game, 10, 5),
    ]
    parts = distributed.run_shards(shards, distributed.LocalProcesses(2))
    assert os.path.exists(marker)
    merged = {key: np.concatenate([part[key] for part in parts]) for key in parts[0]}
    assert_same_arrays(vk.rollouts(game, 15, 0), merged)


def kill_always(payload):
    os._exit(1)


def test_a_shard_that_always_kills_its_worker_fails_after_the_retries():
    game = load_engine("fast").Game(num_players=2)
    shards = [
        distributed.Shard(kill_always, None, 1, "games 0..0, seeds 0..0"),
        rollouts_shard(game, 1, 1),
    ]
    failed(shards, r"shard 0 \(games 0..0, seeds 0..0\) failed: BrokenProcessPool")


def test_simulate_in_local_processes_prints_the_same_statistics(capsys):
    from vikinger_fast import cli

    assert cli.main(["simulate", "--games", "3000", "--seed", "2", "--players", "3"]) == 0
    plain = capsys.readouterr().out.splitlines()
    assert (
        cli.main(
            [
                "simulate",
                "--games",
                "3000",
                "--seed",
                "2",
                "--players",
                "3",
                "--jobs",
                "2",
                "--shard-size",
                "400",
            ]
        )
        == 0
    )
    sharded = capsys.readouterr().out.splitlines()
    assert len(plain) == 6 and sharded[1:] == plain[1:]  # all but the timing line


def _children(pid):
    """The pids of the processes whose parent is `pid` (Linux /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry))
    return found


def _running(pid):
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize("signame", ["SIGINT", "SIGTERM"])
def test_ctrl_c_and_sigterm_stop_the_local_workers_and_exit_130(tmp_path, signame):
    import signal
    import time

    scratch = tmp_path / "tmp"
    scratch.mkdir()
    argv = ["simulate", "--jobs", "2", "--games", "100000000", "--shard-size", "100000"]
    child = start_cli(argv, env=dict(os.environ, TMPDIR=str(scratch)))
    try:
        # The progress bar's first update: the workers are playing.
        assert child.stderr.read(1), "the child printed nothing"
        time.sleep(1.0)
        workers = _children(child.pid) if os.path.isdir("/proc") else []
        child.send_signal(getattr(signal, signame))
        out, err = child.communicate(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 130, err
    assert "interrupted: remote work cancelled" in err and "Traceback" not in err
    assert out == ""
    # No worker plays on, and the shards' scratch folder is gone (a SIGTERM that ended the
    # driver alone left both).
    deadline = time.monotonic() + 10
    while any(map(_running, workers)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(map(_running, workers))
    assert not [p.name for p in scratch.iterdir() if p.name.startswith("vikinger-shards-")]


STOPPED_EARLY = """
import sys
from vikinger_fast import distributed
import big_results

if __name__ == "__main__":
    shards = [distributed.Shard(big_results.big, None, 1, f"big {i}") for i in range(60)]
    for number, result in distributed.LocalProcesses(2).run(shards):
        assert len(result) == 8 << 20
        break   # the caller stops while the workers are sending their results
    print("stopped")
"""


def test_stopping_mid_run_never_hangs_the_interpreter_at_exit(tmp_path):
    # Shards whose 8 MB results are in flight when the workers are stopped. Before results went
    # through files, a worker stopped half-way through a pipe message left the pool's reader
    # waiting for the rest for ever, and the interpreter hung at exit (18 runs of 20).
    import subprocess
    import sys

    (tmp_path / "big_results.py").write_text("def big(payload):\n    return b'x' * (8 << 20)\n")
    (tmp_path / "child.py").write_text(STOPPED_EARLY)
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = dict(
        os.environ,
        TMPDIR=str(scratch),
        PYTHONPATH=os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]),
    )
    for _ in range(3):
        done = subprocess.run(
            [sys.executable, str(tmp_path / "child.py")],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0 and done.stdout == "stopped\n", done.stderr
    assert list(scratch.iterdir()) == []  # the result files went with the run


@pytest.mark.parametrize("shard_size", [1, 10, 1000])
def test_playouts_batch_in_shards_is_the_single_call(engine, shard_size):
    game = engine.Game(num_players=3)
    states, state = [], game.new_initial_state()
    rng = np.random.default_rng(5)
    while len(states) < 5:
        if state.is_chance_node():
            state.apply_random_chance(rng)
        else:
            state.apply_action(state.legal_actions()[-1])
            if len(state.history()) % 17 == 0:
                states.append(state.clone())
    seed = (1 << 64) - 12  # the streams of states 2.. wrap around 2^64
    got = distributed.playouts_batch(
        states, 4, seed, shard_size=shard_size, executor=distributed.LocalProcesses(2)
    )
    assert_same_arrays(engine.playouts_batch(states, 4, seed), got)
    assert_same_arrays(
        engine.playouts_batch(states, 0, seed), distributed.playouts_batch(states, 0, seed)
    )


def test_playouts_batch_refuses_what_the_single_call_refuses(engine):
    state = engine.Game(num_players=2).new_initial_state()
    other = engine.Game(num_players=3).new_initial_state()
    for states, count, error in (
        ([], 3, ValueError),
        ("abc", 3, TypeError),
        ([state, other], 3, ValueError),
        ([state], -1, ValueError),
        ([state, 7], 3, TypeError),
    ):
        with pytest.raises(error):
            distributed.playouts_batch(states, count, 0)
