"""Random mid-game positions for the search tests, the same in both engines.

A position is reached by a history played in the reference (chance by apply_random_chance with
seeds of a Python Random, decisions uniformly at random) and replayed id by id in the other
engine. Configurations are sampled over players 2-4 and the 32 module combinations.
"""

import random

from positions import FLAGS


def config(index):
    """Configuration `index` of the 96: (num_players, flags dict)."""
    index %= 96
    return 2 + index % 3, {name: bool((index // 3 >> k) & 1) for k, name in enumerate(FLAGS)}


def random_history(ref, num_players, flags, seed, steps, decision=False):
    """The actions of a random game of the reference, `steps` long or shorter; with `decision`
    the history is cut back to end at a decision node (None if it has none)."""
    state = ref.Game(num_players, **flags).new_initial_state()
    rng = random.Random(seed)
    at_decision = []
    while len(state.history()) < steps and not state.is_terminal():
        if state.is_chance_node():
            state.apply_random_chance(rng.getrandbits(64))
        else:
            at_decision.append(len(state.history()))
            state.apply_action(rng.choice(state.legal_actions()))
    history = state.history()
    if not decision:
        return history
    if state.current_player() >= 0:
        return history
    return history[: at_decision[-1]] if at_decision else None


def every_configuration(ref, seed, max_steps):
    """(index, num_players, flags, history) of one mid-game decision node in each of the 96
    configurations, the histories drawn from Random(seed), each under `max_steps` long."""
    rng = random.Random(seed)
    for index in range(96):
        num_players, flags = config(index)
        history = None
        while history is None:
            game_seed, steps = rng.getrandbits(32), rng.randrange(max_steps)
            history = random_history(ref, num_players, flags, game_seed, steps, decision=True)
        yield index, num_players, flags, history


def past_chance(state, seed):
    """`state` (changed in place) after the chance nodes it stands at, drawn with the seeds
    seed, seed + 1, ..."""
    while state.is_chance_node():
        state.apply_random_chance(seed)
        seed += 1
    return state


def first_decision(engine):
    """The first decision node of a 3-player game (chance by seeds 1, 2, ...)."""
    return past_chance(engine.Game(3).new_initial_state(), 1)


def replay(engine, num_players, flags, history):
    state = engine.Game(num_players, **flags).new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


def position_pairs(engines, count, seed=0, decision=False, max_steps=700):
    """`count` (config, ref state, fast state) over sampled configurations."""
    ref, fast = engines
    rng = random.Random(seed)
    pairs = []
    while len(pairs) < count:
        num_players, flags = config(rng.randrange(96))
        history = random_history(
            ref, num_players, flags, rng.getrandbits(32), rng.randrange(max_steps), decision
        )
        if history is None:
            continue
        pairs.append(
            (
                (num_players, flags),
                replay(ref, num_players, flags, history),
                replay(fast, num_players, flags, history),
            )
        )
    return pairs


def by_game(pairs):
    """position_pairs grouped by game: {(players, sorted flag items): ([ref states], [fast
    states])}, for searches of many roots of one game."""
    groups = {}
    for (n, flags), ref_state, fast_state in pairs:
        key = (n, tuple(sorted(flags.items())))
        groups.setdefault(key, ([], []))
        groups[key][0].append(ref_state)
        groups[key][1].append(fast_state)
    return groups
