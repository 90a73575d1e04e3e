"""The generations' ladder and the gate (docs/learning.md "Generations and the gate").

At each evaluation the new export plays earlier exports of the run (`opponents`: a bounded
schedule), in arena games with duplicate seating on the evaluation's deals, searching as the
evaluation's search does. Every game is kept in `RUN/ladder/iter-NNNNN.json`, and the Elo of
all generations is fitted again on every game so far (arena.ratings' Bradley-Terry with 95 %
intervals), anchored at the first export = 0: `RUN/generations.csv`. The gate: the new export
replaces the run's best only when its pairwise score against the best reaches `config.gate`.

Everything here follows from the run's seeds and exports, so a resumed run writes the same files
as an unbroken one; the best before an evaluation is read from the ladder files before it (the
last one's `best_after`), never from best.json, which an interrupted evaluation may have
written already.
"""

import csv
import io
import json
import os
import re
import stat
from typing import Any, Dict, List, Optional, Sequence, Tuple, cast

from .. import arena
from ..arena import report as arena_report
from ..arena.ratings import bradley_terry, wilson
from ..safety import outputs
from ..safety.json_limits import loads_limited
from . import evaluation
from .config import TrainConfig

FORMAT = "vikinger-ladder/1"
FOLDER = "ladder"
CSV = "generations.csv"
COLUMNS = ("iteration", "games", "elo", "elo_low", "elo_high")
MAX_BYTES = 64 * 1024 * 1024  # a ladder file: a few hundred bytes a game
_EXPORT = re.compile(r"iter-(\d{5,})\.npz")
_LADDER = re.compile(r"iter-(\d{5,})\.json")


def model_path(run: str, iteration: int) -> str:
    return os.path.join(run, "models", f"iter-{iteration:05d}.npz")


def _numbered(folder: str, pattern: "re.Pattern[str]") -> List[int]:
    if not os.path.isdir(folder):
        return []
    found = (pattern.fullmatch(name) for name in os.listdir(folder))
    return sorted(int(match.group(1)) for match in found if match)


def exports(run: str, before: int) -> List[int]:
    """The iterations of the run's exports (models/iter-NNNNN.npz) before `before`, ascending."""
    return [i for i in _numbered(os.path.join(run, "models"), _EXPORT) if i < before]


def opponents(earlier: Sequence[int], best: Optional[int], count: int) -> List[int]:
    """The earlier exports (iterations, ascending in `earlier`) the new export plays: the run's
    best first (the gate's match), then the previous export, the first, and the exports 2, 4,
    8, ... places back, at most `count` distinct ones. An evaluation so plays at most `count`
    matches whatever the run's length, and every export meets the first (the Elo's zero) and
    its predecessor, so the ratings of all generations hang together.

    >>> opponents(list(range(0, 100, 10)), 60, 4)
    [60, 90, 0, 80]
    >>> opponents([0, 10, 20], None, 8)
    [20, 0, 10]
    """
    order = [] if best is None else [best]
    if earlier:
        order += [earlier[-1], earlier[0]]
    back = 2
    while back <= len(earlier):
        order.append(earlier[len(earlier) - back])
        back *= 2
    chosen: List[int] = []
    for iteration in order:
        if iteration not in chosen:
            chosen.append(iteration)
    return chosen[:count]


def _read(path: str) -> Dict[str, Any]:
    """A ladder file, checked as far as the fit and the gate read it: a regular file, bounded,
    strict JSON (ValueError naming it)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as error:
        raise ValueError(f"cannot read the ladder file {path!r}: {error.strerror}") from None
    with os.fdopen(fd, "rb") as source:
        if not stat.S_ISREG(os.fstat(source.fileno()).st_mode):
            raise ValueError(f"{path}: a ladder file must be a regular file")
        data = source.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise ValueError(f"{path}: larger than {MAX_BYTES:,} bytes")
    record = loads_limited(data.decode("utf-8", errors="replace"), path, max_depth=8)
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise ValueError(f"{path}: not a ladder file ({FORMAT})")
    for key in ("iteration", "best_after"):
        value = record.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{path}: {key} must be an int >= 0, not {value!r}")
    pairings = record.get("pairings")
    if not isinstance(pairings, list) or not all(
        isinstance(p, dict) and isinstance(p.get("games"), list) for p in pairings
    ):
        raise ValueError(f"{path}: pairings must be a list of {{'opponent', 'games'}}")
    for game in (game for pairing in pairings for game in pairing["games"]):
        if not isinstance(game, dict):
            raise ValueError(f"{path}: a game must be a JSON object")
        seats, returns, fame = (game.get(key) for key in ("seats", "returns", "fame"))
        if not (
            isinstance(seats, list)
            and isinstance(returns, list)
            and isinstance(fame, list)
            and len(seats) == len(returns) == len(fame) >= 2
            and all(isinstance(s, int) and not isinstance(s, bool) for s in seats)
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in returns + fame)
        ):
            raise ValueError(f"{path}: a game needs seats, returns and fame of one length")
    return record


def records(run: str, upto: int) -> List[Dict[str, Any]]:
    """The ladder files of the evaluations at iterations <= `upto`, in order."""
    folder = os.path.join(run, FOLDER)
    return [
        _read(os.path.join(folder, f"iter-{i:05d}.json"))
        for i in _numbered(folder, _LADDER)
        if i <= upto
    ]


def best_before(run: str, iteration: int, stored: Optional[int]) -> Optional[int]:
    """The run's best before the evaluation of `iteration`: the last earlier ladder file's
    `best_after`; without one, `stored` (best.json's iteration: a run begun before the ladder)
    when it is earlier; else None (the first export)."""
    earlier = records(run, iteration - 1)
    if earlier:
        return int(earlier[-1]["best_after"])
    return stored if stored is not None and stored < iteration else None


def outcomes(games: Sequence[Dict[str, Any]]) -> List[Tuple[int, int, float]]:
    """[(generation i, generation j, score of i)] of every pair of seats of two generations
    (the arena's pairwise outcomes: returns, then Fame; a generation against itself dropped)."""
    return [o for o in arena_report.pairwise_outcomes(games) if o[0] != o[1]]


def score_against(games: Sequence[Dict[str, Any]], player: int, opponent: int) -> Tuple[float, int]:
    """(mean pairwise score of `player` against `opponent`, games) over `games`."""
    scores = []
    for i, j, score in outcomes(games):
        if (i, j) == (player, opponent):
            scores.append(score)
        elif (i, j) == (opponent, player):
            scores.append(1.0 - score)
    return (sum(scores) / len(scores) if scores else 0.5), len(games)


def gate(
    config: TrainConfig, games: Sequence[Dict[str, Any]], new: int, best: Optional[int]
) -> Dict[str, Any]:
    """The gate's verdict on the games of `new` against `best`: {"against", "score", "low",
    "high", "games", "replaced"}. The new export replaces the best when its mean pairwise score
    against it is at least config.gate (AlphaZero's 0.55 by default); the first export (no best)
    becomes the best."""
    if best is None:
        return {
            "against": None,
            "score": None,
            "low": None,
            "high": None,
            "games": 0,
            "replaced": True,
        }
    score, played = score_against(games, new, best)
    low, high = wilson(score, played)
    return {
        "against": best,
        "score": score,
        "low": low,
        "high": high,
        "games": played,
        "replaced": played > 0 and score >= config.gate,
    }


def play(
    run: str,
    config: TrainConfig,
    iteration: int,
    stored_best: Optional[int],
    jobs: int = 1,
    engine: str = "fast",
) -> Dict[str, Any]:
    """Plays the ladder of the export of `iteration` (models/iter-NNNNN.npz) against the
    earlier exports `opponents` picks, decides the gate, writes ladder/iter-NNNNN.json and
    returns what it holds. Against the best it plays eval_games games, against the others
    ladder_games; every match on the same deals (one seed per evaluation), the new export in
    one seat and the opponent in the others."""
    best = best_before(run, iteration, stored_best)
    earlier = exports(run, iteration)
    if best is not None and best not in earlier:
        raise ValueError(f"{model_path(run, best)}: the run's best export is missing")
    seed = arena.bot_seed(config.seed, iteration, 10)
    player = evaluation.searcher(config, model_path(run, iteration), engine)
    pairings: List[Dict[str, Any]] = []
    for opponent in opponents(earlier, best, config.ladder_opponents):
        games = config.eval_games if opponent == best else config.ladder_games
        deals = arena.deals_for(games, config.players)
        entrants = [player] + [evaluation.searcher(config, model_path(run, opponent), engine)] * (
            config.players - 1
        )
        generation = [iteration] + [opponent] * (config.players - 1)
        played = evaluation.play_schedule(
            engine,
            [make for _, make in entrants],
            config.players,
            seed,
            deals,
            jobs,
            config.eval_options,
        )
        pairings.append(
            {
                "opponent": opponent,
                "games": [
                    {
                        "deal": game["deal"],
                        "seats": [generation[e] for e in game["seats"]],
                        "returns": game["returns"],
                        "fame": game["fame"],
                    }
                    for game in played
                ],
            }
        )
    against = [p["games"] for p in pairings if p["opponent"] == best]
    verdict = gate(config, against[0] if against else [], iteration, best)
    record = {
        "format": FORMAT,
        "iteration": iteration,
        "seed": seed,
        "best_before": best,
        "gate": verdict,
        "best_after": iteration if verdict["replaced"] else best,
        "pairings": pairings,
    }
    os.makedirs(os.path.join(run, FOLDER), exist_ok=True)
    outputs.write_atomic(
        os.path.join(run, FOLDER, f"iter-{iteration:05d}.json"),
        json.dumps(record, separators=(",", ":")) + "\n",
        sync=True,
    )
    return record


def fit(run: str, upto: int) -> List[Dict[str, Any]]:
    """The Elo of every generation that played in the ladder files up to `upto`, fitted on all
    their games: [{"iteration", "games", "elo", "elo_low", "elo_high"}] by iteration, the
    first (lowest) at 0 with the others' intervals those of their difference to it. The prior
    is 2 virtual drawn games per generation spread over the pairs (bradley_terry's prior 2 / (n
    - 1)), which keeps an unbeaten export finite without pulling a long run's ratings
    together."""
    games = [
        game
        for record in records(run, upto)
        for pairing in record["pairings"]
        for game in pairing["games"]
    ]
    ids = sorted({seat for game in games for seat in game["seats"]} | {upto})
    if len(ids) == 1:
        return [{"iteration": ids[0], "games": 0, "elo": 0.0, "elo_low": 0.0, "elo_high": 0.0}]
    index = {iteration: n for n, iteration in enumerate(ids)}
    pairs = [(index[i], index[j], score) for i, j, score in outcomes(games)]
    ratings = bradley_terry(len(ids), pairs, prior=2.0 / (len(ids) - 1), anchor=0)
    elo = cast(List[float], ratings["rating"])
    interval = cast(List[List[float]], ratings["interval"])
    played = {iteration: 0 for iteration in ids}
    for game in games:
        for iteration in set(game["seats"]):
            played[iteration] += 1
    return [
        {
            "iteration": iteration,
            "games": played[iteration],
            "elo": elo[n],
            "elo_low": interval[n][0],
            "elo_high": interval[n][1],
        }
        for n, iteration in enumerate(ids)
    ]


def write_csv(run: str, rows: Sequence[Dict[str, Any]]) -> None:
    """generations.csv: one row per generation, the fit of all games so far (rewritten)."""
    text = io.StringIO(newline="")
    writer = csv.DictWriter(text, COLUMNS)
    writer.writeheader()
    for row in rows:
        writer.writerow({k: round(v, 1) if isinstance(v, float) else v for k, v in row.items()})
    outputs.write_atomic(os.path.join(run, CSV), text.getvalue())


def read_csv(run: str) -> List[Dict[str, str]]:
    path = os.path.join(run, CSV)
    if not os.path.exists(path):
        return []
    with open(path, newline="", encoding="utf-8") as source:
        return list(csv.DictReader(source))


def evaluate(
    run: str,
    config: TrainConfig,
    iteration: int,
    stored_best: Optional[int],
    jobs: int = 1,
    engine: str = "fast",
) -> Dict[str, Any]:
    """The ladder of the export of `iteration` (play), then the fit of every game so far
    (generations.csv): {"gate": ..., "best_after", "opponents", "elo": its row}."""
    record = play(run, config, iteration, stored_best, jobs, engine)
    rows = fit(run, iteration)
    write_csv(run, rows)
    return {
        "gate": record["gate"],
        "best_after": record["best_after"],
        "opponents": [p["opponent"] for p in record["pairings"]],
        "elo": next(row for row in rows if row["iteration"] == iteration),
    }


def curve_fields(anchor: Dict[str, Any], ladder: Dict[str, Any]) -> Dict[str, Any]:
    """The curves.csv fields of an evaluation's anchor match (evaluation.evaluate_anchor) and
    ladder (evaluate): the anchor's label or why there is none, the share against it, the
    score against the best and the best after the gate."""
    fields: Dict[str, Any] = {"anchor": anchor["anchor"], "best": ladder["best_after"]}
    if "share" in anchor:
        for key, suffix in (("share", ""), ("low", "_low"), ("high", "_high")):
            fields["search_vs_anchor" + suffix] = round(anchor[key], 4)
    gate = ladder["gate"]
    if gate["against"] is not None:
        for key, suffix in (("score", ""), ("low", "_low"), ("high", "_high")):
            fields["vs_best" + suffix] = round(gate[key], 4)
    return fields


def describe(anchor: Dict[str, Any], ladder: Dict[str, Any]) -> str:
    """The evaluation's line on the anchor, the Elo and the gate."""
    elo, gate = ladder["elo"], ladder["gate"]
    text = f"vs {anchor['anchor']}"
    if "share" in anchor:
        text += f" {anchor['share']:.3f} [{anchor['low']:.3f}, {anchor['high']:.3f}]"
    text += (
        f"; Elo {elo['elo']:+.0f} [{elo['elo_low']:+.0f}, {elo['elo_high']:+.0f}] (the first "
        f"export 0; played {', '.join(map(str, ladder['opponents'])) or 'none'}); "
    )
    if gate["against"] is None:
        return text + "the first export: the best"
    verdict = "the new best" if gate["replaced"] else "the best stays"
    return text + (
        f"vs the best (iteration {gate['against']}) {gate['score']:.3f} over {gate['games']} "
        f"games: {verdict}"
    )
