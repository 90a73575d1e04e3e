"""Stable-Baselines3 and sb3-contrib on the adapters (docs/adapters.md "Stable-Baselines3"): SB3's
own env checker on the single env's defaults, short MaskablePPO runs on the single env and on the
SB3 vector env (the strict mode raising on any action outside the mask, so a run that ends has
honoured the masks), and the vector env's rows stepping exactly as single envs with the same
seeds, on both engines, with every kind of seat."""

import numpy as np
import pytest

pytest.importorskip("stable_baselines3")
pytest.importorskip("sb3_contrib")
from sb3_contrib import MaskablePPO  # noqa: E402
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported  # noqa: E402
from stable_baselines3.common.env_checker import check_env  # noqa: E402
from stable_baselines3.common.vec_env import DummyVecEnv  # noqa: E402

from vikinger_fast.adapters.gymnasium import VikingerEnv  # noqa: E402
from vikinger_fast.adapters.sb3 import VikingerSB3VecEnv  # noqa: E402


def test_sb3_check_env_on_the_defaults(engine):
    check_env(VikingerEnv(engine=engine), warn=True)


def test_action_masks_is_the_legal_mask(engine):
    env = VikingerEnv(engine=engine)
    _, info = env.reset(seed=3)
    mask = env.action_masks()
    assert mask.dtype == bool
    np.testing.assert_array_equal(mask, info["action_mask"].astype(bool))
    np.testing.assert_array_equal(np.flatnonzero(mask), env.state.legal_actions())


def test_maskable_ppo_runs_on_the_single_env():
    env = DummyVecEnv([lambda: VikingerEnv(illegal_action="raise")])
    assert is_masking_supported(env)
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, n_epochs=1, seed=0)
    model.learn(total_timesteps=128)
    assert model.num_timesteps >= 128


def test_maskable_ppo_runs_on_the_vector_env():
    env = VikingerSB3VecEnv(num_envs=8, illegal_action="raise")
    assert is_masking_supported(env)
    model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=64, n_epochs=1, seed=0)
    model.learn(total_timesteps=256)
    assert model.num_timesteps >= 256
    masks = get_action_masks(env)
    assert masks.shape == (8, 2036) and masks.dtype == bool
    actions, _ = model.predict(env.reset(), action_masks=masks)
    assert masks[np.arange(8), actions].all()


def test_the_strict_vector_env_refuses_an_action_outside_the_mask():
    env = VikingerSB3VecEnv(num_envs=2, illegal_action="raise")
    env.seed(0)
    env.reset()
    actions = np.argmin(get_action_masks(env), axis=1)  # an illegal id in each row
    with pytest.raises(ValueError, match="not legal in environment 0"):
        env.step(actions)
    env = VikingerSB3VecEnv(num_envs=2)  # "replace": played instead
    env.seed(0)
    env.reset()
    _, _, _, infos = env.step(actions)
    assert [info["replaced"] for info in infos] == list(actions)


def agent_actions(masks, rng):
    """A uniform legal action per row, the same draws for the vector env and the single envs."""
    return np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])


def twin(engine, vec, row, seat, opponents):
    """Row `row` of `vec` as a single env: splitmix64 chance, the row's opponent, its seed."""
    game = engine.Game()
    bot = opponents(game, vec.opponent_seed(row, 0))
    return VikingerEnv(seat=seat, opponents=[bot], engine=engine, chance="splitmix64")


@pytest.mark.parametrize("seat", [0, 1, "alternate", "random"])
def test_vector_env_rows_are_single_envs(engine, seat):
    rows, seed = 3, 11
    episodes = 1 if engine.__name__ == "vikinger_ref" else 2
    vec = VikingerSB3VecEnv(num_envs=rows, seat=seat, engine=engine)
    vec.seed(seed)
    observations = vec.reset()
    singles = [twin(engine, vec, i, seat, engine.RandomBot) for i in range(rows)]
    starts = [env.reset(seed=seed + i) for i, env in enumerate(singles)]
    for i, (observation, _) in enumerate(starts):
        np.testing.assert_array_equal(observations[i], observation)
    rng = np.random.default_rng(0)
    finished = np.zeros(rows, int)
    while (finished < episodes).any():
        for i in step_in_lockstep(vec, singles, rng):
            finished[i] += 1


def step_in_lockstep(vec, singles, rng):
    """One step of `vec` and of its rows' single envs with the same random legal actions, compared
    row by row (a single env that finished is reset, as the vector env resets its row); returns
    the rows that finished an episode."""
    actions = agent_actions(get_action_masks(vec), rng)
    observations, rewards, dones, infos = vec.step(actions)
    ended = []
    for i, env in enumerate(singles):
        observation, reward, terminated, _, _ = env.step(actions[i])
        assert (reward, terminated) == (rewards[i], dones[i])
        if terminated:
            np.testing.assert_array_equal(infos[i]["terminal_observation"], observation)
            assert infos[i]["seat"] == env.seat
            ended.append(i)
            observation, _ = env.reset()
        np.testing.assert_array_equal(observations[i], observation)
        np.testing.assert_array_equal(vec.action_masks()[i], env.action_masks())
    return ended


def test_vector_env_rows_with_bot_objects_are_single_envs(engines):
    fast = engines[1]
    vec = VikingerSB3VecEnv(num_envs=2, seat="alternate", opponents=fast.GreedyBot)
    vec.seed(5)
    observations = vec.reset()
    singles = [twin(fast, vec, i, "alternate", fast.GreedyBot) for i in range(2)]
    for i, env in enumerate(singles):
        np.testing.assert_array_equal(observations[i], env.reset(seed=5 + i)[0])
    rng = np.random.default_rng(1)
    ends = 0
    while ends < 3:
        ends += len(step_in_lockstep(vec, singles, rng))


def test_seats_and_opponent_streams_across_episodes(engines):
    fast = engines[1]
    env = VikingerEnv(seat="alternate", opponents=[fast.RandomBot(fast.Game(), 4)])
    seats, histories = [], []
    for episode in range(3):
        env.reset(seed=9 if episode == 0 else None)
        seats.append(env.seat)
        while not env.state.is_terminal():
            env.step(int(np.flatnonzero(env.action_masks())[0]))
        histories.append(env.state.history())
    assert seats == [0, 1, 0]
    assert histories[0] != histories[2]  # the opponent's stream ran on
    env.reset(seed=9)  # the same seed: the same first episode
    while not env.state.is_terminal():
        env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert env.state.history() == histories[0]
    env.reset(options={"seat": 1})
    assert env.seat == 1 and env.state.current_player() == 1


def test_both_envs_take_the_same_opponent_forms(engines):
    """None, "random", a bot class, a bot object, and a list of one form per other seat: in the
    single env and the vector env alike; a mixed list's rows are the single env with the same
    forms seeded as the row's slots."""
    ref, fast = engines
    for opponents in (None, "random", fast.GreedyBot, [fast.GreedyBot], (None,)):
        vec = VikingerSB3VecEnv(num_envs=2, opponents=opponents)
        vec.seed(3)
        vec.reset()
        VikingerEnv(opponents=opponents).reset(seed=3)
    same = [VikingerSB3VecEnv(num_envs=2, opponents=form) for form in (None, "random")]
    starts = []
    for vec in same:
        vec.seed(4)
        starts.append(vec.reset())
    np.testing.assert_array_equal(*starts)
    # One object plays one seat (its stream runs through all rows of the vector env).
    shared = VikingerSB3VecEnv(num_envs=3, opponents=fast.RandomBot(fast.Game(), 1))
    shared.seed(0)
    shared.reset()
    for forms in ("greedy", [fast.GreedyBot], 3):
        for make in (VikingerSB3VecEnv, VikingerEnv):
            with pytest.raises(ValueError, match="opponents"):
                make(num_players=3, opponents=forms)
    with pytest.raises(ValueError, match="one bot object cannot play 2 seats"):
        VikingerSB3VecEnv(num_players=3, opponents=fast.RandomBot(fast.Game(3), 1))
    # A random seat and a GreedyBot seat, 3 players: row by row the single env.
    rows, seed = 2, 21
    vec = VikingerSB3VecEnv(num_envs=rows, num_players=3, opponents=["random", fast.GreedyBot])
    vec.seed(seed)
    observations = vec.reset()
    game = fast.Game(num_players=3)
    singles = [
        VikingerEnv(
            num_players=3,
            seat="alternate",
            chance="splitmix64",
            opponents=[
                fast.RandomBot(game, vec.opponent_seed(i, 0)),
                fast.GreedyBot(game, vec.opponent_seed(i, 1)),
            ],
        )
        for i in range(rows)
    ]
    for i, env in enumerate(singles):
        np.testing.assert_array_equal(observations[i], env.reset(seed=seed + i)[0])
    rng = np.random.default_rng(2)
    ends = 0
    while ends < 3:
        ends += len(step_in_lockstep(vec, singles, rng))


def test_maskable_ppo_trains_on_the_env_gymnasium_make_returns():
    """No env.unwrapped needed (docs/adapters.md): sb3-contrib finds the masks through
    Gymnasium's wrappers; the strict mode proves every action came from a mask."""
    import gymnasium

    from vikinger_fast.adapters.gymnasium import ENV_ID

    env = gymnasium.make(ENV_ID, illegal_action="raise")
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, n_epochs=1, seed=0)
    assert is_masking_supported(model.get_env())
    model.learn(total_timesteps=128)
    assert model.num_timesteps >= 128
