"""A batch of games stepped together, for reinforcement-learning loops (docs/api.md, "VectorGame").

Every environment of the batch always waits at a decision node: chance is sampled inside, from the
environment's own splitmix64 stream (environment i: seed `seed + i`, one number per chance node,
outcome chosen as `apply_random_chance` does, the stream running on across that environment's
games). When a game ends, its final scores, gold, returns, length and observation are copied into
the `final_*` arrays, `done[i]` is set, and the environment starts a new game at once (auto-reset).

The arrays are allocated once; every call writes into them and returns them.

Pickling (docs/api.md): the game, per environment its position bytes (no history), the state of
its chance stream and the actions of its current game, and the done and final_* arrays; the
rebuilt VectorGame goes on exactly as the pickled one would. `vector_game_from_data` checks all
of it (the positions as `deserialize_state` does).

Threads and Ctrl-C (docs/api.md): every method holds the object's lock, so one VectorGame used
from several threads is used by one at a time; a step interrupted by KeyboardInterrupt changes
nothing (it plays on copies and puts the results in place at the end, with Ctrl-C held back for
those few lines).
"""

from __future__ import annotations

import contextlib
import signal
import threading
from typing import Any, Callable, Iterator

import numpy as np

from .actions import NUM_DISTINCT_ACTIONS
from .arguments import check_int, check_uint64, type_name
from .game import Game
from .rng import SplitMix64
from .serialization import to_bytes
from .state import State, as_action_id

MAX_BATCH_SIZE = 1 << 24  # as the C++ engine: far beyond memory for the observation arrays


@contextlib.contextmanager
def _ctrl_c_held_back() -> Iterator[None]:
    """Runs the block to its end and only then raises a KeyboardInterrupt that came during it.
    Python delivers SIGINT to the main thread only, so elsewhere there is nothing to hold back."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught:
        signal.raise_signal(signal.SIGINT)


class VectorGame:
    """`batch_size` games of `game`, stepped by one call; environment i uses seed `seed + i`."""

    def __init__(self, game: Game, batch_size: int, seed: int) -> None:
        if not isinstance(game, Game):
            raise TypeError(f"game must be a Game, not {type_name(game)}")
        batch_size = check_int("batch_size", batch_size)
        seed = check_int("seed", seed)
        if batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, not {batch_size}")
        if batch_size > MAX_BATCH_SIZE:
            raise ValueError(f"batch_size {batch_size} is too large")
        self._lock = threading.Lock()
        n = game.num_players
        obs_size = game.observation_shape()[0]
        self._game = game
        self.batch_size = batch_size
        self._rngs = [SplitMix64(seed + i) for i in range(batch_size)]
        self._states: list[State] = [None] * batch_size  # type: ignore[list-item]  # set below
        self._lengths = [0] * batch_size  # actions applied in each environment's current game
        self._mask = np.zeros((batch_size, NUM_DISTINCT_ACTIONS), dtype=bool)
        self._observation = np.zeros((batch_size, obs_size), dtype=np.float32)
        self._players = np.zeros(batch_size, dtype=np.int32)
        self.done = np.zeros(batch_size, dtype=bool)
        self.final_scores = np.zeros((batch_size, n), dtype=np.int32)
        self.final_gold = np.zeros((batch_size, n), dtype=np.int32)
        self.final_returns = np.zeros((batch_size, n), dtype=np.float64)
        self.final_length = np.zeros(batch_size, dtype=np.int32)
        self.final_observation = np.zeros((batch_size, obs_size), dtype=np.float32)
        for i in range(batch_size):
            self._new_game(i)

    def get_game(self) -> Game:
        return self._game

    @staticmethod
    def _sample_chance(state: State, rng: SplitMix64) -> int:
        """Chance nodes of one environment, sampled until a decision node or the end; returns
        how many."""
        count = 0
        while state.is_chance_node():
            state.apply_action(state._outcome_at(rng.next_double()))
            count += 1
        return count

    def _new_game(self, i: int) -> None:
        self._states[i] = self._game.new_initial_state()
        self._lengths[i] = self._sample_chance(self._states[i], self._rngs[i])

    def __reduce__(self) -> tuple[Callable[..., VectorGame], tuple[Any, ...]]:
        with self._lock:
            arrays = tuple(getattr(self, name).copy() for name in ARRAY_NAMES)
            return vector_game_from_data, (
                self._game,
                tuple(to_bytes(state, with_history=False) for state in self._states),
                tuple(rng.state for rng in self._rngs),
                tuple(self._lengths),
                *arrays,
            )

    def current_player(self) -> np.ndarray:
        """(batch,) int32: the player to move in each environment."""
        with self._lock:
            for i, state in enumerate(self._states):
                self._players[i] = state.current_player()
            return self._players

    def legal_actions_mask(self) -> np.ndarray:
        """(batch, num_distinct_actions) bool: the legal decisions of each environment."""
        with self._lock:
            # Made aside and stored by one numpy call: a view held by another thread never
            # shows a half-written mask.
            mask = np.zeros_like(self._mask)
            for i, state in enumerate(self._states):
                mask[i, state.legal_actions()] = True
            self._mask[...] = mask
            return self._mask

    def observation_tensor(self) -> np.ndarray:
        """(batch, observation size) float32: each environment seen by its player to move."""
        with self._lock:
            for i, state in enumerate(self._states):
                self._observation[i] = state.observation_tensor(state.current_player())
            return self._observation

    def state(self, env: int) -> State:
        """A copy of environment `env`'s state (a decision node; no history): for bots that play
        some seats of the batch."""
        with self._lock:
            env = check_int("env", env)
            if not 0 <= env < self.batch_size:
                raise ValueError(f"env must be in 0..{self.batch_size - 1}, not {env}")
            return self._game.deserialize_state(to_bytes(self._states[env], with_history=False))

    def _where(self, where: Any) -> list[bool]:
        if where is None:
            return [True] * self.batch_size
        where = np.asarray(where)
        if where.dtype != np.bool_:
            raise TypeError(f"where must be a bool array, not {where.dtype}")
        if where.shape != (self.batch_size,):
            raise ValueError(f"where must have shape ({self.batch_size},), not {where.shape}")
        return [bool(w) for w in where]

    def _actions(self, actions: Any, where: list[bool]) -> list[int]:
        actions = np.asarray(actions)
        if actions.dtype == np.bool_ or actions.dtype.kind not in "iu":
            raise TypeError(f"actions must be integers, not {actions.dtype}")
        if actions.shape != (self.batch_size,):
            raise ValueError(f"actions must have shape ({self.batch_size},), not {actions.shape}")
        actions = [as_action_id(a) for a in actions]
        for i, (state, action) in enumerate(zip(self._states, actions)):
            if where[i] and action not in state.legal_actions():
                raise ValueError(
                    f"action {action} is not legal in environment {i} (phase {state.phase})"
                )
        return actions

    def play_random(self, where: Any, streams: np.ndarray, observer: Any = None) -> np.ndarray:
        """RandomBot's move in the environments where `where` is True: legal[floor(u *
        len(legal))], u the next uniform of the splitmix64 stream whose state is streams[i] (a
        uint64 array, advanced in place once the step is done), then chance as in `step`.
        `observer` (None: the mover) names per environment the player whose view of a finished
        game goes to final_observation. Returns `done`."""
        with self._lock:
            where = self._where(where)
            if not isinstance(streams, np.ndarray) or streams.dtype != np.uint64:
                raise TypeError(
                    f"streams must be a numpy array of uint64, not {type_name(streams)}"
                )
            if streams.shape != (self.batch_size,):
                raise ValueError(
                    f"streams must have shape ({self.batch_size},), not {streams.shape}"
                )
            if not streams.flags.writeable or not streams.flags.c_contiguous:
                raise ValueError(
                    "streams must be writable and contiguous (they are advanced in place)"
                )
            observers = self._observers(observer)
            actions, advanced = [0] * self.batch_size, streams.copy()
            for i, state in enumerate(self._states):
                if where[i]:
                    rng = SplitMix64(int(streams[i]))
                    legal = state.legal_actions()
                    actions[i] = legal[int(rng.next_double() * len(legal))]
                    advanced[i] = rng.state
            self._step(
                actions, where, observers, commit=lambda: streams.__setitem__(Ellipsis, advanced)
            )
            return self.done

    def _observers(self, observer: Any) -> list[int] | None:
        if observer is None:
            return None
        seats = np.asarray(observer)
        if seats.dtype == np.bool_ or seats.dtype.kind not in "iu":
            raise TypeError(f"observer must be integers, not {seats.dtype}")
        if seats.shape != (self.batch_size,):
            raise ValueError(f"observer must have shape ({self.batch_size},), not {seats.shape}")
        n = self._game.num_players
        for seat in seats:
            if not 0 <= seat < n:
                raise ValueError(f"observer must be players 0..{n - 1}, not {seat}")
        return [int(seat) for seat in seats]

    def step(self, actions: Any, where: Any = None) -> np.ndarray:
        """Applies actions[i] in environment i (all are checked first: an illegal one raises
        ValueError and changes nothing), then samples chance; finished games are recorded in
        the final_* arrays and restarted. Returns `done`. KeyboardInterrupt changes nothing.
        `where` (None: every environment, or a bool array of shape (batch,)) selects the
        environments that move; the others stay as they are (actions unchecked, done False)."""
        with self._lock:
            where = self._where(where)
            self._step(self._actions(actions, where), where, None)
            return self.done

    def _step(
        self,
        actions: list[int],
        where: list[bool],
        observers: list[int] | None,
        commit: Callable[[], None] = lambda: None,
    ) -> None:
        """Step's work on checked arguments, under the lock; `commit` runs as the results are
        put in place (Ctrl-C held back)."""
        states = [state.clone() for state in self._states]
        rngs = [SplitMix64(rng.state) for rng in self._rngs]
        lengths = list(self._lengths)
        finished = []  # (environment, scores, gold, returns, length, observation)
        for i, action in enumerate(actions):
            if not where[i]:
                continue
            state = states[i]
            player = state.current_player() if observers is None else observers[i]
            state.apply_action(action)
            lengths[i] += 1 + self._sample_chance(state, rngs[i])
            if state.is_terminal():
                finished.append(
                    (
                        i,
                        state.scores(),
                        state.gold(),
                        state.returns(),
                        lengths[i],
                        state.observation_tensor(player),
                    )
                )
                states[i] = self._game.new_initial_state()
                lengths[i] = self._sample_chance(states[i], rngs[i])
        with _ctrl_c_held_back():
            self._states, self._rngs, self._lengths = states, rngs, lengths
            commit()
            self.done[:] = False
            for i, scores, gold, returns, length, observation in finished:
                self.done[i] = True
                self.final_scores[i] = scores
                self.final_gold[i] = gold
                self.final_returns[i] = returns
                self.final_length[i] = length
                self.final_observation[i] = observation


ARRAY_NAMES = (
    "done",
    "final_scores",
    "final_gold",
    "final_returns",
    "final_length",
    "final_observation",
)


def vector_game_from_data(
    game: object, positions: Any, streams: Any, lengths: Any, *arrays: Any
) -> VectorGame:
    """The VectorGame a pickle holds (the data of `VectorGame.__reduce__`), checked completely."""
    if not isinstance(game, Game):
        raise TypeError(f"game must be a Game, not {type_name(game)}")
    for name, value in (("positions", positions), ("streams", streams), ("lengths", lengths)):
        if not isinstance(value, tuple):
            raise TypeError(f"{name} must be a tuple, not {type_name(value)}")
    batch_size = len(positions)
    if batch_size < 1 or len(streams) != batch_size or len(lengths) != batch_size:
        raise ValueError("positions, streams and lengths must be of one length >= 1")
    if len(arrays) != len(ARRAY_NAMES):
        raise TypeError(
            f"a VectorGame is rebuilt from {len(ARRAY_NAMES)} arrays, not {len(arrays)}"
        )
    env = VectorGame(game, batch_size, 0)
    for i, (data, stream, length) in enumerate(zip(positions, streams, lengths)):
        if not isinstance(data, bytes):
            raise TypeError(f"positions must hold bytes, not {type_name(data)}")
        stream, length = check_int("a stream state", stream), check_int("a length", length)
        stream = check_uint64("a stream state", stream)  # never taken mod 2**64
        state = game.deserialize_state(data)
        if state.is_chance_node() or state.is_terminal():
            raise ValueError(f"environment {i} is not at a decision node")
        if not 0 <= length < 1 << 31:
            raise ValueError(f"the length of environment {i} is {length}, outside 0..2**31-1")
        env._states[i], env._rngs[i], env._lengths[i] = state, SplitMix64(stream), length
    for name, value in zip(ARRAY_NAMES, arrays):
        into = getattr(env, name)
        if not isinstance(value, np.ndarray) or value.dtype != into.dtype:
            raise TypeError(f"{name} must be a numpy array of {into.dtype}, not {type_name(value)}")
        if value.shape != into.shape:
            raise ValueError(f"{name} must have shape {into.shape}, not {value.shape}")
        into[...] = value
    return env
