"""Hostile game records and positions (docs/security.md): valid JSON nested thousands deep,
oversized files, NaN and Infinity, numpy seeds; and a hypothesis fuzzer over the record loader,
whose only way to refuse is ValueError (TypeError for a non-text argument)."""

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vikinger_fast import records
from vikinger_fast.pictures import render
from vikinger_fast.safety import json_limits


def _played(engine, moves=30, seed=2):
    state = engine.Game(num_players=2).new_initial_state()
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        if state.is_chance_node():
            state.apply_random_chance(rng)
        else:
            state.apply_action(state.legal_actions()[0])
    return state


@pytest.mark.parametrize("depth", [33, 1000, 5000, 100_000])
@pytest.mark.parametrize("bracket", ["[]", "{}"])
def test_deep_nesting_is_a_value_error(tmp_path, depth, bracket):
    if bracket == "[]":
        text = "[" * depth + "]" * depth
    else:
        text = '{"a":' * depth + "1" + "}" * depth
    with pytest.raises(ValueError, match=f"nests {depth} levels deep"):
        records.loads(text)
    path = tmp_path / "deep.json"
    path.write_text(text)
    with pytest.raises(ValueError, match="levels deep"):
        records.load(path)
    for engine_name in ("vikinger_fast", "vikinger_ref"):
        engine = __import__(engine_name)
        # A top-level array is not a position at all for render; an object is measured.
        with pytest.raises(ValueError, match="levels deep" if bracket == "{}" else None):
            render.read_position(path, engine)


def test_deep_nesting_inside_a_record_field(engine):
    record = records.record_from_state(_played(engine))
    text = records.dumps(record).replace(
        '"params": {}', '"params": {"x": ' + "[" * 3000 + "]" * 3000 + "}", 1
    )
    with pytest.raises(ValueError, match="levels deep"):
        records.loads(text)


def test_brackets_inside_strings_do_not_count():
    assert json_limits.nesting('["' + "[" * 1000 + '"]') == 1
    assert json_limits.nesting(r'["\"[[[[", {"a": [1]}]') == 3


def test_oversized_file_is_refused_unread(tmp_path):
    path = tmp_path / "big.json"
    with open(path, "wb") as sparse:  # its size from fstat: refused before a byte is read
        sparse.truncate(json_limits.MAX_BYTES + 10)
    words = f"is {json_limits.MAX_BYTES + 10:,} bytes long; at most {json_limits.MAX_BYTES:,}"
    with pytest.raises(ValueError, match=words):
        records.load(path)
    with pytest.raises(ValueError, match=words):
        render.read_position(path, __import__("vikinger_ref"))


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_not_json(engine, constant):
    text = records.dumps(records.record_from_state(_played(engine)))
    hostile = text.replace('"seed": null', f'"seed": {constant}')
    with pytest.raises(ValueError, match="must be JSON"):
        records.loads(hostile)


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "Infinity"])
def test_non_finite_spec_parameters_stay_text_and_records_are_strict(engine, value):
    entry = records.player_entry(f"mcts:uct_c={value}")
    assert entry["params"]["uct_c"] == value
    record = records.record_from_state(_played(engine), players=[entry, "random"])
    json.loads(records.dumps(record), parse_constant=pytest.fail)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -float("inf")])
def test_non_finite_dict_parameters_refused(engine, value):
    with pytest.raises(ValueError, match="finite numbers only"):
        records.player_entry({"name": "mcts", "params": {"uct_c": value}})
    with pytest.raises(ValueError, match="finite numbers only"):
        records.record_from_state(
            _played(engine), players=[{"name": "mcts", "params": {"uct_c": value}}, "random"]
        )


@pytest.mark.parametrize("seed", [np.int64(5), np.uint64(2**63), np.int8(-3), 5])
def test_numpy_seeds_are_ints(engine, seed):
    record = records.record_from_state(_played(engine), seed=seed)
    assert type(record["seed"]) is int and record["seed"] == int(seed)
    assert records.loads(records.dumps(record))["seed"] == int(seed)


@pytest.mark.parametrize(
    "seed", [np.float64(5), 5.0, True, np.bool_(True), "5", np.timedelta64(5)], ids=repr
)
def test_non_int_seeds_refused(engine, seed):
    with pytest.raises(TypeError, match="seed must be an int or None"):
        records.record_from_state(_played(engine), seed=seed)


def test_save_is_atomic_and_keeps_the_old_file_on_failure(engine, tmp_path):
    path = tmp_path / "game.json"
    path.write_text("old")
    with pytest.raises(ValueError):  # a constructed history fails before anything is written
        records.save(str(path), _played(engine), players=["a"])
    assert path.read_text() == "old"
    records.save(str(path), _played(engine))
    assert records.load(path)["moves"]
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]  # no temporary left


# --- the fuzzer --------------------------------------------------------------------------------

JSON_LEAVES = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text()
JSON_VALUES = st.recursive(
    JSON_LEAVES,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=30,
)


def _valid_text():
    import vikinger_ref as ref

    return records.dumps(records.record_from_state(_played(ref, moves=12)))


VALID = _valid_text()


def _loads_or_value_error(text):
    try:
        record = records.loads(text)
    except ValueError:
        return None
    records.check_structure(record)
    return record


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_fuzz_any_text(text):
    _loads_or_value_error(text)


@settings(max_examples=200, deadline=None)
@given(JSON_VALUES)
def test_fuzz_any_json_document(value):
    _loads_or_value_error(json.dumps(value))


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_fuzz_mutated_records(data):
    """A valid record with one field replaced by any JSON value, or its text cut, spliced or
    nested: loads refuses with ValueError or returns a record whose replay is checked."""
    import vikinger_ref as ref

    record = json.loads(VALID)
    kind = data.draw(st.sampled_from(["field", "move", "cut", "nest"]))
    if kind == "field":
        record[data.draw(st.sampled_from(sorted(record)))] = data.draw(JSON_VALUES)
        text = json.dumps(record)
    elif kind == "move":
        index = data.draw(st.integers(0, len(record["moves"]) - 1))
        key = data.draw(st.sampled_from(["action", "string", "player"]))
        record["moves"][index][key] = data.draw(JSON_VALUES)
        text = json.dumps(record)
    elif kind == "cut":
        text = VALID[: data.draw(st.integers(0, len(VALID)))]
    else:
        depth = data.draw(st.integers(1, 3000))
        text = VALID.replace('"seed": null', '"seed": ' + "[" * depth + "]" * depth)
    loaded = _loads_or_value_error(text)
    if loaded is not None:
        try:
            records.replay(loaded, ref)
        except ValueError:
            pass


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=200))
def test_fuzz_position_files(tmp_path_factory, data):
    import vikinger_ref as ref

    path = tmp_path_factory.mktemp("pos") / "p.bin"
    path.write_bytes(data)
    try:
        render.read_position(path, ref)
    except (ValueError, TypeError):
        pass


def test_strict_writer_refuses_nan():
    with pytest.raises(ValueError, match="strict JSON"):
        json_limits.dumps_strict({"x": math.nan})
    assert json_limits.non_finite_as_text({"x": [math.inf, 1.0]}) == {"x": ["inf", 1.0]}


def test_numpy_parameters_are_written_as_json_numbers(engine):
    entry = records.player_entry(
        {
            "name": "mcts",
            "params": {"iterations": np.int64(5), "uct_c": np.float32(1.5), "on": np.bool_(True)},
        }
    )
    assert entry["params"] == {"iterations": 5, "uct_c": 1.5, "on": True}
    assert type(entry["params"]["iterations"]) is int
    record = records.record_from_state(_played(engine), players=[entry, "random"])
    assert records.loads(records.dumps(record))["players"][0] == entry
