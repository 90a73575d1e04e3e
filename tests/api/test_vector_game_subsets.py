"""VectorGame's calls for single-agent loops (docs/api.md "VectorGame"): step(where=) moves some
environments only, play_random plays RandomBot's move inside the engine with one stream per
environment (advanced in place) and an observer for the final observation, state(i) copies one
environment. Both engines give the same arrays, and refuse bad arguments with the same type and
message, changing nothing."""

import numpy as np
import pytest


def run(engine, steps=700, seed=3, batch=3):
    """Alternates step(where=) with the first legal action and play_random, observer 1; returns
    the arrays after every call."""
    vg = engine.VectorGame(engine.Game(), batch, seed)
    streams = np.arange(batch, dtype=np.uint64) * np.uint64(7)
    rng = np.random.default_rng(0)
    out = []
    for k in range(steps):
        where = rng.random(batch) < 0.6
        if k % 2:
            actions = np.argmax(vg.legal_actions_mask(), axis=1)
            done = vg.step(actions, where=where).copy()
        else:
            done = vg.play_random(where, streams, observer=np.ones(batch, np.int64)).copy()
        out.append(
            (
                done,
                vg.current_player().copy(),
                vg.observation_tensor().copy(),
                streams.copy(),
                vg.final_observation.copy(),
                vg.final_returns.copy(),
            )
        )
    return out


def test_both_engines_move_the_same_environments(engines):
    ref, fast = (run(e) for e in engines)
    assert any(done.any() for done, *_ in fast)  # games ended on the way
    for a, b in zip(ref, fast):
        for x, y in zip(a, b):
            np.testing.assert_array_equal(x, y)


def test_play_random_is_random_bot(engine):
    """play_random in environment 0 against a twin VectorGame stepped with RandomBot's moves."""
    game = engine.Game()
    vg, twin = engine.VectorGame(game, 2, 8), engine.VectorGame(game, 2, 8)
    bot = engine.RandomBot(game, 99)
    streams = np.array([99, 5], np.uint64)
    where = np.array([True, False])
    ended = 0
    for _ in range(400):
        actions = np.array([bot.step(twin.state(0)), 0])
        ended += twin.step(actions, where=where)[0]
        vg.play_random(where, streams)
        assert vg.state(0).serialize() == twin.state(0).serialize()
        np.testing.assert_array_equal(vg.final_returns, twin.final_returns)
    assert ended >= 1 and streams[1] == 5  # row 1 never drew


def test_where_leaves_the_others_and_their_done(engine):
    vg = engine.VectorGame(engine.Game(), 3, 1)
    before = [vg.state(i).serialize() for i in range(3)]
    actions = np.argmax(vg.legal_actions_mask(), axis=1)
    actions[1] = 2035  # unchecked where not moving
    done = vg.step(actions, where=np.array([True, False, False]))
    assert not done.any()
    assert vg.state(0).serialize() != before[0]
    assert [vg.state(i).serialize() for i in (1, 2)] == before[1:]


def refused(engine, call):
    vg = engine.VectorGame(engine.Game(), 2, 0)
    with pytest.raises(Exception) as caught:
        call(vg)
    return type(caught.value), str(caught.value)


@pytest.mark.parametrize(
    "call",
    [
        lambda vg: vg.step(np.zeros(2, np.int64), where=np.array([1, 0])),
        lambda vg: vg.step(np.zeros(2, np.int64), where=np.array([True])),
        lambda vg: vg.step(np.zeros(2, np.int64), where=np.array([True, False])),
        lambda vg: vg.play_random(np.ones(2, bool), np.zeros(2, np.int64)),
        lambda vg: vg.play_random(np.ones(2, bool), [0, 0]),
        lambda vg: vg.play_random(np.ones(2, bool), np.zeros(3, np.uint64)),
        lambda vg: vg.play_random(np.ones(2, bool), np.zeros(4, np.uint64)[::2]),
        lambda vg: vg.play_random(np.ones(2, bool), np.zeros(2, np.uint64), observer=[0.5, 1.0]),
        lambda vg: vg.play_random(np.ones(2, bool), np.zeros(2, np.uint64), observer=[0, 2]),
        lambda vg: vg.play_random(np.ones(2, bool), np.zeros(2, np.uint64), observer=[-1, 0]),
        lambda vg: vg.play_random(np.ones(2, bool), np.zeros(2, np.uint64), observer=[0]),
        lambda vg: vg.state(2),
        lambda vg: vg.state(-1),
        lambda vg: vg.state(1.0),
        lambda vg: vg.state(True),
    ],
)
def test_bad_arguments_are_refused_alike(engines, call):
    ref, fast = (refused(e, call) for e in engines)
    assert ref == fast and ref[0] in (TypeError, ValueError)


def test_a_refused_call_changes_nothing(engine):
    vg = engine.VectorGame(engine.Game(), 2, 0)
    streams = np.zeros(2, np.uint64)
    before = [vg.state(i).serialize() for i in range(2)]
    with pytest.raises(ValueError):
        vg.play_random(np.ones(2, bool), streams, observer=[0, 5])
    assert [vg.state(i).serialize() for i in range(2)] == before and not streams.any()
