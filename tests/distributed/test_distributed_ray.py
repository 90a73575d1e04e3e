"""The Ray executor on a real local cluster (docs/distributed.md): 2 CPUs, every socket on
127.0.0.1, one cluster for the module. Sharded rollouts, playouts, arena games and self-play data
are those of one local call; a worker killed mid-run has its shard retried with the same result;
a failing shard is named, and lets the shards running beside it finish rather than cancel them
as they end (which aborted Ray's driver); Ctrl-C (SIGINT to a `vikinger simulate --ray ADDRESS`
child) cancels the work and exits 130; an interrupted collection cancels its tasks."""

import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

# Before Ray is imported: the node's address is then the loopback one (see distributed.import_ray),
# and no usage statistics are reported.
os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"
os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
ray = pytest.importorskip("ray")

from vikinger_fast import arena, distributed  # noqa: E402
from vikinger_fast.distributed import executors, selfplay  # noqa: E402

from conftest import load_engine  # noqa: E402
from test_distributed_local import assert_same_arrays, failing_bot_module  # noqa: E402

LIVENESS_BOUND = 15.0  # seconds: loose, this is a shared loaded machine


def child_env():
    """The children join the cluster by its 127.0.0.1 address with Ray's own defaults: the CLI
    must keep Ray from turning that address into the host's (which nothing listens on). They
    keep what Ray set in this process's environment when it started the cluster (its
    authentication mode)."""
    return {
        key: value
        for key, value in os.environ.items()
        if key != "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"
    }


@pytest.fixture(scope="module")
def cluster():
    with distributed.RayCluster("local", num_cpus=2) as started:
        yield started


def _process_tree(root):
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    parent = int(stat.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(parent, []).append(int(entry))
    tree, todo = set(), [root]
    while todo:
        pid = todo.pop()
        tree.add(pid)
        todo.extend(children.get(pid, []))
    return tree


def _socket_inodes(pids):
    inodes = set()
    for pid in pids:
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                try:
                    link = os.readlink(f"/proc/{pid}/fd/{fd}")
                except OSError:
                    continue
                if link.startswith("socket:["):
                    inodes.add(link[8:-1])
        except OSError:
            continue
    return inodes


def _address(hex_address):
    host, port = hex_address.split(":")
    raw = bytes.fromhex(host)
    if len(raw) == 4:
        return ".".join(str(b) for b in raw[::-1]), int(port, 16)
    words = [raw[i : i + 4][::-1] for i in range(0, 16, 4)]  # four little-endian words
    flat = b"".join(words)
    if flat[:12] == b"\0" * 10 + b"\xff\xff":
        return ".".join(str(b) for b in flat[12:]), int(port, 16)
    return ":".join(flat[i : i + 2].hex() for i in range(0, 16, 2)), int(port, 16)


def _loopback(host):
    return host.startswith("127.") or host == "0000:0000:0000:0000:0000:0000:0000:0001"


def test_every_socket_of_the_cluster_is_on_loopback(cluster):
    pids = _process_tree(os.getpid())
    inodes = _socket_inodes(pids)
    seen = 0
    for table in ("tcp", "tcp6", "udp", "udp6"):
        with open(f"/proc/net/{table}") as source:
            for line in source.readlines()[1:]:
                fields = line.split()
                if fields[9] not in inodes:
                    continue
                seen += 1
                local, remote = _address(fields[1]), _address(fields[2])
                assert _loopback(local[0]), (table, local)
                if remote[1]:  # a connected socket: its peer too
                    assert _loopback(remote[0]), (table, remote)
    assert len(pids) > 3 and seen > 5  # the GCS, the raylet, workers: all found and checked
    assert ray.util.get_node_ip_address() == "127.0.0.1"
    assert ray.get_runtime_context().gcs_address.startswith("127.0.0.1:")


def test_rollouts_and_playouts_on_ray_are_the_single_calls(cluster, engine):
    game = engine.Game(num_players=2)
    count = 10 if engine.__name__ == "vikinger_ref" else 3000
    got = distributed.rollouts(game, count, 77, shard_size=count // 5 + 1, executor=cluster)
    assert_same_arrays(engine.rollouts(game, count, 77), got)
    state = game.new_initial_state()
    state.apply_random_chance(5)
    got = distributed.playouts(state, 7, 3, shard_size=2, executor=cluster)
    assert_same_arrays(engine.playouts(state, 7, 3), got)
    later = state.clone()
    if later.is_chance_node():
        later.apply_random_chance(6)
    else:
        later.apply_action(later.legal_actions()[0])
    states = [state, later]
    got = distributed.playouts_batch(states, 3, 9, shard_size=3, executor=cluster)
    assert_same_arrays(engine.playouts_batch(states, 3, 9), got)


def test_arena_on_ray_is_the_local_tournament(cluster):
    texts = ["random", "greedy", "mcts:iterations=20"]
    expected = arena.run("fast", texts, 3, 4, 1)
    assert distributed.arena("fast", texts, 3, 4, 1, shard_size=4, executor=cluster) == expected


def test_arena_on_ray_plays_only_the_games_not_done(cluster):
    # A resumed run (`vikinger arena --resume --ray`): the journal's games are kept, the others
    # are played in shards, each reported as its shard ends.
    texts = ["random", "greedy", "mcts:iterations=5"]
    whole = arena.run("fast", texts, 2, 5, 1)
    seen = []
    got = distributed.arena(
        "fast",
        texts,
        2,
        5,
        1,
        shard_size=1,
        executor=cluster,
        done={n: whole[n] for n in (1, 2)},
        on_game=lambda number, game: seen.append(number),
    )
    assert got == whole and sorted(seen) == [0, 3, 4, 5]


def test_selfplay_on_ray_writes_the_local_files(cluster, tmp_path):
    mcts = {"iterations": 8}
    local = selfplay.generate(tmp_path / "local", 3, 5, mcts=mcts, shard_size=1)
    remote = selfplay.generate(tmp_path / "ray", 3, 5, mcts=mcts, shard_size=1, executor=cluster)
    assert remote == local
    for entry in local["shards"]:
        assert (tmp_path / "ray" / entry["file"]).read_bytes() == (
            tmp_path / "local" / entry["file"]
        ).read_bytes()


def _ray_task_pids():
    pids = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as source:
                title = source.read().split(b"\0")[0]
        except OSError:
            continue
        if title.startswith(b"ray::_shard_task"):
            pids.append(int(entry))
    return pids


def test_a_killed_worker_is_retried_and_the_result_is_the_same(cluster):
    vk = load_engine("fast")
    game = vk.Game(num_players=2)
    killed = []

    def kill_one_busy_worker():
        deadline = time.monotonic() + 60
        while not killed and time.monotonic() < deadline:
            for pid in _ray_task_pids():
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
                break
            time.sleep(0.02)

    killer = threading.Thread(target=kill_one_busy_worker)
    killer.start()
    try:
        got = distributed.rollouts(game, 200_000, 13, shard_size=10_000, executor=cluster)
    finally:
        killed.append(None)  # stops the killer if it found nothing
        killer.join()
    assert isinstance(killed[0], int), "no busy worker was found to kill"
    assert_same_arrays(vk.rollouts(game, 200_000, 13), got)


def test_a_failing_shard_on_ray_is_named(cluster, tmp_path, monkeypatch):
    failing_bot_module(tmp_path, arena.bot_seed(8, 3, 0))
    monkeypatch.chdir(tmp_path)
    with pytest.raises(distributed.ShardError) as caught:
        distributed.arena(
            "fast", ["failbot:FailBot", "random"], 2, 8, 5, shard_size=2, executor=cluster
        )
    assert str(caught.value).startswith("shard 3 (games 6..7: table 0 deal 3")
    assert "FailBot cannot play with seed" in str(caught.value)


def _wait_for_free_cpus(total):
    deadline = time.monotonic() + LIVENESS_BOUND
    while time.monotonic() < deadline:
        if ray.available_resources().get("CPU", 0) >= total:
            return True
        time.sleep(0.1)
    return False


def test_a_failing_shard_lets_its_running_neighbour_finish(cluster, tmp_path):
    # RayCluster._cancel: a shard still running when another fails gets CANCEL_GRACE to end by
    # itself; cancelling it as its reply arrived is what aborted Ray's driver in CI.
    started, finished = tmp_path / "started", tmp_path / "finished"

    def neighbour(seconds):  # pickled by value: a local function
        started.write_text("")
        time.sleep(seconds)
        finished.write_text("")
        return seconds

    def failing(payload):
        deadline = time.monotonic() + 60
        while not started.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        return distributed._engine_call_shard(("rollouts", *payload))  # 0 games - 1: a ValueError

    game = load_engine("fast").Game(num_players=2)
    shards = [
        distributed.Shard(neighbour, 0.05, 1, "the neighbour"),
        distributed.Shard(failing, (game, -1, 0), 1, "the failing shard"),
    ]
    assert 0.05 < executors.CANCEL_GRACE
    with pytest.raises(distributed.ShardError) as caught:
        list(cluster.run(shards))
    assert caught.value.shard == 1 and isinstance(caught.value.cause, ValueError)
    assert finished.exists(), "the running neighbour was cancelled instead of let finish"


def test_failing_shards_among_shards_of_milliseconds_leave_the_driver_alive(cluster):
    # The CI abort, made likely: 300 runs of 12 shards of 200 games, shard 5 failing. With every
    # shard submitted at once and the rest cancelled at the failure, Ray 2.60's driver aborted
    # within these 300 runs in 4 tries of 5 here; an abort ends this whole process.
    game = load_engine("fast").Game(num_players=2)
    for run in range(300):
        shards = [
            distributed.Shard(
                distributed._engine_call_shard,
                ("rollouts", game, -1 if i == 5 else 200, run * 12 + i),
                200,
                f"shard {i}",
            )
            for i in range(12)
        ]
        with pytest.raises(distributed.ShardError) as caught:
            list(cluster.run(shards))
        assert caught.value.shard == 5
    assert _wait_for_free_cpus(2)


def test_an_interrupted_collection_cancels_its_tasks(cluster):
    game = load_engine("fast").Game(num_players=2)
    # 40 shards of 1-3 s each: without the cancel the CPUs would stay busy for 20-60 s.
    shards = [
        distributed.Shard(
            distributed._engine_call_shard,
            ("rollouts", game, 300_000, i * 300_000),
            300_000,
            f"shard {i}",
        )
        for i in range(40)
    ]
    results = cluster.run(shards)
    next(results)
    with pytest.raises(KeyboardInterrupt):
        results.throw(KeyboardInterrupt)
    assert _wait_for_free_cpus(2)


def test_ctrl_c_cancels_a_cli_run_and_exits_130(cluster):
    address = ray.get_runtime_context().gcs_address
    child = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "vikinger_fast.cli",
            "simulate",
            "--ray",
            address,
            "--games",
            "100000000",
            "--shard-size",
            "100000",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=child_env(),
    )
    try:
        # The CLI prints "ray: N CPUs" once connected, then the shards start.
        line = child.stderr.readline()
        while line and not line.startswith("ray:"):
            line = child.stderr.readline()
        assert line.startswith("ray: 2 CPUs"), child.stderr.read()
        time.sleep(1.5)
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=LIVENESS_BOUND)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 130, err
    assert "interrupted: remote work cancelled" in err
    assert "Traceback" not in err
    assert "random 2-player games" not in out
    assert _wait_for_free_cpus(2)


def test_cli_simulate_and_arena_on_ray_print_the_local_results(cluster, tmp_path):
    address = ray.get_runtime_context().gcs_address

    def run(*args):
        done = subprocess.run(
            [sys.executable, "-m", "vikinger_fast.cli", *args],
            capture_output=True,
            text=True,
            timeout=120,
            env=child_env(),
        )
        assert done.returncode == 0, done.stderr
        assert ("ray: 2 CPUs" in done.stderr) == ("--ray" in args)
        return done.stdout

    plain = run("simulate", "--games", "5000", "--seed", "4")
    on_ray = run(
        "simulate", "--games", "5000", "--seed", "4", "--ray", address, "--shard-size", "700"
    )
    assert on_ray.splitlines()[1:] == plain.splitlines()[1:]  # all but the timing line
    arena_args = ["arena", "random", "greedy", "--games", "6", "--seed", "3", "--no-progress"]
    run(*arena_args, "--out", str(tmp_path / "local"))
    run(
        *arena_args,
        "--out",
        str(tmp_path / "ray"),
        "--ray",
        address,
        "--shard-size",
        "1",
        "--cpus-per-shard",
        "2",
    )
    for name in ("results.json", "games.csv", "records/game-00005.json"):
        assert (tmp_path / "ray" / name).read_text() == (tmp_path / "local" / name).read_text()


def test_a_module_set_reaches_every_ray_worker(cluster, tmp_path):
    """Rollouts of a Game with modules, arena games and self-play of a set, from Python and
    from the CLI (--modules with --ray): the local results, naming the set."""
    vk = load_engine("fast")
    game = vk.Game(num_players=4, **dict.fromkeys(vk.OPTION_NAMES, True))
    got = distributed.rollouts(game, 600, 8, shard_size=150, executor=cluster)
    assert_same_arrays(vk.rollouts(game, 600, 8), got)
    texts, modules = ["random", "greedy"], ("offer_by_colour", "weak_boatsmen")
    expected = arena.run("fast", texts, 2, 6, 2, modules=modules)
    got = distributed.arena("fast", texts, 2, 6, 2, shard_size=1, executor=cluster, modules=modules)
    assert got == expected
    assert all(g["record"]["game"]["options"]["weak_boatsmen"] for g in got)
    options = {"special_tiles": True}
    local = selfplay.generate(tmp_path / "local", 2, 5, mcts={"iterations": 4}, options=options)
    remote = selfplay.generate(
        tmp_path / "ray", 2, 5, mcts={"iterations": 4}, options=options, executor=cluster
    )
    assert remote == local and remote["game"]["options"]["special_tiles"]

    address = ray.get_runtime_context().gcs_address

    def run(*args):
        done = subprocess.run(
            [sys.executable, "-m", "vikinger_fast.cli", *args, "--modules", "auction,draw13"],
            capture_output=True,
            text=True,
            timeout=120,
            env=child_env(),
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    plain = run("simulate", "--games", "2000", "--seed", "4", "--players", "3")
    on_ray = run(
        "simulate",
        "--games",
        "2000",
        "--seed",
        "4",
        "--players",
        "3",
        "--ray",
        address,
        "--shard-size",
        "300",
    )
    assert "modules auction,draw13" in on_ray.splitlines()[0]
    assert on_ray.splitlines()[1:] == plain.splitlines()[1:]
    arena_args = ["arena", "random", "greedy", "--games", "4", "--seed", "3", "--no-progress"]
    run(*arena_args, "--out", str(tmp_path / "a-local"))
    run(*arena_args, "--out", str(tmp_path / "a-ray"), "--ray", address, "--shard-size", "1")
    for name in ("results.json", "games.csv", "records/game-00003.json"):
        assert (tmp_path / "a-ray" / name).read_text() == (tmp_path / "a-local" / name).read_text()
    results = json.loads((tmp_path / "a-ray" / "results.json").read_text())
    assert results["modules"] == "auction,draw13"
