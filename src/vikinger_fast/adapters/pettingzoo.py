"""Wikinger as a PettingZoo AEC environment, in the style of PettingZoo's classic board games
(docs/adapters.md).

Agents `player_0 .. player_{n-1}`. Each observation is a dict: `"observation"`, the engine's
float32 tensor seen by that agent (docs/state.md; bounds in spec.py), and
`"action_mask"`, int8 over the 2036 decision ids (all 0 for an agent not to move). Chance nodes
are sampled inside `step` and `reset` from the environment's generator, which `reset(seed=)`
seeds. Rewards come once, at the end of the game: the win share (B8.9) by default, or with
`reward="fame_margin"` the agent's final Fame minus the best Fame of the other players.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

import vikinger_fast

from .spec import action_id, check_reward, final_rewards, observation_bounds


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's usual wrappers: an illegal move ends the game with
    reward -1 for its player; actions outside the space and calls out of order raise."""
    wrapped = wrappers.TerminateIllegalWrapper(raw_env(**kwargs), illegal_reward=-1)
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(wrapped))


class raw_env(AECEnv):
    """The unwrapped AEC environment; the keyword flags are the engine's advanced modules."""

    metadata: dict[str, Any] = {
        "render_modes": ["ansi", "human"],
        "name": "vikinger_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        num_players: int = 2,
        engine: ModuleType = vikinger_fast,
        reward: str = "win_share",
        render_mode: str | None = None,
        **modules: bool,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.game = engine.Game(num_players=num_players, **modules)
        self.reward, self.render_mode = check_reward(reward), render_mode
        self.possible_agents = [f"player_{p}" for p in range(num_players)]
        low, high = observation_bounds(self.game)
        actions = self.game.num_distinct_actions()
        observation_space = spaces.Dict(
            {
                "observation": spaces.Box(low, high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation_space)
        self.action_spaces = {agent: spaces.Discrete(actions) for agent in self.possible_agents}
        self.np_random: Any = None
        self.state: Any = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None or self.np_random is None:
            self.np_random, _ = seeding.np_random(seed)
        self.state = self.game.new_initial_state()
        self._sample_chance()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.state.current_player()]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        player = self.possible_agents.index(agent)
        if agent == self.agent_selection and not self.state.is_terminal():
            mask = self.state.legal_actions_mask().astype(np.int8)
        else:
            mask = np.zeros(self.game.num_distinct_actions(), np.int8)
        return {"observation": self.state.observation_tensor(player), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        action = action_id(action)  # floats, bools, arrays: the engine's TypeError
        self._cumulative_rewards[agent] = 0.0
        self.state.apply_action(action)
        self._sample_chance()
        if self.state.is_terminal():
            self.rewards = dict(zip(self.agents, final_rewards(self.state, self.reward)))
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[self.state.current_player()]
        self._accumulate_rewards()

    def _sample_chance(self) -> None:
        while self.state.is_chance_node():
            self.state.apply_random_chance(self.np_random)

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        text = str(self.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.state = None
