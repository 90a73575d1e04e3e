"""pytest-benchmark rows of the SB3 vector env (docs/adapters.md "Stable-Baselines3"): one
`step` of 64 rows against RandomBot, the agent's random legal actions read from the masks as
MaskablePPO reads them. bench/sb3_vec_env.py compares it with SB3's SubprocVecEnv."""

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
from sb3_contrib.common.maskable.utils import get_action_masks  # noqa: E402

from vikinger_fast.adapters.sb3 import VikingerSB3VecEnv, _pick  # noqa: E402


@pytest.mark.parametrize("opponents", ["random"])
def test_sb3_vec_env_step(benchmark, opponents):
    benchmark.group = "SB3 VecEnv step, 64 rows"
    env = VikingerSB3VecEnv(num_envs=64, opponents=opponents)
    env.seed(0)
    env.reset()
    rng = np.random.default_rng(0)

    def step():
        masks = get_action_masks(env)
        return env.step(_pick(masks, rng.random(len(masks))))

    observations, rewards, dones, infos = benchmark(step)
    assert observations.shape == (64, env.observation_space.shape[0]) and len(infos) == 64
