"""Hostile actions and ids at the adapters (issue "actions and ids are ints"): floats, bools,
arrays and strings are a TypeError with the engine's own message, a negative or too large id a
ValueError (never wrapped, never truncated), numpy integers of every type accepted; on both
engines, compared with what the engine's State.apply_action / action_to_string say."""

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
from vikinger_fast.adapters.gymnasium import VikingerEnv  # noqa: E402
from vikinger_fast.adapters.pettingzoo import raw_env  # noqa: E402

NOT_INTS = [2.5, 1.0, True, np.bool_(True), np.float32(3), "3", None, np.array([1, 2]), [1]]
INT_TYPES = [int, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


def engine_error(engine, call):
    """(type, message) of what the engine raises for `call(state)`."""
    state = engine.Game().new_initial_state()
    while state.is_chance_node():
        state.apply_random_chance(0)
    with pytest.raises(Exception) as caught:
        call(state)
    return type(caught.value), str(caught.value)


def raised(call):
    with pytest.raises(Exception) as caught:
        call()
    return type(caught.value), str(caught.value)


@pytest.mark.parametrize("illegal_action", ["replace", "raise", "penalize"])
@pytest.mark.parametrize("action", NOT_INTS, ids=repr)
def test_gymnasium_refuses_non_int_actions_as_the_engine(engine, illegal_action, action):
    env = VikingerEnv(engine=engine, illegal_action=illegal_action)
    env.reset(seed=0)
    history = env.state.history()
    expected = engine_error(engine, lambda s: s.apply_action(action))
    assert expected[0] is TypeError
    assert raised(lambda: env.step(action)) == expected
    assert env.state.history() == history


@pytest.mark.parametrize("kind", INT_TYPES)
def test_gymnasium_takes_every_numpy_integer(engine, kind):
    env = VikingerEnv(engine=engine, illegal_action="raise")
    env.reset(seed=0)
    env.step(kind(int(np.flatnonzero(env.action_masks())[0])))
    env.step(np.array(int(np.flatnonzero(env.action_masks())[0])))  # a 0-d array is an int


def test_gymnasium_negative_and_huge_ids_are_illegal_not_wrapped(engine):
    env = VikingerEnv(engine=engine, illegal_action="raise")
    env.reset(seed=0)
    for action in (-1, -2036, 2036, 2**70, np.int64(-1)):
        with pytest.raises(ValueError, match="not legal"):
            env.step(action)


@pytest.mark.parametrize(
    "seat, error, message",
    [
        (1.5, TypeError, "seat must be an int, not float"),
        (True, TypeError, "seat must be an int, not bool"),
        (None, TypeError, "seat must be an int, not NoneType"),
        (np.array([1]), TypeError, "seat must be an int, not ndarray"),
        (-1, ValueError, "seat -1 is outside 0..1"),
        (2, ValueError, "seat 2 is outside 0..1"),
        ("left", ValueError, "seat must be one of"),
    ],
)
def test_gymnasium_refuses_bad_seats_at_construction(engine, seat, error, message):
    with pytest.raises(error, match=message):
        VikingerEnv(engine=engine, seat=seat)
    env = VikingerEnv(engine=engine)
    with pytest.raises(error, match=message):
        env.reset(options={"seat": seat})


@pytest.mark.parametrize("kind", INT_TYPES)
def test_gymnasium_takes_numpy_integer_seats(engine, kind):
    env = VikingerEnv(engine=engine, seat=kind(1))
    env.reset(seed=0)
    assert env.seat == 1 and type(env.seat) is int


@pytest.mark.parametrize("action", NOT_INTS, ids=repr)
def test_pettingzoo_refuses_non_int_actions_as_the_engine(engine, action):
    env = raw_env(engine=engine)
    env.reset(seed=0)
    history = env.state.history()
    expected = engine_error(engine, lambda s: s.apply_action(action))
    assert raised(lambda: env.step(action)) == expected
    assert env.state.history() == history


def test_pettingzoo_does_not_truncate_floats(engine):
    env = raw_env(engine=engine)
    env.reset(seed=0)
    legal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
    with pytest.raises(TypeError, match="must be an int, not float"):
        env.step(legal + 0.9)
    before = len(env.state.history())
    env.step(np.uint16(legal))
    assert env.state.history()[before] == legal


def test_sb3_vector_env_refuses_non_int_actions_as_the_engine(engine):
    pytest.importorskip("stable_baselines3")
    from vikinger_fast.adapters.sb3 import VikingerSB3VecEnv

    env = VikingerSB3VecEnv(num_envs=2, engine=engine)
    env.seed(0)
    env.reset()
    for actions in ([1.5, 2.0], [True, False]):
        expected = engine_error(engine, lambda s: s.apply_action(actions[0]))
        env.step_async(np.array(actions, dtype=object))
        assert raised(env.step_wait) == expected
    env.step_async(np.zeros(3, np.int64))
    with pytest.raises(ValueError, match=r"shape \(2,\)"):
        env.step_wait()
    for value, error in ((1.5, TypeError), (0, ValueError), ("x", TypeError)):
        with pytest.raises(error, match="num_envs"):
            VikingerSB3VecEnv(num_envs=value, engine=engine)
    with pytest.raises(ValueError, match="opponents"):
        VikingerSB3VecEnv(opponents="greedy", engine=engine)


@pytest.mark.parametrize("action", [10**30, -(10**30), 2**63, 2**64 - 1])
def test_sb3_vector_env_takes_an_int_beyond_int64_as_an_illegal_id(engines, action):
    """An int beyond int64 in an object array (or a uint64 above 2**63) is an id outside the
    space like any other: "raise" names it with its own value, "replace" plays a legal action
    instead and reports it; the same in both engines (no OverflowError)."""
    pytest.importorskip("stable_baselines3")
    from vikinger_fast.adapters.sb3 import VikingerSB3VecEnv

    outcomes = []
    for engine in engines:
        strict = VikingerSB3VecEnv(num_envs=2, illegal_action="raise", engine=engine)
        strict.seed(0)
        strict.reset()
        kinds = [np.array([action, 0], dtype=object)]
        if 0 <= action < 2**64:
            kinds.append(np.array([action, 0], dtype=np.uint64))
        for actions in kinds:
            strict.step_async(actions)
            assert raised(strict.step_wait) == (
                ValueError,
                f"action {action} is not legal in environment 0",
            )
        loose = VikingerSB3VecEnv(num_envs=2, engine=engine)
        loose.seed(0)
        first = loose.reset()
        legal = int(np.flatnonzero(loose.action_masks()[1])[0])
        loose.step_async(np.array([action, legal], dtype=object))
        observations, _, _, infos = loose.step_wait()
        assert infos[0]["replaced"] == action and "replaced" not in infos[1]
        outcomes.append((first.tobytes(), observations.tobytes()))
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("player_is_chance", [True, False])
@pytest.mark.parametrize("action", [-1, -2036, 2036, 10**6])
def test_openspiel_names_no_id_outside_the_space(engine, player_is_chance, action):
    pyspiel = pytest.importorskip("pyspiel")
    from vikinger_fast.adapters import openspiel as adapter

    state = pyspiel.load_game(adapter.register(engine), {}).new_initial_state()
    player = pyspiel.PlayerId.CHANCE if player_is_chance else 0
    space = "chance" if player_is_chance else "decision"
    size = 30 if player_is_chance else 2036
    # The engine's own message for an id outside the space it names.
    with pytest.raises(ValueError, match=f"^{space} id {action} is outside 0..{size - 1}$"):
        state.action_to_string(player, action)
    assert state.action_to_string(player, size - 1)
