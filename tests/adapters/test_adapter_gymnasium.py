"""The Gymnasium adapters (src/vikinger_fast/adapters/gymnasium.py): the single-agent env
passes gymnasium's check_env on both engines; the vector env steps exactly as the engine's
VectorGame with the same seed and follows Gymnasium's same-step autoreset."""

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402

from vikinger_fast.adapters import gymnasium as adapter  # noqa: E402


def play_out(env, seed, actions=None):
    """Plays the agent's seat with masked random actions; returns (total reward, steps)."""
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    total, steps, terminated = 0.0, 0, False
    while not terminated:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, reward, terminated, truncated, info = env.step(action)
        assert not truncated
        total, steps = total + reward, steps + 1
    return total, steps


# check_env steps with actions sampled from the whole action space, unmasked: the modes that
# accept an illegal action pass it, "replace" being the default; "raise" (the strict mode)
# refuses it, as documented.
def test_check_env_on_the_defaults(engine):
    check_env(adapter.VikingerEnv(engine=engine))


@pytest.mark.parametrize("illegal_action", ["replace", "penalize"])
def test_check_env(engine, illegal_action):
    check_env(
        adapter.VikingerEnv(engine=engine, illegal_action=illegal_action, render_mode="ansi"),
        skip_render_check=False,
    )
    check_env(
        adapter.VikingerEnv(
            num_players=4,
            seat=2,
            engine=engine,
            auction=True,
            special_tiles=True,
            illegal_action=illegal_action,
        )
    )


def test_check_env_through_the_registered_id():
    env = gymnasium.make(adapter.ENV_ID, illegal_action="replace", render_mode="ansi")
    check_env(env.unwrapped)
    assert env.spec.id == "vikinger_fast/Vikinger-v0"


def test_illegal_action_modes(engine):
    env = adapter.VikingerEnv(engine=engine, illegal_action="raise")
    _, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    history = env.state.history()
    with pytest.raises(ValueError, match="not legal"):
        env.step(illegal)
    assert env.state.history() == history

    env = adapter.VikingerEnv(engine=engine, illegal_action="penalize", illegal_reward=-2.5)
    observation, info = env.reset(seed=0)
    after, reward, terminated, _, info2 = env.step(illegal)
    assert reward == -2.5 and not terminated and info2["illegal"]
    np.testing.assert_array_equal(after, observation)
    assert env.state.history() == history

    env = adapter.VikingerEnv(engine=engine, illegal_action="replace")
    env.reset(seed=0)
    _, _, _, _, info3 = env.step(illegal)
    assert info3["replaced"] == illegal and len(env.state.history()) > len(history)


def test_seed_fixes_the_game_and_rewards_are_win_shares(engine):
    env = adapter.VikingerEnv(num_players=3, seat=1, engine=engine)
    (reward, steps), history = play_out(env, 5), env.state.history()
    assert reward == env.state.returns()[1]
    assert play_out(env, 5) == (reward, steps) and env.state.history() == history
    play_out(env, 6)
    assert env.state.history() != history


class FirstLegal:
    def __init__(self):
        self.restarts, self.steps = 0, 0

    def step(self, state):
        self.steps += 1
        return state.legal_actions()[0]

    def restart(self):
        self.restarts += 1


def test_opponent_bots_play_the_other_seats(engine):
    bots = [FirstLegal(), FirstLegal()]
    env = adapter.VikingerEnv(
        num_players=3, seat=0, opponents=bots, engine=engine, reward="fame_margin"
    )
    reward, _ = play_out(env, 1)
    fame = env.state.scores()
    assert reward == fame[0] - max(fame[1:])
    with pytest.raises(ValueError, match="reset"):
        env.step(0)
    assert all(bot.restarts == 1 and bot.steps > 20 for bot in bots)
    with pytest.raises(ValueError, match="opponents"):
        adapter.VikingerEnv(num_players=3, opponents=[FirstLegal()])
    with pytest.raises(ValueError, match="seat"):
        adapter.VikingerEnv(num_players=2, seat=2)


def test_opponents_take_the_sb3_vector_envs_forms(engine):
    """ "random" is the default policy, a bot class is built per other seat, another string is
    refused naming the forms; a list gives one form per other seat (the vector env of sb3.py
    takes the same forms: test_adapter_sb3.py)."""
    default = adapter.VikingerEnv(num_players=2, engine=engine)
    named = adapter.VikingerEnv(num_players=2, opponents="random", engine=engine)
    assert play_out(default, 5) == play_out(named, 5)
    built = adapter.VikingerEnv(num_players=3, opponents=engine.GreedyBot, engine=engine)
    assert [type(bot).__name__ for bot in built.opponents] == ["GreedyBot", "GreedyBot"]
    play_out(built, 6)
    with pytest.raises(ValueError, match="'random', a bot class or a list"):
        adapter.VikingerEnv(num_players=3, opponents="greedy", engine=engine)
    # A list names one form per other seat: the random policy (None or "random"), a class
    # (made for that seat), or a bot object.
    mixed = adapter.VikingerEnv(
        num_players=4, opponents=[None, engine.GreedyBot, FirstLegal()], engine=engine
    )
    assert mixed.opponents[0] is None and type(mixed.opponents[1]).__name__ == "GreedyBot"
    play_out(mixed, 7)
    assert mixed.opponents[2].steps > 20


def test_vector_env_steps_as_vector_game(engine):
    batch = 4 if engine.__name__ == "vikinger_fast" else 2
    env = adapter.VikingerVectorEnv(num_envs=batch, num_players=2, engine=engine)
    raw = engine.VectorGame(engine.Game(num_players=2), batch, 9)
    observation, infos = env.reset(seed=9)
    assert env.observation_space.shape == (batch, raw.observation_tensor().shape[1])
    rng = np.random.default_rng(0)
    finished = 0
    while finished < batch:
        mask = raw.legal_actions_mask()
        np.testing.assert_array_equal(infos["action_mask"], mask.astype(np.int8))
        np.testing.assert_array_equal(observation, raw.observation_tensor())
        assert infos["action_mask"].dtype == np.int8
        actions = np.argmax(mask * rng.random(mask.shape), axis=1)
        movers = raw.current_player().copy()
        done = raw.step(actions).copy()
        observation, rewards, terminated, truncated, infos = env.step(actions)
        np.testing.assert_array_equal(terminated, done)
        assert not truncated.any()
        expected = np.where(done, raw.final_returns[np.arange(batch), movers], 0.0)
        np.testing.assert_array_equal(rewards, expected)
        if done.any():
            finished += done.sum()
            np.testing.assert_array_equal(infos["_final_obs"], done)
            np.testing.assert_array_equal(infos["final_obs"][done], raw.final_observation[done])
            np.testing.assert_array_equal(
                infos["final_info"]["returns"][done], raw.final_returns[done]
            )
        else:
            assert "final_obs" not in infos


def test_vector_env_through_make_vec():
    env = gymnasium.make_vec(
        adapter.ENV_ID, num_envs=3, vectorization_mode="vector_entry_point", num_players=3
    )
    observation, infos = env.reset(seed=1)
    assert observation.shape == env.observation_space.shape and observation.shape[0] == 3
    assert env.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    assert env.observation_space.contains(observation.copy())


def test_vector_env_refuses_step_before_reset_and_a_list_of_seeds():
    env = adapter.VikingerVectorEnv(num_envs=2)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(np.zeros(2, np.int64))
    with pytest.raises(TypeError, match="seed"):
        env.reset(seed=[1, 2])
    first, _ = env.reset(seed=4)
    first = first.copy()
    again, _ = env.reset(seed=4)
    np.testing.assert_array_equal(first, again)


@pytest.mark.parametrize("bot", ["RandomBot", "GreedyBot"])
def test_check_env_with_engine_bots_through_make(engine, bot):
    """gymnasium.make and check_env copy the env: the engine's bots pickle and deep-copy."""
    import copy
    import pickle

    opponent = getattr(engine, bot)(engine.Game(), 1)
    if engine.__name__ == "vikinger_fast":  # make copies its kwargs: a module is no kwarg
        env = gymnasium.make(adapter.ENV_ID, opponents=[opponent]).unwrapped
    else:
        env = adapter.VikingerEnv(opponents=[opponent], engine=engine)
    check_env(env)
    twin = pickle.loads(pickle.dumps(env))
    other = copy.deepcopy(env)
    runs = [play_out(e, 4) + (e.state.history(),) for e in (env, twin, other)]
    assert runs[0] == runs[1] == runs[2]
