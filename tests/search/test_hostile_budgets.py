"""Hostile budgets and loaders (docs/search.md "Budgets", docs/security.md): a search that cannot
end is refused at construction, a tiny time budget still gives a policy, the restricted
unpickler loads the package's own pickles at every protocol and rebuilds the reference's bots
only through their constructors' checks, the SB3 env's seed() takes ints, huge ints are named
alike, and the endgame solver is bounded in memory: a MemoryError in both engines, never a
crash, even under an address-space limit after an interrupted solve (a subprocess)."""

import pickle
import random
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from vikinger_fast.safety import unpickle


def _decision(engine, players=2, **modules):
    state = engine.Game(num_players=players, **modules).new_initial_state()
    while state.is_chance_node():
        state.apply_random_chance(0)
    return state


def _errors(engines, call):
    out = []
    for engine in engines:
        with pytest.raises(Exception) as caught:
            call(engine)
        out.append((type(caught.value), str(caught.value)))
    assert out[0] == out[1], out
    return out[0]


@pytest.mark.parametrize("bot", ["PuctBot", "AZBot"])
@pytest.mark.parametrize("max_time", [float("inf"), 1e9, 10**400])
def test_a_search_without_an_end_is_refused_at_construction(engines, bot, max_time):
    kind, message = _errors(
        engines, lambda e: getattr(e, bot)(e.Game(num_players=2), 0, max_time=max_time)
    )
    assert kind is ValueError
    assert message.startswith("PuctBot needs a finite budget: simulations, or max_time below 1e9")


@pytest.mark.parametrize("max_time", [1e-300, 5e-324])
def test_a_tiny_time_budget_still_gives_a_policy(engine, max_time):
    state = _decision(engine)
    for bot in (
        engine.PuctBot(state.get_game(), 0, max_time=max_time),
        engine.AZBot(state.get_game(), 0, max_time=max_time),
        engine.PuctBot(state.get_game(), 0, max_time=float("inf"), simulations=3),
    ):
        policy = bot.policy(state)
        assert abs(sum(p for _, p in policy) - 1.0) < 1e-9
        assert bot.step(state) in state.legal_actions()


def _objects(engine):
    game = engine.Game(num_players=3, auction=True)
    bot = engine.MCTSBot(game, 5, iterations=20, uct_c=0.9, leaf="evaluation")
    bot.step(_decision(engine, 3, auction=True))  # a bot with searches behind it
    return [
        game,
        _decision(engine, 3, auction=True),
        engine.VectorGame(game, 2, 4),
        engine.RandomBot(game, 7),
        engine.GreedyBot(game, 7),
        bot,
    ]


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_the_packages_pickles_load_at_every_protocol(engine, protocol):
    state = _decision(engine, 3, auction=True)
    for obj in _objects(engine):
        copy = unpickle.loads(pickle.dumps(obj, protocol=protocol))
        assert type(copy) is type(obj)
        if hasattr(obj, "policy"):  # a bot: the copy plays on as the original
            assert copy.step(state) == obj.step(state), type(obj).__name__


class _Rebuild:
    """A pickle that calls an allowed rebuild function with chosen (hostile) data."""

    def __init__(self, function, *args):
        self.function, self.args = function, args

    def __reduce__(self):
        return self.function, self.args


def _mcts_budget(**changes):
    budget = {
        "iterations": 5,
        "max_time": None,
        "uct_c": 1.4,
        "leaf": "playout",
        "threads": 1,
        "solver_nodes": 0,
    }
    return {**budget, **changes}


@pytest.mark.parametrize(
    "args, words",
    [
        ((_mcts_budget(iterations=None),), "MCTSBot needs a budget: iterations or max_time"),
        ((_mcts_budget(iterations=-5),), "iterations must be > 0, not -5"),
        ((_mcts_budget(iterations=None, max_time=float("inf")),), "needs a finite budget"),
        ((_mcts_budget(threads="many"),), "threads must be an int, not str"),
        (({"iterations": 5},), "budget must hold iterations"),
        (([],), "budget must be a dict, not list"),
    ],
)
def test_a_hostile_reference_bot_pickle_is_refused(args, words):
    """The reference's MCTSBot pickled its attributes: a pickle could set any of them (a
    search that never ends). Its rebuild now goes through the constructor's checks, with the
    C++ rebuild's messages."""
    import vikinger_fast
    import vikinger_ref
    from vikinger_fast.safety import rebuild
    from vikinger_ref import mcts

    ref = _Rebuild(mcts.mcts_bot_from_data, vikinger_ref.Game(num_players=2), 1, *args, 0)
    fast = _Rebuild(rebuild.mcts_bot, 2, 0, 1, *args, 0)
    messages = []
    for data in (pickle.dumps(ref), pickle.dumps(fast)):
        with pytest.raises((ValueError, TypeError)) as caught:
            unpickle.loads(data)
        messages.append(str(caught.value))
    assert words in messages[0] and messages[0] == messages[1], messages
    assert vikinger_fast.Game  # both engines were reached


def test_the_reference_bots_rebuild_through_their_constructors():
    import vikinger_ref
    from vikinger_ref import bots

    game = vikinger_ref.Game(num_players=2)
    for function in (bots.random_bot_from_data, bots.greedy_bot_from_data):
        with pytest.raises(TypeError, match="seed must be an int, not float"):
            unpickle.loads(pickle.dumps(_Rebuild(function, game, 1.5, 0)))
        with pytest.raises(TypeError, match="stream must be an int, not str"):
            unpickle.loads(pickle.dumps(_Rebuild(function, game, 1, "x")))
        with pytest.raises(TypeError, match="game must be a Game, not str"):
            unpickle.loads(pickle.dumps(_Rebuild(function, "game", 1, 0)))
    # Object state is never set from a pickle: the classes themselves are not loadable.
    with pytest.raises(pickle.UnpicklingError, match="vikinger_ref.mcts.MCTSBot"):
        unpickle.loads(pickle.dumps(vikinger_ref.mcts.MCTSBot))


def test_codecs_encode_is_only_latin1_text():
    import codecs

    for args in (("x", "rot13"), (b"x", "latin1"), ("x", "zlib")):
        with pytest.raises(pickle.UnpicklingError, match="_codecs.encode"):
            unpickle.loads(pickle.dumps(_Rebuild(codecs.encode, *args), protocol=2))


@pytest.mark.parametrize("seed", [1.5, True, "3", np.float64(2.0)])
def test_the_sb3_env_refuses_a_seed_that_is_not_an_int(seed):
    pytest.importorskip("stable_baselines3", reason="the sb3 extra is not installed")
    from vikinger_fast.adapters.sb3 import VikingerSB3VecEnv

    env = VikingerSB3VecEnv(2)
    with pytest.raises(TypeError, match="seed must be an int"):
        env.seed(seed)
    assert env.seed(np.int64(5)) == [5, 6]
    drawn = env.seed(None)
    assert drawn[1] - drawn[0] == 1


@pytest.mark.parametrize("value", [2**64 + 5, -(2**64) - 5, 2**63, -(2**63) - 1])
def test_huge_ints_are_named_alike(engines, value):
    for call in (
        lambda e: e.VectorGame(e.Game(num_players=2), value, 0),
        lambda e: e.solve_endgame(_endgame(e), value),
        lambda e: e.solve_endgame(_endgame(e), 10, value),
        lambda e: e.MCTSBot(e.Game(num_players=2), 0, iterations=5, solver_nodes=value),
        lambda e: e.rollouts(e.Game(num_players=2), value, 0),
    ):
        kind, message = _errors(engines, call)
        assert kind is ValueError and str(value) in message


def _endgame(engine, purchases_left=1, seed=0, players=2):
    """The first round-6 decision (its offer on the wheel) at most `purchases_left` purchases
    from the end, of the first seeded random game that has one."""
    rng = random.Random(seed)
    state = engine.Game(num_players=players).new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_random_chance(rng.getrandbits(64))
            continue
        d = state.to_dict()
        if d["round"] == 6 and d["phase"] != "trip" and 12 - d["purchases"] <= purchases_left:
            return state
        state.apply_action(rng.choice(state.legal_actions()))
    return _endgame(engine, purchases_left, seed + 1, players)


@pytest.mark.parametrize(
    "max_memory, kind, words",
    [
        (80, MemoryError, "the table reached max_memory (80 bytes, 1 positions)"),
        (800, MemoryError, "(800 bytes, 10 positions); give a larger max_memory"),
        (79, ValueError, "max_memory must be >= 80 (one table entry), not 79"),
        (-1, ValueError, "max_memory must be >= 0, not -1"),
        (1.5, TypeError, "max_memory must be an int, not float"),
        (True, TypeError, "max_memory must be an int, not bool"),
    ],
)
def test_the_solver_memory_bound_is_one_error_in_both_engines(engines, max_memory, kind, words):
    got = _errors(engines, lambda e: e.solve_endgame(_endgame(e, 2), 10**6, max_memory))
    assert got[0] is kind and words in got[1], got


def test_the_solver_solves_within_its_memory_bound_alike(engines):
    results = [e.solve_endgame(_endgame(e, 1), 10**6, max_memory=10**6) for e in engines]
    assert results[0] == results[1] and results[0] is not None


def _fits(engine, state, entries):
    try:
        return engine.solve_endgame(state, 10**6, max_memory=80 * entries)
    except MemoryError:
        return None


@pytest.mark.parametrize("players, purchases_left, seed", [(2, 7, 5), (3, 4, 5)])
def test_the_solver_memory_bound_counts_the_same_positions_as_its_table_grows(
    engines, players, purchases_left, seed
):
    """The fast table doubles its slots as it fills and stops doubling near the bound
    (csrc/search/solver_table.h); the positions it may hold are still max_memory // 80, as the
    reference counts them: the least bound the fast engine solves within (hundreds of entries,
    past several doublings) is the reference's too, and one entry less fails in both."""
    fast, ref = (_endgame(e, purchases_left, seed, players) for e in engines)
    low, high = 1, 10**5
    assert _fits(engines[0], fast, high) is not None
    while low < high:
        middle = (low + high) // 2
        if _fits(engines[0], fast, middle) is None:
            low = middle + 1
        else:
            high = middle
    assert low > 256
    assert _fits(engines[1], ref, low) == _fits(engines[0], fast, low)
    assert _fits(engines[1], ref, low - 1) is None


CRASH = textwrap.dedent(
    """
    import os, random, resource, signal, sys, threading
    import vikinger_fast as vk

    # Four players with the special tiles (A5) at round 6's first decision: max^n stores every
    # node it solves outside the last scoring, and the tiles' choices add stored decisions, so
    # its table fills within seconds. How fast differs a lot by position (8 MB took 0.5-24 s
    # over seeds 0-3); the last scoring's trips, listed apart, store far fewer, and two players'
    # alpha-beta stores about 25 times slower.
    rng = random.Random(3)  # of seeds 0-3 the one that fills fastest: 36 MB in about 2 s
    state = vk.Game(num_players=4, special_tiles=True).new_initial_state()
    while True:
        if state.is_chance_node():
            state.apply_random_chance(rng.getrandbits(64))
            continue
        d = state.to_dict()
        if d["round"] == 6 and d["phase"] != "trip":
            break
        state.apply_action(rng.choice(state.legal_actions()))
    # Ctrl-C in the middle of a long solve.
    threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
    try:
        vk.solve_endgame(state, 1 << 62)
        sys.exit("the first solve was not interrupted")
    except KeyboardInterrupt:
        pass
    # Then an address-space limit and an unbounded solve: its default max_memory (a quarter of
    # the limit) stops it with a MemoryError long before the limit.
    pages = int(open("/proc/self/statm").read().split()[0])
    limit = pages * os.sysconf("SC_PAGE_SIZE") + (120 << 20)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    try:
        vk.solve_endgame(state, 1 << 62)
    except MemoryError as error:
        print("MemoryError:", error)
    """
)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS and /proc: Linux")
def test_an_unbounded_solve_after_an_interrupt_under_an_address_limit_fails_cleanly():
    done = subprocess.run(
        [sys.executable, "-c", CRASH], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])  # -11: SIGSEGV
    assert "MemoryError: solve_endgame: the table reached max_memory" in done.stdout
