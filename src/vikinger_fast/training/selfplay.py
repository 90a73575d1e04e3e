"""Batched self-play with the current network (docs/learning.md "Self-play"): the games of a
shard are played together, one tree each in one C++ PuctSearch with a Gumbel root, so every
network call evaluates the leaves of all of them.

Game g of iteration i of a run with seed S: its chance outcomes come from numpy's default_rng
seeded `arena.chance_seed(iteration_seed(S, i), g)`; its tree is tree g - first of a search
seeded iteration_seed(S, i) + first, so it draws from splitmix64(mix(iteration_seed + g)) for the
whole game (docs/neural.md), whichever shard holds it. The move played is the Gumbel root's
`selected` action (exploration by the Gumbel noise); the tree is kept from move to move
(`advance`). Samples (decisions with two or more legal actions) hold the arrays of
vikinger_fast.selfplay_data plus `target`, the search's improved policy over the action
space, and `root_value`, the root's mean value per player over its visits. So the data depend
on S, i, the settings (shard_games included: the games searched together share the batches, and
virtual loss spreads a batch's descents by how many trees there are) and the weights alone: the
executor and the number of processes change nothing (tested).

The first `warm_iterations` iterations search with the heuristic evaluation and uniform priors
instead of the network (a warm start: the network's first targets come from a search that
already plays). Later ones evaluate the leaves with the weights as the integer network inside
the search (docs/neural.md "The integer network", what AZBot plays with; at the training
settings about 6.7 times the games per CPU second of the numpy MLP), or with the numpy MLP
when the weights do not fit the integer network's range.

With endgame_starts > 0, that share of the games (endgame_start) plays rounds 1-5 by the
network's policy alone and is searched from round 6 on (play_to_endgame); when a game ends, the
solver rescores its round-6 samples from the last one back (rescore).
"""

import math
from types import ModuleType
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from vikinger_ref.az_bot import legal_logits, policy_shares
from vikinger_ref.network_features import OBSERVATION_V1

from .. import arena, distributed, module_sets, selfplay_data
from . import targets
from .config import TrainConfig
from .network import evaluator as network_evaluator

# Per-sample arrays: the self-play format's, plus the policy target, the root's mean value
# per player (absolute seats, as `returns`), which a run with value_mix > 0 mixes into its
# value target, and the game's final 64 × Fame + gold per player (absolute seats), the score
# target's source (targets.score_target), and `exact_margin`: at a sample the endgame solver
# finished within rescore_nodes nodes, each player's margin (64 × Fame + gold of the seat minus
# the best other's) under perfect play, NaN elsewhere (targets.py rescores with it). There the
# policy target leans to the solver's move by solver_policy (policy_target below).
EXTRA_ARRAYS = ("target", "root_value", "final_score", "exact_margin")
PER_PLAYER_ARRAYS = ("root_value", "final_score", "exact_margin")
SAMPLE_ARRAYS = selfplay_data.SAMPLE_ARRAYS + EXTRA_ARRAYS
GAME_ARRAYS = selfplay_data.GAME_ARRAYS

# A mixed run's module sets (docs/learning.md "Networks for every table"): the base game a
# quarter of the games, the 31 sets with modules the rest alike (module_sets.every_set order).
MIXED_BASE_SHARE = 0.25
MIXED_WEIGHTS = np.array([MIXED_BASE_SHARE] + [(1 - MIXED_BASE_SHARE) / 31] * 31)
# An endgame start's first searched round (config.endgame_starts): the last of the six (B3.2),
# the solver's round, where the rescoring and the solver's policy targets are.
ENDGAME_ROUND = 6


def iteration_seed(seed: int, iteration: int) -> int:
    """The seed of iteration `iteration`'s games (arena's seed derivation)."""
    return arena.bot_seed(seed, iteration, 7)


def leaf_evaluator(
    engine: ModuleType, weights: Dict[str, np.ndarray], game: Any, features: str = OBSERVATION_V1
) -> Any:
    """The evaluator of the search's leaves for these weights reading `features`: engine.Network
    of their MLP, or the MLP itself when its weights are too large for the integer network (a
    ValueError of Network, checked before any game starts)."""
    mlp = network_evaluator(weights, game, features)
    try:
        return engine.Network(mlp)
    except ValueError:
        return mlp


def evaluator_name(
    engine: ModuleType,
    weights: Optional[Dict[str, np.ndarray]],
    game: Any,
    features: str = OBSERVATION_V1,
) -> str:
    """What an iteration's manifest records: heuristic, network (integer) or numpy."""
    if weights is None:
        return "heuristic"
    evaluate = leaf_evaluator(engine, weights, game, features)
    return "network" if isinstance(evaluate, engine.Network) else "numpy"


def game_modules(config: TrainConfig, iteration: int, number: int) -> Tuple[str, ...]:
    """The module set of game `number` of `iteration`: the run's own, or in a mixed run one drawn
    from MIXED_WEIGHTS with numpy's default_rng seeded arena.bot_seed(iteration seed, number, 9),
    so the same game of a resumed run, at any --jobs or on Ray, has the same."""
    if not config.mixed:
        return config.options
    rng = np.random.default_rng(arena.bot_seed(iteration_seed(config.seed, iteration), number, 9))
    sets = module_sets.every_set()
    return sets[int(rng.choice(len(sets), p=MIXED_WEIGHTS))]


def _games(
    engine: ModuleType,
    config: TrainConfig,
    weights: Optional[Dict[str, np.ndarray]],
    iteration: int,
    first: int,
    count: int,
) -> selfplay_data.Rows:
    # Games of one module set share a search (its trees are of one Game); the sets in the order
    # of their first game.
    groups: Dict[Tuple[str, ...], List[int]] = {}
    for number in range(first, first + count):
        groups.setdefault(game_modules(config, iteration, number), []).append(number)
    rows = selfplay_data.Rows(config.players, EXTRA_ARRAYS, PER_PLAYER_ARRAYS)
    ends = {}
    for modules, numbers in groups.items():
        ends.update(_search_games(engine, config, weights, iteration, modules, numbers, rows))
    base = iteration_seed(config.seed, iteration)
    for number in sorted(ends):
        rows.end_game(number, arena.chance_seed(base, number), ends[number])
    # The final scores are known at the end only: each sample's placeholder gets its game's.
    final = {number: final_score(state) for number, state in ends.items()}
    rows.samples["final_score"] = [final[int(g)] for g in rows.samples["game"]]
    return rows


def solve(engine: ModuleType, state: Any, nodes: int) -> Optional[Dict[str, Any]]:
    """solve_endgame's {"action", "margins", "nodes"} at a round-6 decision node with no chance
    ahead (docs/search.md "Solver") when it finishes within `nodes` nodes (and its memory
    bound); None otherwise, or when rescoring is off (nodes 0)."""
    if nodes == 0 or state.is_chance_node() or state.to_dict()["round"] != 6:
        return None
    try:
        solved: Optional[Dict[str, Any]] = engine.solve_endgame(state, nodes)
    except MemoryError:  # the table's bound reached: giving up, as the bots do
        return None
    return solved


def rescore(
    engine: ModuleType, config: TrainConfig, rows: selfplay_data.Rows, tail: List[Tuple[int, Any]]
) -> None:
    """Solver rescoring of a finished game's round-6 samples `tail` ((row, state), in play
    order): from its last sample back to the first the solver does not finish within
    rescore_nodes nodes, each gets its exact_margin and its policy target (policy_target). Why
    backwards: a sample has less of the game ahead of it than the one before, so the solver
    finishes the last ones and gives up from some point back; the game pays for one unfinished
    solve instead of one at every sample before that point (at 20,000 nodes most of the
    solver's time, measured in docs/learning.md "Score-aware values")."""
    for row, state in reversed(tail):
        solved = solve(engine, state, config.rescore_nodes)
        if solved is None:
            return
        improved = rows.samples["target"][row]
        rows.samples["target"][row] = policy_target(improved, solved, config.solver_policy)
        rows.samples["exact_margin"][row] = exact_margin(solved, config.players)


def exact_margin(solved: Optional[Dict[str, Any]], players: int) -> np.ndarray:
    """The margins of perfect play of a solve() result; NaN per player when unsolved."""
    if solved is None:
        return np.full(players, np.nan, np.float32)
    return np.asarray(solved["margins"], np.float32)


def policy_target(
    improved: np.ndarray, solved: Optional[Dict[str, Any]], solver_policy: float
) -> np.ndarray:
    """The sample's policy target: the search's improved policy, or where the solver finished
    (1 - solver_policy) of it + solver_policy on the solver's margin-optimal action (the first
    in id order on a tie). Why: at a position decided either way the root's values are flat,
    so the improved policy is the prior again and the policy never learns to care about the
    margin; the solver's move is the exact answer there (docs/learning.md "Score-aware
    values")."""
    target = improved.astype(np.float32)
    if solved is None or solver_policy == 0:
        return target
    target *= np.float32(1.0 - solver_policy)
    target[int(solved["action"])] += np.float32(solver_policy)
    return target


def endgame_start(config: TrainConfig, number: int) -> bool:
    """Whether game `number` of an iteration is an endgame start (config.endgame_starts): game
    g is one when floor((g + 1) * share) > floor(g * share), so every run of games, and so every
    shard, holds its share of them (the last game of each 1 / share), whatever the executor."""
    share = config.endgame_starts
    return math.floor((number + 1) * share) > math.floor(number * share)


def play_to_endgame(
    evaluate: Any, state: Any, chance: np.random.Generator, sampler: np.random.Generator
) -> None:
    """Plays `state` on to the first decision node of round ENDGAME_ROUND: each move drawn by
    `sampler` from the softmax of the network's logits over the legal actions (az_bot's
    legal_logits and policy_shares, what PolicyNetBot.policy gives; the policy alone,
    no search: about one network evaluation a move), each chance outcome from the game's own
    generator `chance`, so the game goes on from there as any other."""
    while True:
        if state.is_chance_node():
            state.apply_random_chance(chance)
            continue
        if state.is_terminal() or state.to_dict()["round"] >= ENDGAME_ROUND:
            return
        legal, logits = legal_logits(evaluate, state)
        state.apply_action(legal[int(sampler.choice(len(legal), p=policy_shares(logits)))])


def final_score(state: Any) -> np.ndarray:
    """64 × Fame + gold per player of a finished game (B8.9's order: Fame, then gold)."""
    fame = np.asarray(state.scores(), np.float64)
    return (targets.GOLD_PER_FAME * fame + np.asarray(state.gold(), np.float64)).astype(np.float32)


def _search_games(
    engine: ModuleType,
    config: TrainConfig,
    weights: Optional[Dict[str, np.ndarray]],
    iteration: int,
    modules: Tuple[str, ...],
    numbers: List[int],
    rows: selfplay_data.Rows,
) -> Dict[int, Any]:
    """Games `numbers` (of one module set) played in one search, their decisions added to
    `rows`; returns their final states by number."""
    game = engine.Game(num_players=config.players, **module_sets.game_options(modules))
    base = iteration_seed(config.seed, iteration)
    first, count = numbers[0], len(numbers)
    chance = [np.random.default_rng(arena.chance_seed(base, g)) for g in numbers]
    evaluate = None if weights is None else leaf_evaluator(engine, weights, game, config.features)
    states = []
    for number, rng in zip(numbers, chance):
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_random_chance(rng)
        if evaluate is not None and endgame_start(config, number):
            sampler = np.random.default_rng(arena.bot_seed(base, number, 10))
            play_to_endgame(evaluate, state, rng, sampler)
        states.append(state)
    search = engine.PuctSearch(
        states,
        simulations=config.simulations,
        seed=(base + first) & arena.SEED_MASK,
        gumbel={"max_considered": config.max_considered},
    )
    if evaluate is None:
        from ..neural import heuristic_evaluator

        evaluate = heuristic_evaluator(search)
    searching = list(range(count))  # games whose root waits for a search
    # Per game, its round-6 samples awaiting the solver (rescore): (row, state).
    tails: List[List[Tuple[int, Any]]] = [[] for _ in range(count)]
    while searching:
        search.run(evaluate, config.search_batch)
        results = search.result_arrays()
        next_searching = []
        for k in searching:
            state = states[k]
            action = int(results["selected"][k])
            if np.count_nonzero(results["legal"][k]) > 1:
                visits = results["visits"][k].astype(np.float64)
                if config.rescore_nodes and state.to_dict()["round"] == ENDGAME_ROUND:
                    tails[k].append((rows.count, state.clone()))
                rows.add(
                    state,
                    numbers[k],
                    (visits / visits.sum()).astype(np.float32),
                    action,
                    target=results["improved_policy"][k].astype(np.float32),
                    root_value=results["value"][k].astype(np.float32),
                    final_score=np.zeros(config.players, np.float32),  # set at the end
                    exact_margin=exact_margin(None, config.players),  # rescore sets it
                )
            state.apply_action(action)
            while state.is_chance_node():
                state.apply_random_chance(chance[k])
            if state.is_terminal():
                rescore(engine, config, rows, tails[k])
            else:
                search.advance(k, state)  # keeps the subtree, starts this tree's next search
                next_searching.append(k)
        searching = next_searching
    return dict(zip(numbers, states))


def _shard(
    payload: Tuple[str, str, Optional[Dict[str, np.ndarray]], int, int, int],
) -> Tuple[bytes, int]:
    """A worker's part: its games as the bytes of a shard file (written by the driver)."""
    engine_name, config_json, weights, iteration, first, count = payload
    config = TrainConfig.from_json(config_json)
    return _games(
        arena.engine_module(engine_name), config, weights, iteration, first, count
    ).shard()


def shards(
    config: TrainConfig,
    weights: Optional[Dict[str, np.ndarray]],
    iteration: int,
    engine: str = "fast",
) -> List[Tuple[distributed.Shard, Tuple[int, int]]]:
    """The shards of an iteration's games with their (first game, count)."""
    out = []
    for first, count in distributed.ranges(config.games, config.shard_games):
        payload = (engine, config.to_json(), weights, iteration, first, count)
        out.append(
            (
                distributed.Shard(
                    _shard,
                    payload,
                    count,
                    f"iteration {iteration} games {first}..{first + count - 1}",
                ),
                (first, count),
            )
        )
    return out


def play(
    config: TrainConfig,
    weights: Optional[Dict[str, np.ndarray]],
    iteration: int,
    first: int,
    count: int,
    engine: str = "fast",
) -> Dict[str, np.ndarray]:
    """Games first..first+count-1 of `iteration`, played here (for tests and the API)."""
    rows = _games(arena.engine_module(engine), config, weights, iteration, first, count)
    return rows.arrays()
