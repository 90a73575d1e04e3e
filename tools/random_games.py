"""Seeded random games for the tests, the benchmarks and the fuzzers: the one way this checkout
plays "a random game until X", so that a game is the same function of its seed everywhere.

A game is driven by `random.Random(seed)`: at a chance node the outcome comes from
`apply_random_chance(rng.getrandbits(64))`, at a decision node `rng.choice(legal_actions())`.
"""

import random


def new_state(engine, num_players=2, flags=()):
    """The initial state of a game of `engine` with the module flags `flags` (names, or a dict
    of them to bools)."""
    options = flags if isinstance(flags, dict) else dict.fromkeys(flags, True)
    return engine.Game(num_players=num_players, **options).new_initial_state()


def step_random(state, rng):
    """One random step: a chance outcome from an int seed, or a decision chosen by `rng` (a
    seeded `random.Random`). Returns the action applied."""
    if state.is_chance_node():
        return state.apply_random_chance(rng.getrandbits(64))
    action = rng.choice(state.legal_actions())
    state.apply_action(action)
    return action


def play_until(state, seed, stop=None, *, required=False):
    """Plays `state` on in place with `random.Random(seed)` until `stop(state)` is true or the
    game ends; returns it. `required`: AssertionError if the game ends before `stop` is met."""
    rng = random.Random(seed)
    while not (stop is not None and stop(state)):
        if state.is_terminal():
            if required:
                raise AssertionError(f"seed {seed}: the game ended before the wanted position")
            break
        step_random(state, rng)
    return state


def random_game(engine, seed, num_players=2, flags=(), stop=None, *, required=False):
    """A seeded random game of `engine`, to the end or to the first state where `stop(state)`."""
    return play_until(new_state(engine, num_players, flags), seed, stop, required=required)


def random_game_states(engine, num_players, flags, seed, every=1, max_steps=2000):
    """States along one seeded random game (clones) every `every` actions, the terminal one
    last (a game longer than `max_steps` actions is cut there)."""
    rng = random.Random(seed)
    state = new_state(engine, num_players, flags)
    states = []
    for step in range(max_steps):
        if step % every == 0:
            states.append(state.clone())
        if state.is_terminal():
            break
        step_random(state, rng)
    if not states[-1].is_terminal():
        states.append(state.clone())
    return states
