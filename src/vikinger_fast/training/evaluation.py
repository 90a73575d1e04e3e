"""Evaluation against fixed opponents (docs/learning.md "Evaluation"): arena games (duplicate
seating: every deal played with the seats swapped) of the network's search, and of its policy
alone, against greedy and MCTS at a fixed iteration budget, with 95 % Wilson intervals; the
search against the anchor (`anchor`: by default the shipped network in the same search), and a
run's best against the shipped network (`compare_shipped`, `vikinger train --compare-shipped`).

The network's bots are built by a factory that hands the model's path to the bot's constructor,
never spliced into a bot spec: a run folder whose path holds `:` or `,` evaluates like any
other. The games are arena's schedule, seeds and play (arena.play_game's), so the numbers are
those `vikinger arena` gives for the same bots.
"""

import functools
import os
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np
from vikinger_ref import az_bot

from .. import arena, module_sets
from ..arena import report as arena_report
from ..benchmarks import endgame as endgame_positions
from ..arena.ratings import wilson
from .config import ANCHOR_NONE, ANCHOR_SHIPPED, TrainConfig

MCTS_OPPONENT = "mcts:iterations=200"
MATCHES = ("search_vs_greedy", "search_vs_mcts", "policy_vs_greedy")
# The export on the loop's solved critical positions: (its policy, its search without the solver)
# × (margin-optimal share, blunder share); curves.csv's columns.
ENDGAME = tuple(
    f"endgame_{kind}_{measure}"
    for kind in ("policy", "search")
    for measure in ("optimal", "blunders")
)

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
    search, policy = searcher(config, model, engine), policy_player(config, model, engine)

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


def play_schedule(
    engine: str,
    factories: List[Factory],
    players: int,
    seed: int,
    deals: int,
    jobs: int,
    options: Callable[[int], Dict[str, bool]],
) -> List[Dict[str, Any]]:
    """The games of arena's schedule between the entrants `factories` (`deals` deals in every
    seating, arena's seeds from `seed`), on `jobs` processes; `options(deal)`: the Game keywords
    of the deal's table."""
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


def share_of(
    config: TrainConfig,
    player: Entrant,
    opponent: Entrant,
    seed: int,
    games: int,
    jobs: int = 1,
    engine: str = "fast",
) -> Dict[str, Any]:
    """{"share", "low", "high", "games", "score"} of `player` in one seat against `opponent` in
    the others, over at least `games` arena games (whole sets of seatings): its win share with
    the Wilson interval, and its mean pairwise score against the opponent's seats."""
    deals = arena.deals_for(games, config.players)
    entrants = [player] + [opponent] * (config.players - 1)
    texts = [label for label, _ in entrants]
    factories = [make for _, make in entrants]
    played = play_schedule(
        engine, factories, config.players, seed, deals, jobs, config.eval_options
    )
    summary = arena_report.summarize(
        {
            "engine": engine,
            "entrants": texts,
            "names": arena.labels(texts),
            "players": config.players,
            "seed": seed,
            "deals": deals,
        },
        played,
    )
    entry = summary["entries"][0]
    low, high = entry["win_share_interval"]
    # The pairwise score against the opponent's seats (returns, then Fame): 0.5 is level play
    # at any table size, where the win share's level is 1 / players.
    head = summary["head_to_head"]
    meetings = sum(head["meetings"][0][1:])
    score = sum(head["score"][0][1:]) / meetings if meetings else 0.5
    return {
        "share": entry["win_share"],
        "low": low,
        "high": high,
        "games": entry["games"],
        "score": score,
    }


def evaluate(
    config: TrainConfig, model: str, seed: int, jobs: int = 1, engine: str = "fast"
) -> Dict[str, Any]:
    """{match name: {"share", "low", "high", "games"}} over config.eval_games games each."""
    return {
        name: share_of(config, player, opponent, seed, config.eval_games, jobs, engine)
        for name, player, opponent in matches(config, model, engine)
    }


def endgame(config: TrainConfig, model: str, seed: int, engine: str = "fast") -> Dict[str, float]:
    """The export against exact values (docs/learning.md "The endgame in the loop"): its policy
    alone and its search (PuctBot at eval_simulations, no solver: the network's own values) on
    the loop's solved critical positions of the run's player count (endgame.LOOP_DATA), a bot
    of seed arena.bot_seed(seed, i, 0) at position i; each one's margin-optimal share and
    blunder share (ENDGAME's names). Why: the games against greedy and MCTS are all won, and the
    ladder compares exports only with each other; exact values neither saturate nor drift. {}
    for a run at a table with modules (the positions are of the base game)."""
    if config.options:  # () for a mixed run, whose network covers the base game
        return {}
    data = endgame_positions.load_positions(endgame_positions.LOOP_DATA)
    positions = endgame_positions.by_players(data, config.players, None)
    engine_module = arena.engine_module(engine)
    result: Dict[str, float] = {}
    for kind, (_, factory) in (
        ("policy", policy_player(config, model, engine)),
        ("search", searcher(config, model, engine)),
    ):
        scored = endgame_positions.score_bot(factory, positions, engine_module, seed)
        result[f"endgame_{kind}_optimal"] = scored["optimal_share"]
        result[f"endgame_{kind}_blunders"] = scored["blunder_share"]
    return result


def searcher(config: TrainConfig, model: str, engine: str = "fast") -> Entrant:
    """An export as the evaluation's search plays it (PuctBot, eval_simulations, no playouts)."""
    sims = config.eval_simulations
    return (
        f"puct:simulations={sims}",
        functools.partial(_network_bot, "search", engine, model, sims),
    )


def policy_player(config: TrainConfig, model: str, engine: str = "fast") -> Entrant:
    """An export's policy alone (PolicyNetBot), as the evaluation plays it."""
    sims = config.eval_simulations
    return "azpolicy", functools.partial(_network_bot, "policy", engine, model, sims)


def _tables(config: TrainConfig) -> str:
    return "mixed" if config.mixed else module_sets.name(config.options)


def shipped_for(config: TrainConfig) -> Optional[str]:
    """The path of the first shipped network (vikinger_ref.az_bot.SHIPPED, in MODELS) for the
    run's players that covers every table the run's evaluation plays (config.covered(): all 32
    sets in a mixed run), or None."""
    for players, name, covers in az_bot.SHIPPED:
        path = os.path.join(az_bot.MODELS, name)
        if players == config.players and set(config.covered()) <= set(covers):
            if os.path.isfile(path):
                return path
    return None


def anchor(config: TrainConfig, engine: str = "fast") -> Tuple[str, Optional[Factory]]:
    """(label, factory) of the fixed strong opponent of config.anchor, or (why there is none,
    None). "shipped": the shipped network of the run's tables (shipped_for) in the exports' own
    search, none when no shipped file covers them; a bot spec is built once here, so a spec
    that cannot sit at the run's table is a ValueError before any game."""
    if config.anchor == ANCHOR_NONE:
        return "none (anchor none)", None
    if config.anchor == ANCHOR_SHIPPED:
        shipped = shipped_for(config)
        if shipped is None:
            return (
                f"none: no shipped network for {config.players} players with modules "
                f"{_tables(config)} (give --anchor SPEC)",
                None,
            )
        label, make = searcher(config, shipped, engine)
        return f"shipped {os.path.basename(shipped)} ({label})", make
    arena.check_spec(config.anchor, arena.engine_module(engine), config.players, config.options)
    return config.anchor, functools.partial(_spec_bot, config.anchor, engine)


def evaluate_anchor(
    config: TrainConfig, model: str, seed: int, jobs: int = 1, engine: str = "fast"
) -> Dict[str, Any]:
    """{"anchor": label, "share", "low", "high", "games"} of the export's search against the
    anchor over eval_games games, or {"anchor": why there is none}."""
    label, make = anchor(config, engine)
    if make is None:
        return {"anchor": label}
    entry = share_of(
        config,
        searcher(config, model, engine),
        (label, make),
        seed,
        config.eval_games,
        jobs,
        engine,
    )
    return {"anchor": label, **entry}


# Replacing a shipped network (docs/learning.md "Replacing the shipped network"): the learned
# player's defaults at this budget, at least this many games, this pairwise score, and the
# lower end of its 95 % Wilson interval above 0.5.
COMPARE_SIMULATIONS = 200
SHIP_GAMES = 200
SHIP_SCORE = 0.55


def replaces_shipped(score: float, low: float, games: int) -> bool:
    """The rule: at least SHIP_GAMES games, a pairwise score of at least SHIP_SCORE, and the
    lower end `low` of its 95 % Wilson interval above 0.5."""
    return games >= SHIP_GAMES and score >= SHIP_SCORE and low > 0.5


def _az_bot(engine_name: str, model: str, simulations: int, game: Any, seed: int) -> Any:
    return arena.engine_module(engine_name).AZBot(game, seed, simulations=simulations, model=model)


def compare_shipped(
    config: TrainConfig, model: str, games: int, seed: int, jobs: int = 1, engine: str = "fast"
) -> Dict[str, Any]:
    """`model` (a run's export) against the shipped network of the run's table, both as the
    learned player (AZBot's defaults) at COMPARE_SIMULATIONS simulations a move, the export in
    one seat: share_of's fields and "replaces" (at least SHIP_GAMES games, a pairwise score of
    at least SHIP_SCORE and its Wilson interval's lower end above 0.5). ValueError when the
    table has no shipped network."""
    shipped = shipped_for(config)
    if shipped is None:
        raise ValueError(
            f"no shipped network for {config.players} players with modules "
            f"{_tables(config)}: nothing to replace"
        )
    sims = COMPARE_SIMULATIONS
    player = (f"az:simulations={sims} (the run's)", functools.partial(_az_bot, engine, model, sims))
    opponent = (f"az:simulations={sims}", functools.partial(_az_bot, engine, shipped, sims))
    entry = share_of(config, player, opponent, seed, games, jobs, engine)
    low, high = wilson(entry["score"], entry["games"])
    replaces = replaces_shipped(entry["score"], low, entry["games"])
    return {
        **entry,
        "score_low": low,
        "score_high": high,
        "shipped": shipped,
        "replaces": replaces,
    }
