"""The PettingZoo adapter (src/vikinger_fast/adapters/pettingzoo.py) passes PettingZoo's own
api_test, seed_test and render_test on both engines."""

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

from vikinger_fast.adapters import pettingzoo as adapter  # noqa: E402

CONFIGS = [
    {"num_players": 2},
    {"num_players": 3, "auction": True, "offer_by_colour": True},
    {"num_players": 4, "draw13": True, "weak_boatsmen": True, "special_tiles": True},
]


def play_out(env, seed):
    """Plays the environment to the end with masked random actions; returns the last
    reward of every agent."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    final = {}
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        if termination or truncation:
            final[agent] = reward
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return final


@pytest.mark.parametrize("params", CONFIGS, ids=lambda p: str(p["num_players"]) + "p")
def test_api_test(engine, params):
    cycles = 1000 if engine.__name__ == "vikinger_fast" else 100
    api_test(adapter.raw_env(engine=engine, **params), num_cycles=cycles)
    api_test(adapter.env(engine=engine, **params), num_cycles=cycles)


@pytest.mark.parametrize("params", CONFIGS, ids=lambda p: str(p["num_players"]) + "p")
def test_seed_test(engine, params):
    cycles = 500 if engine.__name__ == "vikinger_fast" else 40
    seed_test(lambda: adapter.raw_env(engine=engine, **params), num_cycles=cycles)


def test_render_test(engine, capsys):
    def make(render_mode=None):
        return adapter.raw_env(engine=engine, render_mode=render_mode)

    render_test(make, custom_tests={"ansi": lambda text: text.startswith("Round 1/6")})
    env = make("ansi")
    env.reset(seed=1)
    assert env.render() == str(env.state)


def test_seed_fixes_the_chance_outcomes_and_game(engine):
    env = adapter.raw_env(engine=engine)
    first = (play_out(env, 7), env.state.history())
    second = (play_out(env, 7), env.state.history())
    third = (play_out(env, 8), env.state.history())
    assert first == second and first[1] != third[1]


def test_rewards_at_the_end(engine):
    env = adapter.raw_env(engine=engine, num_players=3)
    final = play_out(env, 3)
    assert sum(final.values()) == pytest.approx(1.0)
    assert [final[f"player_{p}"] for p in range(3)] == pytest.approx(env.state.returns())
    margin_env = adapter.raw_env(engine=engine, num_players=3, reward="fame_margin")
    margins = play_out(margin_env, 3)
    fame = margin_env.state.scores()
    assert [margins[f"player_{p}"] for p in range(3)] == [
        fame[p] - max(fame[q] for q in range(3) if q != p) for p in range(3)
    ]


def test_observation_is_the_engine_tensor_and_mask(engine):
    env = adapter.raw_env(engine=engine, num_players=2)
    env.reset(seed=2)
    mover = env.agent_selection
    other = next(agent for agent in env.agents if agent != mover)
    seen = env.observe(mover)
    player = env.possible_agents.index(mover)
    np.testing.assert_array_equal(seen["observation"], env.state.observation_tensor(player))
    assert seen["action_mask"].dtype == np.int8
    assert np.flatnonzero(seen["action_mask"]).tolist() == env.state.legal_actions()
    assert not env.observe(other)["action_mask"].any()


def test_bad_options_are_refused():
    with pytest.raises(ValueError, match="reward"):
        adapter.raw_env(reward="fame")
    with pytest.raises(ValueError, match="render_mode"):
        adapter.raw_env(render_mode="rgb_array")
