"""RandomBot, GreedyBot and MCTSBot (docs/search.md "Bots", "MCTS"): the same choices and visit
counts in both engines, legal actions on random states of sampled configurations, the errors,
one bot shared by threads, and Ctrl-C during a long search."""

import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from conftest import load_engine
from gil import python_steps_during
from search_positions import config, position_pairs, random_history, replay


def bots(engine, game, seed):
    return [
        engine.RandomBot(game, seed),
        engine.GreedyBot(game, seed),
        engine.MCTSBot(game, seed, iterations=8, leaf="evaluation"),
    ]


def test_bots_never_return_an_illegal_action(engines):
    # One random decision node of each of the 96 configurations, and 40 more sampled.
    ref, fast = engines
    states = []
    for index in range(96):
        num_players, flags = config(index)
        for seed in range(index, index + 50):
            history = random_history(ref, num_players, flags, seed, 30 + 7 * seed, decision=True)
            if history is not None:
                states.append(replay(fast, num_players, flags, history))
                break
    assert len(states) == 96
    states += [pair[2] for pair in position_pairs(engines, 40, seed=3, decision=True)]
    for state in states:
        game = state.get_game()
        for bot in bots(fast, game, 7) + [fast.MCTSBot(game, 1, iterations=30, threads=2)]:
            action = bot.step(state)
            assert action in state.legal_actions(), state.history()
            policy = bot.policy(state)
            assert [a for a, _ in policy] == state.legal_actions()
            assert abs(sum(p for _, p in policy) - 1.0) < 1e-9


def test_random_and_greedy_choices_equal_between_engines(engines):
    ref, fast = engines
    pairs = position_pairs(engines, 25, seed=4, decision=True)
    for kind in ("RandomBot", "GreedyBot"):
        bot_ref = getattr(ref, kind)(pairs[0][1].get_game(), 11)
        bot_fast = getattr(fast, kind)(pairs[0][2].get_game(), 11)
        for _, a, b in pairs:
            if a.get_game() != bot_ref._game:
                bot_ref = getattr(ref, kind)(a.get_game(), 11)
                bot_fast = getattr(fast, kind)(b.get_game(), 11)
            assert bot_ref.step(a) == bot_fast.step(b)
            assert bot_ref.policy(a) == bot_fast.policy(b)


@pytest.mark.parametrize(
    "leaf, iterations, threads",
    [("playout", 10, 1), ("evaluation", 60, 1), ("playout", 9, 2), ("evaluation", 41, 3)],
)
def test_mcts_visit_counts_equal_between_engines(engines, leaf, iterations, threads):
    ref, fast = engines
    for index, (_, a, b) in enumerate(position_pairs(engines, 10, seed=iterations, decision=True)):
        options = dict(iterations=iterations, leaf=leaf, threads=threads)
        bot_ref = ref.MCTSBot(a.get_game(), index, **options)
        bot_fast = fast.MCTSBot(b.get_game(), index, **options)
        for _ in range(2):  # the second search takes the next streams
            assert bot_ref.search(a) == bot_fast.search(b), (index, a.history())


def test_mcts_search_counts(engine):
    state = engine.Game(2).new_initial_state()
    while state.is_chance_node():
        state.apply_random_chance(1)
    bot = engine.MCTSBot(state.get_game(), 3, iterations=30, leaf="evaluation", threads=2)
    result = bot.search(state)
    assert result["iterations"] == 30 and sum(result["visits"]) == 30
    again = engine.MCTSBot(state.get_game(), 3, iterations=30, leaf="evaluation", threads=2)
    assert again.search(state) == result
    bot.restart()
    assert bot.search(state) == result


def test_mcts_with_a_time_budget_stops(engine):
    state = engine.Game(2).new_initial_state()
    while state.is_chance_node():
        state.apply_random_chance(2)
    bot = engine.MCTSBot(state.get_game(), 0, max_time=0.05, leaf="evaluation")
    result = bot.search(state)
    assert result["iterations"] > 0
    assert bot.step(state) in state.legal_actions()


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        (dict(iterations=0), ValueError, "iterations must be > 0, not 0"),
        (dict(iterations=-3), ValueError, "iterations must be > 0, not -3"),
        (dict(max_time=0.0), ValueError, "max_time must be > 0, not 0.0"),
        (dict(), ValueError, "MCTSBot needs a budget: iterations or max_time"),
        (dict(iterations=1.5), TypeError, "iterations must be an int, not float"),
        (dict(iterations=5, max_time="1"), TypeError, "max_time must be a number, not str"),
        (
            dict(iterations=5, leaf="net"),
            ValueError,
            "leaf must be one of playout, evaluation, not 'net'",
        ),
        (dict(iterations=5, threads=0), ValueError, "threads must be >= 1, not 0"),
        (dict(iterations=5, uct_c=-1.0), ValueError, "uct_c must be >= 0, not -1.0"),
        # A float beyond the double range: refused alike, no OverflowError.
        (dict(iterations=5, uct_c=10**400), ValueError, "^uct_c must be finite, not 10{400}$"),
        (dict(iterations=5, uct_c=-(10**400)), ValueError, "^uct_c must be >= 0, not -10{400}$"),
        (dict(iterations=5, uct_c=float("inf")), ValueError, "^uct_c must be finite, not inf$"),
        (dict(iterations=5, uct_c=float("nan")), ValueError, "^uct_c must be >= 0, not nan$"),
    ],
)
def test_mcts_argument_errors(engine, kwargs, error, message):
    with pytest.raises(error, match=message):
        engine.MCTSBot(engine.Game(2), 0, **kwargs)


def test_bots_refuse_bad_states(engine):
    game = engine.Game(2)
    chance = game.new_initial_state()
    terminal = game.new_initial_state()
    while not terminal.is_terminal():
        terminal.apply_random_chance(1) if terminal.is_chance_node() else terminal.apply_action(
            terminal.legal_actions()[0]
        )
    other = engine.Game(3).new_initial_state()
    while other.is_chance_node():
        other.apply_random_chance(1)
    for bot in bots(engine, game, 1):
        with pytest.raises(ValueError, match="step needs a decision node, not a chance node"):
            bot.step(chance)
        with pytest.raises(ValueError, match="step needs a decision node, not a terminal state"):
            bot.step(terminal)
        with pytest.raises(
            ValueError,
            match=r"step got a state of Game\(num_players=3\), the "
            r"bot plays Game\(num_players=2\)",
        ):
            bot.step(other)
        with pytest.raises(TypeError, match="state must be a State, not int"):
            bot.policy(5)
    with pytest.raises(TypeError, match="game must be a Game, not str"):
        engine.RandomBot("g", 1)
    with pytest.raises(TypeError, match="seed must be an int, not float"):
        engine.GreedyBot(game, 1.0)


@pytest.mark.parametrize("which", ["ref", "fast"])
def test_one_mcts_bot_from_many_threads(which):
    engine = load_engine(which)
    state = engine.Game(2).new_initial_state()
    while state.is_chance_node():
        state.apply_random_chance(4)
    options = (
        dict(iterations=400, threads=2)
        if which == "fast"
        else dict(iterations=12, leaf="evaluation", threads=2)
    )
    bot = engine.MCTSBot(state.get_game(), 5, **options)
    results, errors = [], []

    def work():
        try:
            for _ in range(3):
                results.append(bot.search(state))
        except Exception as error:  # noqa: BLE001 -- reported below
            errors.append(error)

    workers = [threading.Thread(target=work) for _ in range(6)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert not errors and len(results) == 18
    # Searches ran one at a time, each on the next streams: the 18 results are those of one
    # thread doing 18 searches, in some order.
    alone = engine.MCTSBot(state.get_game(), 5, **options)
    expected = sorted(str(alone.search(state)) for _ in range(18))
    assert sorted(str(r) for r in results) == expected


def test_mcts_and_playouts_release_the_gil():
    """While one thread searches or plays out in C++, this thread keeps running Python."""
    fast = load_engine("fast")
    state = fast.Game(num_players=4).new_initial_state()
    while state.is_chance_node():
        state.apply_random_chance(4)
    bot = fast.MCTSBot(state.get_game(), 0, iterations=20_000)
    for call in (lambda: bot.search(state), lambda: fast.playouts(state, 20_000, 0)):
        ticks = python_steps_during(call)
        assert ticks > 10_000, f"only {ticks} Python steps ran during the call"


CTRL_C_SCRIPT = """
import sys, time
import vikinger_fast as vk
state = vk.Game(2).new_initial_state()
while state.is_chance_node():
    state.apply_random_chance(1)
bot = vk.MCTSBot(state.get_game(), 0, max_time=600.0, threads=2)
calls = {"search": lambda: bot.step(state),
         "playouts": lambda: vk.playouts(state, 3 * 10**6, 0, threads=2)}  # ~10 s, 100 MB
print("running", flush=True)
try:
    calls[sys.argv[1]]()
except KeyboardInterrupt:
    print("interrupted", time.monotonic(), flush=True)
"""


@pytest.mark.parametrize("call", ["search", "playouts"])
def test_ctrl_c_stops_a_long_call(call):
    load_engine("fast")
    with subprocess.Popen(
        [sys.executable, "-c", CTRL_C_SCRIPT, call],
        stdout=subprocess.PIPE,
        text=True,
        env=dict(os.environ),
    ) as process:
        assert process.stdout.readline().strip() == "running"
        time.sleep(0.3)
        sent = time.monotonic()
        process.send_signal(signal.SIGINT)
        line = process.stdout.readline().split()
        process.wait(timeout=30)
    assert line and line[0] == "interrupted"
    assert float(line[1]) - sent < 2.0  # liveness, not timing: the poll runs every 50 ms
