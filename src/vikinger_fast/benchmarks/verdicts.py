"""Met or missed: every row of `vikinger bench` that has a target says which, and when the
machine was busy while measuring (a load average above BUSY per core: other processes took CPU
time from every row) the missed rows name the load, so a slow number on a shared machine is not
taken for a broken build (README, "What to expect on a busy machine").

The targets are the ones the rows' notes print (docs/benchmarks.md); each is read here from the
results, as the quantity the note compares: a rate, a ratio of rates, or a share.
"""

from typing import Any, Callable, Dict, List, Tuple, Union

BUSY = 0.75  # load average per core above which the machine counts as busy

Row = Tuple[str, str, str]
Check = Tuple[Callable[[Dict[str, Any]], float], str, float]
CPU = "_per_cpu_second"


def shipped_network(batch: int) -> List[Check]:
    """The shipped network inside the search: x5 the same network as a numpy MLPEvaluator, and
    150,000 leaves per CPU second (docs/neural.md "Measured"); both must hold."""
    network = f"network_leaves{CPU}_{batch}"
    return [
        (lambda r: r[network] / r[f"numpy_leaves{CPU}_{batch}"], ">=", 5),
        (lambda r: r[network], ">=", 150_000),
    ]


CHECKS: Dict[str, Union[Check, List[Check]]] = {
    "C++ rollouts, 2 players, 1 thread (fused playout)": (
        lambda r: r["rollouts_2p_1thread"],
        ">=",
        200_000,
    ),
    "C++ rollouts, 2 players, 1 thread (generic list path)": (
        lambda r: r["rollouts_2p_generic_1thread"],
        ">=",
        100_000,
    ),
    "C++ rollouts, 2 players, 2 threads": (
        lambda r: r["rollouts_2p_2threads"] / r["rollouts_2p_1thread"],
        ">=",
        1.9,
    ),
    "reference (pure Python) rollouts, 2 players (CPU time)": (
        lambda r: r["rollouts_2p_1thread" + CPU] / r["reference_rollouts_2p"],
        ">=",
        1000,
    ),
    "Python-driven loop, vikinger_fast": (lambda r: r["loop_fast"], ">=", 1_000_000),
    "C++ MCTS, 2 players, opening, 1 thread, playout leaves": (
        lambda r: r["mcts_1thread"] / r["rollouts_2p_1thread"],
        ">=",
        0.5,
    ),
    "C++ MCTS, 2 threads": (lambda r: r["mcts_2thread"] / r["mcts_1thread"], ">=", 1.8),
    "C++ playouts from a round-4 state, per action": (
        lambda r: r["midgame_playout_ns_per_action"] / r["rollout_ns_per_action"],
        "<=",
        1.25,
    ),
    "Python UCT over vikinger_fast (C++ playout leaves)": (
        lambda r: r["mcts_1thread" + CPU] / r["python_uct" + CPU],
        ">=",
        5,
    ),
    "reference MCTS (pure Python)": (
        lambda r: r["mcts_1thread" + CPU] / r["reference_mcts" + CPU],
        ">=",
        1000,
    ),
    "C++ batched PUCT, 256 roots, constant numpy evaluator, batch 256": (
        lambda r: r["puct_leaves" + CPU],
        ">=",
        300_000,
    ),
    "C++ batched PUCT with a numpy MLP evaluator (2 x 256 hidden), batch 256": (
        lambda r: r["puct_share_outside_mlp"],
        "<=",
        0.10,
    ),
    "plain Python PUCT over vikinger_fast, constant evaluator": (
        lambda r: r["puct_leaves" + CPU] / r["python_puct_leaves" + CPU],
        ">=",
        10,
    ),
    **{
        f"C++ batched PUCT, shipped 2-player network inside the search, batch {batch}": (
            shipped_network(batch)
        )
        for batch in (16, 256)
    },
    "Gymnasium VectorEnv over VectorGame, batch 256": (
        lambda r: r["gymnasium_vector_env_time_ratio"] - 1.0,
        "<=",
        0.20,
    ),
}


def module_checks(results: Dict[str, Any], target: float) -> Dict[str, Check]:
    """The rows of modules.table_rows: each configuration at least `target` of 2p base."""

    def ratio(name: str) -> Callable[[Dict[str, Any]], float]:
        return lambda r: float(r["module_rollouts"][name]["ratio_to_2p_base"])

    return {
        f"C++ rollouts, {name}, 1 thread (CPU time)": (ratio(name), ">=", target)
        for name in results.get("module_rollouts", {})
    }


def load_words(results: Dict[str, Any]) -> str:
    """ "" on a quiet machine; else the load average against the cores, as a remark."""
    load = results.get("load")
    if not isinstance(load, dict) or load["average"] <= BUSY * load["cores"]:
        return ""
    return f" (busy machine: load average {load['average']:.1f} on {load['cores']} cores)"


def met(results: Dict[str, Any], check: Check) -> Union[bool, None]:
    """Whether the check holds; None when its numbers are not in the results."""
    measured, op, target = check
    try:
        number = measured(results)
    except (KeyError, ZeroDivisionError, TypeError):
        return None
    return number >= target if op == ">=" else number <= target


def mark(
    rows: List[Row], results: Dict[str, Any], checks: Dict[str, Union[Check, List[Check]]]
) -> List[Row]:
    """The rows with "met: " or "missed: " before the note of every row with a target whose
    numbers were measured (a skipped row stays as it is). A row of several targets is met when
    all are."""
    busy = load_words(results)
    marked = []
    for name, value, note in rows:
        check = checks.get(name)
        if check is not None and value != "skipped":
            verdicts = [met(results, c) for c in (check if isinstance(check, list) else [check])]
            if None not in verdicts:
                note = f"met: {note}" if all(verdicts) else f"missed{busy}: {note}"
        marked.append((name, value, note))
    return marked
