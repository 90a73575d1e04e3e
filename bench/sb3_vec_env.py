"""Environment steps per second of the SB3 vector env over the VectorGame against those of
SB3's SubprocVecEnv of 8 single-agent VikingerEnv, both against RandomBot opponents, the agent
playing uniformly random legal actions read from the masks as MaskablePPO reads them
(docs/adapters.md "Stable-Baselines3"):

    python bench/sb3_vec_env.py --seconds 20

Prints one row per env and the ratio (the issue's target: >= 5).
"""

import argparse
import time

import numpy as np
from sb3_contrib.common.maskable.utils import get_action_masks
from stable_baselines3.common.vec_env import SubprocVecEnv

import vikinger_fast as vk
from vikinger_fast.adapters.gymnasium import VikingerEnv
from vikinger_fast.adapters.sb3 import VikingerSB3VecEnv, _pick


def random_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniform legal action per row."""
    return _pick(masks, rng.random(len(masks)))


def steps_per_second(env, seconds: float, seed: int = 0) -> float:
    """Env steps (rows x calls) per second of wall time, masks read at every call."""
    rng = np.random.default_rng(seed)
    env.seed(seed)
    env.reset()
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.step(random_legal(get_action_masks(env), rng))
        steps += env.num_envs
    return steps / (time.perf_counter() - start)


def single_env(seed: int) -> VikingerEnv:
    game = vk.Game()
    return VikingerEnv(opponents=[vk.RandomBot(game, seed)])


def make_single(seed: int):
    return lambda: single_env(seed)


def measure(seconds: float, num_envs: int = 64, processes: int = 8) -> dict:
    """{"vec_env": steps/s, "subproc": steps/s, "ratio": vec_env / subproc}."""
    vec = VikingerSB3VecEnv(num_envs=num_envs, seat=0)
    fast = steps_per_second(vec, seconds)
    subproc = SubprocVecEnv([make_single(i) for i in range(processes)])
    try:
        slow = steps_per_second(subproc, seconds)
    finally:
        subproc.close()
    return {"vec_env": fast, "subproc": slow, "ratio": fast / slow}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--envs", type=int, default=64)
    args = parser.parse_args()
    result = measure(args.seconds, args.envs)
    print(f"VikingerSB3VecEnv({args.envs} rows): {result['vec_env']:10.0f} env steps/s")
    print(f"SubprocVecEnv(8 x VikingerEnv):   {result['subproc']:10.0f} env steps/s")
    print(f"ratio: {result['ratio']:.1f}x")


if __name__ == "__main__":
    main()
