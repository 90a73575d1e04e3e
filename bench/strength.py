"""Bot against bot, 2-player base game, seats alternated (docs/search.md "Strength").

    python bench/strength.py greedy random 200
    python bench/strength.py mcts:1000 greedy 200        # MCTS at 1000 iterations a move
    python bench/strength.py mcts:0.1s random 200        # MCTS at 0.1 s a move
    python bench/strength.py mcts-eval:1000 greedy 200   # MCTS with evaluation leaves

Prints the first bot's score (win shares, a tie counting its share) with a 95 % Wilson
interval. Chance nodes are sampled with a seeded numpy generator; game g uses seed g.
"""

import math
import sys

import numpy as np

import vikinger_fast as vk
from vikinger_fast import arena


def make_bot(spec, game, seed):
    if spec == "random":
        return vk.RandomBot(game, seed)
    if spec == "greedy":
        return vk.GreedyBot(game, seed)
    kind, budget = spec.split(":")
    assert kind in ("mcts", "mcts-eval"), spec
    leaf = "evaluation" if kind == "mcts-eval" else "playout"
    if budget.endswith("s"):
        return vk.MCTSBot(game, seed, max_time=float(budget[:-1]), leaf=leaf)
    return vk.MCTSBot(game, seed, iterations=int(budget), leaf=leaf)


def play(first, second, game_index):
    """The first bot's return in game `game_index` (it sits in seat game_index % 2)."""
    game = vk.Game(num_players=2)
    seat = game_index % 2
    bots = [make_bot(first, game, 2 * game_index), make_bot(second, game, 2 * game_index + 1)]
    if seat == 1:
        bots.reverse()
    state = arena.play_bots(game.new_initial_state(), bots, np.random.default_rng(game_index))
    return state.returns()[seat]


def wilson(mean, n, z=1.96):
    centre = (mean + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(mean * (1 - mean) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main(first, second, games):
    scores = [play(first, second, g) for g in range(games)]
    mean = sum(scores) / games
    low, high = wilson(mean, games)
    print(
        f"{first} vs {second}: {mean:.3f} over {games} games, 95% interval [{low:.3f}, {high:.3f}]",
        flush=True,
    )


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
