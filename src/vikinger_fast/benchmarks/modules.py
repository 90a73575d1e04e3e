"""Rollout speed with the advanced modules A1-A5 against the 2-player base game (docs/benchmarks.md,
docs/performance-notes.md "Modules in the fused playout").

The target: every configuration (2-4 players, any module set) plays at least 0.8 times the
actions per second of the 2-player base game. Games differ in length between configurations, so
the rate compared is actions (the `length` of rollouts) per CPU second, not games. The
configurations are timed in alternating rounds, the best round of each counted, so that a change
in the shared host's speed falls on all of them alike. `vikinger bench` shows the representative
rows below; bench/test_module_rollouts.py times all 96.
"""

from __future__ import annotations

import time

import vikinger_fast as fast

MODULES = ("auction", "draw13", "offer_by_colour", "weak_boatsmen", "special_tiles")
# (players, modules) of the bench table: the base game, each module alone, all together.
REPRESENTATIVE = [
    (2, ()),
    *[(2, (module,)) for module in MODULES],
    (2, MODULES),
    (3, ()),
    (3, MODULES),
    (4, ()),
    (4, MODULES),
]
TARGET_RATIO = 0.8


def every_configuration() -> list[tuple[int, tuple[str, ...]]]:
    """The 96 configurations: 2, 3 and 4 players with each of the 32 module sets."""
    return [
        (n, tuple(m for i, m in enumerate(MODULES) if bits >> i & 1))
        for n in (2, 3, 4)
        for bits in range(1 << len(MODULES))
    ]


def of_set(modules: tuple[str, ...]) -> list[tuple[int, tuple[str, ...]]]:
    """The configurations of `vikinger bench --modules SET`: the 2-player base game (the
    reference of the ratios), then the set at 2, 3 and 4 players."""
    return list(dict.fromkeys([(2, ()), *((n, tuple(modules)) for n in (2, 3, 4))]))


def label(num_players: int, modules: tuple[str, ...]) -> str:
    """'2p base', '4p auction+draw13', ..."""
    if len(modules) == len(MODULES):
        return f"{num_players}p all modules"
    return f"{num_players}p " + ("+".join(modules) or "base")


def measure(
    configurations: list[tuple[int, tuple[str, ...]]], games: int, rounds: int
) -> dict[str, dict[str, float]]:
    """{label: {"games_per_cpu_second", "actions_per_cpu_second", "mean_length",
    "ratio_to_2p_base"}}, 1 thread, seeds 0..games-1; the first configuration must be the
    2-player base game, the reference of the ratios."""
    if not configurations or configurations[0] != (2, ()):
        raise ValueError("configurations must start with the 2-player base game (2, ())")
    if games < 1 or rounds < 1:
        raise ValueError(f"games and rounds must be >= 1, not {games} and {rounds}")
    best = {config: float("inf") for config in configurations}
    actions = {}
    for _ in range(rounds):
        for num_players, modules in configurations:
            game = fast.Game(num_players=num_players, **{m: True for m in modules})
            start = time.process_time()
            lengths = fast.rollouts(game, games, 0)["length"]
            seconds = max(time.process_time() - start, 1e-9)
            best[(num_players, modules)] = min(best[(num_players, modules)], seconds)
            actions[(num_players, modules)] = int(lengths.sum())
    base = actions[(2, ())] / best[(2, ())]
    return {
        label(*config): {
            "games_per_cpu_second": games / best[config],
            "actions_per_cpu_second": actions[config] / best[config],
            "mean_length": actions[config] / games,
            "ratio_to_2p_base": actions[config] / best[config] / base,
        }
        for config in configurations
    }


def table_rows(results: dict[str, dict[str, float]]) -> list[tuple[str, str, str]]:
    """(name, value, note) rows for `vikinger bench`'s table."""
    return [
        (
            f"C++ rollouts, {name}, 1 thread (CPU time)",
            f"{row['actions_per_cpu_second'] / 1e6:,.1f} M actions/s",
            f"x{row['ratio_to_2p_base']:.2f} of 2p base (target >= {TARGET_RATIO}); "
            f"{row['games_per_cpu_second']:,.0f} games/s, {row['mean_length']:.0f} actions a game",
        )
        for name, row in results.items()
    ]
