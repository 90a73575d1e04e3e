"""The rows of `vikinger bench` for the search guided by a network (docs/neural.md "Measured"):
leaves per CPU second of the C++ batched search with a constant numpy evaluator at batch 256, the
share of time outside a numpy MLP evaluator at batch 256, the shipped 2-player network evaluated
inside the search (Network) against the same network as a numpy MLPEvaluator at batches 16 and
256, and the C++ batched search against a plain Python PUCT over vikinger_fast states with the
same evaluator and budget. The numpy rows run with one BLAS thread (the MLPEvaluator holds
numpy's BLAS to one thread through threadpoolctl, which the `bench` extra installs): CPU time
counts every thread, and a BLAS pool's threads that wait for work by spinning, or that wait for
a core on a shared machine, moved the numpy baseline eightfold between runs. The two evaluators
of the shipped-network rows are timed in turn, at least MIN_ALTERNATIONS times, the best of each
counted, so that a change of the host's speed falls on both. Last, the learned player's visits per
0.1 s move (AZBot, both evaluators) in this process with its BLAS settings as they are, beside
one busy process (a CPU-bound child) against the same moves on the quiet machine: the
evaluators limit their own BLAS threads (docs/learning.md "Launched any way"), so the ratio
should be near what one of two cores shared leaves.

`PythonPUCT` is the baseline a user would write: a dict tree keyed by history, the same PUCT
formula, chance sampled by apply_random_chance, one evaluator call per leaf with the leaf's
observation tensor and legal mask.
"""

import math
import random
import statistics
import subprocess
import sys
import time
from typing import Any, Callable, Dict, List, Tuple

import numpy as np

import vikinger_fast as fast

from vikinger_ref.az_bot import shipped_model

from ..extras import install_hint
from ..neural.evaluators import ConstantEvaluator, MLPEvaluator

NETWORK_BATCHES = (16, 256)  # the bots' batch and the search's default
NEURAL_SIZES = {  # (full, --quick)
    "roots": (256, 64),
    "simulations": (200, 50),
    "python_simulations": (2_000, 300),
    "moves": (12, 4),  # the learned player's 0.1 s moves, quiet and busy
}
MOVE_SECONDS = 0.1
MIN_ALTERNATIONS = 3  # rounds of the shipped-network rows, --quick included


def blas_held_to_one_thread() -> bool:
    """Whether the numpy evaluators hold numpy's BLAS to one thread (threadpoolctl importable:
    vikinger_ref.mlp.one_blas_thread)."""
    try:
        import threadpoolctl  # noqa: F401
    except ImportError:
        return False
    return True


def opening_decisions(count: int, players: int = 2) -> List[Any]:
    """`count` first decision nodes of base games (chance by seeds 0, 1, ...)."""
    states = []
    for seed in range(count):
        state = fast.Game(num_players=players).new_initial_state()
        while state.is_chance_node():
            state.apply_random_chance(seed)
        states.append(state)
    return states


class PythonPUCT:
    """PUCT over vikinger_fast from Python, one evaluator call per leaf (the bench baseline)."""

    def __init__(
        self,
        simulations: int,
        evaluator: Callable[..., Tuple[np.ndarray, np.ndarray]],
        c_puct: float = 1.25,
        seed: int = 0,
    ) -> None:
        self.simulations = simulations
        self.evaluator = evaluator
        self.c_puct = c_puct
        self.rng = random.Random(seed)

    def _expand(self, state: Any) -> Tuple[Dict[int, list], List[float]]:
        mover = state.current_player()
        observation = np.asarray(state.observation_tensor(mover), np.float32)[None]
        legal = np.asarray(state.legal_actions_mask(), bool)[None]
        logits, values = self.evaluator(observation, legal)
        actions = state.legal_actions()
        row = logits[0, actions].astype(np.float64)
        priors = np.exp(row - row.max())
        priors /= priors.sum()
        n = len(values[0])
        absolute = [0.0] * n
        for k in range(n):
            absolute[(mover + k) % n] = float(values[0][k])
        return {a: [float(p), 0, [0.0] * n] for a, p in zip(actions, priors)}, absolute

    def search(self, root: Any) -> Dict[int, int]:
        tree: Dict[tuple, list] = {}  # history -> [visits, {action: [prior, n, value sums]}]
        edges, _ = self._expand(root)
        tree[tuple(root.history())] = [1, edges]
        for _ in range(self.simulations):
            state = root.clone()
            path = []
            while True:
                key = tuple(state.history())
                if state.is_terminal():
                    value = state.returns()
                    break
                if key not in tree:
                    edges, value = self._expand(state)
                    tree[key] = [1, edges]  # its own evaluation counts
                    break
                visits, edges = tree[key]
                player = state.current_player()
                scale = self.c_puct * math.sqrt(visits)
                action = max(
                    edges,
                    key=lambda a: (
                        (edges[a][2][player] / edges[a][1] if edges[a][1] else 0.0)
                        + scale * edges[a][0] / (1 + edges[a][1])
                    ),
                )
                path.append((key, action))
                state.apply_action(action)
                while state.is_chance_node():
                    state.apply_random_chance(self.rng.getrandbits(64))
            for key, action in path:
                node = tree[key]
                node[0] += 1
                edge = node[1][action]
                edge[1] += 1
                edge[2] = [s + v for s, v in zip(edge[2], value)]
        return {a: e[1] for a, e in tree[tuple(root.history())][1].items()}


class TimedEvaluator:
    """An evaluator that adds up the wall time spent inside `inner`."""

    def __init__(self, inner: Callable[..., Tuple[np.ndarray, np.ndarray]]) -> None:
        self.inner = inner
        self.seconds = 0.0

    def __call__(
        self, observations: np.ndarray, legal: np.ndarray
    ) -> Tuple[np.ndarray, np.ndarray]:
        start = time.perf_counter()
        out = self.inner(observations, legal)
        self.seconds += time.perf_counter() - start
        return out


def neural_steps(
    results: Dict[str, Any], quick: bool, repeats: int
) -> List[Tuple[str, Callable[[], None]]]:
    """The rows as (label, step) pairs, each step adding its measurement to `results`."""
    size = {key: value[1 if quick else 0] for key, value in NEURAL_SIZES.items()}
    sims = size["simulations"]
    constant = ConstantEvaluator(2)
    roots: List[Any] = []

    def constant_evaluator() -> None:
        roots.extend(opening_decisions(size["roots"]))
        best = math.inf
        for _ in range(repeats):
            search = fast.PuctSearch(roots, simulations=sims)
            start = time.process_time()
            search.run(constant, 256)
            best = min(best, time.process_time() - start)
        results["puct_leaves_per_cpu_second"] = len(roots) * sims / best

    def mlp_evaluator() -> None:
        mlp = TimedEvaluator(MLPEvaluator.random(fast.Game(2), hidden=(256, 256), seed=0))
        share = math.inf
        for _ in range(repeats):
            mlp.seconds = 0.0
            search = fast.PuctSearch(roots, simulations=sims)
            start = time.perf_counter()
            search.run(mlp, 256)
            total = time.perf_counter() - start
            share = min(share, (total - mlp.seconds) / total)
        results["puct_share_outside_mlp"] = share

    def shipped_network() -> None:
        game = fast.Game(2)
        mlp = MLPEvaluator.load(shipped_model(game), game)
        evaluators: Dict[str, Any] = {"network": fast.Network(mlp), "numpy": mlp}
        results["numpy_blas_one_thread"] = blas_held_to_one_thread()
        for batch in NETWORK_BATCHES:
            best = dict.fromkeys(evaluators, math.inf)
            for round_ in range(max(repeats, MIN_ALTERNATIONS)):
                order = list(evaluators) if round_ % 2 == 0 else list(evaluators)[::-1]
                for name in order:
                    search = fast.PuctSearch(roots, simulations=sims)
                    start = time.process_time()
                    search.run(evaluators[name], batch)
                    best[name] = min(best[name], time.process_time() - start)
            for name, seconds in best.items():
                results[f"{name}_leaves_per_cpu_second_{batch}"] = len(roots) * sims / seconds

    def python_baseline() -> None:
        n = size["python_simulations"]
        best = math.inf
        for _ in range(repeats):
            start = time.process_time()
            PythonPUCT(n, constant).search(roots[0])
            best = min(best, time.process_time() - start)
        results["python_puct_leaves_per_cpu_second"] = n / best

    def learned_player() -> None:
        positions = opening_decisions(size["moves"])
        for name in ("network", "numpy"):
            bot = fast.AZBot(fast.Game(2), 0, max_time=MOVE_SECONDS, evaluator=name)
            quiet = median_visits(bot, positions)
            with busy_process():
                busy = median_visits(bot, positions)
            results[f"az_{name}_visits_quiet"] = quiet
            results[f"az_{name}_visits_busy"] = busy

    return [
        ("C++ batched PUCT, constant evaluator, batch 256", constant_evaluator),
        ("C++ batched PUCT, numpy MLP evaluator, batch 256", mlp_evaluator),
        ("C++ batched PUCT, shipped network: Network and numpy, batch 16 and 256", shipped_network),
        ("plain Python PUCT over vikinger_fast (the baseline)", python_baseline),
        ("learned player: visits per 0.1 s move, quiet and beside a busy process", learned_player),
    ]


def median_visits(bot: Any, positions: List[Any]) -> float:
    """The median over `positions` of the root visits of one fresh timed search each."""
    visits = []
    for state in positions:
        bot.restart()
        visits.append(sum(bot.search(state)["visits"]))
    return float(statistics.median(visits))


class busy_process:
    """One CPU-bound child process for the duration of a `with` block (killed at its end)."""

    def __enter__(self) -> "busy_process":
        self.child = subprocess.Popen([sys.executable, "-c", "while True: pass"])
        time.sleep(0.2)  # let it start spinning
        return self

    def __exit__(self, *exc: object) -> None:
        self.child.kill()
        self.child.wait()


def neural_table(r: Dict[str, Any]) -> List[Tuple[str, str, str]]:
    """(name, value, note) rows of the measurements."""
    cpp = r["puct_leaves_per_cpu_second"]
    numpy = {batch: r[f"numpy_leaves_per_cpu_second_{batch}"] for batch in NETWORK_BATCHES}
    network = {batch: r[f"network_leaves_per_cpu_second_{batch}"] for batch in NETWORK_BATCHES}
    blas = blas_words(r)
    return [
        (
            "C++ batched PUCT, 256 roots, constant numpy evaluator, batch 256",
            f"{cpp:,.0f} leaves/s",
            "per CPU second (target >= 300,000)",
        ),
        (
            "C++ batched PUCT with a numpy MLP evaluator (2 x 256 hidden), batch 256",
            f"{r['puct_share_outside_mlp']:.1%}",
            "of the time outside the evaluator (target <= 10%)",
        ),
        *[
            (
                f"C++ batched PUCT, shipped 2-player network inside the search, batch {batch}",
                f"{network[batch]:,.0f} leaves/s",
                f"per CPU second, x{network[batch] / numpy[batch]:,.1f} the numpy MLP's "
                f"{numpy[batch]:,.0f} (target >= x5, aim x10; and >= 150,000){blas}",
            )
            for batch in NETWORK_BATCHES
        ],
        *[visits_row(r, name) for name in ("network", "numpy")],
        (
            "plain Python PUCT over vikinger_fast, constant evaluator",
            f"{r['python_puct_leaves_per_cpu_second']:,.0f} leaves/s",
            f"C++ batched / it = x{cpp / r['python_puct_leaves_per_cpu_second']:,.1f} per CPU "
            f"second (target >= 10)",
        ),
    ]


def blas_words(r: Dict[str, Any]) -> str:
    """ "" when the numpy evaluators ran with one BLAS thread (or results saved before this was
    recorded); else a remark that says why their numbers may move, and how to install it."""
    if r.get("numpy_blas_one_thread", True) is not False:
        return ""
    return "; numpy's BLAS not held to one thread, " + install_hint(
        "threadpoolctl is not installed", "bench"
    )


def visits_row(r: Dict[str, Any], name: str) -> Tuple[str, str, str]:
    """The learned player's visits per move beside a busy process, and its ratio to quiet."""
    quiet, busy = r[f"az_{name}_visits_quiet"], r[f"az_{name}_visits_busy"]
    return (
        f"learned player (az:time=0.1, {name} evaluator), beside one busy process",
        f"{busy:,.0f} visits",
        f"median per move, x{busy / quiet:.2f} the quiet machine's {quiet:,.0f}"
        + (blas_words(r) if name == "numpy" else ""),
    )
