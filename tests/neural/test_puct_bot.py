"""PuctBot, the ready evaluators and the high-level search call (docs/neural.md): the same moves
in both engines, the weights file checked on load, arena specs, a bot shared by threads, and
Ctrl-C during the tree work and during the evaluator call."""

import threading

import numpy as np
import pytest

import vikinger_fast
from vikinger_fast import NUM_DISTINCT_ACTIONS, arena, neural
from vikinger_fast.neural import ConstantEvaluator, MLPEvaluator, PuctBot

from sigint import interrupt_child


def opening(engine, players=3):
    state = engine.Game(players).new_initial_state()
    while state.is_chance_node():
        state.apply_random_chance(2)
    return state


def play(engine, bots, seed):
    state = engine.Game(len(bots)).new_initial_state()
    rng = np.random.default_rng(seed)
    moves = []
    while not state.is_terminal() and len(moves) < 12:
        if state.is_chance_node():
            state.apply_random_chance(rng)
        else:
            action = bots[state.current_player()].step(state)
            moves.append(action)
            state.apply_action(action)
    return moves


@pytest.mark.parametrize("reuse", [False, True])
def test_bots_play_the_same_moves_in_both_engines(engines, reuse):
    ref, fast = engines
    mlp = MLPEvaluator.random(fast.Game(2), hidden=(8,), seed=3)
    moves = []
    for engine in engines:
        bots = [
            engine.PuctBot(engine.Game(2), 5, simulations=12, evaluator=mlp, reuse=reuse),
            engine.PuctBot(engine.Game(2), 6, simulations=12, reuse=reuse),
        ]
        moves.append(play(engine, bots, seed=1))
    assert moves[0] == moves[1] and len(moves[0]) == 12


def test_mixed_leaf_values_play_the_same_moves_in_both_engines(engines):
    # docs/neural.md "Mixed leaf values": the evaluator's values mixed with playouts' returns.
    mlp = MLPEvaluator.random(engines[1].Game(2), hidden=(8,), seed=3)
    moves, policies = [], []
    for engine in engines:
        options = {"simulations": 16, "playouts": 3, "playout_weight": 0.75}
        bots = [
            engine.PuctBot(engine.Game(2), 5, evaluator=mlp, **options),
            engine.PuctBot(engine.Game(2), 6, **options),
        ]
        moves.append(play(engine, bots, seed=1))
        policies.append(
            engine.PuctBot(engine.Game(2), 5, evaluator=mlp, **options).policy(opening(engine, 2))
        )
    assert moves[0] == moves[1] and len(moves[0]) == 12
    assert policies[0] == policies[1]
    # The playouts change the search: not the policy of the evaluator alone.
    alone = PuctBot(vikinger_fast.Game(2), 5, evaluator=mlp, simulations=16)
    assert alone.policy(opening(vikinger_fast, 2)) != policies[1]


def test_a_bad_evaluator_output_gets_the_search_s_message_with_playouts(engine):
    """With a simulation or a time budget alike: both go through PuctSearch.run."""
    state = opening(engine, 2)
    for budget in ({"simulations": 8}, {"max_time": 0.05}):
        listing = lambda observations, legal: [1, 2]  # noqa: E731
        bot = engine.PuctBot(engine.Game(2), 0, evaluator=listing, playouts=2, **budget)
        message = r"^evaluator must return \(logits, values\), not list$"
        with pytest.raises(TypeError, match=message):
            bot.step(state)


def test_policy_and_restart(engine):
    bot = engine.PuctBot(engine.Game(3), 0, simulations=10)
    state = opening(engine)
    policy = bot.policy(state)
    assert [a for a, _ in policy] == state.legal_actions()
    assert sum(p for _, p in policy) == pytest.approx(1.0)
    bot.restart()
    assert bot.policy(state) == policy


def test_bad_bot_arguments(engine):
    game = engine.Game(2)
    with pytest.raises(ValueError, match="^PuctBot needs a budget: simulations or max_time$"):
        engine.PuctBot(game, 0)
    with pytest.raises(ValueError, match="^simulations must be > 0, not 0$"):
        engine.PuctBot(game, 0, simulations=0)
    with pytest.raises(TypeError, match="^evaluator must be callable, not int$"):
        engine.PuctBot(game, 0, simulations=3, evaluator=3)
    with pytest.raises(ValueError, match="^playouts must be in 0..4096, not -1$"):
        engine.PuctBot(game, 0, simulations=3, playouts=-1)
    with pytest.raises(ValueError, match="^playouts must be in 0..4096, not 4097$"):
        engine.PuctBot(game, 0, simulations=3, playouts=4097)
    with pytest.raises(ValueError, match=r"^playout_weight must be in \[0, 1\], not 1.5$"):
        engine.PuctBot(game, 0, simulations=3, playouts=1, playout_weight=1.5)
    with pytest.raises(TypeError, match="^playout_weight must be a number, not str$"):
        engine.PuctBot(game, 0, simulations=3, playout_weight="0.5")
    with pytest.raises(ValueError, match="^step needs a decision node, not a chance node$"):
        engine.PuctBot(game, 0, simulations=3).step(game.new_initial_state())


def test_time_budget(engine):
    bot = engine.PuctBot(engine.Game(2), 0, max_time=0.05)
    state = opening(engine, 2)
    assert bot.step(state) in state.legal_actions()


def test_the_weights_file_round_trip_and_checks(tmp_path):
    game = vikinger_fast.Game(3, auction=True)
    mlp = MLPEvaluator.random(game, hidden=(16, 8), seed=1)
    path = str(tmp_path / "w.npz")
    mlp.save(path)
    loaded = MLPEvaluator.load(path, game)
    obs = np.random.default_rng(0).random((4, loaded.observation_size), dtype=np.float32)
    legal = np.ones((4, 2036), bool)
    for a, b in zip(mlp(obs, legal), loaded(obs, legal)):
        assert a.dtype == np.float32 and np.array_equal(a, b)
    with pytest.raises(
        ValueError,
        match="weights for 3 players with modules \\['auction'\\], the game has 3 with \\[\\]",
    ):
        MLPEvaluator.load(path, vikinger_fast.Game(3))
    np.savez(tmp_path / "objects.npz", format=np.array([{"a": 1}], dtype=object))
    with pytest.raises(ValueError, match="holds Python objects \\(never unpickled\\)"):
        MLPEvaluator.load(str(tmp_path / "objects.npz"), game)
    np.savez(tmp_path / "other.npz", x=np.zeros(3))
    with pytest.raises(ValueError, match="not a vikinger-mlp/1 file"):
        MLPEvaluator.load(str(tmp_path / "other.npz"), game)


def test_arena_spec_with_a_model(tmp_path):
    path = tmp_path / "w.npz"
    MLPEvaluator.random(vikinger_fast.Game(2), hidden=(8,)).save(str(path))
    spec = arena.check_spec(f"puct:simulations=8,model={path}", vikinger_fast, 2)
    bot = arena.make_bot(spec, vikinger_fast, vikinger_fast.Game(2), 0)
    assert isinstance(bot, PuctBot)
    with pytest.raises(ValueError, match="cannot read model"):
        arena.check_spec(f"puct:simulations=8,model={tmp_path / 'missing.npz'}", vikinger_fast, 2)
    arena.check_spec("puct:time=0.01", arena.engine_module("ref"), 3)
    spec = arena.check_spec("puct:simulations=8,playouts=2,playout_weight=0.25", vikinger_fast, 2)
    bot = arena.make_bot(spec, vikinger_fast, vikinger_fast.Game(2), 0)
    assert (bot._playouts, bot._playout_weight) == (2, 0.25)


def test_a_bot_shared_by_threads_gives_the_same_answers():
    """Four threads share one bot: its lock runs the searches one after another, search k with
    seed mix(seed + k), so the answers are those of four sequential calls (in some order)."""
    game = vikinger_fast.Game(3)
    state = opening(vikinger_fast)
    fresh = PuctBot(game, 0, simulations=16, reuse=False)
    sequential = [fresh.search(state)["visits"] for _ in range(4)]
    bot = PuctBot(game, 0, simulations=16, reuse=False)
    answers = []
    threads = [
        threading.Thread(target=lambda: answers.append(bot.search(state)["visits"]))
        for _ in range(4)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(answers) == sorted(sequential)


@pytest.mark.parametrize("gumbel", [False, {"max_considered": 4}])
def test_high_level_search(engines, gumbel):
    outs = []
    for engine in engines:
        later = opening(engine, 2)
        later.apply_action(later.legal_actions()[-1])
        while later.is_chance_node():
            later.apply_random_chance(3)
        states = [opening(engine, 2), later]
        outs.append(
            neural.search(
                states,
                "heuristic",
                simulations=10,
                batch_size=4,
                gumbel=gumbel,
                engine=engine,
                temperature=0.0,
            )
        )
    assert sorted(outs[0]) == sorted(outs[1])
    for key in outs[0]:
        np.testing.assert_array_equal(outs[0][key], outs[1][key], err_msg=key)
    out, rows = outs[1], np.arange(2)
    assert out["visits"].shape == out["policy"].shape == (2, NUM_DISTINCT_ACTIONS)
    assert out["value"].shape == (2, 2) and out["selected"].shape == (2,)
    assert (out["visits"].sum(axis=1) == 10).all()
    assert ((out["policy"] == 1.0).sum(axis=1) == 1).all()  # temperature 0: the most visited
    assert out["legal"][rows, out["selected"]].all()
    if gumbel:  # Gumbel-top-k: at most max_considered actions visited, pi' the target
        assert ((out["visits"] > 0).sum(axis=1) <= 4).all()
        np.testing.assert_allclose(out["improved_policy"].sum(axis=1), 1.0)
    else:
        assert (out["selected"] == out["visits"].argmax(axis=1)).all()
    const = neural.search([opening(vikinger_fast)], ConstantEvaluator(3), simulations=6)
    assert const["visits"].sum() == 6
    np.testing.assert_allclose(const["policy"][0], const["visits"][0] / 6)


@pytest.mark.parametrize("max_time", [0.02, 1e-9])
def test_high_level_search_with_a_time_budget(engine, max_time):
    # A time budget alone, as the bots' time=: whatever the clock allowed (even no batch at
    # all), every root has a policy over its legal actions and a legal choice.
    states = [opening(engine), opening(engine)]
    out = neural.search(states, "heuristic", max_time=max_time, gumbel=True, engine=engine)
    legal = out["legal"]
    np.testing.assert_allclose(out["policy"].sum(axis=1), 1.0)
    assert not out["policy"][~legal].any() and not out["visits"][~legal].any()
    assert legal[np.arange(2), out["selected"]].all()


def test_high_level_search_checks_its_budget(engine):
    states = [opening(engine)]
    with pytest.raises(ValueError, match=r"^search needs a budget: simulations or max_time$"):
        neural.search(states, "heuristic", engine=engine)
    with pytest.raises(ValueError, match=r"^search needs a finite budget: .* not inf$"):
        neural.search(states, "heuristic", max_time=float("inf"), engine=engine)
    with pytest.raises(TypeError, match=r"^max_time must be a number, not str$"):
        neural.search(states, "heuristic", simulations=4, max_time="1", engine=engine)
    with pytest.raises(ValueError, match=r"^max_time must be > 0, not 0$"):
        neural.search(states, "heuristic", simulations=4, max_time=0, engine=engine)
    with pytest.raises(ValueError, match=r"^gumbel has no setting 'k'"):
        neural.search(states, "heuristic", simulations=4, gumbel={"k": 1}, engine=engine)
    with pytest.raises(ValueError, match=r"^temperature must be >= 0, not -1$"):
        neural.search(states, "heuristic", simulations=4, temperature=-1, engine=engine)


def test_visit_policy():
    assert neural.visit_policy([1, 3], 1.0) == [0.25, 0.75]
    assert neural.visit_policy([1, 3, 3], 0.0) == [0.0, 1.0, 0.0]
    assert neural.visit_policy([2, 4], 0.5) == pytest.approx([0.2, 0.8])


@pytest.mark.parametrize("where", ["tree", "evaluator"])
def test_ctrl_c_mid_batch(engine_name, where):
    """A SIGINT while the trees are descended (a huge batch of many roots) or while the evaluator
    runs: KeyboardInterrupt, and the search is usable afterwards (nothing left pending)."""
    setup = """
import numpy as np
state = vk.Game(4).new_initial_state()
while state.is_chance_node():
    state.apply_random_chance(0)
search = vk.PuctSearch([state] * 200, simulations=10**6)
def evaluate(observations, legal):
    if {slow}:
        while True:
            sum(range(1000))
    return np.zeros(legal.shape, np.float32), np.full((len(legal), 4), 0.25, np.float32)
""".format(slow=where == "evaluator")
    body = "search.run(evaluate, 10**6 if not {slow} else 8)".format(slow=where == "evaluator")
    after = """
print("pending", search.pending)
print("rows", len(search.gather(4)[0]))
"""  # nothing half-done: no leaf waits, the next gather works
    latency, lines = interrupt_child(engine_name, body, setup=setup, after=after, delay=1.0)
    assert lines == ["pending 0", "rows 4"]


def test_play_hint_from_a_puct_bot():
    pexpect = pytest.importorskip("pexpect", reason="the test extra is not installed")
    import re
    import sys

    child = pexpect.spawn(
        sys.executable,
        [
            "-m",
            "vikinger_fast.cli",
            "play",
            "--seed",
            "1",
            "--bots",
            "greedy",
            "--hint-bot",
            "puct:simulations=20",
        ],
        encoding="utf-8",
        timeout=60,
        dimensions=(50, 200),
    )
    child.expect("\r\n> ")
    child.sendline("hint")
    child.expect("\r\n> ")
    assert re.search(r"hint: \d+\. .+ \(puct:simulations=20: \d+% of the visits\)", child.before), (
        child.before
    )
    child.sendline("quit")
    child.expect(pexpect.EOF)
