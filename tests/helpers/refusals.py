"""The refusal helpers of the error tests (test_errors*.py) and the robustness sweeps
(test_robustness*.py): positions in every phase, and the checks that a call is refused with the
documented error, in both engines alike, and changes nothing."""

import copy

import pytest
import vikinger_ref
from positions import FLAGS, PHASES, build_state, group, player, position_dict

from tools.random_games import random_game_states

ALL_FLAGS = dict.fromkeys(FLAGS, True)
CONFIGS = {"2p": (2, {}), "3p": (3, {}), "4p": (4, {}), "3p-all": (3, ALL_FLAGS)}
# The phases of the base game (docs/actions.md lists them first) and the advanced ones random
# games reach (building_replace needs a rare purchase; test_special_tiles.py builds it).
BASE_PHASES = set(PHASES[: PHASES.index("game_over") + 1])
ADVANCED_PHASES = set(PHASES[PHASES.index("game_over") + 1 :]) - {"building_replace"}
HUGE_IDS = (
    2**31 - 1,
    2**31,
    2**32,
    2**63 - 1,
    2**63,
    2**64,
    2**200,
    -(2**31),
    -(2**63) - 1,
    -(2**64),
)

_STATES = {}


def states_by_phase(engine, config):
    """{phase: a state in that phase} from seeded random games of `config` (fresh clones)."""
    key = (engine.__name__, config)
    n, flags = CONFIGS[config]
    if key not in _STATES:
        wanted = BASE_PHASES | (ADVANCED_PHASES if flags else set())
        found = {}
        for seed in range(12):
            for state in random_game_states(engine, n, flags, seed=seed):
                found.setdefault(state.to_dict()["phase"], state)
            if wanted <= set(found):
                break
        assert wanted <= set(found), f"random games never reached {wanted - set(found)}"
        _STATES[key] = found
    return {phase: state.clone() for phase, state in _STATES[key].items()}


def game_of(engine, config):
    n, flags = CONFIGS[config]
    return engine.Game(num_players=n, **flags)


def error_of(call):
    """The exception `call` raises (None if it returns)."""
    try:
        call()
    except Exception as error:  # noqa: BLE001 -- the test inspects whatever was raised
        return error
    return None


def reading_error(game, method, argument):
    """The error (or None) of `game.<method>(argument)`, state_from_dict or deserialize_state,
    once the reference has refused the same input with the same type and message (docs/api.md
    "Errors": both engines name the same first problem in the same words)."""
    error = error_of(lambda: getattr(game, method)(argument))
    if not isinstance(game, vikinger_ref.Game):
        twin = vikinger_ref.Game(num_players=game.num_players, **game.options)
        expected = error_of(lambda: getattr(twin, method)(copy.deepcopy(argument)))
        assert (type(error), str(error)) == (type(expected), str(expected)), (
            f"{method}: fast {error!r}, reference {expected!r}"
        )
    return error


def raises(call, kind, *words):
    """`call` raises exactly `kind` whose message contains each of `words` (case-insensitive)."""
    error = error_of(call)
    assert type(error) is kind, f"expected {kind.__name__}, got {error!r}"
    message = str(error).lower()
    for word in words:
        assert str(word).lower() in message, f"{word!r} not named in {str(error)!r}"
    return error


def offer_players():
    return [player(gold=20, rows={1: "L", 3: "L*1"}, mainland="F1"), player(rows={2: "L"})]


OFFER = {3: group("L", "F"), 5: group("1", "F"), 8: group("R", "S"), 11: group("r", "B")}


def offer(engine):
    """Player 0 to buy, 4 groups left; the price-0 group (space 3) is refused by B5.2."""
    return build_state(engine, offer_players(), round=1, wheel=OFFER)


def unchanged_after(state, call, error):
    before = state.to_dict()
    with pytest.raises(error):
        call()
    assert state.to_dict() == before


def valid_dict(engine):
    return position_dict(engine, offer_players(), round=1, wheel=OFFER)


def refusal(call):
    """(error type, message) of `call()`, which must refuse."""
    try:
        call()
    except (ValueError, TypeError) as error:
        return type(error), str(error)
    raise AssertionError("accepted")
