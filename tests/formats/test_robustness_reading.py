"""Robustness sweeps of reading states back (test_robustness.py: of the calls): every key and
every value of full state dicts, impossible positions, every truncation and every byte of the
bytes, tampered pickles; refused with the documented error, the same in both engines, changing
nothing (docs/api.md "Errors", docs/state.md).
"""

import collections
import copy
import pickle
import random

import pytest
from refusals import (
    ALL_FLAGS,
    CONFIGS,
    error_of,
    game_of,
    raises,
    reading_error,
    states_by_phase,
)

from tools.random_games import random_game_states

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
