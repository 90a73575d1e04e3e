"""Wikinger for Gymnasium (docs/adapters.md): a single-agent environment, registered as
"vikinger_fast/Vikinger-v0", and a `gymnasium.vector.VectorEnv` over the engine's `VectorGame`.

`VikingerEnv`: the agent plays seat `seat`; the other seats are played by `opponents`, in the
forms of spec.opponent_forms, which the SB3 vector env takes too: "random" (or None; the default:
a uniform choice among the legal actions drawn from the environment's `np_random`, so
`reset(seed=)` fixes the whole game), a bot class made as make(game, k) for the k-th other seat,
or bot objects with `step(state) -> action` on engine states, which they must not change; one
form for all, or a list of one per other seat.
Chance is sampled from `np_random` too. Observation: the engine's float32 tensor of the agent's
seat; `info["action_mask"]`: int8 over the 2036 decision ids. The reward is 0 until the game
ends, then the win share (B8.9) or, with `reward="fame_margin"`, the Fame margin (spec.py).

`illegal_action` says what an integer action outside the mask does: "replace" (the default, so
that the frameworks' env checkers, which step with random actions, pass: a uniform random legal
action is played instead; `info["replaced"]` holds the action given), "raise" (the strict mode:
ValueError, the state unchanged), or "penalize" (nothing is played, the reward is
`illegal_reward`, default -1, and `info["illegal"]` is True). An action that is not an integer
(a float, a bool, an array of more than one entry) is a TypeError in every mode, with the
engine's message; numpy integers are accepted.

`action_masks()` returns the mask as bool (sb3-contrib's MaskablePPO convention).

Seats (`seat`): a player number, "alternate" (episode k plays seat k mod num_players, counted
from the last seeded reset) or "random" (drawn from `np_random` at each reset);
`reset(options={"seat": p})` fixes the seat of one episode. The opponents take the other seats in
ascending order. Bots are restarted at a seeded reset only, so their streams run on across the
episodes that follow (the same seed gives the same episodes, and the episodes differ).

`chance`: "generator" samples chance from `np_random`; "splitmix64" from the splitmix64 stream
seeded by `reset(seed=)` (one number per chance node, running on across episodes), exactly as row
i of a `VectorGame` with seed s - i does: the single-env twin of the SB3 vector env (sb3.py).
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

import vikinger_fast

from .spec import (
    CHANCE_MODES,
    SEAT_MODES,
    action_id,
    check_choice,
    check_reward,
    check_seat,
    final_rewards,
    is_bot_object,
    observation_bounds,
    opponent_forms,
)

ENV_ID = "vikinger_fast/Vikinger-v0"
ILLEGAL_ACTIONS = ("replace", "raise", "penalize")
GOLDEN = 0x9E3779B97F4A7C15  # the splitmix64 increment (docs/api.md)


def _opponent_list(opponents: Any, game: Any) -> list[Any]:
    """A bot per other seat (None: the uniform random policy) from the forms of
    spec.opponent_forms; a bot class is made as make(game, k) for the k-th other seat."""
    return [
        None if isinstance(form, str) else form if is_bot_object(form) else form(game, k)
        for k, form in enumerate(opponent_forms(opponents, game.num_players))
    ]


class VikingerEnv(gymnasium.Env):
    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(
        self,
        num_players: int = 2,
        seat: int | str = 0,
        opponents: Any = None,
        engine: ModuleType = vikinger_fast,
        reward: str = "win_share",
        illegal_action: str = "replace",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        chance: str = "generator",
        **modules: bool,
    ) -> None:
        check_choice("illegal_action", illegal_action, ILLEGAL_ACTIONS)
        check_choice("chance", chance, CHANCE_MODES)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.game = engine.Game(num_players=num_players, **modules)
        self.seat_mode = check_seat(seat, self.game.num_players)
        self.seat: Any = 0 if self.seat_mode in SEAT_MODES else self.seat_mode
        opponents = _opponent_list(opponents, self.game)
        # Bot k (None: the uniform random policy) plays the k-th seat other than the agent's.
        self.opponents = opponents
        self.bots = self._seat_bots()
        self.reward = check_reward(reward)
        self.illegal_action, self.illegal_reward = illegal_action, float(illegal_reward)
        self.render_mode, self.chance = render_mode, chance
        low, high = observation_bounds(self.game)
        self.observation_space = spaces.Box(low, high, dtype=np.float32)
        self.action_space = spaces.Discrete(self.game.num_distinct_actions())
        self.state: Any = None
        self.episode = 0  # episodes since the last seeded reset (seat "alternate")
        self._stream: Any = None  # chance "splitmix64": the stream's state

    def _seat_bots(self) -> dict[int, Any]:
        """Seat -> bot for the current seat; the agent's own seat has none."""
        others = [p for p in range(self.game.num_players) if p != self.seat]
        return dict(zip(others, self.opponents))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self.episode = 0
            for bot in self.opponents:
                if hasattr(bot, "restart"):
                    bot.restart()
        if self.chance == "splitmix64" and (seed is not None or self._stream is None):
            self._stream = int(seed) if seed is not None else int(self.np_random.integers(2**63))
        self.seat = self._episode_seat(options)
        self.bots = self._seat_bots()
        self.episode += 1
        self.state = self.game.new_initial_state()
        self._play_others()
        return self._observation(), self._info()

    def _episode_seat(self, options: dict[str, Any] | None) -> Any:
        if options is not None and "seat" in options:
            seat = check_seat(options["seat"], self.game.num_players)
            if seat not in SEAT_MODES:
                return seat
        if self.seat_mode == "alternate":
            return self.episode % self.game.num_players
        if self.seat_mode == "random":
            return int(self.np_random.integers(self.game.num_players))
        return self.seat_mode

    def action_masks(self) -> np.ndarray:
        """The legal actions as a bool array over the 2036 ids (sb3-contrib's convention)."""
        return self.state.legal_actions_mask().astype(bool)

    def step(self, action: Any) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        action = action_id(action)
        if self.state is None:
            raise RuntimeError("call reset() before step()")
        if self.state.is_terminal():
            raise ValueError("the game is over: call reset()")
        info: dict[str, Any] = {}
        reward = 0.0
        mask = self.state.legal_actions_mask()
        if not (0 <= action < mask.size and mask[action]):
            if self.illegal_action == "raise":
                raise ValueError(
                    f"action {action} is not legal now (legal: {self.state.legal_actions()})"
                )
            if self.illegal_action == "penalize":
                return (
                    self._observation(),
                    self.illegal_reward,
                    False,
                    False,
                    self._info(illegal=True),
                )
            info["replaced"] = action
            action = self._random_action()
        self.state.apply_action(int(action))
        self._play_others()
        terminated = self.state.is_terminal()
        if terminated:
            reward = final_rewards(self.state, self.reward)[self.seat]
        return self._observation(), reward, terminated, False, self._info(**info)

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        if self.render_mode == "human":
            print(self.state)
            return None
        return str(self.state)

    def _play_others(self) -> None:
        """Chance and the opponents, until the agent is to move or the game is over."""
        state = self.state
        while not state.is_terminal() and state.current_player() != self.seat:
            if state.is_chance_node():
                if self.chance == "splitmix64":
                    state.apply_random_chance(self._stream)  # u: the stream's next number
                    self._stream = (self._stream + GOLDEN) % 2**64
                else:
                    state.apply_random_chance(self.np_random)
                continue
            bot = self.bots[state.current_player()]
            state.apply_action(self._random_action() if bot is None else bot.step(state))

    def _random_action(self) -> int:
        legal = self.state.legal_actions()
        return legal[self.np_random.integers(len(legal))]

    def _observation(self) -> np.ndarray:
        return self.state.observation_tensor(self.seat)

    def _info(self, **extra: Any) -> dict[str, Any]:
        return {"action_mask": self.state.legal_actions_mask().astype(np.int8), **extra}


class VikingerVectorEnv(VectorEnv):
    """`num_envs` self-play games stepped together by the engine's `VectorGame`: in every
    environment the player to move acts (`infos["current_player"]`) and sees the observation.

    Same-step autoreset: when a game ends, its row already shows the next game;
    `terminations[i]` is set, `rewards[i]` is the finished game's win share of the player who
    made the last move, `infos["final_obs"]` (rows where `infos["_final_obs"]`) is the last
    observation of that player, and `infos["final_info"]` holds the finished game's
    `returns`, `scores`, `gold` and `length` per row. `infos["action_mask"]` is int8, shape
    (num_envs, 2036). Observations, rewards, truncations, masks and the final arrays are
    reused, rewritten by the next step: copy what you keep."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int = 1,
        num_players: int = 2,
        engine: ModuleType = vikinger_fast,
        **modules: bool,
    ) -> None:
        self.game = engine.Game(num_players=num_players, **modules)
        self.engine, self.num_envs = engine, num_envs
        low, high = observation_bounds(self.game)
        self.single_observation_space = spaces.Box(low, high, dtype=np.float32)
        self.single_action_space = spaces.Discrete(self.game.num_distinct_actions())
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.vector_game: Any = None
        self._rewards = np.zeros(num_envs)
        self._movers: Any = None
        self._truncations = np.zeros(num_envs, bool)  # games never end early

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        if seed is not None and not isinstance(seed, (int, np.integer)):
            raise TypeError(
                f"seed must be an int (one stream per environment follows from "
                f"it, docs/api.md), not {type(seed).__name__}"
            )
        super().reset(seed=seed)
        # VectorGame's seed (docs/api.md): the given one, else one drawn from np_random.
        stream = seed if seed is not None else int(self.np_random.integers(2**63))
        self.vector_game = self.engine.VectorGame(self.game, self.num_envs, stream)
        return self.vector_game.observation_tensor(), self._infos()

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        env = self.vector_game
        if env is None:
            raise RuntimeError("call reset() before step()")
        movers = self._movers
        done = env.step(np.asarray(actions)).copy()
        rewards = self._rewards
        rewards.fill(0.0)
        infos = self._infos()
        finished = np.flatnonzero(done)  # a few rows a step: index those, not all
        if finished.size:
            rewards[finished] = env.final_returns[finished, movers[finished]]
            final = {
                "returns": env.final_returns,
                "_returns": done,
                "scores": env.final_scores,
                "_scores": done,
                "gold": env.final_gold,
                "_gold": done,
                "length": env.final_length,
                "_length": done,
            }
            infos.update(
                final_obs=env.final_observation, _final_obs=done, final_info=final, _final_info=done
            )
        return env.observation_tensor(), rewards, done, self._truncations, infos

    def _infos(self) -> dict[str, Any]:
        env = self.vector_game
        # Kept for the next step's rewards, which go to the players who move now.
        self._movers = env.current_player().copy()
        # A bool array is one byte 0/1 per entry: the int8 mask is a view, not a copy.
        return {
            "action_mask": env.legal_actions_mask().view(np.int8),
            "current_player": self._movers,
        }


if ENV_ID not in gymnasium.registry:
    gymnasium.register(
        ENV_ID,
        entry_point=f"{__name__}:VikingerEnv",
        vector_entry_point=f"{__name__}:VikingerVectorEnv",
    )
