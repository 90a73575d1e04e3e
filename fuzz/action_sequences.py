"""Call sequences of the fuzzers: `apply_action` and every call that takes an id, a player, a
seed or a string, on one state per engine, with legal ids, illegal ids and values of wrong types
mixed (docs/api.md, "Errors").

`run_action_sequence` makes the same calls on each engine (the second replays the first's
choices): every call must give the same outcome in each (compared through the engine-comparison
layer, vikinger_fast.differential), a refused call must leave the state unchanged, and the states
must stay byte-identical.
"""

from vikinger_fast.differential import first_difference
from vikinger_ref import MAX_CHANCE_OUTCOMES, NUM_DISTINCT_ACTIONS

from fuzz.choosers import Recorder
from fuzz.oracles import Finding, as_compared, describe, outcome

ODD_ACTIONS = (
    -1,
    -(2**31),
    2**31,
    2**63 - 1,
    2**63,
    -(2**63) - 1,
    2**64,
    NUM_DISTINCT_ACTIONS,
    NUM_DISTINCT_ACTIONS + 1,
    MAX_CHANCE_OUTCOMES,
    65535,
    65536,
    1.0,
    3.0,
    "0",
    None,
    True,
    False,
    [0],
    b"\x00",
)


def numpy_odd_actions():
    """Numpy scalars: integers are ids (docs/api.md), bools and floats are not."""
    import numpy as np

    return (
        np.int64(0),
        np.int32(-1),
        np.uint8(5),
        np.uint64(2**64 - 1),
        np.int16(340),
        np.float64(1.0),
        np.float32(2.0),
        np.bool_(True),
        np.array([3]),
    )


def pick_action(state, chooser, numpy_values):
    """A legal id (most of the time), an arbitrary id near the spaces, or an odd value."""
    op = chooser.choose(8)
    legal = state.legal_actions()
    if op <= 3 and legal:
        return legal[chooser.choose(len(legal))]
    if op <= 5:
        return chooser.choose(NUM_DISTINCT_ACTIONS + 4) - 2
    values = ODD_ACTIONS + numpy_values
    return values[chooser.choose(len(values))]


def _api_probe(state, chooser, numpy_values):
    """One call other than apply_action, with an argument that may be wrong: (name, call)."""
    op = chooser.choose(7)
    n = state.get_game().num_players
    if op == 0:
        value = pick_action(state, chooser, numpy_values)
        return "action_to_string", lambda: state.action_to_string(value)
    if op == 1:
        player = (list(range(-1, n + 1)) + [None, 1.0, True, "0"])[chooser.choose(n + 6)]
        return "observation_tensor", lambda: state.observation_tensor(player).tolist()
    if op == 2:
        texts = (
            "buy:0",
            "tile:r1c1",
            "reveal:left",
            "draw:boatsman",
            "buy:12",
            "",
            None,
            3,
            "special:decline",
            "auction:bid:1023",
            "auction:bid:1024",
            "trip:stop",
        )
        text = texts[chooser.choose(len(texts))]
        return "string_to_action", lambda: state.string_to_action(text)
    if op == 3:
        seeds = (0, 1, 2**64 - 1, 2**64, -1, 1.5, None, "1", True)
        rng = seeds[chooser.choose(len(seeds))]
        return "apply_random_chance", lambda: state.apply_random_chance(rng)
    if op == 4:
        return "legal_actions_mask", lambda: state.legal_actions_mask().tolist()
    if op == 5:
        return "chance_outcomes", state.chance_outcomes
    return "returns", state.returns


def run_action_sequence(states, chooser, length, numpy_values=()):
    """Drives one state per engine through the same calls; every call must give the same
    outcome in each, a refused call must leave the state unchanged, and the states must stay
    equal. `states` is a list of 1 or 2 states (reference first)."""
    for _ in range(length):
        if states[0].is_terminal() and chooser.choose(4) == 0:
            break
        if chooser.choose(5) == 0:
            # The same call on each engine: the second replays the choices of the first.
            recorder = Recorder(chooser)
            name, first = _api_probe(states[0], recorder, numpy_values)
            calls = [first] + [
                _api_probe(s, recorder.replay(), numpy_values)[1] for s in states[1:]
            ]
        else:
            action = pick_action(states[0], chooser, numpy_values)
            calls = [(lambda s=s: s.apply_action(action)) for s in states]
            name = f"apply_action({action!r})"
        befores = [s.serialize() for s in states]
        results = [outcome(call) for call in calls]
        for state, before, (kind, value) in zip(states, befores, results):
            if kind != "ok" and state.serialize() != before:
                raise Finding(f"{name} raised {kind.__name__} but changed the state")
        if len(states) == 2:
            a, b = results
            if first_difference(as_compared(a), as_compared(b)):
                raise Finding(f"{name}: reference {describe(a, 200)}, fast {describe(b, 200)}")
            if states[0].serialize() != states[1].serialize():
                raise Finding(f"after {name} the engines' states differ")
    return states
