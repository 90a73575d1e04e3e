"""A hypothesis state machine that drives vikinger_ref and vikinger_fast in lockstep.

Rules apply legal actions and chance outcomes (ids, int seeds of any size, numpy Generators),
leap ahead by seeded random play, replace the states by clones or by round trips through
`to_dict` (as JSON), bytes and pickle (also across engines: each engine loads the other's
output), try illegal actions and bad queries, and feed both engines the same malformed dicts and
bytes. After every rule the two states must agree (differential.py's full comparison) and each
must satisfy the invariants of docs/api.md and docs/state.md. Bounded settings keep CI short.
"""

import copy
import json
import math
import pickle
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule
from hypothesis.stateful import initialize, run_state_machine_as_test

from conftest import ONLY_REF
from conservation import count_tiles, count_vikings
from positions import COLOURS, STACK_TILES, VIKINGS_PER_COLOUR

try:
    from vikinger_fast import differential
except ImportError:
    if not ONLY_REF:
        raise
    pytest.skip("vikinger_fast is not importable; VIKINGER_ONLY_REF=1", allow_module_level=True)

Raised, first_difference, outcome = (
    differential.Raised,
    differential.first_difference,
    differential.outcome,
)

# Bounded for CI; no shrinking (a shrink replays many long games): a failure prints its steps.
SETTINGS = settings(
    max_examples=25,
    stateful_step_count=25,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
BAD_VALUES = (-1, 1000, "x", None, True, 1.5, [], {})


def leaf_paths(value, path=()):
    """Every path to a leaf (or an empty container) of a to_dict()."""
    if isinstance(value, dict) and value:
        return [p for key, item in value.items() for p in leaf_paths(item, path + (key,))]
    if isinstance(value, list) and value:
        return [p for i, item in enumerate(value) for p in leaf_paths(item, path + (i,))]
    return [path]


class TwinEngines(RuleBasedStateMachine):
    """A pair of states, one per engine, that every rule changes in the same way."""

    def __init__(self, ref, fast):
        super().__init__()
        self.engines = ref, fast
        self.games = ()
        self.states = ()

    def _both(self, method, *args):
        return [outcome(getattr(state, method), *args) for state in self.states]

    def _agree(self, what, results):
        assert first_difference(*results) is None, (what, first_difference(*results))

    @initialize(
        config=st.sampled_from(differential.CONFIGURATIONS),
        seed=st.integers(0, 10**6),
        steps=st.integers(0, 320),
    )
    def start(self, config, seed, steps):
        self.games = tuple(config.game(engine) for engine in self.engines)
        self.states = tuple(game.new_initial_state() for game in self.games)
        self.leap(seed, steps)

    @precondition(lambda self: not self.states[0].is_terminal())
    @rule(choice=st.integers(0, 10**6), as_numpy=st.booleans())
    def apply_legal(self, choice, as_numpy):
        legal = self.states[0].legal_actions()
        action = legal[choice % len(legal)]
        self._agree(
            "apply_action", self._both("apply_action", np.int64(action) if as_numpy else action)
        )

    @rule(seed=st.integers(-(1 << 64), 1 << 66))
    def apply_random_chance_int(self, seed):
        """docs/api.md: an int seed s draws u from mix(s mod 2**64); ValueError off chance nodes."""
        chance = self.states[0].is_chance_node()
        results = self._both("apply_random_chance", seed)
        self._agree("apply_random_chance", results)
        assert isinstance(results[0], Raised) != chance, results

    @rule(seed=st.integers(0, 2**32))
    def apply_random_chance_generator(self, seed):
        results = [
            outcome(state.apply_random_chance, np.random.default_rng(seed)) for state in self.states
        ]
        self._agree("apply_random_chance(Generator)", results)

    @precondition(lambda self: not self.states[0].is_terminal())
    @rule(seed=st.integers(0, 10**6), steps=st.integers(1, 80))
    def leap(self, seed, steps):
        """Seeded random play, the way differential.play and the soak play."""
        rng = random.Random(seed)
        for _ in range(steps):
            if self.states[0].is_terminal():
                return
            if self.states[0].is_chance_node():
                self._agree("leap", self._both("apply_random_chance", rng.getrandbits(64)))
            else:
                self._agree(
                    "leap", self._both("apply_action", rng.choice(self.states[0].legal_actions()))
                )

    @rule(how=st.sampled_from(["clone", "copy", "deepcopy"]), choice=st.integers(0, 10**6))
    def replace_by_copies(self, how, choice):
        """A copy equals its original, and playing on the copy leaves the original alone."""
        make = {"clone": lambda s: s.clone(), "copy": copy.copy, "deepcopy": copy.deepcopy}[how]
        copies = [make(s) for s in self.states]
        before = [s.serialize() for s in self.states]
        for original, twin in zip(self.states, copies):
            assert twin.serialize() == original.serialize() and twin == original
            legal = twin.legal_actions()
            if legal:
                twin.apply_action(legal[choice % len(legal)])
        assert [s.serialize() for s in self.states] == before
        self.states = tuple(copies)

    @rule(via=st.sampled_from(["dict", "bytes", "pickle"]), cross=st.booleans())
    def round_trip(self, via, cross):
        """from_dict(to_dict(s)) == s, likewise for bytes and pickle; `cross`: each engine loads
        what the other wrote (docs/state.md: the formats are the same byte for byte)."""
        sources = self.states[::-1] if cross and via != "pickle" else self.states
        loaded = []
        for game, source in zip(self.games, sources):
            if via == "dict":
                loaded.append(game.state_from_dict(json.loads(json.dumps(source.to_dict()))))
            elif via == "bytes":
                loaded.append(game.deserialize_state(source.serialize()))
            else:
                loaded.append(pickle.loads(pickle.dumps(source)))
        for old, new in zip(self.states, loaded):
            assert new.serialize() == old.serialize() and new.hash_key() == old.hash_key()
        self.states = tuple(loaded)

    @rule(
        action=st.one_of(
            st.integers(-5, 2100), st.integers(), st.sampled_from(differential.WRONG_TYPES)
        )
    )
    def illegal_action(self, action):
        """docs/api.md: illegal -> ValueError, not an int -> TypeError; the state is unchanged."""
        if type(action) is int and action in self.states[0].legal_actions():
            return
        before = [s.serialize() for s in self.states]
        results = self._both("apply_action", action)
        self._agree("illegal apply_action", results)
        assert isinstance(results[0], Raised), results
        assert [s.serialize() for s in self.states] == before

    @rule(action=st.integers(-3, 2040), text=st.text(max_size=12), edit=st.booleans())
    def strings(self, action, text, edit):
        """Action strings agree, read back, and bad ones raise the same error."""
        names = self._both("action_to_string", action)
        self._agree("action_to_string", names)
        if isinstance(names[0], str):
            assert self._both("string_to_action", names[0]) == [action, action]
            text = names[0] + text if edit else text
        self._agree("string_to_action", self._both("string_to_action", text))

    @rule(player=st.one_of(st.integers(-2, 5), st.sampled_from(BAD_VALUES)))
    def observation(self, player):
        self._agree("observation_tensor", self._both("observation_tensor", player))

    @rule(choice=st.integers(0, 10**6), value=st.sampled_from(BAD_VALUES), drop=st.booleans())
    def malformed_dict(self, choice, value, drop):
        """Both engines reject the same edited dicts with the same error, or accept both."""
        d = self.states[0].to_dict()
        paths = leaf_paths(d)
        *parents, last = paths[choice % len(paths)]
        target = d
        for key in parents:
            target = target[key]
        if drop and isinstance(target, dict):
            del target[last]
        else:
            target[last] = value
        self._agree_on_loading("state_from_dict", d)

    @rule(
        position=st.integers(0, 10**6),
        byte=st.integers(0, 255),
        how=st.sampled_from(["replace", "truncate", "append"]),
    )
    def malformed_bytes(self, position, byte, how):
        data = bytearray(self.states[0].serialize())
        position %= len(data)
        if how == "replace":
            data[position] = byte
        elif how == "truncate":
            del data[position:]
        else:
            data.append(byte)
        self._agree_on_loading("deserialize_state", bytes(data))

    def _agree_on_loading(self, method, data):
        results = [outcome(getattr(game, method), copy.deepcopy(data)) for game in self.games]
        if isinstance(results[0], Raised) or isinstance(results[1], Raised):
            # The same error type; the two validators word their messages each in its own way
            # (fuzz/oracles.py `compare`), so only the other calls compare messages.
            errors = [getattr(result, "error", "no error") for result in results]
            assert errors[0] == errors[1], (method, results)
            assert results[0].error in ("ValueError", "TypeError"), results[0]
        else:
            assert results[0].serialize() == results[1].serialize(), method

    @invariant()
    def engines_agree(self):
        if self.states:
            a, b = self.states
            found = differential.compare_fields(
                a, b, differential.FULL_FIELDS
            ) or differential.compare_action_strings(a, b)
            assert found is None, found

    @invariant()
    def state_is_consistent(self):
        for state in self.states:
            check_invariants(state)


def check_invariants(state):
    """docs/api.md and docs/state.md, for one engine's state."""
    legal, n = state.legal_actions(), state.get_game().num_players
    assert legal == sorted(set(legal))
    assert np.flatnonzero(state.legal_actions_mask()).tolist() == legal
    player = state.current_player()
    assert (player == -1) == state.is_chance_node() and (player == -4) == state.is_terminal()
    assert bool(legal) == (not state.is_terminal())
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert [a for a, _ in outcomes] == legal and all(p > 0 for _, p in outcomes)
        assert math.isclose(math.fsum(p for _, p in outcomes), 1.0, rel_tol=1e-12)
    returns = state.returns()
    assert math.isclose(sum(returns), 1.0 if state.is_terminal() else 0.0)  # B8.9
    d = state.to_dict()
    assert count_vikings(d) == dict.fromkeys(COLOURS, VIKINGS_PER_COLOUR)  # B1.1
    assert sum(count_tiles(d)[0].values()) + d["discarded_tiles"] == STACK_TILES  # B1.4
    assert d["history"] == state.history()
    for p in range(n):
        assert state.observation_tensor(p).shape == state.get_game().observation_shape()


def test_engines_agree_under_random_operations(engines):
    ref, fast = engines
    run_state_machine_as_test(lambda: TwinEngines(ref, fast), settings=SETTINGS)
