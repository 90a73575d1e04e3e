"""Seeded random games to the end, with the invariants checked after every action.

Chance outcomes come from `apply_random_chance(int seed)`, decisions from a seeded
`random.Random` (`tools/random_games.py`), so a game is a function of its seed. The default run
plays a few games per player count; `-m slow` plays many more.
"""

import math
import pickle
import random

import numpy as np
import pytest

from conservation import count_tiles, count_vikings
from positions import (
    CHANCE,
    COLOURS,
    KINDS,
    NUM_DISTINCT_ACTIONS,
    PRINTED,
    REVEAL,
    STACK_TILES,
    TERMINAL,
    VIKINGS_PER_COLOUR,
)
from tools.random_games import step_random

M64 = 2**64 - 1


def check_invariants(game, state):
    d = state.to_dict()
    n = game.num_players
    over = d["phase"] == "game_over"

    assert count_vikings(d) == dict.fromkeys(COLOURS, VIKINGS_PER_COLOUR)  # B1.1
    tiles, start_tiles = count_tiles(d)
    assert all(tiles[k] <= PRINTED[k] for k in KINDS)  # B1.2-B1.4
    assert sum(tiles.values()) + d["discarded_tiles"] == STACK_TILES
    assert start_tiles == sum(p["start_row"] is not None for p in d["players"])
    for p in d["players"]:
        if p["start_row"] is None:
            assert p["rows"] == [""] * 5
        else:
            assert p["rows"][p["start_row"] - 1][:1] == "L"  # B6.0
        for r, (cells, columns) in enumerate(zip(p["rows"], p["vikings"]), start=1):
            assert columns == sorted(set(columns))  # one per tile
            assert all(1 <= c <= len(cells) and cells[c - 1] != "." for c in columns)
            assert cells[:1] in ("", ".", "L")  # B2.3
        assert p["gold"] >= 0
        if not over:
            assert p["fame"] >= 0  # B5.5, B8.8

    legal = state.legal_actions()
    mask = state.legal_actions_mask()
    assert isinstance(legal, list) and legal == sorted(legal)
    assert mask.dtype == np.bool_ and mask.shape == (NUM_DISTINCT_ACTIONS,)
    assert legal == np.flatnonzero(mask).tolist()
    if state.is_chance_node():
        assert state.current_player() == CHANCE
        outcomes = state.chance_outcomes()
        assert legal == [a for a, _ in outcomes]
        assert math.isclose(sum(p for _, p in outcomes), 1.0)
    elif over:
        assert state.is_terminal() and state.current_player() == TERMINAL and legal == []
    else:
        assert 0 <= state.current_player() < n and legal
        if d["phase"] == "buy":
            assert state.current_player() == (d["start_player"] + d["purchases"]) % n  # B5.1

    assert state.observation_tensor(0).shape == game.observation_shape()

    assert game.state_from_dict(d) == state
    back = game.deserialize_state(state.serialize())
    assert back == state and back.hash_key() == state.hash_key()
    assert pickle.loads(pickle.dumps(state)) == state

    copy = state.clone()
    assert copy == state
    if not over:
        step_random(copy, random.Random(0))
        assert state.to_dict() == d  # independent


def play_checked(engine, num_players, seed):
    game = engine.Game(num_players=num_players)
    state = game.new_initial_state()
    rng = random.Random(seed)
    check_invariants(game, state)
    while not state.is_terminal():
        step_random(state, rng)
        check_invariants(game, state)
    replay = game.new_initial_state()
    for action in state.history():
        replay.apply_action(action)
    assert replay == state
    assert replay.to_dict() == state.to_dict()
    assert len(state.returns()) == num_players and math.isclose(sum(state.returns()), 1.0)
    return state


@pytest.mark.parametrize("num_players", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2])
def test_random_game_keeps_the_invariants(engine, num_players, seed):
    state = play_checked(engine, num_players, seed=1000 * num_players + seed)
    d = state.to_dict()
    assert d["round"] == 6 and d["phase"] == "game_over"


@pytest.mark.slow
@pytest.mark.parametrize("num_players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(3, 23))
def test_many_random_games_keep_the_invariants(engine, num_players, seed):
    play_checked(engine, num_players, seed=1000 * num_players + seed)


# --- the engines agree step by step ------------------------------------------------------------


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_engines_agree_on_a_random_game(engines, num_players):
    """Every field of the soak's full comparison (vikinger_fast.differential) after every action
    of a game played with `step_random`, not with the soak's own seeded play."""
    from vikinger_fast.differential import FULL_FIELDS, compare_fields

    ref, fast = engines
    states = [vk.Game(num_players=num_players).new_initial_state() for vk in (ref, fast)]
    rngs = [random.Random(77 + num_players) for _ in states]
    while True:
        found = compare_fields(*states, FULL_FIELDS)
        assert found is None, f"engines differ after history {states[0].history()}: {found}"
        if states[0].is_terminal():
            break
        applied = [step_random(s, r) for s, r in zip(states, rngs)]
        assert applied[0] == applied[1]


# --- apply_random_chance follows docs/api.md exactly ---------------------------------------------


def mix(x):
    """splitmix64 finaliser (docs/state.md)."""
    x = (x + 0x9E3779B97F4A7C15) & M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & M64
    return x ^ (x >> 31)


def documented_outcome(counts, u):
    """The first id, in id order, whose running count exceeds floor(u * total)."""
    x = math.floor(u * sum(counts))
    running = 0
    for action, count in enumerate(counts):
        running += count
        if running > x:
            return action
    raise AssertionError("u out of range")


TILE_COUNTS = [PRINTED[k] for k in KINDS]


@pytest.mark.parametrize("seed", [0, 1, 7, 12345, 2**32 + 1, 2**63, M64])
def test_int_seed_draws_the_documented_outcome(engine, seed):
    state = engine.Game(num_players=2).new_initial_state()
    u = (mix(seed & M64) >> 11) * 2.0**-53
    expected = documented_outcome(TILE_COUNTS, u)
    assert state.apply_random_chance(seed) == expected
    assert state.history() == [expected]


@pytest.mark.parametrize("seed", [-1, -12345, 2**64 + 5, 2**100])
def test_int_seed_is_taken_mod_2_to_the_64(engine, seed):
    state = engine.Game(num_players=2).new_initial_state()
    u = (mix(seed % 2**64) >> 11) * 2.0**-53
    assert state.apply_random_chance(seed) == documented_outcome(TILE_COUNTS, u)


def test_generator_draws_rng_random(engine):
    state = engine.Game(num_players=2).new_initial_state()
    for kind in ["left"] * 8 + ["ship_red"] * 2 + ["ship_green"] * 2:
        state.apply_action(REVEAL(kind))
    rng = np.random.default_rng(2024)
    twin = np.random.default_rng(2024)
    expected = documented_outcome([13] * 6, twin.random())  # chance ids 10..15
    assert state.apply_random_chance(rng) == 10 + expected
    assert rng.random() == twin.random()  # exactly one draw taken
