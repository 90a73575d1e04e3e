"""The measurements of `vikinger bench` (cli/bench.py): one fixed workload, measured in one run,
printed as a table (docs/benchmarks.md).

Rows: C++ `rollouts` (fused fast path and generic list path, 1 and 2 threads, 2 and 4 players)
against the pure-Python reference and the same reference compiled with Cython (cython_ref.py);
the Python-driven step loop (legal_actions, a uniform choice, apply_action) on both engines and,
when `open_spiel` is installed, on OpenSpiel's connect_four and backgammon; `VectorGame`; the cost
of clone and apply_action seen from Python, and of one action inside C++ playouts (the clone
inside C++ is measured by bench/micro.cc, without Python); when gymnasium is installed, the cost
of the Gymnasium VectorEnv of adapters/gymnasium.py over the VectorGame it wraps; then the search
rows of search.py. Every rate is the best of a few repetitions (`--repeats`). Progress
goes to stderr, the table to stdout, `--json PATH` writes every number.
"""

import os
import platform
import random
import sys
import time

import numpy as np

import vikinger_ref as ref

import vikinger_fast as fast

from ..extras import install_hint
from . import cython_ref, modules, verdicts
from .neural import neural_steps, neural_table
from .search import search_steps, search_table
from .timing import best_seconds

# (default, --quick) sizes of every measurement.
SIZES = {
    "rollout_games": (100_000, 10_000),
    "rollout_games_4p": (20_000, 2_000),
    "module_games": (4_000, 500),  # per configuration and round (modules.py)
    "reference_games": (64, 2),
    "loop_steps_fast": (400_000, 20_000),
    "loop_steps_ref": (12_000, 300),
    "vector_steps": (300, 20),
    "vector_env_steps": (900, 200),  # per-step ratios: their median needs a few hundred
    "clone_calls": (300_000, 20_000),
    "replays": (300, 20),
    "repeats": (3, 1),
}
# The optional rows: what each needs, and how a user of the installed package gets it.
INSTALL_HINTS = {
    "open_spiel": install_hint("open_spiel is not installed", "openspiel"),
    "cython": install_hint("Cython (and a C compiler) is not installed", "bench"),
    "gymnasium": install_hint("gymnasium is not installed", "gymnasium"),
}
VECTOR_BATCH = 256
REFERENCE_VECTOR_BATCH = 8
ALL_MODULES = dict.fromkeys(fast.OPTION_NAMES, True)


def run_steps(steps):
    """Runs the (label, step) pairs in order with a progress bar on stderr (one line per step
    when stderr is not a terminal): the bar's total is the list's length."""
    width, tty = 30, sys.stderr.isatty()
    for done, (label, step) in enumerate(steps):
        filled = width * done // len(steps)
        line = f"[{'#' * filled}{'.' * (width - filled)}] {done}/{len(steps)} {label}"
        sys.stderr.write(f"\r\033[K{line}" if tty else line + "\n")
        sys.stderr.flush()
        step()
    if tty:
        sys.stderr.write(f"\r\033[K[{'#' * width}] {len(steps)}/{len(steps)} done\n")
        sys.stderr.flush()


def hardware():
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            model = next(
                line.split(":", 1)[1].strip() for line in cpuinfo if line.startswith("model name")
            )
    except (OSError, StopIteration):
        pass
    return {
        "cpu": model,
        "cores": os.cpu_count(),
        "machine": platform.machine(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "load_average": os.getloadavg()[0],
    }


# --- the workloads --------------------------------------------------------------------------


def python_loop(game, steps, seed=0):
    """The Python-driven loop of any OpenSpiel-style engine: legal_actions, a uniform choice,
    apply_action, at every node (chance nodes too: this times the API, not the game)."""
    rand = random.Random(seed).random
    done = 0
    while done < steps:
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[int(rand() * len(legal))])
            done += 1
    return done


def vector_loop(env, steps):
    """An RL-style loop: the masks, one random legal action per environment (numpy), step.
    Returns (seconds in total, seconds inside step)."""
    rng = np.random.default_rng(0)
    stepping = 0.0
    start = time.perf_counter()
    for _ in range(steps):
        mask = env.legal_actions_mask()
        actions = np.argmax(mask * rng.random(mask.shape[1], dtype=np.float32), axis=1)
        before = time.perf_counter()
        env.step(actions)
        stepping += time.perf_counter() - before
    return time.perf_counter() - start, stepping


def vector_env_overhead(game, steps):
    """Time per step of the Gymnasium VectorEnv (adapters/gymnasium.py) over the time of what
    it wraps: VectorGame.step, observation_tensor and legal_actions_mask. Both play the same
    games in lockstep (same seed, same actions, chosen outside the timed part), taking turns
    to go first, so that the shared host's changes of speed fall on both alike. None when
    gymnasium is not installed. Returns the median over the steps of the ratio of the two
    times of that step: robust to the spikes of a busy host, which the sums are not."""
    try:
        from ..adapters.gymnasium import VikingerVectorEnv
    except ImportError:
        return None
    rng = np.random.default_rng(0)
    raw = fast.VectorGame(game, VECTOR_BATCH, 0)
    wrapped = VikingerVectorEnv(VECTOR_BATCH, game.num_players)
    wrapped.reset(seed=0)
    mask = raw.legal_actions_mask()
    ratios = []

    def raw_step():
        raw.step(actions)
        raw.observation_tensor()
        return raw.legal_actions_mask()

    def wrapped_step():
        wrapped.step(actions)

    warm_up = 20  # the first steps touch the arrays' memory for the first time
    for step in range(warm_up + steps):
        actions = np.argmax(mask * rng.random(mask.shape[1], dtype=np.float32), axis=1)
        seconds = {}
        for name in ("raw", "wrapped") if step % 2 else ("wrapped", "raw"):
            start = time.perf_counter()
            if name == "raw":
                mask = raw_step()
            else:
                wrapped_step()
            seconds[name] = time.perf_counter() - start
        if step >= warm_up:
            ratios.append(seconds["wrapped"] / seconds["raw"])
    return float(np.median(ratios))


def midgame_state(engine, seed=4):
    """A state of round 4 (a filled board and a long history), by seeded random play."""
    rng = random.Random(seed)
    state = engine.Game(num_players=2).new_initial_state()
    while state.to_dict()["round"] < 4 or state.is_chance_node():
        if state.is_chance_node():
            state.apply_random_chance(rng.getrandbits(64))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def call_nanos(call, count):
    start = time.perf_counter()
    for _ in range(count):
        call()
    return (time.perf_counter() - start) / count * 1e9


def replay_nanos(engine, replays):
    """Mean cost of one apply_action: a whole recorded game replayed from its history."""
    game = engine.Game(num_players=2)
    history = midgame_state(engine).history()
    start = time.perf_counter()
    for _ in range(replays):
        state = game.new_initial_state()
        for action in history:
            state.apply_action(action)
    return (time.perf_counter() - start) / (replays * len(history)) * 1e9


def open_spiel_games():
    try:
        import pyspiel
    except ImportError:
        return {}
    return {name: pyspiel.load_game(name) for name in ("connect_four", "backgammon")}


# --- the run --------------------------------------------------------------------------------


def skipped(args, peers, cython):
    """{optional rows: why they are not measured} (an option given, or what to install)."""
    reasons = {}
    if not peers:
        reasons["open_spiel"] = (
            "left out by --no-peers" if args.no_peers else INSTALL_HINTS["open_spiel"]
        )
    if not cython:
        reasons["cython"] = "left out by --no-cython" if args.no_cython else INSTALL_HINTS["cython"]
    return reasons


def measure(args, repeats):
    size = {key: value[1 if args.quick else 0] for key, value in SIZES.items()}
    results = {}
    peers = {} if args.no_peers else open_spiel_games()
    cython = not args.no_cython and cython_ref.available()
    # Why an optional row is missing, printed in its place by table().
    results["skipped"] = skipped(args, peers, cython)
    compiled = {}
    game2, game4 = fast.Game(num_players=2), fast.Game(num_players=4, **ALL_MODULES)
    ref_game = ref.Game(num_players=2)

    def rollouts(key, game, games, threads=1, policy="random", wall=True):
        def step():
            fast.rollouts(game, min(games, 1000), 0, threads=threads, policy=policy)  # warm-up

            def run():
                fast.rollouts(game, games, 0, threads=threads, policy=policy)

            if wall:
                results[key] = games / best_seconds(repeats, run)
            # CPU time of all threads: what the code costs, whatever else runs on the machine.
            results[key + "_per_cpu_second"] = games / best_seconds(repeats, run, time.process_time)

        return f"C++ rollouts: {key}", step

    def alternating_threads():
        # Wall-clock rates for 1 and 2 threads from runs that alternate, so that a change in
        # the shared host's speed during the run falls on both alike (measured apart, the ratio
        # of the two moved by +-10 % between runs).
        games = size["rollout_games"]
        best = {1: float("inf"), 2: float("inf")}
        round_ratios = []
        for _ in range(repeats + 2):
            seconds = {}
            for threads in best:
                start = time.perf_counter()
                fast.rollouts(game2, games, 0, threads=threads)
                seconds[threads] = time.perf_counter() - start
                best[threads] = min(best[threads], seconds[threads])
            round_ratios.append(seconds[1] / seconds[2])
        results["rollouts_2p_1thread"] = games / best[1]
        results["rollouts_2p_2threads"] = games / best[2]
        # The typical speed-up of one round, beside the ratio of the best rounds.
        results["rollouts_2p_2threads_median_round_ratio"] = float(np.median(round_ratios))

    def module_rollouts():
        # --modules SET: the module rows are that set's (the other rows measure the base game).
        chosen = getattr(args, "modules", None)
        configurations = modules.REPRESENTATIVE if chosen is None else modules.of_set(chosen)
        results["module_rollouts"] = modules.measure(
            configurations, size["module_games"], repeats + 2
        )

    def reference_rollouts():
        games = size["reference_games"]
        # The slow rows run once, timed by CPU time: on a shared machine a wall-clock single
        # run of a few seconds measures the neighbours more than the engine.
        results["reference_rollouts_2p"] = games / best_seconds(
            1, lambda: ref.rollouts(ref_game, games, 0), time.process_time
        )

    def cython_build():
        start = time.perf_counter()
        compiled["module"] = cython_ref.load()
        results["cython_build_seconds"] = time.perf_counter() - start

    def cython_rollouts():
        games, module = size["reference_games"], compiled["module"]
        cy_game = module.Game(num_players=2)
        results["cython_rollouts_2p"] = games / best_seconds(
            1, lambda: module.rollouts(cy_game, games, 0), time.process_time
        )

    def loop_fast():
        python_loop(game2, 10_000)
        steps = size["loop_steps_fast"]
        results["loop_fast"] = steps / best_seconds(repeats, lambda: python_loop(game2, steps))
        results["loop_fast_per_cpu_second"] = steps / best_seconds(
            repeats, lambda: python_loop(game2, steps), time.process_time
        )

    def loop_ref():
        steps_ref = size["loop_steps_ref"]
        results["loop_ref"] = steps_ref / best_seconds(
            1, lambda: python_loop(ref_game, steps_ref), time.process_time
        )
        if "module" in compiled:
            results["loop_cython"] = steps_ref / best_seconds(
                1,
                lambda: python_loop(compiled["module"].Game(num_players=2), steps_ref),
                time.process_time,
            )

    def loop_peer(name, game):
        def step():
            steps = size["loop_steps_fast"]
            python_loop(game, 10_000)
            results[f"loop_open_spiel_{name}"] = steps / best_seconds(
                repeats, lambda: python_loop(game, steps)
            )
            results[f"loop_open_spiel_{name}_per_cpu_second"] = steps / best_seconds(
                repeats, lambda: python_loop(game, steps), time.process_time
            )

        return f"Python-driven loop: OpenSpiel {name}", step

    def vector_fast():
        env = fast.VectorGame(game2, VECTOR_BATCH, 0)
        vector_loop(env, 10)
        total, stepping = min(vector_loop(env, size["vector_steps"]) for _ in range(repeats))
        results["vector_fast_loop"] = VECTOR_BATCH * size["vector_steps"] / total
        results["vector_fast_step"] = VECTOR_BATCH * size["vector_steps"] / stepping

    def vector_env():
        overhead = vector_env_overhead(game2, size["vector_env_steps"])
        if overhead is not None:
            results["gymnasium_vector_env_time_ratio"] = overhead
        else:
            results["skipped"]["gymnasium"] = INSTALL_HINTS["gymnasium"]

    def vector_ref():
        env = ref.VectorGame(ref_game, REFERENCE_VECTOR_BATCH, 0)
        steps = max(size["vector_steps"] // 10, 2)
        total, stepping = vector_loop(env, steps)
        results["vector_ref_loop"] = REFERENCE_VECTOR_BATCH * steps / total

    def clone():
        calls = size["clone_calls"]
        fast_state, ref_state = midgame_state(fast), midgame_state(ref)
        results["clone_fast_ns"] = min(call_nanos(fast_state.clone, calls) for _ in range(repeats))
        results["clone_ref_ns"] = call_nanos(ref_state.clone, max(calls // 100, 10))

    def apply_action():
        results["apply_fast_ns"] = min(replay_nanos(fast, size["replays"]) for _ in range(repeats))
        results["apply_ref_ns"] = replay_nanos(ref, max(size["replays"] // 100, 2))

    def game_length():
        lengths = fast.rollouts(game2, 1000, 0)["length"]
        results["mean_game_length_2p"] = float(lengths.mean())
        results["apply_inside_cpp_ns"] = 1e9 / (
            results["rollouts_2p_1thread"] * results["mean_game_length_2p"]
        )

    steps = [
        rollouts("rollouts_2p_1thread", game2, size["rollout_games"], wall=False),
        rollouts("rollouts_2p_2threads", game2, size["rollout_games"], threads=2, wall=False),
        ("C++ rollouts: 1 and 2 threads alternating", alternating_threads),
        rollouts(
            "rollouts_2p_generic_1thread", game2, size["rollout_games"], policy="random_generic"
        ),
        rollouts("rollouts_4p_all_modules_1thread", game4, size["rollout_games_4p"]),
        ("C++ rollouts: module combinations against the 2-player base game", module_rollouts),
        ("reference rollouts", reference_rollouts),
    ]
    if cython:
        steps += [
            ("Cython build of the reference (cached after the first run)", cython_build),
            ("Cython-compiled reference rollouts", cython_rollouts),
        ]
    steps += [
        ("Python-driven loop: vikinger_fast", loop_fast),
        ("Python-driven loop: vikinger_ref", loop_ref),
    ]
    steps += [loop_peer(name, game) for name, game in peers.items()]
    steps += [
        ("VectorGame: vikinger_fast", vector_fast),
        ("Gymnasium VectorEnv over VectorGame", vector_env),
        ("VectorGame: vikinger_ref", vector_ref),
        ("clone", clone),
        ("apply_action", apply_action),
        ("mean game length", game_length),
    ]
    steps += search_steps(results, args.quick, repeats, midgame_state)
    steps += neural_steps(results, args.quick, repeats)
    run_steps(steps)
    return results


def table(results):
    r = results
    cpu = "_per_cpu_second"
    # Why an optional row is missing: the reason measure() gave, else what to install.
    why = {**INSTALL_HINTS, **r.get("skipped", {})}
    speedup = r["rollouts_2p_1thread" + cpu] / r["reference_rollouts_2p"]
    lines = [
        (
            "C++ rollouts, 2 players, 1 thread (fused playout)",
            f"{r['rollouts_2p_1thread']:,.0f} games/s",
            f"target >= 200,000; {r['rollouts_2p_1thread' + cpu]:,.0f} per CPU second",
        ),
        (
            "C++ rollouts, 2 players, 1 thread (generic list path)",
            f"{r['rollouts_2p_generic_1thread']:,.0f} games/s",
            f"target >= 100,000; {r['rollouts_2p_generic_1thread' + cpu]:,.0f} per CPU second",
        ),
        (
            "C++ rollouts, 2 players, 2 threads",
            f"{r['rollouts_2p_2threads']:,.0f} games/s",
            f"x{r['rollouts_2p_2threads'] / r['rollouts_2p_1thread']:.2f} of 1 thread "
            f"(target >= 1.9; median of the rounds x"
            f"{r['rollouts_2p_2threads_median_round_ratio']:.2f}); CPU time per game x"
            f"{r['rollouts_2p_1thread' + cpu] / r['rollouts_2p_2threads' + cpu]:.2f} of 1 thread",
        ),
        (
            "C++ rollouts, 4 players, all modules A1-A5, 1 thread",
            f"{r['rollouts_4p_all_modules_1thread']:,.0f} games/s",
            "",
        ),
        # .get: results saved before these rows were measured have none.
        *modules.table_rows(r.get("module_rollouts", {})),
        (
            "reference (pure Python) rollouts, 2 players (CPU time)",
            f"{r['reference_rollouts_2p']:,.1f} games/s",
            f"C++ / reference = x{speedup:,.0f} per CPU second (target >= 1000)",
        ),
    ]
    if "cython_rollouts_2p" in r:
        lines.append(
            (
                "reference compiled with Cython, rollouts (CPU time)",
                f"{r['cython_rollouts_2p']:,.1f} games/s",
                f"x{r['cython_rollouts_2p'] / r['reference_rollouts_2p']:.2f} of the "
                f"reference; C++ "
                f"x{r['rollouts_2p_1thread' + cpu] / r['cython_rollouts_2p']:,.0f}",
            )
        )
    else:
        lines.append(
            ("reference compiled with Cython, rollouts (CPU time)", "skipped", why["cython"])
        )
    lines += [
        (
            "Python-driven loop, vikinger_fast",
            f"{r['loop_fast']:,.0f} steps/s",
            f"target >= 1,000,000; {r['loop_fast' + cpu]:,.0f} per CPU second",
        ),
        (
            "Python-driven loop, vikinger_ref (CPU time)",
            f"{r['loop_ref']:,.0f} steps/s",
            f"fast / ref = x{r['loop_fast' + cpu] / r['loop_ref']:,.0f} per CPU second",
        ),
    ]
    if "loop_cython" in r:
        lines.append(
            (
                "Python-driven loop, Cython-compiled reference (CPU time)",
                f"{r['loop_cython']:,.0f} steps/s",
                f"x{r['loop_cython'] / r['loop_ref']:.2f} of the reference",
            )
        )
    else:
        lines.append(
            ("Python-driven loop, Cython-compiled reference (CPU time)", "skipped", why["cython"])
        )
    for name in ("connect_four", "backgammon"):
        key = f"loop_open_spiel_{name}"
        if key not in r:
            lines.append((f"Python-driven loop, OpenSpiel {name}", "skipped", why["open_spiel"]))
        else:
            lines.append(
                (
                    f"Python-driven loop, OpenSpiel {name}",
                    f"{r[key]:,.0f} steps/s",
                    f"vikinger_fast / {name} = x{r['loop_fast'] / r[key]:.2f}; per CPU "
                    f"second {r[key + cpu]:,.0f} "
                    f"(x{r['loop_fast' + cpu] / r[key + cpu]:.2f})",
                )
            )
    lines += [
        (
            f"VectorGame, batch {VECTOR_BATCH}: masks + numpy choice + step",
            f"{r['vector_fast_loop']:,.0f} steps/s",
            f"step alone {r['vector_fast_step']:,.0f}/s",
        ),
        (
            f"Gymnasium VectorEnv over VectorGame, batch {VECTOR_BATCH}",
            f"{(r['gymnasium_vector_env_time_ratio'] - 1) * 100:+.1f} % time"
            if "gymnasium_vector_env_time_ratio" in r
            else "skipped",
            "per step over step + observation + mask (goal <= +20 %)"
            if "gymnasium_vector_env_time_ratio" in r
            else why["gymnasium"],
        ),
        (
            f"VectorGame reference, batch {REFERENCE_VECTOR_BATCH}",
            f"{r['vector_ref_loop']:,.0f} steps/s",
            "",
        ),
        (
            "clone from Python, fast / ref",
            f"{r['clone_fast_ns']:,.0f} ns",
            f"ref {r['clone_ref_ns']:,.0f} ns",
        ),
        (
            "apply_action from Python (checked), fast / ref",
            f"{r['apply_fast_ns']:,.0f} ns",
            f"ref {r['apply_ref_ns']:,.0f} ns",
        ),
        (
            "apply inside C++ (rollouts, per action)",
            f"{r['apply_inside_cpp_ns']:.1f} ns",
            f"{r['mean_game_length_2p']:.1f} actions per 2-player game",
        ),
    ]
    lines += search_table(r)
    lines += neural_table(r)
    lines = verdicts.mark(
        lines, r, {**verdicts.CHECKS, **verdicts.module_checks(r, modules.TARGET_RATIO)}
    )
    width = max(len(name) for name, _, _ in lines)
    return "\n".join(f"{name:<{width}}  {value:>20}  {note}" for name, value, note in lines)


def build_info():
    """Build type, compiler and flags of the C++ core (written by CMakeLists.txt)."""
    try:
        from .._build_info import BUILD_INFO

        info = dict(BUILD_INFO)
    except ImportError:  # a core built outside CMake's install step (an in-place build)
        info = {"build_type": "unknown", "compiler": "unknown", "flags": ""}
    # Chosen at run time by the CPU (csrc/play/playout.cc): PDEP where it is fast, else tables.
    info["fused_bit_select"] = fast._core._bit_select()["auto"]
    return info
