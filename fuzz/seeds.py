"""Seed positions of the fuzzers: real states from seeded random games.

Mutations start next to valid input, so they reach the deep checks of docs/state.md: `seed_dicts`
gives the `to_dict()` of states of every phase of every round of a few configurations (the base
game for 2-4 players and mixes of the advanced modules A1-A5), and `game_cache` the Game objects
the fuzzers reuse for every input.
"""

import random

from vikinger_ref import OPTION_NAMES

_ALL = dict.fromkeys(OPTION_NAMES, True)
CONFIGS = (
    (2, {}), (3, {}), (4, {}),
    (2, _ALL),
    (3, {"auction": True, "special_tiles": True}),
    (4, {"draw13": True, "offer_by_colour": True, "weak_boatsmen": True}),
)


def make_game(engine, num_players, flags):
    return engine.Game(num_players=num_players, **flags)


def random_game_states(engine, num_players, flags, seed, every=1, max_steps=2000):
    """States along one random game (clones), every `every` actions, the terminal one last."""
    rng = random.Random(seed)
    state = make_game(engine, num_players, flags).new_initial_state()
    states = []
    for step in range(max_steps):
        if step % every == 0:
            states.append(state.clone())
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_random_chance(rng.getrandbits(64))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    if not states[-1].is_terminal():
        states.append(state.clone())
    return states


def seed_dicts(engine, configs=CONFIGS, games_per_config=1, every=7):
    """[(num_players, flags, dict)] from seeded random games."""
    seeds = []
    for index, (n, flags) in enumerate(configs):
        for g in range(games_per_config):
            for state in random_game_states(engine, n, flags, seed=1000 * index + g, every=every):
                seeds.append((n, flags, state.to_dict()))
    return seeds


def game_cache():
    """`game(module, n, flags)`, memoised: building a Game for every fuzz input would dominate."""
    games = {}

    def game(module, n, flags):
        key = (module.__name__, n, tuple(flags))
        if key not in games:
            games[key] = make_game(module, n, flags)
        return games[key]

    return game
