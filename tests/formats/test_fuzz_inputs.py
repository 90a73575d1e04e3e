"""Property-based fuzzing of the untrusted entry points, bounded for CI (the whole file ~1 min).

Mutated state dicts (`state_from_dict`), mutated bytes (`deserialize_state`) and random call
sequences mixing legal ids, illegal ids and values of wrong types (`apply_action` and the other
calls that take an argument). The mutators and oracles are those of the atheris fuzzers,
fuzz/ (mutations.py, oracles.py, action_sequences.py): every call returns or raises
ValueError/TypeError; a refused call changes nothing; an accepted dict round-trips, accepted
bytes are canonical, an accepted position can be played on; and the two engines give the same
answers.

Hypothesis drives the mutators' choices, so a failure shrinks to few, simple mutations. Set
VIKINGER_FUZZ_EXAMPLES to run more examples (e.g. 5000 locally).
"""

import os

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from fuzz import action_sequences
from fuzz import choosers
from fuzz import mutations
from fuzz import oracles
from fuzz import seeds as fuzz_seeds

EXAMPLES = int(os.environ.get("VIKINGER_FUZZ_EXAMPLES", "60"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
    ],
)
_SEEDS = {}


@pytest.fixture
def engines(engines):
    """Both engines; the seed positions are made once, with the reference."""
    if not _SEEDS:
        ref = engines[0]
        for n, flags, d in fuzz_seeds.seed_dicts(ref, fuzz_seeds.CONFIGS, every=11):
            game = fuzz_seeds.make_game(ref, n, flags)
            _SEEDS.setdefault("all", []).append((n, flags, d, game.state_from_dict(d).serialize()))
    return engines


def seeds(ref):
    """(num_players, flags, dict, bytes) of positions along seeded random games, computed once
    with the reference: both engines read the same formats."""
    return _SEEDS["all"]


def games(modules, n, flags):
    return [fuzz_seeds.make_game(module, n, flags) for module in modules]


def outcome_label(result):
    """'accepted' or the refusal's first words (hypothesis statistics show what was reached)."""
    kind, value = result
    return "accepted" if kind == "ok" else f"{kind.__name__}: {' '.join(value.split()[2:5])}"


def pick_seed(ref, data):
    return data.draw(st.sampled_from(seeds(ref)), label="seed position")


# --- state_from_dict ----------------------------------------------------------------------------


@FUZZ
@given(data=st.data())
def test_state_from_dict_on_mutated_dicts(engines, data):
    ref, fast = engines
    n, flags, d, _ = pick_seed(ref, data)
    chooser = choosers.DataChooser(data, st)
    mutated = mutations.mutate_dict(d, chooser)
    result = oracles.check_dict_both(games((ref, fast), n, flags), mutated, steps=4)
    event(outcome_label(result))


@FUZZ
@given(data=st.data())
def test_state_from_dict_unmutated_seeds_round_trip(engines, data):
    ref, fast = engines
    n, flags, d, _ = pick_seed(ref, data)
    result = oracles.check_dict_both(games((ref, fast), n, flags), d, steps=2)
    assert result[0] == "ok"


# --- deserialize_state --------------------------------------------------------------------------


@FUZZ
@given(data=st.data())
def test_deserialize_state_on_mutated_bytes(engines, data):
    ref, fast = engines
    n, flags, _, raw = pick_seed(ref, data)
    mutated = mutations.mutate_bytes(raw, choosers.DataChooser(data, st))
    result = oracles.check_bytes_both(games((ref, fast), n, flags), mutated, steps=4)
    event(outcome_label(result))


@FUZZ
@given(junk=st.binary(max_size=64), framed=st.booleans())
def test_deserialize_state_on_random_bytes(engines, junk, framed):
    ref, fast = engines
    data = b"VKNG\x01" + junk if framed else junk
    result = oracles.check_bytes_both(games((ref, fast), 2, {}), data)
    assert result[0] is ValueError


# --- action sequences ---------------------------------------------------------------------------


@FUZZ
@given(data=st.data())
def test_random_call_sequences_mixing_legal_and_illegal(engines, data):
    ref, fast = engines
    n, flags, _, raw = pick_seed(ref, data)
    states = [game.deserialize_state(raw) for game in games((ref, fast), n, flags)]
    chooser = choosers.DataChooser(data, st)
    action_sequences.run_action_sequence(
        states, chooser, length=40, numpy_values=action_sequences.numpy_odd_actions()
    )


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_long_random_call_sequences_to_the_end(engines, num_players):
    """Whole games where every fifth call is illegal or of a wrong type (seeded, no shrinking)."""
    ref, fast = engines
    for seed in range(2):
        states = [game.new_initial_state() for game in games((ref, fast), num_players, {})]
        chooser = choosers.RandomChooser(seed * 10 + num_players)
        action_sequences.run_action_sequence(
            states, chooser, length=1500, numpy_values=action_sequences.numpy_odd_actions()
        )
        assert states[0].to_dict() == states[1].to_dict()
