"""The bounds the adapters declare (src/vikinger_fast/adapters/spec.py, derived in
docs/adapters.md) hold over random games of every configuration: 2-4 players x the 32 module
sets, on both engines (the reference on fewer games: it is slow)."""

import itertools
import random

import numpy as np
import pytest

from positions import FLAGS
from tools.random_games import random_game
from vikinger_fast.adapters import spec

ALL_CONFIGS = [
    (n, dict(zip(FLAGS, bits)))
    for n in (2, 3, 4)
    for bits in itertools.product((False, True), repeat=5)
]
FIRST_BID = 675  # docs/actions.md: BID k is 675 + k


def play(engine, num_players, modules, seed, long_auctions):
    """One seeded game; returns (decisions, chance nodes, lowest and highest observation
    entries seen). With `long_auctions` every bidder raises by the least it can (A1), which
    makes auctions as long as they get among these policies."""
    rng = random.Random(seed)
    game = engine.Game(num_players=num_players, **modules)
    low, high = spec.observation_bounds(game)
    state = game.new_initial_state()
    decisions = chances = 0
    seen_low = np.full_like(low, np.inf)
    seen_high = np.full_like(high, -np.inf)

    def observe(player):
        obs = state.observation_tensor(player)
        np.minimum(seen_low, obs, out=seen_low)
        np.maximum(seen_high, obs, out=seen_high)

    while not state.is_terminal():
        if state.is_chance_node():
            chances += 1
            state.apply_random_chance(rng.getrandbits(64))
            continue
        decisions += 1
        observe(state.current_player())
        legal = state.legal_actions()
        bids = [a for a in legal if a >= FIRST_BID and a < FIRST_BID + spec.MAX_BID + 1]
        state.apply_action(min(bids) if long_auctions and bids else rng.choice(legal))
    for player in range(num_players):
        observe(player)
    return decisions, chances, seen_low, seen_high, (low, high)


def check_config(engine, num_players, modules, games):
    for seed in range(games):
        decisions, chances, seen_low, seen_high, (low, high) = play(
            engine, num_players, modules, seed, long_auctions=seed % 2 == 1
        )
        assert decisions <= spec.max_decisions(num_players, modules), (num_players, modules)
        assert chances <= spec.max_chance_nodes(modules), (num_players, modules)
        outside = np.flatnonzero((seen_low < low) | (seen_high > high))
        assert outside.size == 0, f"observation entries {outside[:10]} out of bounds"


@pytest.mark.parametrize(
    "num_players,modules",
    ALL_CONFIGS,
    ids=[f"{n}p-" + "".join(str(int(v)) for v in m.values()) for n, m in ALL_CONFIGS],
)
def test_bounds_hold_in_random_games_of_every_configuration(num_players, modules):
    import vikinger_fast

    check_config(vikinger_fast, num_players, modules, games=16)


@pytest.mark.parametrize(
    "num_players,modules",
    [(2, {}), (3, dict.fromkeys(FLAGS, True)), (4, {"auction": True, "draw13": True})],
)
def test_bounds_hold_on_both_engines(engine, num_players, modules):
    check_config(engine, num_players, modules, games=2)


def test_chance_nodes_are_exact_without_special_tiles(engine):
    """Without A5 every game has exactly 72 tile reveals and 12 (A2: 13) draws a round."""
    for modules in ({}, {"draw13": True}):
        _, chances, _, _, _ = play(engine, 2, modules, seed=3, long_auctions=False)
        assert chances == spec.max_chance_nodes(modules)


def test_length_bound_counts_each_module():
    base = spec.max_decisions(2, dict.fromkeys(FLAGS, False))
    assert base == 6 * 12 * 3 + 2 + 13 + 65 + 3 * 2 == 302  # docs/adapters.md's table
    assert spec.max_decisions(4, dict.fromkeys(FLAGS, True)) == 3132
    assert sum(money + 1 for money in spec.MONEY_AT_AUCTION) == 2692
    for flag in FLAGS:
        options = dict.fromkeys(FLAGS, False) | {flag: True}
        # A4 adds no decision kind: a weak trip is still one decision per boatsman and target.
        assert (spec.max_decisions(2, options) > base) == (flag != "weak_boatsmen")


def test_fame_margin_and_win_share_rewards(engine):
    state = random_game(engine, 5, num_players=3)
    fame = state.scores()
    assert spec.final_rewards(state, "win_share") == state.returns()
    margins = spec.final_rewards(state, "fame_margin")
    assert margins == [fame[p] - max(f for q, f in enumerate(fame) if q != p) for p in range(3)]
    with pytest.raises(ValueError, match="reward"):
        spec.check_reward("score")
