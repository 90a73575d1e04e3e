"""Playouts from any state (docs/search.md "Playouts"): the same arrays in both engines from
random mid-game states of sampled configurations, rollouts' games from the initial state, and
the errors."""

import numpy as np
import pytest

from conftest import load_engine
from search_positions import position_pairs, random_history, replay

KEYS = ("scores", "gold", "returns", "length")


def same(a, b):
    return all(a[key].dtype == b[key].dtype and np.array_equal(a[key], b[key]) for key in KEYS)


def test_playouts_equal_between_engines_from_mid_game_states(engines):
    ref, fast = engines
    for index, (_, state_ref, state_fast) in enumerate(position_pairs(engines, 40, seed=1)):
        a = ref.playouts(state_ref, 3, 1000 + index)
        b = fast.playouts(state_fast, 3, 1000 + index, threads=2)
        assert same(a, b), (index, state_ref.history())


def test_playouts_from_the_initial_state_are_rollouts(engine):
    for num_players in (2, 3, 4):
        game = engine.Game(num_players, special_tiles=num_players == 3)
        a = engine.playouts(game.new_initial_state(), 4, 2**64 - 2)
        b = engine.rollouts(game, 4, 2**64 - 2)
        assert same(a, b)


def test_fast_playouts_match_rollouts_at_scale():
    import vikinger_fast as fast

    game = fast.Game(2)
    assert same(
        fast.playouts(game.new_initial_state(), 3000, 77, threads=2), fast.rollouts(game, 3000, 77)
    )


def test_base_game_playouts_hand_over_to_the_fused_playout_identically(engines):
    # Base-game playouts from mid-round states run the generic loop to the next round's start,
    # then the fused playout (playouts.h): the reference plays every node the generic way.
    ref, fast = engines
    for steps in (1, 30, 95, 170, 260, 333, 420, 555):
        history = random_history(ref, 2, {}, steps, steps)
        a = ref.playouts(replay(ref, 2, {}, history), 2, steps)
        b = fast.playouts(replay(fast, 2, {}, history), 2, steps)
        assert same(a, b), steps


def test_batch_rows_are_the_single_state_playouts(engine):
    ref = load_engine("ref")
    states = [
        replay(engine, 3, {"draw13": True}, random_history(ref, 3, {"draw13": True}, s, s))
        for s in (10, 200, 400)
    ]
    batch = engine.playouts_batch(states, 2, 40)
    assert batch["scores"].shape == (3, 2, 3) and batch["length"].shape == (3, 2)
    for j, state in enumerate(states):
        single = engine.playouts(state, 2, 40 + 2 * j)
        assert all(np.array_equal(batch[key][j], single[key]) for key in KEYS)


def test_playouts_do_not_change_the_state(engine):
    state = engine.Game(3).new_initial_state()
    for _ in range(30):
        state.apply_random_chance(3) if state.is_chance_node() else state.apply_action(
            state.legal_actions()[-1]
        )
    before = state.serialize()
    engine.playouts(state, 2, 9)
    assert state.serialize() == before


def test_length_counts_the_playouts_own_actions(engine):
    state = engine.Game(2).new_initial_state()
    full = engine.playouts(state, 1, 3)["length"][0]
    for _ in range(10):
        state.apply_random_chance(4)
    assert engine.playouts(state, 1, 3)["length"][0] < full


@pytest.mark.parametrize(
    "args, error, message",
    [
        (("not a state", 1, 0), TypeError, "state must be a State, not str"),
        (("STATE", 1.0, 0), TypeError, "num_playouts must be an int, not float"),
        (("STATE", -1, 0), ValueError, "num_playouts must be >= 0, not -1"),
        (("STATE", 1, 0, 0), ValueError, "threads must be >= 1, not 0"),
    ],
)
def test_playout_errors(engine, args, error, message):
    state = engine.Game(2).new_initial_state()
    args = tuple(state if a == "STATE" else a for a in args)
    with pytest.raises(error, match=message):
        engine.playouts(*args)


def test_batch_errors(engine):
    a = engine.Game(2).new_initial_state()
    b = engine.Game(3).new_initial_state()
    with pytest.raises(ValueError, match="states must all be of one game"):
        engine.playouts_batch([a, b], 1, 0)
    with pytest.raises(ValueError, match="states must not be empty"):
        engine.playouts_batch([], 1, 0)
    with pytest.raises(TypeError, match="every item of states must be a State, not int"):
        engine.playouts_batch([a, 3], 1, 0)


def test_fused_hand_over_ends_where_the_generic_loop_does(engines):
    # Every node of random base games, for 2-4 players: entering the fused playout at the first
    # round or purchase start must not change the game (the position bytes at the end).
    ref, fast = engines
    for num_players in (2, 3, 4):
        history = random_history(ref, num_players, {}, num_players, 10_000)
        state = fast.Game(num_players).new_initial_state()
        for k, action in enumerate(history):
            assert fast._core._playout_position(
                state, k, fused=True
            ) == fast._core._playout_position(state, k, fused=False), k
            state.apply_action(action)
