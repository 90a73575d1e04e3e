"""The OpenSpiel adapter (src/vikinger_fast/adapters/openspiel.py) passes OpenSpiel's own
checks on both engines: pyspiel.random_sim_test with and without serialization, the Python
MCTSBot and evaluate_bots, the C++ MCTSBot, the C++ evaluate_bots with a wrapped bot of ours."""

import pickle
import subprocess
import sys

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import evaluate_bots, mcts  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

import vikinger_fast  # noqa: E402
from vikinger_fast.adapters import openspiel as adapter  # noqa: E402
from vikinger_fast.adapters import spec  # noqa: E402

CONFIGS = [
    {"players": 2},
    {"players": 3, "auction": True, "draw13": True},
    {"players": 4, "offer_by_colour": True, "weak_boatsmen": True, "special_tiles": True},
    {"players": 2, **dict.fromkeys(vikinger_fast.OPTION_NAMES, True)},
]


def load(engine, **params):
    return pyspiel.load_game(adapter.register(engine), params)


def advance(state, rng, decisions):
    """Plays `decisions` random decisions (and the chance nodes around them)."""
    while decisions and not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
            decisions -= 1
    return state


@pytest.mark.parametrize(
    "params", CONFIGS, ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items())
)
@pytest.mark.parametrize("serialize", [False, True])
def test_random_sim_test(engine, params, serialize):
    game = load(engine, **params)
    sims = 3 if engine.__name__ == "vikinger_fast" else 1
    pyspiel.random_sim_test(game, num_sims=sims, serialize=serialize, verbose=False)


def test_game_type_and_info(engine):
    game = load(engine, players=3, auction=True)
    kind = game.get_type()
    assert kind.short_name == f"python_{engine.__name__}"
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert set(kind.parameter_specification) == {"players", *vikinger_fast.OPTION_NAMES}
    assert game.num_players() == 3 and game.utility_sum() == 1.0
    assert game.num_distinct_actions() == 2036 and game.max_chance_outcomes() == 30
    options = dict.fromkeys(vikinger_fast.OPTION_NAMES, False) | {"auction": True}
    assert game.max_game_length() == spec.max_decisions(3, options)
    assert game.max_chance_nodes_in_history() == spec.max_chance_nodes(options)
    assert game.engine_game == engine.Game(num_players=3, auction=True)


@pytest.mark.parametrize("first_node", ["chance", "auction"])
def test_action_strings_name_the_player_and_chance(engine, monkeypatch, first_node):
    # The string tables are read once per engine: whatever game asks first (with A1 the
    # first node is a decision), chance ids must still read as chance outcomes.
    monkeypatch.setattr(adapter, "_ACTION_NAMES", {})
    if first_node == "auction":
        first = load(engine, players=2, auction=True).new_initial_state()
        assert first.action_to_string(pyspiel.PlayerId.CHANCE, 5) == "chance reveal:right"
    game = load(engine, players=3)
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 5) == "chance reveal:right"
    strings = {state.action_to_string(p, 0) for p in range(3)}
    assert strings == {"p0 buy:0", "p1 buy:0", "p2 buy:0"}
    advance(state, np.random.default_rng(1), 5)
    player = state.current_player()
    for action in state.legal_actions():
        text = state.action_to_string(player, action)
        assert text == f"p{player} {state.engine_state.action_to_string(action)}"
        assert state.string_to_action(text) == action
    # A decision node still names chance outcomes in the chance space, and the reverse.
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 12) == "chance draw:scout"
    assert state.action_to_string(player, 342) == f"p{player} trip:stop"


def test_observer_writes_the_engine_tensor_into_its_buffer(engine):
    game = load(engine, players=2, special_tiles=True)
    state = advance(game.new_initial_state(), np.random.default_rng(2), 30)
    observation = make_observation(game)
    buffer = observation.tensor
    for player in range(2):
        observation.set_from(state, player)
        assert observation.tensor is buffer
        np.testing.assert_array_equal(buffer, state.engine_state.observation_tensor(player))
        np.testing.assert_array_equal(np.asarray(state.observation_tensor(player)), buffer)
    assert state.observation_string(0) == str(state.engine_state)


def test_serialization_restores_from_engine_bytes_without_replay(engine, monkeypatch):
    game = load(engine, players=4, auction=True)
    state = advance(game.new_initial_state(), np.random.default_rng(3), 40)
    text = state.serialize()
    # Replaying would call _apply_action: make it fail, deserialization must not need it.
    monkeypatch.setattr(
        adapter.VikingerState,
        "_apply_action",
        lambda self, action: pytest.fail("an action was replayed"),
    )
    copy = game.deserialize_state(text)
    assert copy.engine_state == state.engine_state
    assert copy.history() == state.history() and str(copy) == str(state)
    monkeypatch.undo()
    game2, copy2 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert game2 == game and copy2.engine_state == state.engine_state


def test_pickle_and_clone(engine):
    game = load(engine, players=3, draw13=True)
    state = advance(game.new_initial_state(), np.random.default_rng(4), 20)
    assert pickle.loads(pickle.dumps(game)) == game
    copy = pickle.loads(pickle.dumps(state))
    assert copy.engine_state == state.engine_state and copy.history() == state.history()
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert clone.history() != state.history() and copy.engine_state == state.engine_state


def test_pickle_loads_in_a_new_process(engine):
    game = load(engine, players=2)
    state = advance(game.new_initial_state(), np.random.default_rng(5), 10)
    code = (
        "import pickle, sys; s = pickle.loads(sys.stdin.buffer.read()); "
        "print(s.get_game().get_type().short_name, s.engine_state.hash_key())"
    )
    out = (
        subprocess.run(
            [sys.executable, "-c", code], input=pickle.dumps(state), capture_output=True, check=True
        )
        .stdout.decode()
        .split()
    )
    assert out == [f"python_{engine.__name__}", str(state.engine_state.hash_key())]


class FirstLegal:
    """A bot with the package's bot interface: step(engine state) -> action, restart()."""

    def __init__(self, engine):
        self.engine, self.restarts, self.steps = engine, 0, 0

    def step(self, state):
        assert isinstance(state, self.engine.State)
        self.steps += 1
        return state.legal_actions()[0]

    def restart(self):
        self.restarts += 1


def test_python_mcts_bot_plays_a_game_with_evaluate_bots(engine):
    game = load(engine, players=2)
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    search = mcts.MCTSBot(
        game,
        uct_c=2.0,
        max_simulations=2 if engine.__name__ == "vikinger_ref" else 8,
        evaluator=evaluator,
        random_state=rng,
    )
    ours = FirstLegal(engine)
    returns = evaluate_bots.evaluate_bots(
        game.new_initial_state(), [search, adapter.as_spiel_bot(ours)], rng
    )
    assert sum(returns) == pytest.approx(1.0) and ours.restarts == 1 and ours.steps > 20


def test_cpp_mcts_bot_plays_a_game(engine):
    game = load(engine, players=2, draw13=True)
    simulations = 3 if engine.__name__ == "vikinger_ref" else 10
    search = pyspiel.MCTSBot(
        game, pyspiel.RandomRolloutEvaluator(1, 0), 2.0, simulations, 100, False, 0, False
    )
    returns = pyspiel.evaluate_bots(
        game.new_initial_state(), [search, pyspiel.make_uniform_random_bot(1, 1)], 3
    )
    assert sorted(returns) in ([0.0, 1.0], [0.5, 0.5])


def test_wrapped_bot_plays_in_cpp_evaluate_bots(engine):
    game = load(engine, players=3, special_tiles=True)
    ours = FirstLegal(engine)
    bots = [
        adapter.as_spiel_bot(ours),
        pyspiel.make_uniform_random_bot(1, 7),
        pyspiel.make_uniform_random_bot(2, 8),
    ]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 11)
    assert sum(returns) == pytest.approx(1.0) and ours.steps > 20 and ours.restarts == 1
    assert isinstance(bots[0], pyspiel.Bot)


def test_register_is_idempotent_and_accepts_a_name():
    import vikinger_fast

    assert adapter.register() == adapter.register() == "python_vikinger_fast"
    name = adapter.register(vikinger_fast, "python_vikinger_fast_alias")
    assert pyspiel.load_game(name).get_type().short_name == name


@pytest.mark.parametrize(
    "make_bot",
    [
        lambda engine, game: engine.GreedyBot(game, 3),
        lambda engine, game: engine.MCTSBot(game, 3, iterations=30),
        lambda engine, game: engine.PuctBot(game, 3, simulations=4),  # docs/neural.md
    ],
)
def test_the_packages_own_bots_play_as_spiel_bots(engine, make_bot):
    """GreedyBot and MCTSBot of the engine, wrapped, play a whole game in OpenSpiel's loop
    (which refuses an illegal action)."""
    game = load(engine, players=2)
    ours = make_bot(engine, engine.Game(2))
    bots = [adapter.as_spiel_bot(ours), pyspiel.make_uniform_random_bot(1, 5)]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 13)
    assert sum(returns) == pytest.approx(1.0)
