"""What a tournament's games add up to (`vikinger arena`, docs/arena.md): the results structure
(the one plots.plot_tournament draws, with more fields per entry), the printed table, and the
files of the output folder.

Per entrant: games played, win share (the mean of its returns: a shared win counts its share)
with the 95 % Wilson interval, mean Fame, mean margin (its Fame minus the best other Fame at the
table), and a Bradley-Terry rating on the Elo scale fitted on the pairwise outcomes of every game.
"""

import csv
import glob
import io
import os
import statistics
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .. import module_sets, records
from ..safety import json_limits, outputs
from .ratings import Outcome, bradley_terry, wilson

RATING_NAME = "Elo (Bradley-Terry)"


def _rank_key(game: Mapping[str, Any], seat: int) -> tuple[float, int]:
    # Returns settle the winners (with the rules' tie-breaks, B8.9); the rest are ordered by Fame.
    return (game["returns"][seat], game["fame"][seat])


def pairwise_outcomes(games: Iterable[Mapping[str, Any]]) -> list[Outcome]:
    """[(entrant i, entrant j, score of i)] for every pair of seats of every game: 1 when i ranks
    above j, 0 below, 1/2 level (rank: returns, then Fame)."""
    outcomes: list[Outcome] = []
    for game in games:
        seats = game["seats"]
        for a in range(len(seats)):
            for b in range(a + 1, len(seats)):
                key_a, key_b = _rank_key(game, a), _rank_key(game, b)
                score = 1.0 if key_a > key_b else 0.0 if key_a < key_b else 0.5
                outcomes.append((seats[a], seats[b], score))
    return outcomes


def summarize(config: Mapping[str, Any], games: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The results: config's fields (engine, entrants, names, players, seed, deals; modules,
    the module set's name, "none" when config has none) and "players_per_game", "rating_name",
    "games", "entries" (one per entrant, in spec order), and
    "head_to_head": {"score": [[i's pairwise score against j]], "meetings": [[pairs played]]}."""
    names, count = config["names"], len(config["names"])
    returns: list[list[float]] = [[] for _ in range(count)]
    fame: list[list[int]] = [[] for _ in range(count)]
    margins: list[list[int]] = [[] for _ in range(count)]
    for game in games:
        for seat, entrant in enumerate(game["seats"]):
            others = [f for s, f in enumerate(game["fame"]) if s != seat]
            returns[entrant].append(game["returns"][seat])
            fame[entrant].append(game["fame"][seat])
            margins[entrant].append(game["fame"][seat] - max(others))
    outcomes = pairwise_outcomes(games)
    fit = bradley_terry(count, outcomes)
    score = [[0.0] * count for _ in range(count)]
    meetings = [[0] * count for _ in range(count)]
    for i, j, value in outcomes:
        score[i][j] += value
        score[j][i] += 1.0 - value
        meetings[i][j] += 1
        meetings[j][i] += 1
    entries: list[dict[str, Any]] = []
    for e in range(count):
        played = len(returns[e])
        share = statistics.fmean(returns[e]) if played else 0.0
        low, high = wilson(share, played)
        entries.append(
            {
                "name": names[e],
                "spec": config["entrants"][e],
                "games": played,
                "win_share": share,
                "win_share_interval": [low, high],
                "mean_fame": statistics.fmean(fame[e]) if played else None,
                "mean_margin": statistics.fmean(margins[e]) if played else None,
                "rating": fit["rating"][e],
                "rating_interval": fit["interval"][e],
                "rating_stderr": fit["stderr"][e],
            }
        )
    modules = config.get("modules", module_sets.NONE)
    return {
        "title": f"arena: {' vs '.join(names)} ({len(games)} games, engine {config['engine']}, "
        f"modules {modules})",
        **{key: config[key] for key in ("engine", "entrants", "names", "players", "seed", "deals")},
        "modules": modules,
        "players_per_game": config["players"],
        "rating_name": RATING_NAME,
        "games": len(games),
        "entries": entries,
        "head_to_head": {"score": score, "meetings": meetings},
    }


def format_table(results: Mapping[str, Any]) -> str:
    """The table `vikinger arena` prints."""
    width = max(len("bot"), *(len(e["name"]) for e in results["entries"]))
    lines = [
        f"{'bot':<{width}}  games  win share [95% Wilson]  mean Fame  mean margin  Elo (BT) [95%]"
    ]
    for e in sorted(results["entries"], key=lambda e: -e["rating"]):
        low, high = e["win_share_interval"]
        r_low, r_high = e["rating_interval"]
        lines.append(
            f"{e['name']:<{width}}  {e['games']:5d}  {e['win_share']:.3f} "
            f"[{low:.3f}, {high:.3f}]    {e['mean_fame']:9.2f}  {e['mean_margin']:+11.2f}"
            f"  {e['rating']:+6.0f} [{r_low:+.0f}, {r_high:+.0f}]"
        )
    return "\n".join(lines)


def write_outputs(
    folder: str, results: Mapping[str, Any], games: Sequence[Mapping[str, Any]]
) -> None:
    """results.json (the results), results.csv (one row per entrant), games.csv (one row per
    game) and records/game-NNNNN.json (every game's record, docs/records.md)."""
    os.makedirs(os.path.join(folder, "records"), exist_ok=True)
    # An earlier run's records (a reused folder, --force) would sit beside this run's
    # games.csv and be taken for its games: removed first.
    for old in glob.glob(os.path.join(glob.escape(folder), "records", "game-*.json")):
        os.remove(old)
    outputs.write_atomic(
        os.path.join(folder, "results.json"),
        json_limits.dumps_strict(json_limits.non_finite_as_text(results), indent=1) + "\n",
    )
    columns = (
        "name",
        "spec",
        "games",
        "win_share",
        "win_share_low",
        "win_share_high",
        "mean_fame",
        "mean_margin",
        "rating",
        "rating_low",
        "rating_high",
    )
    out = io.StringIO(newline="")
    writer = csv.writer(out)
    writer.writerow(columns)
    for e in results["entries"]:
        writer.writerow(
            [
                e["name"],
                e["spec"],
                e["games"],
                e["win_share"],
                *e["win_share_interval"],
                e["mean_fame"],
                e["mean_margin"],
                e["rating"],
                *e["rating_interval"],
            ]
        )
    outputs.write_atomic(os.path.join(folder, "results.csv"), out.getvalue())
    names = results["names"]
    n = results["players"]
    out = io.StringIO(newline="")
    writer = csv.writer(out)
    writer.writerow(
        [
            "game",
            "table",
            "deal",
            "chance_seed",
            "moves",
            *[f"seat{s}" for s in range(n)],
            *[f"fame{s}" for s in range(n)],
            *[f"return{s}" for s in range(n)],
            "record",
        ]
    )
    for index, game in enumerate(games):
        name = f"records/game-{index:05d}.json"
        writer.writerow(
            [
                index,
                game["table"],
                game["deal"],
                game["chance_seed"],
                game["moves"],
                *[names[e] for e in game["seats"]],
                *game["fame"],
                *game["returns"],
                name,
            ]
        )
        outputs.write_atomic(os.path.join(folder, name), records.dumps(game["record"]))
    # games.csv last: it lists the records, which are all there once it is.
    outputs.write_atomic(os.path.join(folder, "games.csv"), out.getvalue())
