"""MaskablePPO (sb3-contrib, default settings) on the SB3 vector env against RandomBot, then
evaluated against RandomBot and GreedyBot (docs/adapters.md "Stable-Baselines3"):

    python bench/maskable_ppo.py --minutes 10 --games 400

Trains until --steps environment steps or --minutes of this process's CPU time, whichever comes
first (torch on one thread, so CPU time is wall time on an idle core). The rollout holds 2048
transitions per update as the defaults do for one environment: n_steps = 2048 // --envs.
Prints the CPU minutes, the steps, the share of the training's wall time spent in the
environment (step, reset and masks), and the win share of the deterministic policy over --games
games against each bot (seats alternated, each row of the evaluation env playing the same
number of games), with a 95 % Wilson interval.
"""

import argparse
import math
import time

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import VecEnvWrapper

import vikinger_fast as vk
from vikinger_fast.adapters.sb3 import VikingerSB3VecEnv


class TimedVecEnv(VecEnvWrapper):
    """Adds up the wall time spent inside the wrapped env (steps, resets, masks)."""

    def __init__(self, venv: VikingerSB3VecEnv) -> None:
        super().__init__(venv)
        self.seconds = 0.0

    def _timed(self, call, *args, **kwargs):
        start = time.perf_counter()
        try:
            return call(*args, **kwargs)
        finally:
            self.seconds += time.perf_counter() - start

    def reset(self):
        return self._timed(self.venv.reset)

    def step_wait(self):
        return self._timed(self.venv.step_wait)

    def env_method(self, method_name, *method_args, indices=None, **method_kwargs):
        return self._timed(
            self.venv.env_method, method_name, *method_args, indices=indices, **method_kwargs
        )


class CpuBudget(BaseCallback):
    """Stops the training once the process has used `seconds` of CPU time."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.seconds = seconds

    def _on_step(self) -> bool:
        return time.process_time() < self.seconds


def wilson(share: float, n: int, z: float = 1.96) -> tuple:
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def evaluate(model: MaskablePPO, opponents, games: int, seed: int) -> float:
    """The agent's mean win share over `games` games: 50 rows, each counting its first
    games / 50 episodes, seats alternating."""
    rows = 50
    per_row = max(1, games // rows)
    env = VikingerSB3VecEnv(num_envs=rows, seat="alternate", opponents=opponents)
    env.seed(seed)
    obs = env.reset()
    counted = np.zeros(rows, int)
    total = 0.0
    while (counted < per_row).any():
        actions, _ = model.predict(obs, action_masks=get_action_masks(env), deterministic=True)
        obs, rewards, dones, _ = env.step(actions)
        for i in np.flatnonzero(dones):
            if counted[i] < per_row:
                counted[i] += 1
                total += rewards[i]
    return total / (rows * per_row)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=16)
    parser.add_argument("--steps", type=int, default=2_000_000)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", default=None, help="save the model to this path")
    args = parser.parse_args()
    torch.set_num_threads(1)
    env = TimedVecEnv(VikingerSB3VecEnv(num_envs=args.envs, seat="alternate"))
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=max(1, 2048 // args.envs), seed=args.seed, verbose=0
    )
    start_wall = time.perf_counter()
    model.learn(total_timesteps=args.steps, callback=CpuBudget(args.minutes * 60))
    wall = time.perf_counter() - start_wall
    print(
        f"trained {model.num_timesteps} steps in {time.process_time() / 60:.2f} CPU-minutes "
        f"({wall / 60:.2f} wall); env share of the training's wall time "
        f"{env.seconds / wall:.1%}"
    )
    if args.save:
        model.save(args.save)
    for name, opponents in (("RandomBot", "random"), ("GreedyBot", vk.GreedyBot)):
        share = evaluate(model, opponents, args.games, seed=10_000 + args.seed)
        low, high = wilson(share, args.games)
        print(f"vs {name}: {share:.3f} over {args.games} games (95 % {low:.3f}-{high:.3f})")


if __name__ == "__main__":
    main()
