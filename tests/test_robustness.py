"""Robustness sweeps: every entry point refuses bad input with the documented error, names the
problem, behaves the same in both engines, and leaves the state exactly as it was.

test_errors.py checks the documented cases one by one on constructed positions. This file sweeps
them: every action id at a position of every phase, every key and every value of full state
dicts, every truncation and every byte of the bytes, tampered pickles, and odd Python values at
every call, with the two engines compared on the same input (docs/api.md "Errors",
docs/state.md).
"""

import collections
import copy
import decimal
import enum
import fractions
import pickle
import random

import numpy as np
import pytest
import vikinger_ref

from positions import FLAGS, MAX_CHANCE_OUTCOMES, NUM_DISTINCT_ACTIONS
from tools.random_games import random_game_states

ALL_FLAGS = dict.fromkeys(FLAGS, True)
CONFIGS = {"2p": (2, {}), "3p": (3, {}), "4p": (4, {}), "3p-all": (3, ALL_FLAGS)}
BASE_PHASES = {
    "reveal_tile",
    "draw_viking",
    "buy",
    "start_row",
    "ship_column",
    "island_cell",
    "viking",
    "trip",
    "trip_target",
    "game_over",
}
ADVANCED_PHASES = {"special_fill", "auction", "remove_viking", "offer_colour", "take_special"}
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


# --- apply_action: every id, every phase --------------------------------------------------------

# First and last id of every block of docs/actions.md, and their neighbours.
BLOCK_EDGES = (
    0,
    9,
    10,
    15,
    16,
    29,
    11,
    12,
    16,
    17,
    19,
    20,
    339,
    340,
    341,
    342,
    343,
    347,
    348,
    349,
    353,
    354,
    673,
    674,
    675,
    1698,
    1699,
    1704,
    1705,
    1710,
    1711,
    1714,
    1715,
    1716,
    2035,
)


def ids_to_try(config, legal):
    """Every id for 2 players; else block edges, the neighbours of legal ids and a sample."""
    if config == "2p":
        return [*range(-3, NUM_DISTINCT_ACTIONS + 3), *HUGE_IDS]
    sample = random.Random(config).sample(range(NUM_DISTINCT_ACTIONS), 150)
    near = {a + d for a in legal for d in (-1, 1)}
    return sorted(
        {*BLOCK_EDGES, *(e + 1 for e in BLOCK_EDGES), *sample, *near, -1, NUM_DISTINCT_ACTIONS}
    ) + list(HUGE_IDS)


@pytest.mark.parametrize("config", list(CONFIGS))
def test_every_illegal_id_is_refused_naming_it_and_changes_nothing(engine, config):
    for phase, state in states_by_phase(engine, config).items():
        before, history = state.serialize(), state.history()
        legal = set(state.legal_actions())
        for action in ids_to_try(config, legal):
            if action in legal:
                continue
            error = error_of(lambda: state.apply_action(action))
            assert type(error) is ValueError, (phase, action, error)
            message = str(error)
            assert str(action) in message, message
            assert (phase in message) if phase != "game_over" else ("over" in message), message
        assert state.serialize() == before and state.history() == history, phase
        for action in legal:
            after = state.clone()
            after.apply_action(action)
            assert after.history() == history + [action]


def test_ids_of_another_phase_are_refused(engine):
    states = states_by_phase(engine, "2p")
    legal_at = {phase: set(state.legal_actions()) for phase, state in states.items()}
    for phase, state in states.items():
        before = state.serialize()
        foreign = set().union(*legal_at.values()) - legal_at[phase]
        for action in sorted(foreign):
            raises(lambda: state.apply_action(action), ValueError, action)
        assert state.serialize() == before
    # A decision id that is a chance id too is read in the space of the node (docs/actions.md).
    reveal, buy = states["reveal_tile"], states["buy"]
    assert 0 in legal_at["buy"] or 0 in legal_at["reveal_tile"]
    raises(lambda: reveal.apply_action(340), ValueError, 340, "reveal_tile")
    raises(lambda: buy.apply_action(MAX_CHANCE_OUTCOMES + 1000), ValueError, "buy")


@pytest.mark.parametrize("config", list(CONFIGS))
def test_game_over_refuses_every_action(engine, config):
    state = states_by_phase(engine, config)["game_over"]
    before = state.serialize()
    assert state.is_terminal() and state.legal_actions() == [] and state.chance_outcomes() == []
    assert not state.legal_actions_mask().any()
    for action in [0, 9, 29, 340, 342, 2035, -1, 2036, 2**64, np.int64(0), np.uint8(3)]:
        raises(lambda: state.apply_action(action), ValueError, "over")
    for seed in (0, 1, np.random.default_rng(1)):
        raises(lambda: state.apply_random_chance(seed), ValueError)
    for wrong in (1.0, "0", None, True):  # the type is checked first (docs/api.md)
        raises(lambda: state.apply_action(wrong), TypeError)
    assert state.serialize() == before
    assert sum(state.returns()) == pytest.approx(1.0)


# --- odd Python values --------------------------------------------------------------------------


class Indexable:
    """Not an int, but usable as one (operator.index): accepted like an int."""

    def __init__(self, value):
        self.value = value

    def __index__(self):
        return self.value


class Colour(enum.IntEnum):
    SCOUT = 2


NOT_INTS = {
    "float": 1.0,
    "float-nan": float("nan"),
    "float-inf": float("inf"),
    "str": "0",
    "None": None,
    "bool": True,
    "bool-false": False,
    "numpy-bool": np.bool_(True),
    "numpy-float64": np.float64(2.0),
    "numpy-float32": np.float32(2.0),
    "Decimal": decimal.Decimal(2),
    "Fraction": fractions.Fraction(2),
    "complex": 2 + 0j,
    "list": [2],
    "tuple": (2,),
    "bytes": b"\x02",
    "object": object(),
    "numpy-array-1d": np.array([2]),
    "surrogate-str": "\ud800",
}
INTS = {
    "numpy-int8": np.int8(2),
    "numpy-int16": np.int16(2),
    "numpy-int32": np.int32(2),
    "numpy-int64": np.int64(2),
    "numpy-uint8": np.uint8(2),
    "numpy-uint16": np.uint16(2),
    "numpy-uint32": np.uint32(2),
    "numpy-uint64": np.uint64(2),
    "IntEnum": Colour.SCOUT,
    "__index__": Indexable(2),
}
TYPE_NAMES = {"float": "float", "str": "str", "None": "NoneType", "bool": "bool", "list": "list"}


@pytest.mark.parametrize("name", list(NOT_INTS))
def test_apply_action_refuses_non_ints_naming_the_type(engine, name):
    state = states_by_phase(engine, "2p")["buy"]
    before = state.serialize()
    raises(lambda: state.apply_action(NOT_INTS[name]), TypeError, TYPE_NAMES.get(name, ""))
    raises(lambda: state.action_to_string(NOT_INTS[name]), TypeError)
    assert state.serialize() == before


@pytest.mark.parametrize("name", list(INTS))
def test_integer_likes_are_ids(engine, name):
    """Numpy integers (docs/api.md) and other exact integers are ids, and recorded as int."""
    state = states_by_phase(engine, "2p")["buy"]
    value = INTS[name]
    legal = state.legal_actions()
    target = int(value)
    if target in legal:
        state.apply_action(value)
        assert state.history()[-1] == target and type(state.history()[-1]) is int
    else:
        raises(lambda: state.apply_action(value), ValueError, target)
    assert state.action_to_string(value) == state.action_to_string(target)


@pytest.mark.parametrize(
    "value",
    [np.uint64(2**64 - 1), np.int64(-(2**63)), np.int64(2036), np.int8(-1), np.uint16(65535)],
)
def test_numpy_ids_out_of_range_are_value_errors(engine, value):
    state = states_by_phase(engine, "2p")["buy"]
    before = state.serialize()
    raises(lambda: state.apply_action(value), ValueError, int(value))
    raises(lambda: state.action_to_string(value), ValueError)
    assert state.serialize() == before


@pytest.mark.parametrize("value", [-1, 2036, 2**64, -(2**64), 2**200])
def test_action_to_string_out_of_range(engine, value):
    decision = states_by_phase(engine, "2p")["buy"]
    chance = states_by_phase(engine, "2p")["reveal_tile"]
    raises(lambda: decision.action_to_string(value), ValueError, value)
    raises(lambda: chance.action_to_string(value), ValueError, value)
    raises(lambda: chance.action_to_string(MAX_CHANCE_OUTCOMES), ValueError, MAX_CHANCE_OUTCOMES)


@pytest.mark.parametrize("value", [-1, 2, 3, 2**64, -(2**64), np.int64(5), np.uint64(2**64 - 1)])
def test_observation_player_out_of_range(engine, value):
    state = states_by_phase(engine, "2p")["buy"]
    raises(lambda: state.observation_tensor(value), ValueError, int(value))


@pytest.mark.parametrize(
    "name", ["float", "str", "None", "bool", "numpy-bool", "numpy-float64", "list", "Decimal"]
)
def test_observation_player_of_a_wrong_type(engine, name):
    state = states_by_phase(engine, "2p")["buy"]
    raises(lambda: state.observation_tensor(NOT_INTS[name]), TypeError, TYPE_NAMES.get(name, ""))


def test_observation_player_numpy_int(engine):
    state = states_by_phase(engine, "3p")["buy"]
    for kind in (np.int8, np.int64, np.uint64):
        assert np.array_equal(state.observation_tensor(kind(2)), state.observation_tensor(2))


def test_apply_random_chance_seeds_are_taken_modulo_2_64(engine):
    def outcome(seed):
        state = states_by_phase(engine, "2p")["draw_viking"]
        return state.apply_random_chance(seed), state.serialize()

    for seed in (0, 1, 12345, 2**63, 2**64 - 1):
        assert outcome(seed) == outcome(seed + 2**64) == outcome(np.uint64(seed))
        assert outcome(seed) == outcome(seed - 2**64) == outcome(seed + 5 * 2**64)
    assert outcome(-1) == outcome(2**64 - 1)
    assert outcome(np.int64(-1)) == outcome(2**64 - 1)


@pytest.mark.parametrize(
    "name",
    ["float", "str", "None", "bool", "numpy-bool", "numpy-float64", "list", "Decimal", "object"],
)
def test_apply_random_chance_rng_of_a_wrong_type(engine, name):
    chance = states_by_phase(engine, "2p")["reveal_tile"]
    before = chance.serialize()
    raises(lambda: chance.apply_random_chance(NOT_INTS[name]), TypeError)
    raises(lambda: chance.apply_random_chance(random.Random(1)), TypeError)
    assert chance.serialize() == before


def test_apply_random_chance_at_a_decision_node(engine):
    state = states_by_phase(engine, "2p")["buy"]
    before = state.serialize()
    for rng in (1, np.random.default_rng(0)):
        raises(lambda: state.apply_random_chance(rng), ValueError, "chance")
    assert state.serialize() == before


# --- the same answer from both engines ----------------------------------------------------------

ODD_VALUES = {
    **NOT_INTS,
    **INTS,
    "int": 2,
    "negative": -1,
    "2**64": 2**64,
    "-2**64": -(2**64),
    "2**200": 2**200,
    "dict": {},
    "bytearray": bytearray(b"\x02"),
    "memoryview": memoryview(b"\x02"),
    "numpy-array-0d": np.array(2),
}


def _calls(module, value):
    """Every call that takes one user value, on fresh objects of `module`."""
    game = module.Game(num_players=2)
    states = states_by_phase(module, "2p")
    chance, decision, terminal = states["reveal_tile"], states["buy"], states["game_over"]
    return {
        "Game(num_players=)": lambda: module.Game(num_players=value).num_players,
        "Game(auction=)": lambda: module.Game(num_players=2, auction=value).options,
        "Game(special_tiles=)": lambda: module.Game(num_players=2, special_tiles=value).options,
        "apply_action@chance": lambda: (chance.apply_action(value), chance.serialize()),
        "apply_action@decision": lambda: (decision.apply_action(value), decision.serialize()),
        "apply_action@terminal": lambda: terminal.apply_action(value),
        "action_to_string@chance": lambda: chance.action_to_string(value),
        "action_to_string@decision": lambda: decision.action_to_string(value),
        "string_to_action": lambda: decision.string_to_action(value),
        "observation_tensor": lambda: decision.observation_tensor(value).tolist(),
        "apply_random_chance@chance": lambda: (
            chance.apply_random_chance(value),
            chance.serialize(),
        ),
        "apply_random_chance@decision": lambda: decision.apply_random_chance(value),
        "state_from_dict": lambda: game.state_from_dict(value).serialize(),
        "deserialize_state": lambda: game.deserialize_state(value).serialize(),
    }


def _answer(call):
    try:
        return "ok", call()
    except (ValueError, TypeError) as error:
        return type(error).__name__, str(error)


@pytest.mark.parametrize("name", list(ODD_VALUES))
def test_odd_values_get_the_same_answer_from_both_engines(engines, name):
    ref, fast = engines
    value = ODD_VALUES[name]
    ref_calls, fast_calls = _calls(ref, value), _calls(fast, value)
    for call in ref_calls:
        expected, got = _answer(ref_calls[call]), _answer(fast_calls[call])
        assert got == expected, f"{call}({name}): reference {expected}, fast {got}"


# --- Game parameters ----------------------------------------------------------------------------


@pytest.mark.parametrize("value", [-1, 0, 1, 5, 100, 2**31, 2**64, -(2**64), 2**200])
def test_num_players_out_of_range(engine, value):
    raises(lambda: engine.Game(num_players=value), ValueError, "num_players", value)


@pytest.mark.parametrize("name", ["float", "str", "None", "bool", "numpy-bool", "Decimal", "list"])
def test_num_players_of_a_wrong_type(engine, name):
    raises(lambda: engine.Game(num_players=NOT_INTS[name]), TypeError, "num_players")


@pytest.mark.parametrize("flag", list(ALL_FLAGS))
@pytest.mark.parametrize("value", [1, 0, "yes", None, 1.0, [True]])
def test_flags_must_be_bools(engine, flag, value):
    raises(lambda: engine.Game(num_players=2, **{flag: value}), TypeError, flag)


def test_unknown_keywords_and_extra_positionals(engine):
    raises(lambda: engine.Game(num_players=2, expansion=True), TypeError, "expansion")
    raises(lambda: engine.Game(2, True), TypeError)
    raises(lambda: engine.Game(num_players=2, players=3), TypeError, "players")


# --- state_from_dict: every key, every value ----------------------------------------------------


def rich_dicts(engine):
    """Full state dicts whose optional parts (pending, trip, auction, display) are filled."""
    dicts = []
    for config, phases in (
        ("3p-all", ("auction", "take_special")),
        ("2p", ("viking", "trip_target")),
    ):
        states = states_by_phase(engine, config)
        dicts += [(config, states[phase].to_dict()) for phase in phases]
    return dicts


def _paths(value, prefix=()):
    if isinstance(value, dict):
        for key, child in value.items():
            yield prefix + (key,), child
            yield from _paths(child, prefix + (key,))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            yield prefix + (i,), child
            yield from _paths(child, prefix + (i,))


def _edited(d, path, value=None, delete=False):
    d = copy.deepcopy(d)
    target = d
    for key in path[:-1]:
        target = target[key]
    if delete:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return d


def _named(path):
    """The names a message may use for `path`: its str keys (and 'history' for its entries)."""
    return [key for key in path if isinstance(key, str)]


def refused_naming(game, d, path):
    error = reading_error(game, "state_from_dict", d)
    assert type(error) is ValueError, (path, error)
    message = str(error)
    assert any(name in message for name in _named(path)), (path, message)


def test_state_from_dict_missing_and_extra_keys_everywhere(engine):
    for config, d in rich_dicts(engine):
        game = game_of(engine, config)
        assert game.state_from_dict(d).to_dict() == d
        dict_paths = [()] + [path for path, value in _paths(d) if isinstance(value, dict)]
        for path in dict_paths:
            table = d
            for key in path:
                table = table[key]
            for key in table:
                refused_naming(game, _edited(d, path + (key,), delete=True), path + (key,))
            extra = _edited(d, path + ("extra_key",), 0)
            refused_naming(game, extra, path + ("extra_key",))
            number_key = _edited(d, path + (7,), 0)
            assert type(reading_error(game, "state_from_dict", number_key)) is ValueError


WRONG_FOR_INT = (True, False, 1.0, "1", [1], {}, None)
WRONG_FOR_STR = (1, True, b"left", ["left"], None)
WRONG_FOR_BOOL = (1, 0, "True", None, 1.0)
# Where None is a legal value (docs/state.md), None is no wrong type.
NULLABLE = {"start_row", "high", "cell", "viking", "pending", "trip", "auction"}


def _wrong_values(path, value):
    if type(value) is bool:
        return WRONG_FOR_BOOL
    if type(value) is int:
        wrong = WRONG_FOR_INT
    elif type(value) is str:
        wrong = WRONG_FOR_STR
    else:
        return ()
    nullable = (
        path[-1] in NULLABLE
        or path[0] in ("display", "wheel")
        or (len(path) > 3 and path[2] == "buildings")
    )
    return tuple(v for v in wrong if not (v is None and nullable))


def test_state_from_dict_wrong_types_at_every_leaf(engine):
    for config, d in rich_dicts(engine):
        game = game_of(engine, config)
        for path, value in _paths(d):
            for wrong in _wrong_values(path, value):
                refused_naming(game, _edited(d, path, wrong), path)


# fame may be negative (B8.8) but not before the final scoring: refused all the same.
def test_state_from_dict_out_of_range_ints_at_every_leaf(engine):
    for config, d in rich_dicts(engine):
        game = game_of(engine, config)
        for path, value in _paths(d):
            if type(value) is not int:
                continue
            for wrong in (-1, 2**31, 2**64):
                edited = _edited(d, path, wrong)
                error = reading_error(game, "state_from_dict", edited)
                assert type(error) is ValueError, (path, wrong, error)


@pytest.mark.parametrize(
    "key, lengths",
    [
        (("wheel",), (11, 13, 0)),
        (("display",), (3, 5)),
        (("players",), (1, 2, 4)),
        (("players", 0, "rows"), (4, 6)),
        (("players", 0, "vikings"), (4, 6)),
        (("players", 0, "buildings"), (3, 5)),
        (("auction", "passed"), (2, 4)),
    ],
)
def test_state_from_dict_lists_of_a_wrong_length(engine, key, lengths):
    states = states_by_phase(engine, "3p-all")
    d = states["auction"].to_dict()
    game = game_of(engine, "3p-all")
    for length in lengths:
        target = copy.deepcopy(d)
        parent = target
        for k in key[:-1]:
            parent = parent[k]
        items = parent[key[-1]]
        parent[key[-1]] = (items * 3)[:length]
        refused_naming(game, target, key)


@pytest.mark.parametrize("value", [None, [], "{}", 5, b"{}", (("version", 1),), object()])
def test_state_from_dict_needs_a_dict_naming_the_type(engine, value):
    game = engine.Game(num_players=2)
    raises(lambda: game.state_from_dict(value), TypeError, type(value).__name__)


def test_state_from_dict_accepts_dict_subclasses(engine):
    state = states_by_phase(engine, "2p")["buy"]
    d = collections.OrderedDict(state.to_dict())
    assert engine.Game(num_players=2).state_from_dict(d) == state


def test_refused_dicts_leave_the_dict_and_the_game_as_they_were(engine):
    for config, d in rich_dicts(engine):
        game = game_of(engine, config)
        bad = copy.deepcopy(d)
        bad["players"][-1]["gold"] = -5
        kept = copy.deepcopy(bad)
        raises(lambda: game.state_from_dict(bad), ValueError, "gold")
        assert bad == kept
        assert game == game_of(engine, config) and game.options == CONFIGS[config][1] | {
            flag: False for flag in ALL_FLAGS if flag not in CONFIGS[config][1]
        }


# --- state_from_dict: impossible positions (the list) ----------------------------------


def mid_game_dict(engine, phase="buy"):
    """A 2-player dict in `phase` of round 2 or later (some Vikings and tiles on the boards)."""
    for seed in range(20):
        for state in random_game_states(engine, 2, {}, seed=seed):
            d = state.to_dict()
            if (
                d["phase"] == phase
                and d["round"] >= 2
                and any(any(p["vikings"]) for p in d["players"])
                and all(p["ships"] for p in d["players"])
            ):
                return d
    raise AssertionError(f"no mid-game state in phase {phase}")


def _refuse(engine, d, *any_of):
    error = reading_error(engine.Game(num_players=2), "state_from_dict", d)
    assert type(error) is ValueError, error
    assert any(word in str(error) for word in any_of), str(error)


def test_79_or_77_vikings(engine):
    d = mid_game_dict(engine)
    colour = next(c for c, k in d["bag"].items() if 0 < k < 13)
    more, fewer = copy.deepcopy(d), copy.deepcopy(d)
    more["bag"][colour] += 1
    fewer["bag"][colour] -= 1
    _refuse(engine, more, colour, "Vikings")
    _refuse(engine, fewer, colour, "Vikings")
    on_mainland = copy.deepcopy(d)
    on_mainland["players"][0]["mainland"][colour] += 1
    _refuse(engine, on_mainland, colour, "Vikings")


def test_two_vikings_on_a_tile(engine):
    d = mid_game_dict(engine)
    p, row = next((p, r) for p in range(2) for r in range(5) if d["players"][p]["vikings"][r])
    col = d["players"][p]["vikings"][row][0]
    d["players"][p]["vikings"][row].insert(0, col)
    _refuse(engine, d, "vikings")


def test_a_viking_outside_its_row_or_off_the_tiles(engine):
    d = mid_game_dict(engine)
    p, row = next((p, r) for p in range(2) for r in range(5) if d["players"][p]["vikings"][r])
    for col in (len(d["players"][p]["rows"][row]) + 1, 64, 65, 0):
        edited = copy.deepcopy(d)
        edited["players"][p]["vikings"][row] = sorted({*edited["players"][p]["vikings"][row], col})
        _refuse(engine, edited, "vikings", "Viking", "tile")
    viking = mid_game_dict(engine, "viking")
    row, col = viking["pending"]["cell"]
    for other in range(1, 6):
        if other != row:
            edited = copy.deepcopy(viking)
            edited["pending"]["cell"] = [other, col]
            _refuse(engine, edited, "pending")


def test_a_ship_in_column_5_with_column_4_empty(engine):
    d = mid_game_dict(engine)
    for ships in ("rgyb", "rgy.b", "...g", "r.g.y", ".rgy"):
        edited = copy.deepcopy(d)
        edited["players"][0]["ships"] = ships
        edited["stacks"] = dict.fromkeys(edited["stacks"], 0)  # counts are checked after shape
        _refuse(engine, edited, "ships", "tiles in all", "stack")
    edited = copy.deepcopy(d)
    ships = edited["players"][0]["ships"]
    edited["players"][0]["ships"] = ships[:-1] + "." * 2 + ships[-1]
    _refuse(engine, edited, "ships")


def test_negative_gold_and_money_beyond_the_bound(engine):
    d = mid_game_dict(engine)
    for key, value in (
        ("gold", -1),
        ("gold", -(2**31)),
        ("gold", 2**30),
        ("gold", 2**31),
        ("fame", 2**30),
        ("fame", -(2**30)),
        ("fame", 2**31),
    ):
        edited = copy.deepcopy(d)
        edited["players"][1][key] = value
        _refuse(engine, edited, key)
    edited = copy.deepcopy(d)
    edited["players"][1]["gold"] = 2**30 - 1
    edited["players"][1]["fame"] = 2**30 - 1
    assert engine.Game(num_players=2).state_from_dict(edited).gold()[1] == 2**30 - 1


def test_a_wheel_that_does_not_match_the_bag_and_stacks(engine):
    d = mid_game_dict(engine)
    spaces = [s for s, group in enumerate(d["wheel"]) if group is not None]
    first = spaces[0]

    def group_too_many(e):
        e["purchases"] -= 1  # one group more than the purchases leave

    def group_too_few(e):
        e["wheel"][spaces[-1]] = None

    def viking_of_another_colour(e):
        e["wheel"][first]["viking"] = (
            "boatsman" if e["wheel"][first]["viking"] != "boatsman" else "fisherman"
        )

    def tile_of_another_kind(e):
        e["wheel"][first]["tile"] = (
            "ship_red" if e["wheel"][first]["tile"] != "ship_red" else "left"
        )

    def viking_missing(e):
        e["wheel"][first]["viking"] = None

    def bag_does_not_fit_the_round(e):
        e["bag"]["scout"] -= 1
        e["players"][0]["mainland"]["scout"] += 1

    def stacks_do_not_fit_the_round(e):
        e["stacks"]["right"] -= 1
        e["discarded_tiles"] += 1

    for change in (
        group_too_many,
        group_too_few,
        viking_of_another_colour,
        tile_of_another_kind,
        viking_missing,
        bag_does_not_fit_the_round,
        stacks_do_not_fit_the_round,
    ):
        edited = copy.deepcopy(d)
        change(edited)
        error = reading_error(engine.Game(num_players=2), "state_from_dict", edited)
        assert type(error) is ValueError, (change.__name__, error)


# --- deserialize_state --------------------------------------------------------------------------


def sample_bytes(engine):
    return states_by_phase(engine, "2p")["viking"].serialize()


def test_every_truncation_is_refused(engine):
    good = sample_bytes(engine)
    game = engine.Game(num_players=2)
    for length in range(len(good)):
        error = reading_error(game, "deserialize_state", good[:length])
        assert type(error) is ValueError, (length, error)
        assert "truncated" in str(error) or length < 4, (length, str(error))


def test_trailing_bytes_are_refused(engine):
    good = sample_bytes(engine)
    game = engine.Game(num_players=2)
    for tail in (b"\x00", b"\xff", b"VKNG\x01", bytes(1000)):
        raises(lambda: game.deserialize_state(good + tail), ValueError, "after the end")


@pytest.mark.parametrize("version", [0, 1, 3, 127, 255])
def test_other_format_versions_are_refused(engine, version):
    good = sample_bytes(engine)
    game = engine.Game(num_players=2)
    other = good[:4] + bytes([version]) + good[5:]
    raises(lambda: game.deserialize_state(other), ValueError, "version", version)


def test_garbage_is_refused(engine):
    game = engine.Game(num_players=2)
    good = sample_bytes(engine)
    rng = random.Random(7)
    for _ in range(300):
        junk = rng.randbytes(rng.choice([0, 1, 3, 4, 5, 50, len(good), 3000]))
        assert type(reading_error(game, "deserialize_state", junk)) is ValueError
        framed = b"VKNG\x01" + junk
        assert type(reading_error(game, "deserialize_state", framed)) is ValueError
    for magic in (b"VKNX", b"vkng", b"\x00VKN", b"GNKV"):
        raises(lambda: game.deserialize_state(magic + good[4:]), ValueError, "VKNG")


def test_a_huge_history_count_is_refused_without_allocating(engine):
    good = sample_bytes(engine)
    count = len(engine.Game(num_players=2).deserialize_state(good).history())
    body = good[: len(good) - 4 - 2 * count]
    for fake in (0xFFFFFFFF, 0x7FFFFFFF, count + 1):
        raises(
            lambda: engine.Game(num_players=2).deserialize_state(
                body + fake.to_bytes(4, "little") + good[len(body) + 4 :]
            ),
            ValueError,
            "truncated",
        )


def test_every_single_byte_change_is_refused_or_canonical(engine):
    """Any byte changed: refused with ValueError, or a state whose bytes are exactly those
    (the format has no slack: docs/state.md)."""
    good = sample_bytes(engine)
    game = engine.Game(num_players=2)
    accepted = 0
    for i in range(len(good)):
        for delta in (1, 0x80):
            data = good[:i] + bytes([(good[i] + delta) % 256]) + good[i + 1 :]
            error = reading_error(game, "deserialize_state", data)
            if error is None:
                assert game.deserialize_state(data).serialize() == data, i
                accepted += 1
            else:
                assert type(error) is ValueError, (i, error)
    assert accepted > 0  # the history bytes are free: some changes are accepted


def test_bytes_of_another_game_are_refused(engine):
    three = states_by_phase(engine, "3p")["buy"].serialize()
    raises(lambda: engine.Game(num_players=2).deserialize_state(three), ValueError, "num_players")
    raises(
        lambda: engine.Game(num_players=3, auction=True).deserialize_state(three),
        ValueError,
        "options",
    )


@pytest.mark.parametrize("value", [None, "VKNG", 5, [86, 75], object()])
def test_deserialize_state_needs_bytes_naming_the_type(engine, value):
    raises(
        lambda: engine.Game(num_players=2).deserialize_state(value), TypeError, type(value).__name__
    )


def test_deserialize_state_takes_bytes_like_objects(engine):
    good = sample_bytes(engine)
    game = engine.Game(num_players=2)
    for data in (bytearray(good), memoryview(good)):
        assert game.deserialize_state(data).serialize() == good


# --- pickle --------------------------------------------------------------------------------------


@pytest.mark.parametrize("protocol", range(3, pickle.HIGHEST_PROTOCOL + 1))
def test_tampered_pickles_are_refused(engine, protocol):
    state = states_by_phase(engine, "2p")["viking"]
    data = pickle.dumps(state, protocol=protocol)
    assert pickle.loads(data) == state
    at = data.index(b"VKNG\x02")
    bag = at + 5 + 7 + 10  # header, 7 single bytes, 10 stacks: bag fisherman
    tampered = {
        "version": data[: at + 4] + b"\x01" + data[at + 5 :],
        "magic": data[:at] + b"VKNX" + data[at + 4 :],
        "num_players": data[: at + 5] + b"\x05" + data[at + 6 :],
        "79 Vikings": data[:bag] + bytes([data[bag] + 1]) + data[bag + 1 :],
        "phase": data[: at + 8] + b"\x10" + data[at + 9 :],
    }
    for name, bad in tampered.items():
        error = error_of(lambda: pickle.loads(bad))
        assert type(error) is ValueError, (name, error)


# --- string_to_action ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "buy:\u0663",
        "buy:+1",
        "buy: 1",
        "buy:0\x00",
        "buy:0\n",
        "tile:r1c01",
        "auction:bid:-0",
        "auction:bid:5.0",
        "\ud800",
        "buy:0" * 1000,
        "trip:all:",
        ":",
        "buy::0",
        "buy:1e1",
        "auction:bid:99999999999999999999",
    ],
)
def test_string_to_action_refuses_near_misses(engine, text):
    state = states_by_phase(engine, "2p")["buy"]
    raises(lambda: state.string_to_action(text), ValueError)
