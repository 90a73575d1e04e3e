"""Network, the integer network inside the search (docs/neural.md "The integer network"): its
input equals the non-zeros of its features (the observation tensor, then the module flags of
observation-modules-v2, then the trip counts of observation-trips-v3, computed here from the
boards; docs/neural.md "Features"), both engines compute the same bits and build
the same trees with it in every configuration, it stays close to the float MLP, every network the
trainer makes loads, and bad inputs give the same errors in both engines."""

import itertools
import random

import numpy as np
import pytest

from conftest import load_engine
from gil import python_steps_during
from search_positions import by_game, every_configuration, position_pairs, replay
from vikinger_ref import az_bot
from vikinger_ref.mlp import MLPEvaluator
from vikinger_ref.components import BOAT, BOATSMAN, HORN, row_of_colour, ship_info
from vikinger_ref.network_features import (
    FEATURE_SETS,
    OBSERVATION_MODULES_V2,
    OBSERVATION_TRIPS_V3,
    OBSERVATION_V1,
    dense,
    feature_width,
    module_flags,
    trip_features,
)
from vikinger_ref.trips import most_movable
from vikinger_fast import arena

SHIPPED = az_bot.shipped_model(az_bot.Game(2))
# The integer network against the float MLP (measured with the shipped network: 0.0033, 0.0023).
LOGIT_TOLERANCE = 0.02
VALUE_TOLERANCE = 0.01


def networks(engines, game_args, **random_args):
    """The Network of one random MLP in each engine (the MLP is engine independent)."""
    mlp = MLPEvaluator.random(engines[0].Game(*game_args[:1], **game_args[1]), **random_args)
    return [engine.Network(mlp) for engine in engines]


def trip_blocks(state, flags):
    """observation-trips-v3's blocks, the mover's first, from the reference's boards (not from
    the observation rows, as network_features.py reads them)."""
    n, mover = len(state.players), state.current_player()
    weak = flags.get("weak_boatsmen", False)
    blocks = []
    for p in [(mover + k) % n for k in range(n)]:
        board = state.players[p]
        counts = []
        for colour in range(BOATSMAN):
            row = row_of_colour(colour)
            free = board.free_tiles(row)
            if row == 1:  # B7.0: a warrior there repels the ship above it
                scoring = [col for col in free if board.ships[col] is not None]
            else:  # B7.0 by the ship table, not by board.is_threatened
                scoring = [
                    col
                    for col in free
                    if board.ships[col] is None
                    or ship_info(board.ships[col]).reach < row
                    or board.has_viking(1, col)
                ]
            counts.append(min(board.mainland[colour], len(free)))
            blocks += [len(free), len(scoring), counts[-1]]
        boatsmen, boats = board.mainland[BOATSMAN], board.specials[BOAT]
        most = most_movable(counts, boatsmen, boats, weak)
        kept = max(
            k
            for k in range(boatsmen + 1)
            if most_movable(counts, boatsmen - k, boats, weak) == most
        )
        blocks += [most, kept, kept + board.specials[HORN]]
    return np.array(blocks, np.float32)


@pytest.mark.parametrize("features", FEATURE_SETS)
def test_the_features_are_the_non_zeros_of_the_observation_in_both_engines(engines, features):
    pairs = position_pairs(engines, 120, seed=3, decision=True, max_steps=900)
    assert {n for (n, _), _, _ in pairs} == {2, 3, 4}
    assert any(any(flags.values()) for (_, flags), _, _ in pairs)
    assert any(not any(flags.values()) for (_, flags), _, _ in pairs)
    nets = {}
    for (n, flags), ref_state, fast_state in pairs:
        key = (n, tuple(sorted(flags.items())))
        if key not in nets:
            nets[key] = networks(engines, (n, flags), hidden=(8,), seed=0, features=features)
        for state, network in zip((ref_state, fast_state), nets[key]):
            observation = np.asarray(state.observation_tensor(state.current_player()))
            if features != OBSERVATION_V1:  # one flag per module, OPTION_NAMES order
                on = [float(flags.get(name, False)) for name in engines[0].OPTION_NAMES]
                observation = np.concatenate([observation, on])
            if features == OBSERVATION_TRIPS_V3:
                observation = np.concatenate([observation, trip_blocks(ref_state, flags)])
            assert len(observation) == feature_width(features, n)
            index, value = network.features(state)
            assert index.dtype == value.dtype == np.int32
            assert np.array_equal(index, np.flatnonzero(observation))
            assert np.array_equal(value, observation[index])
            # network.h's overflow bound takes the L1 norm below 2^15; it is far below.
            assert np.abs(value).sum() < 1 << 12
            # The float MLP's rows (dense, from the observation rows) hold the same numbers.
            rows = np.asarray(state.observation_tensor(state.current_player()))[None]
            modules = module_flags(flags)
            np.testing.assert_array_equal(dense(features, rows, modules)[0], observation)


@pytest.mark.parametrize("features", FEATURE_SETS)
def test_the_evaluations_are_the_same_bits_in_every_configuration(engines, features):
    """One mid-game decision node in each of the 96 configurations (2-4 players x 32 module
    sets), a random two-layer network each."""
    for index, n, flags, history in every_configuration(engines[0], 40, 700):
        nets = networks(engines, (n, flags), hidden=(24, 16), seed=index, features=features)
        assert nets[0].shifts == nets[1].shifts
        outputs = [
            net.evaluate(replay(engine, n, flags, history)) for engine, net in zip(engines, nets)
        ]
        for ref_out, fast_out in zip(*outputs):
            assert ref_out.dtype == fast_out.dtype == np.float32
            assert ref_out.tobytes() == fast_out.tobytes(), (n, flags, history)
        assert np.isclose(outputs[1][1].sum(), 1.0)


def float_gaps(network, mlp, states):
    """The largest |logit| and |value| differences between the network and the float MLP."""
    logit_gap = value_gap = 0.0
    for state in states:
        observation = np.asarray(state.observation_tensor(state.current_player()), np.float32)
        logits, values = mlp(observation[None], None)
        mine, my_values = network.evaluate(state)
        logit_gap = max(logit_gap, np.abs(mine - logits[0, state.legal_actions()]).max())
        value_gap = max(value_gap, np.abs(my_values - values[0]).max())
    return logit_gap, value_gap


def decision_nodes(engine, game, games, seed):
    rng = random.Random(seed)
    states = []
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_random_chance(rng.getrandbits(64))
                continue
            states.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    return states


def test_the_shipped_network_stays_close_to_the_float_mlp(engine):
    game = engine.Game(2)
    mlp = MLPEvaluator.load(SHIPPED, game)
    gaps = float_gaps(engine.Network(mlp), mlp, decision_nodes(engine, game, 2, seed=1)[::3])
    assert gaps[0] <= LOGIT_TOLERANCE and gaps[1] <= VALUE_TOLERANCE, gaps


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_every_network_the_trainer_makes_loads_and_stays_close(engine, num_players, tmp_path):
    # `vikinger train`'s networks: 2 hidden layers of 128, any player count, any module set.
    flags = {name: True for name in engine.OPTION_NAMES}
    tables = (engine.Game(num_players), engine.Game(num_players, **flags))
    for game, features in itertools.product(tables, FEATURE_SETS):
        path = str(tmp_path / "net.npz")
        MLPEvaluator.random(game, hidden=(128, 128), seed=num_players, features=features).save(path)
        mlp = MLPEvaluator.load(path, game)
        assert mlp.features == features
        states = decision_nodes(engine, game, 1, seed=num_players)[::6]
        gaps = float_gaps(engine.Network(mlp), mlp, states)
        assert gaps[0] <= LOGIT_TOLERANCE and gaps[1] <= VALUE_TOLERANCE, gaps


@pytest.mark.parametrize("features", FEATURE_SETS)
def test_the_searched_trees_are_the_same_in_both_engines(engines, features):
    pairs = position_pairs(engines, 24, seed=17, decision=True, max_steps=900)
    for (n, flags), states in by_game(pairs).items():
        nets = networks(engines, (n, dict(flags)), hidden=(32, 32), seed=n, features=features)
        results = []
        for engine, roots, net in zip(engines, states, nets):
            search = engine.PuctSearch(roots, simulations=20, seed=5, c_base=19652.0)
            search.run(net, 8)
            assert search.done
            results.append(search.results())
        assert results[0] == results[1], (n, flags)
        assert all(sum(r["visits"]) == 20 for r in results[1])


@pytest.mark.parametrize("gumbel", [False, True])
def test_batches_mixed_with_playouts_build_the_same_trees(engines, gumbel):
    pairs = position_pairs(engines, 6, seed=23, decision=True)
    for (n, flags), states in by_game(pairs).items():
        nets = networks(engines, (n, dict(flags)), hidden=(16,), seed=1)
        results = []
        for engine, roots, net in zip(engines, states, nets):
            search = engine.PuctSearch(roots, simulations=12, seed=2, gumbel=gumbel)
            evaluated = 0
            while not search.done:
                rows = search.run_batch(
                    net, 5, playouts=2, playout_weight=0.25, playout_seed=evaluated * 2
                )
                assert 0 <= rows <= 5
                evaluated += rows
            results.append((search.results(), evaluated))
        assert results[0] == results[1]


def test_run_batch_mixes_playouts_as_the_bot_does(engine):
    """run_batch's values = (1 - w) * network + w * playout_values, in float32: the same trees as
    gather, the network's outputs mixed as PuctBot mixes them, backup. One simulation per root:
    the first batch is the roots themselves, row r root r."""
    game = engine.Game(2)
    net = engine.Network(MLPEvaluator.random(game, hidden=(16,), seed=3))
    roots = decision_nodes(engine, game, 1, seed=4)[5:9]
    inside = engine.PuctSearch(roots, simulations=1, seed=1)
    assert inside.run_batch(net, 8, playouts=3, playout_weight=0.3, playout_seed=7) == 4
    outside = engine.PuctSearch(roots, simulations=1, seed=1)
    assert len(outside.gather(8)[0]) == 4
    logits = np.zeros((4, engine.NUM_DISTINCT_ACTIONS), np.float32)
    values = np.zeros((4, 2), np.float32)
    for r, root in enumerate(roots):
        logits[r, root.legal_actions()], values[r] = net.evaluate(root)
    w = np.float32(0.3)
    outside.backup(logits, (np.float32(1) - w) * values + w * outside.playout_values(3, 7))
    assert inside.results() == outside.results()
    assert inside.results()[0]["network_value"] != float(values[0, 0])  # the mix changed it


def manual_run(engine, search, evaluator, count, weight, seed):
    """run(evaluator, 5, playouts=count, ...) written out batch by batch: the playouts of a batch
    of B leaves are numbered from seed, the next batch's from seed + B * count (mod 2**64)."""
    w = np.float32(weight)
    while not search.done:
        if isinstance(evaluator, engine.Network):
            rows = search.run_batch(
                evaluator, 5, playouts=count, playout_weight=weight, playout_seed=seed
            )
        else:
            observations, legal = search.gather(5)
            rows = len(observations)
            if rows:
                logits, values = evaluator(observations, legal)
                mixed = (np.float32(1) - w) * values + w * search.playout_values(count, seed)
                search.backup(logits, mixed)
        seed = (seed + rows * count) % 2**64


@pytest.mark.parametrize("kind", ["network", "callable"])
def test_run_mixes_playouts_batch_by_batch_in_both_engines(engines, kind):
    """run(..., playouts=, playout_weight=, playout_seed=) is the loop PuctBot wrote by hand: the
    same trees as that loop in each engine, and the same in both engines (the seeds wrap at
    2**64)."""
    results = []
    for engine in engines:
        game = engine.Game(3)
        mlp = MLPEvaluator.random(game, hidden=(16,), seed=5)
        evaluator = engine.Network(mlp) if kind == "network" else mlp
        roots = decision_nodes(engine, game, 1, seed=6)[10:13]
        both = [engine.PuctSearch(roots, simulations=9, seed=3) for _ in range(2)]
        both[0].run(evaluator, 5, playouts=2, playout_weight=0.25, playout_seed=2**64 - 7)
        manual_run(engine, both[1], evaluator, 2, 0.25, 2**64 - 7)
        assert both[0].results() == both[1].results()
        results.append(both[0].results())
    assert results[0] == results[1]
    roots = decision_nodes(engines[0], engines[0].Game(3), 1, seed=6)[10:13]
    plain = engines[0].PuctSearch(roots, simulations=9, seed=3)
    plain.run(MLPEvaluator.random(engines[0].Game(3), hidden=(16,), seed=5), 5)
    assert plain.results() != results[0]  # the playouts changed the trees


def test_run_checks_a_mixed_output_as_backup_does(engines):
    """With playouts, a bad evaluator output gets backup's own error (logits checked first), the
    batch is undone, and the search goes on."""
    found = []
    for engine in engines:
        game = engine.Game(2)
        search = engine.PuctSearch(decision_nodes(engine, game, 1, seed=2)[:2], simulations=4)
        zeros = np.zeros((2, engine.NUM_DISTINCT_ACTIONS), np.float32)
        for out in (
            (zeros, np.zeros((2, 2), np.float64)),
            (zeros.astype(np.float64), np.zeros((2, 3), np.float32)),
            (zeros, np.zeros((2, 3), np.float32)),
        ):
            with pytest.raises((TypeError, ValueError)) as error:
                search.run(lambda observations, legal, out=out: out, 2, playouts=2)
            found.append((type(error.value), str(error.value)))
            assert search.pending == 0
        search.run(
            lambda observations, legal: (
                np.zeros(legal.shape, np.float32),
                np.zeros((len(legal), 2), np.float32),
            ),
            playouts=1,
        )
        assert search.done
    assert found[:3] == found[3:]
    assert found[:3] == [
        (TypeError, "values must be float32, not float64"),
        (TypeError, "logits must be float32, not float64"),
        (ValueError, "values must have shape (2, 2), not (2, 3)"),
    ]


def test_the_network_search_releases_the_gil():
    engine = load_engine("fast")
    game = engine.Game(2)
    net = engine.Network(MLPEvaluator.load(SHIPPED, game))
    roots = decision_nodes(engine, game, 1, seed=2)[:64]
    search = engine.PuctSearch(roots, simulations=40)
    assert python_steps_during(lambda: search.run(net, 64)) > 1000


def test_bots_use_the_network_by_default_and_numpy_on_request(engine):
    game = engine.Game(2)
    bot = engine.AZBot(game, 0, simulations=4)
    assert isinstance(bot._evaluator, engine.Network)
    assert isinstance(
        engine.AZBot(game, 0, simulations=4, evaluator="numpy")._evaluator, MLPEvaluator
    )
    assert engine.PolicyNetBot(game)._network is not None
    assert engine.PolicyNetBot(game, evaluator="numpy")._network is None
    with pytest.raises(ValueError, match="^evaluator must be 'network', 'numpy' or a callable"):
        engine.AZBot(game, 0, simulations=4, evaluator="float")
    with pytest.raises(ValueError, match="AZBot takes model or evaluator, not both"):
        engine.AZBot(game, 0, simulations=4, model=SHIPPED, evaluator=bot._evaluator)
    for text in ("az:simulations=4,evaluator=numpy", "azpolicy:evaluator=numpy"):
        arena.check_spec(text, engine)


def test_a_network_plays_the_game_of_its_mlp_in_both_engines(engines):
    mlp = MLPEvaluator.random(engines[0].Game(3, auction=True), hidden=(8,))
    games = [engine.Network(mlp).get_game() for engine in engines]
    assert [repr(game) for game in games] == [repr(engines[0].Game(3, auction=True))] * 2
    assert all(game == engine.Game(3, auction=True) for game, engine in zip(games, engines))


def test_bad_networks_and_calls_give_the_same_errors_in_both_engines(engines):
    mlps = {
        "huge": MLPEvaluator.random(engines[0].Game(2), hidden=(8,)),
        "flat": MLPEvaluator.random(engines[0].Game(2), hidden=()),
        "broken": MLPEvaluator.random(engines[0].Game(2), hidden=(8,)),
    }
    mlps["huge"].layers[0][0][0, 0] = 100.0  # 100 * 2^11 does not fit int16
    mlps["broken"].layers[0] = (mlps["broken"].layers[0][0][:, :4], mlps["broken"].layers[0][1])
    errors = []
    for engine in engines:
        found = []
        for call in (
            lambda: engine.Network(3),
            lambda: engine.Network(mlps["huge"]),
            lambda: engine.Network(mlps["flat"]),
            lambda: engine.Network(mlps["broken"]),
        ):
            with pytest.raises((TypeError, ValueError)) as error:
                call()
            found.append((type(error.value), str(error.value)))
        net = engine.Network(MLPEvaluator.random(engine.Game(2), hidden=(8,)))
        chance = engine.Game(2).new_initial_state()
        other = engine.PuctSearch(decision_nodes(engine, engine.Game(3), 1, 0)[:1], simulations=2)
        search = engine.PuctSearch(decision_nodes(engine, engine.Game(2), 1, 0)[:1], simulations=2)
        for call in (
            lambda: net.evaluate(chance),
            lambda: net.features(decision_nodes(engine, engine.Game(3), 1, 0)[0]),
            lambda: other.run(net),
            lambda: search.run_batch(3),
            lambda: search.run_batch(net, 0),
            lambda: search.run_batch(net, playouts=5000),
            lambda: search.run_batch(net, playout_weight=1.5),
            lambda: search.run_batch(net, playout_weight="x"),
            lambda: search.run_batch(net, playout_seed=1.0),
            lambda: search.run(net, playouts=-1),
            lambda: search.run(net.evaluate, playout_weight=float("nan")),
            lambda: search.run(net, 4, 0.5, playout_seed="1"),
        ):
            with pytest.raises((TypeError, ValueError)) as error:
                call()
            found.append((type(error.value), str(error.value)))
        search.gather(1)
        with pytest.raises(ValueError, match="^run_batch: the leaves of the last gather wait"):
            search.run_batch(net)
        errors.append(found)
    assert errors[0] == errors[1]
    assert errors[1][:4] == [
        (TypeError, "mlp must be an MLPEvaluator, not int"),
        (ValueError, "layer 0: the weights are too large for the integer network"),
        (ValueError, "the integer network needs a hidden layer"),
        (ValueError, errors[1][3][1]),
    ]
    assert errors[1][3][1].startswith("layer 0: w0 must be (3508, k) and b0 (k,)")
    assert errors[1][4:7] == [
        (ValueError, "evaluate needs a decision node"),
        (
            ValueError,
            "features got a state of Game(num_players=3), the network plays Game(num_players=2)",
        ),
        (ValueError, "the network plays Game(num_players=2), the search plays Game(num_players=3)"),
    ]
    assert errors[1][7] == (TypeError, "network must be a Network, not int")


def test_a_network_of_other_features_is_refused_alike_in_both_engines(engines):
    renamed = MLPEvaluator.random(engines[0].Game(2), hidden=(8,))
    renamed.features = "observation-v9"
    wider = MLPEvaluator.random(engines[0].Game(2), hidden=(8,))
    wider.features = OBSERVATION_MODULES_V2  # v1's rows read as v2: 5 rows short
    errors = []
    for engine in engines:
        found = []
        for mlp in (renamed, wider):
            with pytest.raises(ValueError) as error:
                engine.Network(mlp)
            found.append(str(error.value))
        errors.append(found)
    assert errors[0] == errors[1]
    assert errors[1][0] == (
        "features 'observation-v9' is unknown (known: observation-v1, observation-modules-v2, "
        "observation-trips-v3)"
    )
    assert errors[1][1].startswith("layer 0: w0 must be (3513, k) and b0 (k,)")


def test_trip_features_name_rows_of_no_game():
    rows = np.zeros((2, feature_width(OBSERVATION_V1, 2) + 1), np.float32)
    with pytest.raises(ValueError, match="observation rows of width 3509 belong to no game"):
        trip_features(rows, False)
    assert trip_features(rows[:, :-1], np.array([True, False])).shape == (2, 36)
