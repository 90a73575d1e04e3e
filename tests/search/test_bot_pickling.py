"""Bots of both engines pickle and deep-copy with their future (docs/search.md "Bots"): the copy
plays the same moves as the original from the same point on. The C++ bots pickle as plain data
rebuilt by module-level functions of vikinger_fast._core, so a restricted unpickler that refuses
builtins (eval, exec, getattr) loads them; their rebuild checks the data as the constructors do.
apply_action has one signature in both engines: the action by position or as action=."""

import copy
import io
import pickle

import numpy as np
import pytest

BOTS = {
    "random": lambda e, g: e.RandomBot(g, 5),
    "greedy": lambda e, g: e.GreedyBot(g, 5),
    "mcts": lambda e, g: e.MCTSBot(g, 5, iterations=30, uct_c=0.9, leaf="evaluation"),
}


class NoBuiltins(pickle.Unpickler):
    """Loads the reference's classes (through copyreg), the C++ bots' rebuild functions and
    numpy only: no builtins, no other function of vikinger_fast."""

    def find_class(self, module, name):
        if not (
            module.startswith("vikinger_ref")
            or module == "vikinger_fast.safety.rebuild"
            or module.split(".")[0] in ("numpy", "copyreg")
        ):
            raise pickle.UnpicklingError(f"refused {module}.{name}")
        return super().find_class(module, name)


def decision_states(engine, count, seed=2):
    """`count` decision nodes of one seeded random game, in order."""
    state, states = engine.Game().new_initial_state(), []
    k = 0
    while len(states) < count and not state.is_terminal():
        if state.is_chance_node():
            state.apply_random_chance(seed * 1000 + k)
        else:
            states.append(state.clone())
            legal = state.legal_actions()
            state.apply_action(legal[(seed + k) % len(legal)])
        k += 1
    return states


@pytest.mark.parametrize("kind", sorted(BOTS))
@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
def test_a_copied_bot_plays_on_as_the_original(engine, kind, how):
    bot = BOTS[kind](engine, engine.Game())
    states = decision_states(engine, 8)
    for state in states[:3]:
        bot.step(state)  # the streams have moved
    twin = {
        "pickle": lambda b: NoBuiltins(io.BytesIO(pickle.dumps(b))).load(),
        "deepcopy": copy.deepcopy,
        "copy": copy.copy,
    }[how](bot)
    assert type(twin) is type(bot)
    assert [twin.step(s) for s in states[3:]] == [bot.step(s) for s in states[3:]]
    twin.restart()
    bot.restart()
    assert twin.step(states[0]) == bot.step(states[0])


def test_both_engines_pickle_the_same_future(engines):
    ref, fast = engines
    for kind, make in BOTS.items():
        bots = [make(e, e.Game()) for e in engines]
        states = [decision_states(e, 6) for e in engines]
        for bot, its in zip(bots, states):
            for state in its[:2]:
                bot.step(state)
        twins = [pickle.loads(pickle.dumps(b)) for b in bots]
        moves = [[t.step(s) for s in its[2:]] for t, its in zip(twins, states)]
        assert moves[0] == moves[1], kind


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda c, g: c._random_bot_from_data(g, 1.5, 0), TypeError, "seed must be an int"),
        (lambda c, g: c._greedy_bot_from_data("game", 1, 0), TypeError, "game must be a Game"),
        (lambda c, g: c._random_bot_from_data(g, 1, "x"), TypeError, "stream must be an int"),
        (lambda c, g: c._mcts_bot_from_data(g, 1, [], 0), TypeError, "budget must be a dict"),
        (
            lambda c, g: c._mcts_bot_from_data(g, 1, {"iterations": 5}, 0),
            ValueError,
            "budget must hold",
        ),
        (
            lambda c, g: c._mcts_bot_from_data(
                g,
                1,
                {
                    "iterations": -5,
                    "max_time": None,
                    "uct_c": 1.4,
                    "leaf": "playout",
                    "threads": 1,
                    "solver_nodes": 0,
                },
                0,
            ),
            ValueError,
            "iterations must be > 0",
        ),
    ],
)
def test_the_rebuild_checks_its_data(engines, call, error, message):
    fast = engines[1]
    with pytest.raises(error, match=message):
        call(fast._core, fast.Game())


class Tampered:
    """Pickles as a call of `function(*args)`: a pickle whose data no bot wrote."""

    def __init__(self, function, *args):
        self.reduced = function, args

    def __reduce__(self):
        return self.reduced


@pytest.mark.parametrize("value", [2**64, -1, 2**70, np.uint64(2**64 - 1)])
@pytest.mark.parametrize("kind", ["random", "greedy", "mcts"])
def test_a_stream_or_count_beyond_uint64_is_refused_alike(engines, kind, value):
    """A bot's stream state (and MCTSBot's count of searches) is what __reduce__ wrote, in
    0..2**64-1: a pickle with another value is refused by the restricted unpickler's rebuild in
    both engines with the same ValueError, as the constructors refuse bad data (not taken mod
    2**64)."""
    from vikinger_fast.safety import rebuild, unpickle
    from vikinger_ref import bots as ref_bots
    from vikinger_ref import mcts as ref_mcts

    ref, fast = engines
    budget = dict(iterations=4, max_time=None, uct_c=1.4, leaf="playout", threads=1, solver_nodes=0)
    pickles = {
        "random": (
            Tampered(ref_bots.random_bot_from_data, ref.Game(2), 1, value),
            Tampered(rebuild.random_bot, 2, 0, 1, value),
        ),
        "greedy": (
            Tampered(ref_bots.greedy_bot_from_data, ref.Game(2), 1, value),
            Tampered(rebuild.greedy_bot, 2, 0, 1, value),
        ),
        "mcts": (
            Tampered(ref_mcts.mcts_bot_from_data, ref.Game(2), 1, budget, value),
            Tampered(rebuild.mcts_bot, 2, 0, 1, budget, value),
        ),
    }[kind]
    found = []
    for engine, tampered in zip(engines, pickles):
        data = pickle.dumps(tampered)
        if 0 <= int(value) < 2**64:  # the largest state: loaded, and it plays
            state = decision_states(engine, 1)[0]
            assert unpickle.loads(data).step(state) in state.legal_actions()
            continue
        with pytest.raises(ValueError) as caught:
            unpickle.loads(data)
        found.append(str(caught.value))
    what = "searches" if kind == "mcts" else "stream"
    message = f"{what} {int(value)} is outside 0..18446744073709551615"
    assert found == ([] if 0 <= int(value) < 2**64 else [message] * 2)


@pytest.mark.parametrize(
    "call", [lambda s, a: s.apply_action(a), lambda s, a: s.apply_action(action=a)]
)
def test_apply_action_by_position_or_keyword(engine, call):
    state = engine.Game().new_initial_state()
    call(state, state.legal_actions()[0])
    assert len(state.history()) == 1


def errors(engine, call):
    state = engine.Game().new_initial_state()
    with pytest.raises(TypeError) as caught:
        call(state)
    return str(caught.value)


@pytest.mark.parametrize(
    "call",
    [
        lambda s: s.apply_action(),
        lambda s: s.apply_action(1, 2),
        lambda s: s.apply_action(actions=1),
        lambda s: s.apply_action(1, action=1),
        lambda s: s.apply_action(action=2.5),
        lambda s: s.apply_action(action=True),
    ],
)
def test_apply_action_refuses_other_arguments_alike(engines, call):
    ref_message, fast_message = (errors(e, call) for e in engines)
    if "must be an int" in ref_message:  # the engines' own message: word for word
        assert fast_message == ref_message
    else:  # the signature's: both name the call
        assert "apply_action()" in ref_message and "apply_action()" in fast_message
