"""Seed positions of the fuzzers: real states from seeded random games.

Mutations start next to valid input, so they reach the deep checks of docs/state.md: `seed_dicts`
gives the `to_dict()` of states of every phase of every round of a few configurations (the base
game for 2-4 players and mixes of the advanced modules A1-A5), and `game_cache` the Game objects
the fuzzers reuse for every input.
"""

from vikinger_ref import OPTION_NAMES

from tools.random_games import random_game_states

_ALL = dict.fromkeys(OPTION_NAMES, True)
CONFIGS = (
    (2, {}),
    (3, {}),
    (4, {}),
    (2, _ALL),
    (3, {"auction": True, "special_tiles": True}),
    (4, {"draw13": True, "offer_by_colour": True, "weak_boatsmen": True}),
)


def make_game(engine, num_players, flags):
    return engine.Game(num_players=num_players, **flags)


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
