"""Oracles of the fuzzers: what must hold for any input, on one engine and between two.

* a call returns or raises `ValueError` / `TypeError`, nothing else (`outcome`);
* `state_from_dict` leaves its argument untouched; a refused call leaves the state as it was;
* an accepted dict round-trips (`to_dict() == d`); accepted bytes are canonical
  (`serialize() == b`); an accepted state works (bytes read back, observation, text, hash) and
  is alive: a decision node has a legal action (`check_accepted_state`, `check_alive`);
* two engines accept and refuse the same inputs with the same error (type and message), and
  states they accept or reach agree in every field: `compare` and `play_on` compare through the
  engine-comparison layer of `vikinger soak` (vikinger_fast.differential).

A broken oracle raises `Finding` with a description of the input; fuzzers and tests let it
propagate.
"""

import marshal
import math
import random

from vikinger_fast.differential import CHEAP_FIELDS, FULL_FIELDS, Raised, compare_fields

EXPECTED_ERRORS = (ValueError, TypeError)


class Finding(AssertionError):
    """An oracle does not hold: a bug in an engine (or in the two engines' agreement)."""


def outcome(call):
    """('ok', value) or (error type, message). Unexpected error types are a Finding."""
    try:
        return "ok", call()
    except EXPECTED_ERRORS as error:
        return type(error), str(error)
    except Exception as error:  # noqa: BLE001 -- any other type is exactly what we look for
        raise Finding(f"unexpected {type(error).__name__}: {error}") from error


def as_compared(result):
    """An `outcome` as the comparison layer sees it: the value, or `Raised`."""
    kind, value = result
    return value if kind == "ok" else Raised(kind.__name__, value)


def describe(value, limit=400):
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def _kind_name(result):
    return "ok" if result[0] == "ok" else result[0].__name__


# --- checks on one engine ----------------------------------------------------------------------


def check_alive(state, steps=0, rng=None):
    """An accepted position can be played: a decision node has legal actions, each a legal id;
    `steps` random actions from it keep that true. Returns the state reached."""
    rng = rng or random.Random(0)
    for _ in range(steps + 1):
        if state.is_terminal():
            if state.legal_actions():
                raise Finding("a terminal state has legal actions")
            return state
        legal = state.legal_actions()
        if not legal:
            raise Finding(f"no legal action in phase {state.to_dict()['phase']}")
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            total = sum(p for _, p in outcomes)
            if [a for a, _ in outcomes] != legal or not math.isclose(total, 1.0):
                raise Finding("chance outcomes do not match the legal chance ids")
        if steps == 0:
            return state
        kind, value = outcome(lambda: state.apply_action(rng.choice(legal)))
        if kind != "ok":
            raise Finding(f"a legal action was refused: {value}")
        steps -= 1
    return state


def check_accepted_state(state, d=None, data=None, steps=0):
    """The oracles of an accepted input: round trips, a working API, alive."""
    back = state.to_dict()
    if d is not None and back != d:
        raise Finding(f"to_dict() differs from the accepted dict: {describe(back)}")
    raw = state.serialize()
    if data is not None and raw != data:
        raise Finding("accepted bytes are not canonical: serialize() gives other bytes")
    game = state.get_game()
    again = outcome(lambda: game.deserialize_state(raw))
    if again[0] != "ok" or again[1].to_dict() != back:
        raise Finding(f"serialize() of an accepted state does not read back: {again}")
    for p in range(game.num_players):
        state.observation_tensor(p)
    str(state)
    state.hash_key()
    state.legal_actions_mask()
    return check_alive(state.clone(), steps=steps)


# --- state_from_dict and deserialize_state, on one engine and on two ----------------------------


def check_dict_one(game, d, steps=0):
    """Oracles of state_from_dict on one engine; returns the outcome."""
    kept = _snapshot(d)
    result = outcome(lambda: game.state_from_dict(d))
    if _snapshot(d) != kept:
        raise Finding("state_from_dict modified its argument")
    if result[0] == "ok":
        check_accepted_state(result[1], d=d, steps=steps)
    return result


def check_bytes_one(game, data, steps=0):
    result = outcome(lambda: game.deserialize_state(data))
    if result[0] == "ok":
        check_accepted_state(result[1], data=data, steps=steps)
    return result


def _snapshot(value):
    """Exact content (types, key order, True apart from 1) of plain data, else its repr."""
    try:
        return marshal.dumps(value, 2)  # version 2: no back-references (refcount-free)
    except ValueError:
        return repr(value)


def compare(results, what):
    """Both engines accept (and the states agree in every field) or both refuse with the same
    error type and the same message: the two validators check in the same order and name the
    same first problem in the same words (docs/api.md "Errors"), as every other call does
    (action_sequences.py, the soak)."""
    ref, fast = results
    if (ref[0] == "ok") != (fast[0] == "ok") or ref[0] != "ok" and ref != fast:
        raise Finding(
            f"{what}: reference gives {_kind_name(ref)} ({describe(ref[1], 200)}), "
            f"fast gives {_kind_name(fast)} ({describe(fast[1], 200)})"
        )
    if ref[0] == "ok":
        found = compare_fields(ref[1], fast[1], FULL_FIELDS)
        if found:
            raise Finding(
                f"{what}: both accept, but {found[0]} differs: {describe(found[1], 200)}"
                f" against {describe(found[2], 200)}"
            )


def play_on(states, steps, seed=0, round_trip_every=10):
    """Plays `steps` random actions (chance included) in every state of `states` alike: the
    states must agree (the cheap fields of the comparison layer: player, legal list, chance
    outcomes, bytes) before every action and after the last; a decision node must have a legal
    action; every `round_trip_every` actions (and at the end) the states reached must read back
    from their bytes."""
    rng = random.Random(seed)
    for step in range(steps):
        first = states[0]
        _agree(states, f"before action {step}")
        if first.is_terminal():
            break
        legal = first.legal_actions()
        if not legal:
            raise Finding(f"no legal action in phase {first.to_dict()['phase']}")
        action = rng.choice(legal)
        for state in states:
            kind, value = outcome(lambda: state.apply_action(action))
            if kind != "ok":
                raise Finding(f"a legal action ({action}) was refused: {value}")
        if step % round_trip_every == round_trip_every - 1 or first.is_terminal():
            _check_reads_back(states, f"action {action}")
    _agree(states, "after the last action")
    _check_reads_back(states, "the last action")
    return states


def _agree(states, when):
    for other in states[1:]:
        found = compare_fields(states[0], other, CHEAP_FIELDS)
        if found:
            raise Finding(
                f"{when} the engines' {found[0]} differs: {describe(found[1], 200)} "
                f"against {describe(found[2], 200)}"
            )


def _check_reads_back(states, what):
    for state in states:
        kind, value = outcome(lambda: state.get_game().deserialize_state(state.serialize()))
        if kind != "ok":
            raise Finding(f"a state reached by {what} is refused: {value}")


def check_dict_both(games, d, steps=0):
    results = [check_dict_one(game, d, steps) for game in games]
    if len(results) == 2:
        compare(results, f"state_from_dict({describe(d)})")
    return results[0]


def check_bytes_both(games, data, steps=0):
    results = [check_bytes_one(game, data, steps) for game in games]
    if len(results) == 2:
        compare(results, f"deserialize_state({describe(data)})")
    return results[0]
