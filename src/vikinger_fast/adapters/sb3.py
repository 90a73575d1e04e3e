"""Wikinger for Stable-Baselines3 (docs/adapters.md "Stable-Baselines3"): `VikingerSB3VecEnv`, an
SB3 `VecEnv` of `num_envs` single-agent games against bots, stepped together by the engine's
`VectorGame`, with the legal-action masks the sb3-contrib way (`env_method("action_masks")`, so
`MaskablePPO` and `get_action_masks` work on it as on a vector of `VikingerEnv`).

Row i is the single-agent `VikingerEnv(chance="splitmix64", opponents=[...])` reset with seed
s + i (s: the seed of `seed()` or a random one): chance from the splitmix64 stream s + i running
on across the row's episodes (the `VectorGame` rule), and the opponents' streams running on too,
never restarted. The opponents take the forms of `VikingerEnv` (spec.opponent_forms), one for
all other seats or a list of one per other seat: "random" or None (a `RandomBot` of seed
`opponent_seed(i, k)`, played for all rows at once inside C++ with the bot's exact rule:
legal[floor(u * len(legal))]), a bot class `make(game, seed)` such as `vikinger_fast.GreedyBot`
(one object per row and opponent), or a bot object (one for all rows: its own stream runs
through them); bots are given copies of the row's state. Seats: a player number, "alternate" or
"random" as in `VikingerEnv` (row i's "random" seats come from `numpy.random.default_rng(s + i)`,
as the single env's `np_random`).

Each `step` applies the agent's actions in every row (all rows wait for the agent between two
steps), then plays the opponents in the rows where they are to move, a `VectorGame.step(where=)`
per ply, until the agent is to move everywhere. A finished game restarts at once (SB3's autoreset):
`dones[i]` is set, `rewards[i]` is the agent's final reward and `infos[i]["terminal_observation"]`
the finished game seen from the agent's seat.
"""

from typing import Any, Dict, List, Optional, Tuple, Union

import numpy as np
from stable_baselines3.common.vec_env import VecEnv
from gymnasium import spaces
from vikinger_ref.arguments import check_int
from vikinger_ref.rng import GOLDEN, MASK64, mix

import vikinger_fast

from .spec import (
    action_id,
    check_choice,
    check_reward,
    check_seat,
    is_bot_object,
    observation_bounds,
    opponent_forms,
)

ILLEGAL_ACTIONS = ("replace", "raise")
_MIX = (np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB))


def _uniforms(streams: np.ndarray) -> np.ndarray:
    """The next uniform of each splitmix64 stream (uint64 array, advanced in place): the top 53
    bits of mix(state), as the engines' SplitMix64."""
    x = streams + np.uint64(GOLDEN)
    x = (x ^ (x >> np.uint64(30))) * _MIX[0]
    x = (x ^ (x >> np.uint64(27))) * _MIX[1]
    x ^= x >> np.uint64(31)
    streams += np.uint64(GOLDEN)
    return (x >> np.uint64(11)).astype(np.float64) * (1.0 / (1 << 53))


def _pick(masks: np.ndarray, uniforms: np.ndarray) -> np.ndarray:
    """Per row, legal[floor(u * len(legal))] of the legal ids in ascending order."""
    _, ids = np.nonzero(masks)  # row by row, ascending
    counts = np.count_nonzero(masks, axis=1)
    first = np.cumsum(counts) - counts
    return ids[first + (uniforms * counts).astype(np.int64)]


class VikingerSB3VecEnv(VecEnv):
    """`num_envs` single-agent games against bots in one `VectorGame` (see the module doc)."""

    def __init__(
        self,
        num_envs: int = 16,
        num_players: int = 2,
        seat: Union[int, str] = "alternate",
        opponents: Any = "random",
        engine: Any = vikinger_fast,
        reward: str = "win_share",
        illegal_action: str = "replace",
        **modules: bool,
    ) -> None:
        self.game = engine.Game(num_players=num_players, **modules)
        self.engine = engine
        n = self.game.num_players
        num_envs = check_int("num_envs", num_envs)
        if num_envs < 1:
            raise ValueError(f"num_envs must be >= 1, not {num_envs}")
        self.seat_mode = check_seat(seat, n)
        # Per opponent slot k (the k-th seat other than the agent's): "random" or a bot form.
        self.opponents = opponent_forms(opponents, n)
        self._random_slots = np.array([isinstance(f, str) for f in self.opponents])
        self.reward = check_reward(reward)
        self.illegal_action = check_choice("illegal_action", illegal_action, ILLEGAL_ACTIONS)
        low, high = observation_bounds(self.game)
        self.render_mode = None
        self.vector_game: Any = None
        self.seats = np.zeros(num_envs, np.int32)  # the agent's seat in each row
        self.episodes = np.zeros(num_envs, np.int64)  # episodes started in each row
        self._actions: Optional[np.ndarray] = None
        super().__init__(
            num_envs,
            spaces.Box(low, high, dtype=np.float32),
            spaces.Discrete(self.game.num_distinct_actions()),
        )

    # --- seeds, seats, opponents ------------------------------------------------------------

    def opponent_seed(self, env: int, k: int) -> int:
        """The seed of row env's k-th opponent (RandomBot or the bot class): mix(s + env) + k."""
        return (mix((self._base + env) & MASK64) + k) & MASK64

    def _start(self, base: int) -> None:
        b, n = self.num_envs, self.game.num_players
        self._base = base
        self.vector_game = self.engine.VectorGame(self.game, b, base)
        self.episodes[:] = 0
        self._seat_rngs = [np.random.default_rng((base + i) & MASK64) for i in range(b)]
        self._replace_rng = np.random.default_rng(base)
        # Stream per row and random opponent slot, as RandomBot(game, opponent_seed(i, k)).
        self._streams = np.array(
            [[self.opponent_seed(i, k) for i in range(b)] for k in range(n - 1)],
            dtype=np.uint64,
        )
        self._bots = [
            [
                None
                if isinstance(form, str)
                else form
                if is_bot_object(form)
                # a class or factory: one object per row, seeded as that row's slot
                else form(self.game, self.opponent_seed(i, k))
                for k, form in enumerate(self.opponents)
            ]
            for i in range(b)
        ]
        for i in range(b):
            self._new_episode(i)

    def _new_episode(self, i: int) -> None:
        n = self.game.num_players
        if self.seat_mode == "alternate":
            self.seats[i] = self.episodes[i] % n
        elif self.seat_mode == "random":
            self.seats[i] = self._seat_rngs[i].integers(n)
        else:
            self.seats[i] = self.seat_mode
        self.episodes[i] += 1

    def _slots(self, rows: np.ndarray, players: np.ndarray) -> np.ndarray:
        """The opponent slot k of each (row, player): the k-th seat other than the agent's."""
        return players - (players > self.seats[rows])

    # --- the VecEnv interface ---------------------------------------------------------------

    def seed(self, seed: Optional[int] = None) -> List[Optional[int]]:
        """VecEnv.seed for an int (numpy ints too) or None; TypeError for anything else
        (1.5 or True would be taken as another seed, or fail at the next reset)."""
        if seed is not None:
            seed = check_int("seed", seed)
        return list(super().seed(seed))

    def reset(self) -> np.ndarray:
        seed = self._seeds[0] if self._seeds[0] is not None else None
        base = int(seed) if seed is not None else int(np.random.default_rng().integers(2**63))
        self._reset_seeds()
        self._start(base & MASK64)
        rewards = np.zeros(self.num_envs, np.float32)
        dones = np.zeros(self.num_envs, bool)
        infos: List[Dict[str, Any]] = [{} for _ in range(self.num_envs)]
        self._play_opponents(rewards, dones, infos)
        self.reset_infos = infos
        return self.vector_game.observation_tensor().copy()

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = actions

    def step_wait(self) -> Tuple[np.ndarray, np.ndarray, np.ndarray, List[Dict[str, Any]]]:
        if self.vector_game is None:
            raise RuntimeError("call reset() before step()")
        actions = np.asarray(self._actions)
        if actions.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), not {actions.shape}")
        if actions.dtype.kind in "iu":  # SB3's own arrays: checked as a whole
            actions = actions.astype(np.int64)
        else:  # floats, bools, objects: the engine's TypeError; an int beyond int64 is an id
            # outside the space like any other (-1 here; its own value in the error and infos)
            ids = [action_id(a) for a in actions]
            actions = np.array([a if 0 <= a < 2**63 else -1 for a in ids], np.int64)
        masks = self.vector_game.legal_actions_mask()
        rows = np.arange(self.num_envs)
        inside = (actions >= 0) & (actions < masks.shape[1])
        legal = inside & masks[rows, np.where(inside, actions, 0)]
        if not legal.all():
            bad = int(np.flatnonzero(~legal)[0])
            if self.illegal_action == "raise":
                given = action_id(np.asarray(self._actions)[bad])
                raise ValueError(f"action {given} is not legal in environment {bad}")
            wrong = np.flatnonzero(~legal)
            actions[wrong] = _pick(masks[wrong], self._replace_rng.random(wrong.size))
        rewards = np.zeros(self.num_envs, np.float32)
        dones = np.zeros(self.num_envs, bool)
        infos: List[Dict[str, Any]] = [{} for _ in range(self.num_envs)]
        assert self._actions is not None, "step_wait before step_async"
        for i in np.flatnonzero(~legal):
            infos[i]["replaced"] = int(self._actions[i])
        done = self.vector_game.step(actions)
        self._finish(np.flatnonzero(done), rewards, dones, infos)
        self._play_opponents(rewards, dones, infos)
        return self.vector_game.observation_tensor().copy(), rewards, dones, infos

    def _finish(
        self,
        finished: Any,
        rewards: np.ndarray,
        dones: np.ndarray,
        infos: List[Dict[str, Any]],
        terminal_obs: Optional[Dict[Any, np.ndarray]] = None,
    ) -> None:
        """The rows that finished a game: their final reward and infos, the next episode.
        `terminal_obs`: the agent's view of the end where final_observation is not (a bot moved
        last)."""
        vg = self.vector_game
        terminal_obs = terminal_obs or {}
        for i in finished:
            seat = self.seats[i]
            rewards[i] = self._final_reward(vg.final_returns[i], vg.final_scores[i], seat)
            dones[i] = True
            # final_observation is the agent's view when the agent moved last, or when
            # play_random was given the seats as observers.
            observation = terminal_obs[i] if i in terminal_obs else vg.final_observation[i].copy()
            infos[i]["terminal_observation"] = observation
            infos[i]["TimeLimit.truncated"] = False
            infos[i]["returns"] = vg.final_returns[i].tolist()
            infos[i]["scores"] = vg.final_scores[i].tolist()
            infos[i]["seat"] = int(seat)
            self._new_episode(i)

    def _final_reward(self, returns: np.ndarray, scores: np.ndarray, seat: int) -> float:
        if self.reward == "win_share":
            return float(returns[seat])
        fame = list(scores)
        return float(fame[seat] - max(fame[:seat] + fame[seat + 1 :]))

    def _play_opponents(
        self, rewards: np.ndarray, dones: np.ndarray, infos: List[Dict[str, Any]]
    ) -> None:
        """Plies of the opponents, in the rows where one is to move, until the agent is to move
        in every row. Random opponents move inside C++ (VectorGame.play_random, one stream per
        row and opponent slot); bots get a copy of the row's state."""
        vg, n = self.vector_game, self.game.num_players
        while True:
            players = vg.current_player()
            moving = players != self.seats
            if not moving.any():
                return
            if n == 2 and self._random_slots[0]:
                done = vg.play_random(moving, self._streams[0], observer=self.seats).copy()
                self._finish(np.flatnonzero(done), rewards, dones, infos)
                continue
            rows = np.flatnonzero(moving)
            slots = self._slots(rows, players[rows])
            done = np.zeros(self.num_envs, bool)
            for k in np.flatnonzero(self._random_slots):
                # One call per random slot: the slot's streams, advanced in place.
                where = np.zeros(self.num_envs, bool)
                where[rows[slots == k]] = True
                if where.any():
                    done |= vg.play_random(where, self._streams[k], observer=self.seats)
            self._finish(np.flatnonzero(done), rewards, dones, infos)
            by_bots = ~self._random_slots[slots]
            if by_bots.any():
                self._play_bots(rows[by_bots], slots[by_bots], rewards, dones, infos)

    def _play_bots(
        self,
        rows: np.ndarray,
        slots: np.ndarray,
        rewards: np.ndarray,
        dones: np.ndarray,
        infos: List[Dict[str, Any]],
    ) -> None:
        """One ply of the bots of `slots` in `rows`, each on a copy of its row's state."""
        vg = self.vector_game
        actions = np.zeros(self.num_envs, np.int64)
        where = np.zeros(self.num_envs, bool)
        states = {}
        for i, k in zip(rows, slots):
            states[i] = vg.state(int(i))
            actions[i] = self._bots[i][k].step(states[i])
            where[i] = True
        done = vg.step(actions, where=where).copy()
        terminal_obs = {}
        for i in np.flatnonzero(done):
            # The VectorGame sees the end as the mover; the agent's view from the copy.
            states[i].apply_action(int(actions[i]))
            terminal_obs[i] = states[i].observation_tensor(int(self.seats[i]))
        self._finish(np.flatnonzero(done), rewards, dones, infos, terminal_obs=terminal_obs)

    def action_masks(self) -> np.ndarray:
        """(num_envs, 2036) bool: the legal actions of the agent in every row."""
        return self.vector_game.legal_actions_mask().copy()

    def close(self) -> None:
        self.vector_game = None

    def _indices(self, indices: Any) -> Union[range, List[int]]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, (int, np.integer)):
            return [int(indices)]
        return list(indices)

    def env_method(
        self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any
    ) -> List[Any]:
        """The rows' methods: "action_masks" (each row's bool mask)."""
        rows = self._indices(indices)
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in rows]
        raise AttributeError(f"the rows of VikingerSB3VecEnv have no method {method_name!r}")

    def get_attr(self, attr_name: str, indices: Any = None) -> List[Any]:
        rows = self._indices(indices)
        per_row: Dict[str, np.ndarray] = {"seat": self.seats, "episode": self.episodes}
        if attr_name in per_row:
            return [int(per_row[attr_name][i]) for i in rows]
        if attr_name == "action_masks":
            return [self.action_masks] * len(rows)
        if attr_name in ("game", "reward", "render_mode", "observation_space", "action_space"):
            return [getattr(self, attr_name)] * len(rows)
        raise AttributeError(f"the rows of VikingerSB3VecEnv have no attribute {attr_name!r}")

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        raise AttributeError(
            f"the rows of VikingerSB3VecEnv have no settable attribute {attr_name!r}"
        )

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> List[bool]:
        return [False] * len(self._indices(indices))
