"""A whole game played by one bot at every decision (chance drawn from the seed): the moves, each
checked legal, so two engines' runs can be compared move for move."""

import numpy as np


def play_game(game, bot, seed):
    """The bot's moves in a game of `game` from its start, chance outcomes from `seed`."""
    state = game.new_initial_state()
    rng = np.random.default_rng(seed)
    moves = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_random_chance(rng)
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        moves.append(action)
        state.apply_action(action)
    return moves
