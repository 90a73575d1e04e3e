"""Evaluation against fixed opponents (docs/learning.md "Evaluation"): arena games (duplicate
seating: every deal played with the seats swapped) of the network's search, and of its policy
alone, against greedy and MCTS at a fixed iteration budget, with 95 % Wilson intervals.
"""

from typing import Any, Dict, List, Tuple

from .. import arena
from ..arena import report as arena_report
from .config import TrainConfig

MCTS_OPPONENT = "mcts:iterations=200"


def matches(config: TrainConfig, model: str) -> List[Tuple[str, str, str]]:
    """(name, player spec, opponent spec) of the evaluation."""
    search = f"puct:simulations={config.eval_simulations},model={model}"
    return [
        ("search_vs_greedy", search, "greedy"),
        ("search_vs_mcts", search, MCTS_OPPONENT),
        ("policy_vs_greedy", f"azpolicy:model={model}", "greedy"),
    ]


def evaluate(
    config: TrainConfig, model: str, seed: int, jobs: int = 1, engine: str = "fast"
) -> Dict[str, Any]:
    """{match name: {"share", "low", "high", "games"}} over config.eval_games games each."""
    out: Dict[str, Any] = {}
    deals = arena.deals_for(config.eval_games, config.players)
    for name, player, opponent in matches(config, model):
        texts = [player] + [opponent] * (config.players - 1)
        games = arena.run(engine, texts, config.players, seed, deals, jobs=jobs)
        summary = arena_report.summarize(
            {
                "engine": engine,
                "entrants": texts,
                "names": arena.labels(texts),
                "players": config.players,
                "seed": seed,
                "deals": deals,
            },
            games,
        )
        entry = summary["entries"][0]
        low, high = entry["win_share_interval"]
        out[name] = {"share": entry["win_share"], "low": low, "high": high, "games": entry["games"]}
    return out
