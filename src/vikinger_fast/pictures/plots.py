"""Charts of benchmark and tournament results, with matplotlib (the optional extra `plot`,
PLOT_HINT says how to install it); docs/pictures.md.

* `plot_bench(results, path)`: the numbers of `vikinger bench` (the "results" of its --json),
  each row with a target against that target, and the engines against their peers.
* `plot_tournament(results, path)`: win shares with their intervals and ratings with theirs,
  from the small structure checked by `check_tournament` (written for `vikinger arena`).

Both return the matplotlib Figure (after saving it when `path` is given).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NoReturn

from ..extras import install_hint

if TYPE_CHECKING:
    from typing import TypeGuard

PLOT_HINT = install_hint("plots need matplotlib", "plot")

# Rows of `vikinger bench` that have a target (docs/benchmarks.md): label, value, target.
BENCH_TARGETS = (
    ("C++ rollouts, fused, 1 thread (games/s)", lambda r: r["rollouts_2p_1thread"], 200_000),
    ("C++ rollouts, generic path (games/s)", lambda r: r["rollouts_2p_generic_1thread"], 100_000),
    (
        "2 threads / 1 thread (speed-up)",
        lambda r: r["rollouts_2p_2threads"] / r["rollouts_2p_1thread"],
        1.9,
    ),
    (
        "C++ / reference per CPU second",
        lambda r: r["rollouts_2p_1thread_per_cpu_second"] / r["reference_rollouts_2p"],
        1000,
    ),
    ("Python-driven loop, vikinger_fast (steps/s)", lambda r: r["loop_fast"], 1_000_000),
)
# The same work done by each engine and its peers: (panel title, [(label, results key)]).
BENCH_PEERS = (
    (
        "whole random games (games/s)",
        (
            ("vikinger_fast, 1 thread", "rollouts_2p_1thread"),
            ("vikinger_fast, 2 threads", "rollouts_2p_2threads"),
            ("reference compiled with Cython", "cython_rollouts_2p"),
            ("vikinger_ref (pure Python)", "reference_rollouts_2p"),
        ),
    ),
    (
        "Python-driven loop (steps/s)",
        (
            ("vikinger_fast", "loop_fast"),
            ("OpenSpiel connect_four", "loop_open_spiel_connect_four"),
            ("OpenSpiel backgammon", "loop_open_spiel_backgammon"),
            ("Cython-compiled reference", "loop_cython"),
            ("vikinger_ref", "loop_ref"),
        ),
    ),
)
PASS, FAIL, PEER, OURS = "#3c9a4a", "#cc3329", "#9aa5ad", "#2f6fd6"


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise ImportError(PLOT_HINT) from None
    matplotlib.use("Agg")  # files only: no display is needed
    import matplotlib.pyplot as plt

    return plt


def available() -> bool:
    try:
        _pyplot()
    except ImportError:
        return False
    return True


def _save(fig: Any, path: Any) -> Any:
    if path is not None:
        fig.savefig(path, dpi=110, bbox_inches="tight")
    return fig


def _amount(value: float) -> str:
    return f"{value:,.0f}" if value >= 100 else f"{value:.3g}"


def plot_bench(results: dict[str, Any], path: Any = None) -> Any:
    """Bars of value / target (log scale; 1 = the target met) and, per workload, the engines
    beside their peers (rows missing from `results` are left out)."""
    plt = _pyplot()
    targets = [(label, value(results), target) for label, value, target in BENCH_TARGETS]
    fig, axes = plt.subplots(
        3, 1, figsize=(9, 9.5), gridspec_kw={"height_ratios": [len(targets), 4, 5]}
    )
    ax = axes[0]
    ratios = [value / target for _, value, target in targets]
    bars = ax.barh(range(len(targets)), ratios, color=[PASS if q >= 1 else FAIL for q in ratios])
    ax.set_xscale("log")
    ax.axvline(1, color="#222", linewidth=1)
    ax.set_yticks(range(len(targets)), [label for label, _, _ in targets])
    ax.invert_yaxis()
    for bar, (_, value, target) in zip(bars, targets):
        ax.annotate(
            f" {_amount(value)} (target {_amount(target)})",
            (bar.get_width(), bar.get_y() + bar.get_height() / 2),
            va="center",
            fontsize=8,
        )
    ax.set_xlim(min(ratios + [0.5]) / 2, max(ratios + [2]) * 8)
    ax.set_title("each row against its target (value / target; 1 = met)", fontsize=10)
    for ax, (title, rows) in zip(axes[1:], BENCH_PEERS):
        present = [(label, results[key]) for label, key in rows if key in results]
        bars = ax.barh(
            range(len(present)),
            [value for _, value in present],
            color=[OURS if label.startswith("vikinger_fast") else PEER for label, _ in present],
        )
        ax.set_xscale("log")
        ax.set_yticks(range(len(present)), [label for label, _ in present])
        ax.invert_yaxis()
        for bar, (_, value) in zip(bars, present):
            ax.annotate(
                f" {_amount(value)}",
                (bar.get_width(), bar.get_y() + bar.get_height() / 2),
                va="center",
                fontsize=8,
            )
        ax.set_xlim(min(v for _, v in present) / 3, max(v for _, v in present) * 6)
        ax.set_title(f"against the peers: {title}", fontsize=10)
    fig.suptitle("vikinger bench (one run)", fontsize=12)
    fig.tight_layout()
    return _save(fig, path)


# --- tournaments -----------------------------------------------------------------------------


def _fail(field: str, problem: str) -> NoReturn:
    raise ValueError(f"tournament results field {field!r}: {problem}")


def _number(value: object) -> TypeGuard[float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def check_tournament(results: object) -> None:
    """The structure `plot_tournament` draws (docs/pictures.md): {"title": str (optional),
    "players_per_game": int, "rating_name": str (optional), "entries": [{"name": str,
    "games": int, "win_share": x, "win_share_interval": [lo, hi], "rating": x or None,
    "rating_interval": [lo, hi] or None}, ...]}; ValueError naming the first bad field."""
    if not isinstance(results, dict):
        raise ValueError("tournament results must be a dict")
    n = results.get("players_per_game")
    if not isinstance(n, int) or isinstance(n, bool) or not 2 <= n <= 4:
        _fail("players_per_game", f"must be 2, 3 or 4, not {n!r}")
    entries = results.get("entries")
    if not isinstance(entries, list) or not entries:
        _fail("entries", "must be a non-empty list")
    for i, entry in enumerate(entries):
        where = f"entries[{i}]"
        if not isinstance(entry, dict):
            _fail(where, "must be a dict")
        if not isinstance(entry.get("name"), str):
            _fail(where + ".name", "must be a str")
        if not isinstance(entry.get("games"), int) or entry["games"] < 0:
            _fail(where + ".games", "must be an int >= 0")
        for key, bounded in (("win_share", True), ("rating", False)):
            value, interval = entry.get(key), entry.get(key + "_interval")
            if key == "rating" and value is None and interval is None:
                continue
            if not _number(value) or (bounded and not 0 <= value <= 1):
                _fail(f"{where}.{key}", f"must be a number{' in 0..1' if bounded else ''}")
            if (
                not isinstance(interval, list)
                or len(interval) != 2
                or not all(map(_number, interval))
                or not interval[0] <= value <= interval[1]
            ):
                _fail(f"{where}.{key}_interval", f"must be [low, high] around {key}")


def plot_tournament(results: dict[str, Any], path: Any = None) -> Any:
    """Win shares with their intervals (the dashed line is the even share 1 / players per
    game) and, when given, ratings with theirs; best entry on top."""
    check_tournament(results)
    plt = _pyplot()
    entries = sorted(results["entries"], key=lambda e: -e["win_share"])
    rated = [e for e in entries if e.get("rating") is not None]
    fig, axes = plt.subplots(
        1, 2 if rated else 1, figsize=(10 if rated else 6, 1.2 + 0.45 * len(entries)), squeeze=False
    )
    ax = axes[0][0]
    shares = [e["win_share"] for e in entries]
    errors = [
        [s - e["win_share_interval"][0] for s, e in zip(shares, entries)],
        [e["win_share_interval"][1] - s for s, e in zip(shares, entries)],
    ]
    ax.barh(range(len(entries)), shares, xerr=errors, color=OURS, alpha=0.8, capsize=4)
    ax.axvline(1 / results["players_per_game"], color="#222", linestyle="--", linewidth=1)
    ax.set_yticks(range(len(entries)), [f"{e['name']} ({e['games']} games)" for e in entries])
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("win share (95 % interval)")
    if rated:
        ax = axes[0][1]
        ratings = [e["rating"] for e in rated]
        ax.errorbar(
            ratings,
            range(len(rated)),
            fmt="o",
            color=OURS,
            capsize=4,
            xerr=[
                [r - e["rating_interval"][0] for r, e in zip(ratings, rated)],
                [e["rating_interval"][1] - r for r, e in zip(ratings, rated)],
            ],
        )
        ax.set_yticks(range(len(rated)), [e["name"] for e in rated])
        ax.invert_yaxis()
        ax.set_xlabel(f"{results.get('rating_name', 'rating')} (95 % interval)")
        ax.grid(axis="x", alpha=0.3)
    fig.suptitle(results.get("title", "tournament"), fontsize=12)
    fig.tight_layout()
    return _save(fig, path)
