"""Property-based runs of the hostile-caller inputs (fuzz/hostile.py): Game data an edited pickle
could carry, values a Generator subclass's random() may return, and many threads stepping one
VectorGame, on both engines. Bounded for CI; VIKINGER_FUZZ_EXAMPLES runs more.
"""

import os

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from fuzz import choosers
from fuzz import hostile
from positions import FLAGS
from test_shared_objects import first_legal, run_threads

EXAMPLES = int(os.environ.get("VIKINGER_FUZZ_EXAMPLES", "60"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def label(result):
    return "accepted" if result[0] == "ok" else result[0].__name__


@FUZZ
@given(data=st.data())
def test_rebuilt_game_data(engines, data):
    chooser = choosers.DataChooser(data, st)
    result = hostile.check_game_data(
        engines, hostile.pick_game_value(chooser), hostile.pick_game_value(chooser)
    )
    event(label(result))


@FUZZ
@given(
    data=st.data(),
    players=st.integers(2, 4),
    bits=st.integers(0, 31),
    seed=st.integers(0, 2**64 - 1),
)
def test_random_values_of_a_generator_subclass(engines, data, players, bits, seed):
    flags = {f: bool(bits >> i & 1) for i, f in enumerate(FLAGS)}
    states = [engine.Game(players, **flags).new_initial_state() for engine in engines]
    for state in states:  # a chance node somewhere in round 1 (A1 may open with the auction)
        if not state.is_chance_node():
            return
        for _ in range(seed % 5):
            state.apply_random_chance(seed)
            if not state.is_chance_node():
                return
    result = hostile.check_random_value(
        states, hostile.pick_random_value(choosers.DataChooser(data, st))
    )
    event(label(result))


@settings(
    max_examples=max(4, EXAMPLES // 10),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    threads=st.integers(2, 8),
    batch=st.integers(1, 48),
    steps=st.integers(1, 6),
    seed=st.integers(0, 2**32),
)
def test_threads_stepping_one_vector_game(engine, threads, batch, steps, seed):
    env = engine.VectorGame(engine.Game(2, auction=True), batch, seed)

    def stepper(k):
        for _ in range(steps):
            try:
                env.step(first_legal(env.legal_actions_mask()))
            except ValueError as error:
                assert "is not legal in environment" in str(error)

    run_threads(stepper, threads)
    assert env.legal_actions_mask().any(axis=1).all()
    env.step(first_legal(env.legal_actions_mask()))
