"""Evaluation against fixed opponents (docs/learning.md "Evaluation"): arena games (duplicate
seating: every deal played with the seats swapped) of the network's search, and of its policy
alone, against greedy and MCTS at a fixed iteration budget, with 95 % Wilson intervals.

The network's bots are built by a factory that hands the model's path to the bot's constructor,
never spliced into a bot spec: a run folder whose path holds `:` or `,` evaluates like any
other. The games are arena's schedule, seeds and play (arena.play_game's), so the numbers are
those `vikinger arena` gives for the same bots.
"""

import functools
from typing import Any, Callable, Dict, List, Tuple

import numpy as np

from .. import arena
from ..arena import report as arena_report
from .config import TrainConfig

MCTS_OPPONENT = "mcts:iterations=200"
MATCHES = ("search_vs_greedy", "search_vs_mcts", "policy_vs_greedy")

# A bot's factory: factory(game, seed) -> bot (a game and a bot of either engine).
Factory = Callable[[Any, int], Any]
# An entrant: (label, factory).
Entrant = Tuple[str, Factory]


def _network_bot(
    kind: str, engine_name: str, model: str, simulations: int, game: Any, seed: int
) -> Any:
    engine = arena.engine_module(engine_name)
    if kind == "search":
        return engine.PuctBot(game, seed, simulations=simulations, model=model)
    return engine.PolicyNetBot(game, seed, model=model)


def _spec_bot(text: str, engine_name: str, game: Any, seed: int) -> Any:
    return arena.make_bot(arena.parse_spec(text), arena.engine_module(engine_name), game, seed)


def matches(
    config: TrainConfig, model: str, engine: str = "fast"
) -> List[Tuple[str, Entrant, Entrant]]:
    """(name, player, opponent) of the evaluation; the factories pickle (worker processes)."""
    sims = config.eval_simulations
    search = (
        f"puct:simulations={sims}",
        functools.partial(_network_bot, "search", engine, model, sims),
    )
    policy = ("azpolicy", functools.partial(_network_bot, "policy", engine, model, sims))

    def opponent(text: str) -> Entrant:
        return text, functools.partial(_spec_bot, text, engine)

    players = (search, search, policy)
    opponents = (opponent("greedy"), opponent(MCTS_OPPONENT), opponent("greedy"))
    return list(zip(MATCHES, players, opponents))


def _play_game(
    job: Tuple[str, List[Factory], int, int, arena.Task, Dict[str, bool]],
) -> Dict[str, Any]:
    """One game of the schedule with the entrants' factories (arena.play_game's seeds), of the
    run's module set (`options`, the Game keywords)."""
    engine_name, factories, players, seed, (table, deal, seats), options = job
    game = arena.engine_module(engine_name).Game(num_players=players, **options)
    bots = [factories[e](game, arena.bot_seed(seed, deal, e)) for e in seats]
    stream = arena.chance_seed(seed, deal)
    state = arena.play_bots(game.new_initial_state(), bots, np.random.default_rng(stream))
    return {
        "table": table,
        "deal": deal,
        "seats": seats,
        "chance_seed": stream,
        "fame": [int(v) for v in state.scores()],
        "gold": [int(v) for v in state.gold()],
        "returns": [float(v) for v in state.returns()],
        "moves": len(state.history()),
    }


def _play(
    engine: str,
    factories: List[Factory],
    players: int,
    seed: int,
    deals: int,
    jobs: int,
    options: Callable[[int], Dict[str, bool]],
) -> List[Dict[str, Any]]:
    tasks = [  # options(deal): the Game keywords of the deal's table
        (engine, factories, players, seed, task, options(task[1]))
        for task in arena.schedule(len(factories), players, deals)
    ]
    if jobs <= 1:
        return [_play_game(task) for task in tasks]
    with arena.one_blas_thread():
        pool = arena.worker_pool(jobs)
        try:
            games = list(pool.map(_play_game, tasks, chunksize=1))
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        pool.shutdown()
    return games


def evaluate(
    config: TrainConfig, model: str, seed: int, jobs: int = 1, engine: str = "fast"
) -> Dict[str, Any]:
    """{match name: {"share", "low", "high", "games"}} over config.eval_games games each."""
    out: Dict[str, Any] = {}
    deals = arena.deals_for(config.eval_games, config.players)
    for name, player, opponent in matches(config, model, engine):
        entrants = [player] + [opponent] * (config.players - 1)
        texts = [label for label, _ in entrants]
        factories = [make for _, make in entrants]
        games = _play(engine, factories, config.players, seed, deals, jobs, config.eval_options)
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
