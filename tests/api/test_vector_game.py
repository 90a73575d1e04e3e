"""`VectorGame` (docs/api.md): a batch of games stepped together, chance sampled inside from one
splitmix64 stream per environment (seed + i), auto-reset with the finished game kept in the
final_* arrays. Both engines must give identical numbers for the same seed and actions."""

import importlib
import pickle

import numpy as np
import pytest

from positions import NUM_DISTINCT_ACTIONS

GOLDEN = 0x9E3779B97F4A7C15  # splitmix64: the k-th number of stream s is mix(s + k * GOLDEN)
M64 = 2**64 - 1


def snapshot(env):
    """Everything the environment shows, copied."""
    return {
        "mask": env.legal_actions_mask().copy(),
        "obs": env.observation_tensor().copy(),
        "player": env.current_player().copy(),
        "done": env.done.copy(),
        "scores": env.final_scores.copy(),
        "gold": env.final_gold.copy(),
        "returns": env.final_returns.copy(),
        "length": env.final_length.copy(),
        "final_obs": env.final_observation.copy(),
    }


def assert_same(a, b):
    for key in a:
        assert a[key].dtype == b[key].dtype, key
        np.testing.assert_array_equal(a[key], b[key], err_msg=key)


def random_legal(mask, rng):
    """One uniformly random legal action per row."""
    return np.array([rng.choice(np.flatnonzero(row)) for row in mask])


@pytest.mark.parametrize(
    "num_players, flags, batch, steps",
    [
        (2, {}, 3, 400),
        (3, {"auction": True, "special_tiles": True}, 2, 300),
        (4, {"draw13": True, "offer_by_colour": True, "weak_boatsmen": True}, 2, 300),
    ],
)
def test_engines_step_identically_through_auto_resets(engines, num_players, flags, batch, steps):
    envs = [vk.VectorGame(vk.Game(num_players=num_players, **flags), batch, 5) for vk in engines]
    rng = np.random.default_rng(num_players)
    finished = 0
    for _ in range(steps):
        views = [snapshot(env) for env in envs]
        assert_same(*views)
        actions = random_legal(views[0]["mask"], rng)
        for env in envs:
            env.step(actions)
        finished += int(envs[0].done.sum())
    assert finished >= batch  # every environment went through an auto-reset


def test_chance_comes_from_the_environments_own_stream(engine):
    """Environment 1 replayed by hand: chance from the splitmix64 stream of seed + 1, one number
    per chance node, sampled as apply_random_chance does; a finished game is recorded."""
    game = engine.Game(num_players=2)
    env = engine.VectorGame(game, 2, 40)
    rng = np.random.default_rng(0)
    stream = 40 + 1  # environment 1
    state = game.new_initial_state()

    def sample_chance():
        """apply_random_chance(int s) draws with u from mix(s): the stream's next number."""
        nonlocal stream
        while state.is_chance_node():
            state.apply_random_chance(stream)
            stream = (stream + GOLDEN) & M64

    sample_chance()
    for _ in range(400):
        assert env.current_player()[1] == state.current_player()
        np.testing.assert_array_equal(
            env.observation_tensor()[1], state.observation_tensor(state.current_player())
        )
        actions = random_legal(env.legal_actions_mask(), rng)
        player = state.current_player()
        state.apply_action(actions[1])
        sample_chance()
        env.step(actions)
        if state.is_terminal():
            assert env.done[1]
            assert list(env.final_scores[1]) == state.scores()
            assert list(env.final_gold[1]) == state.gold()
            assert list(env.final_returns[1]) == state.returns()
            assert env.final_length[1] == len(state.history())
            np.testing.assert_array_equal(
                env.final_observation[1], state.observation_tensor(player)
            )
            return
        assert not env.done[1]
    pytest.fail("no game finished in 400 steps")


def test_arrays_are_preallocated_and_typed(engine):
    game = engine.Game(num_players=3)
    env = engine.VectorGame(game, 4, 0)
    size = game.observation_shape()[0]
    mask, obs, players = env.legal_actions_mask(), env.observation_tensor(), env.current_player()
    assert (mask.shape, mask.dtype) == ((4, NUM_DISTINCT_ACTIONS), np.bool_)
    assert (obs.shape, obs.dtype) == ((4, size), np.float32)
    assert (players.shape, players.dtype) == ((4,), np.int32)
    assert env.batch_size == 4 and env.get_game() == game
    assert env.done.dtype == np.bool_ and env.final_length.dtype == np.int32
    assert env.final_scores.shape == env.final_gold.shape == env.final_returns.shape == (4, 3)
    assert env.final_observation.shape == (4, size) and not env.final_observation.any()
    assert mask.any(axis=1).all()  # every environment waits at a decision node
    assert ((players >= 0) & (players < 3)).all()
    done = env.step(mask.argmax(axis=1))
    assert done is env.done or np.array_equal(done, env.done)
    env.legal_actions_mask()
    assert np.shares_memory(mask, env.legal_actions_mask())  # written in place, every call


def test_same_seed_same_games_and_environments_differ(engine):
    game = engine.Game(num_players=2)
    a, b = engine.VectorGame(game, 3, 11), engine.VectorGame(game, 3, 11)
    assert_same(snapshot(a), snapshot(b))
    obs = a.observation_tensor()
    assert not np.array_equal(obs[0], obs[1]) or not np.array_equal(obs[1], obs[2])


@pytest.mark.parametrize(
    "args, error",
    [
        (("game", 2, 0), TypeError),
        ((None, 2, 0), TypeError),
        (("G", "2", 0), TypeError),
        (("G", 2.0, 0), TypeError),
        (("G", True, 0), TypeError),
        (("G", 0, 0), ValueError),
        (("G", -3, 0), ValueError),
        (("G", 2, "0"), TypeError),
        (("G", 2, 0.5), TypeError),
        (("G", 2, None), TypeError),
    ],
)
def test_constructor_errors_are_the_same_in_both_engines(engine, args, error):
    args = tuple(engine.Game(num_players=2) if a == "G" else a for a in args)
    with pytest.raises(error):
        engine.VectorGame(*args)


@pytest.mark.parametrize(
    "make_actions, error",
    [
        (lambda legal: legal[:1], ValueError),  # wrong shape
        (lambda legal: np.stack([legal, legal]), ValueError),
        (lambda legal: legal.astype(np.float64), TypeError),  # not integers
        (lambda legal: legal.astype(bool), TypeError),
        (lambda legal: [str(a) for a in legal], TypeError),
        (lambda legal: np.where(np.arange(3) == 2, 2035, legal), ValueError),  # illegal in env 2
        (lambda legal: np.where(np.arange(3) == 0, -1, legal), ValueError),
    ],
)
def test_step_errors_are_the_same_and_change_nothing(engine, make_actions, error):
    env = engine.VectorGame(engine.Game(num_players=2), 3, 2)
    before = snapshot(env)
    legal = before["mask"].argmax(axis=1)
    with pytest.raises(error):
        env.step(make_actions(legal))
    assert_same(snapshot(env), before)
    env.step(list(legal))  # a list of Python ints is fine
    assert not np.array_equal(env.observation_tensor(), before["obs"])


def test_seed_wraps_modulo_2_to_the_64(engine):
    game = engine.Game(num_players=2)
    assert_same(
        snapshot(engine.VectorGame(game, 2, -1)), snapshot(engine.VectorGame(game, 2, 2**64 - 1))
    )


# --- pickling (docs/api.md "VectorGame") ---------------------------------------------------------


def random_steps(env, steps, seed):
    """`steps` steps of uniformly random legal actions, chosen by numpy from `seed`."""
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        mask = env.legal_actions_mask()
        env.step(np.argmax(mask * rng.random(mask.shape), axis=1))


ARRAYS = (
    "done",
    "final_scores",
    "final_gold",
    "final_returns",
    "final_length",
    "final_observation",
)


def arrays_of(env):
    return {
        "players": env.current_player().copy(),
        "mask": env.legal_actions_mask().copy(),
        "observation": env.observation_tensor().copy(),
        **{name: getattr(env, name).copy() for name in ARRAYS},
    }


@pytest.mark.parametrize("num_players", [2, 4])
def test_a_pickled_vector_game_goes_on_as_the_original(engine, num_players):
    """The copy holds the same environments (positions, chance streams, game lengths) and the
    same done and final_* arrays, and the same steps then give the same arrays in both."""
    env = engine.VectorGame(engine.Game(num_players=num_players, auction=True), 3, 11)
    random_steps(env, 120 if engine.__name__ == "vikinger_fast" else 40, seed=1)
    copy = pickle.loads(pickle.dumps(env))
    assert type(copy) is type(env) and copy.batch_size == 3 and copy.get_game() == env.get_game()
    assert_same(arrays_of(copy), arrays_of(env))
    for seed in range(2, 30):
        random_steps(env, 10, seed)
        random_steps(copy, 10, seed)
        assert_same(arrays_of(copy), arrays_of(env))
    assert env.final_length.min() > 0  # games ended and were recorded on the way


def test_a_pickled_vector_game_is_independent(engine):
    env = engine.VectorGame(engine.Game(num_players=2), 2, 5)
    copy = pickle.loads(pickle.dumps(env))
    before = arrays_of(copy)
    random_steps(env, 3, seed=0)
    assert_same(arrays_of(copy), before)


def test_both_engines_pickle_the_same_data(engines):
    """The pickled data (position bytes, stream states, lengths, arrays) are equal, so either
    engine rebuilds the other's VectorGame."""
    ref, fast = engines
    envs = [vk.VectorGame(vk.Game(num_players=3), 2, 9) for vk in engines]
    for env in envs:
        random_steps(env, 25, seed=4)
    (_, ref_data), (_, fast_data) = (env.__reduce__() for env in envs)
    assert ref_data[1:4] == fast_data[1:4]
    assert_same(dict(zip(ARRAYS, ref_data[4:])), dict(zip(ARRAYS, fast_data[4:])))
    rebuilt = fast._core._vector_game_from_data(fast.Game(num_players=3), *ref_data[1:])
    assert_same(arrays_of(rebuilt), arrays_of(envs[1]))


def bad_data(engine):
    """(what, edit of the pickled data, error type) of data an edited pickle could carry."""
    env = engine.VectorGame(engine.Game(num_players=2), 2, 3)
    _, data = env.__reduce__()
    chance = engine.Game(num_players=2).new_initial_state().serialize()
    edits = {
        "game": (lambda d: ("2p",) + d[1:], TypeError),
        "positions list": (lambda d: (d[0], list(d[1])) + d[2:], TypeError),
        "no environments": (lambda d: (d[0], (), (), ()) + d[4:], ValueError),
        "lengths differ": (lambda d: d[:3] + (d[3][:1],) + d[4:], ValueError),
        "position text": (lambda d: (d[0], ("x", d[1][1])) + d[2:], TypeError),
        "bad bytes": (lambda d: (d[0], (b"VKNG", d[1][1])) + d[2:], ValueError),
        "chance node": (lambda d: (d[0], (chance, d[1][1])) + d[2:], ValueError),
        "stream float": (lambda d: d[:2] + ((1.5, d[2][1]),) + d[3:], TypeError),
        "stream beyond uint64": (lambda d: d[:2] + ((2**64, d[2][1]),) + d[3:], ValueError),
        "negative stream": (lambda d: d[:2] + ((-1, d[2][1]),) + d[3:], ValueError),
        "negative length": (lambda d: d[:3] + ((-1, d[3][1]),) + d[4:], ValueError),
        "huge length": (lambda d: d[:3] + ((2**40, d[3][1]),) + d[4:], ValueError),
        "array dtype": (lambda d: d[:4] + (d[4].astype(np.int8),) + d[5:], TypeError),
        "array shape": (lambda d: d[:5] + (d[5][:1],) + d[6:], ValueError),
        "arrays missing": (lambda d: d[:-1], TypeError),
    }
    return data, edits


@pytest.mark.parametrize("what", list(bad_data(__import__("vikinger_ref"))[1]))
def test_edited_pickle_data_is_refused_alike(engines, what):
    """Each edit raises the same error with the same message in both engines."""
    raised = []
    for engine, rebuild in zip(engines, ("vector_game_from_data", "_vector_game_from_data")):
        data, edits = bad_data(engine)
        edit, error = edits[what]
        function = (
            engine._core
            if engine.__name__ == "vikinger_fast"
            else importlib.import_module("vikinger_ref.vector_game")
        )
        with pytest.raises(error) as info:
            getattr(function, rebuild)(*edit(data))
        raised.append(str(info.value))
    assert raised[0] == raised[1]
