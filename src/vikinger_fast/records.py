"""Game records: a whole game as a versioned JSON document (docs/records.md).

A record holds the game's options, who played each seat, the seed of the chance stream (when
known), every action in order -- chance outcomes included -- with its string and the player who
took it, and the Fame, gold and returns at its end. It is written from any State (its
`history()`) and read back into either engine: the engine module (`vikinger_fast` or
`vikinger_ref`) is a parameter, so a game played on one engine replays on the other.

>>> import vikinger_ref as ref
>>> state = ref.Game(num_players=2).new_initial_state()
>>> state.apply_random_chance(7)
3
>>> record = record_from_state(state, players=["human", "random"], seed=7)
>>> record["moves"][0]
{'action': 3, 'string': 'reveal:middle3', 'player': -1}
>>> replay(record, ref) == state
True
"""

import math
from collections.abc import Iterator, Sequence
from types import ModuleType
from typing import Any, NoReturn, Optional, Union

import numpy as np

from vikinger_ref import OPTION_NAMES

from . import module_sets
from .safety import files, json_limits, outputs

FORMAT = "vikinger-record"
VERSION = 1
TOP_KEYS = ("format", "version", "game", "players", "seed", "moves", "result")
MOVE_KEYS = ("action", "string", "player")
RESULT_KEYS = ("terminal", "fame", "gold", "returns")


def player_entry(spec: Union[str, dict[str, Any]]) -> dict[str, Any]:
    """One seat of a record: "human", a bot spec "name" or "name:key=value,...", or a dict
    {"name": ..., "params": {...}}. Numbers in a spec string become int or float.

    >>> player_entry("mcts:iterations=2000,uct_c=1.4")
    {'name': 'mcts', 'params': {'iterations': 2000, 'uct_c': 1.4}}
    """
    if isinstance(spec, dict):
        params = spec.get("params", {})
        if isinstance(params, dict):  # numpy numbers as the Python ones JSON writes
            params = {key: _plain(value) for key, value in params.items()}
        entry = {"name": spec.get("name"), "params": params}
        _check_player(entry, "players")
        return entry
    if not isinstance(spec, str):
        raise TypeError(f"a player is a str or a dict, not {type(spec).__name__}")
    name, _, rest = spec.partition(":")
    params = {}
    for item in filter(None, rest.split(",")):
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ValueError(f"player spec {spec!r}: {item!r} is not key=value")
        params[key.strip()] = number_or_text(value.strip())
    entry = {"name": name.strip(), "params": params}
    _check_player(entry, "players")
    return entry


def _plain(value: Any) -> Any:
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, np.integer) and not isinstance(value, np.timedelta64):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    return value


def number_or_text(text: str) -> Union[int, float, str]:
    """A spec's value as an int, else a finite float, else the text itself (a player's and a
    bot spec's key=value pairs)."""
    for convert in (int, float):
        try:
            value = convert(text)
        except ValueError:
            continue
        # "nan" and "inf" stay text: a record is strict JSON, which has no such numbers.
        return value if convert is int or math.isfinite(value) else text
    return text


def record_from_state(
    state: Any, players: Optional[Sequence[Any]] = None, seed: Optional[int] = None
) -> dict[str, Any]:
    """The record of the game that led to `state` (any engine), replayed from its history.

    `players`: one entry per seat (see player_entry); default "unknown" for every seat.
    `seed`: the seed the chance stream was drawn from, or None when it is not known."""
    game = state.get_game()
    n = game.num_players
    if players is None:
        players = ["unknown"] * n
    players = [player_entry(p) for p in players]
    if len(players) != n:
        raise ValueError(f"players: {len(players)} entries for a {n}-player game")
    if seed is not None and (
        isinstance(seed, (bool, np.bool_))
        or not isinstance(seed, (int, np.integer))
        or isinstance(seed, np.timedelta64)
    ):
        raise TypeError(f"seed must be an int or None, not {type(seed).__name__}")
    seed = None if seed is None else int(seed)  # numpy ints too, written as JSON ints
    walker = game.new_initial_state()
    moves = []
    for index, action in enumerate(state.history()):
        if action not in walker.legal_actions():
            raise ValueError(
                f"the state's history does not replay: action {action} (number "
                f"{index}) is not legal at its point"
            )
        moves.append(
            {
                "action": int(action),
                "string": walker.action_to_string(action),
                "player": int(walker.current_player()),
            }
        )
        walker.apply_action(action)
    # A position built with state_from_dict keeps the history it was given, which need not
    # lead to it; a record of it would replay to another state.
    if walker.to_dict() != state.to_dict():
        raise ValueError(
            "the state's history does not lead to it (a constructed position?): "
            "only a played game can be recorded"
        )
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": {"num_players": n, "options": dict(game.options)},
        "players": players,
        "seed": seed,
        "moves": moves,
        "result": _result(state),
    }


def _result(state: Any) -> dict[str, Any]:
    return {
        "terminal": bool(state.is_terminal()),
        "fame": [int(v) for v in state.scores()],
        "gold": [int(v) for v in state.gold()],
        "returns": [float(v) for v in state.returns()],
    }


def dumps(record: dict[str, Any]) -> str:
    """The record as JSON text: one field per line and one move per line, so that records
    diff and grep well."""
    check_structure(record)
    strict = json_limits.dumps_strict  # no NaN or Infinity: other readers refuse them
    lines = [f" {strict(key)}: {strict(record[key])}" for key in TOP_KEYS if key != "moves"]
    moves = ",\n".join(f"  {strict(move)}" for move in record["moves"])
    lines.append(f' "moves": [\n{moves}\n ]' if moves else ' "moves": []')
    return "{\n" + ",\n".join(lines) + "\n}\n"


def loads(text: Union[str, bytes]) -> dict[str, Any]:
    """A record from JSON text, its structure checked (ValueError naming the field). Text
    beyond json_limits.MAX_BYTES or nested deeper than json_limits.MAX_DEPTH is refused before
    parsing (ValueError), so a hostile file cannot exhaust the parser's recursion."""
    record = json_limits.loads_limited(text, "a record")
    check_structure(record)
    return record


def save(
    path: str, state: Any, players: Optional[Sequence[Any]] = None, seed: Optional[int] = None
) -> dict[str, Any]:
    """Write the record of `state` to `path`; returns the record."""
    record = record_from_state(state, players=players, seed=seed)
    outputs.write_atomic(path, dumps(record))  # the old file or the new one, never half
    return record


def load(path: str) -> dict[str, Any]:
    """Read a record from `path` (structure checked; replay() checks the moves). Only a regular
    file of at most json_limits.MAX_BYTES is read (safety.files: a FIFO, a device, a folder, a
    missing or larger file is a ValueError naming it, nothing blocks)."""
    data = files.read_regular(path, json_limits.MAX_BYTES)
    try:
        return loads(data)
    except ValueError as error:
        raise ValueError(f"{path}: {error}") from None


# --- checks --------------------------------------------------------------------------------


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _fail(field: str, problem: str) -> NoReturn:
    raise ValueError(f"record field {field!r}: {problem}")


def _check_player(entry: dict[str, Any], field: str) -> None:
    if not isinstance(entry.get("name"), str) or not entry["name"]:
        _fail(field, "every player needs a non-empty str 'name'")
    if not isinstance(entry.get("params"), dict) or not all(
        isinstance(key, str) for key in entry["params"]
    ):
        _fail(field, "'params' must be a dict with str keys")
    for key, value in entry["params"].items():
        if isinstance(value, float) and not math.isfinite(value):
            _fail(field, f"param {key!r} is {value}: a record holds finite numbers only")


def check_structure(record: Any) -> None:
    """Keys, types and lengths of a record; ValueError naming the first field that is wrong.
    It does not play the moves: replay() does, and reports a move by its number."""
    if not isinstance(record, dict):
        raise ValueError(f"a record must be a JSON object, not {type(record).__name__}")
    missing = [key for key in TOP_KEYS if key not in record]
    if missing:
        _fail(missing[0], "missing")
    unknown = sorted(set(record) - set(TOP_KEYS))
    if unknown:
        _fail(unknown[0], "unknown field")
    if record["format"] != FORMAT:
        _fail("format", f"must be {FORMAT!r}, not {record['format']!r}")
    if not _is_int(record["version"]) or record["version"] != VERSION:
        _fail("version", f"this reader knows version {VERSION}, not {record['version']!r}")
    game = record["game"]
    if not isinstance(game, dict) or set(game) != {"num_players", "options"}:
        _fail("game", "must be {'num_players': int, 'options': {...}}")
    n = game["num_players"]
    if not _is_int(n) or not 2 <= n <= 4:
        _fail("game.num_players", f"must be 2, 3 or 4, not {n!r}")
    options = game["options"]
    if not isinstance(options, dict) or set(options) != set(OPTION_NAMES):
        _fail("game.options", f"must have exactly the keys {', '.join(OPTION_NAMES)}")
    for name in OPTION_NAMES:
        if not isinstance(options[name], bool):
            _fail(f"game.options.{name}", f"must be a bool, not {options[name]!r}")
    players = record["players"]
    if not isinstance(players, list) or len(players) != n:
        _fail("players", f"must be a list of {n} players")
    for seat, entry in enumerate(players):
        if not isinstance(entry, dict) or set(entry) != {"name", "params"}:
            _fail(f"players[{seat}]", "must be {'name': str, 'params': {...}}")
        _check_player(entry, f"players[{seat}]")
    if record["seed"] is not None and not _is_int(record["seed"]):
        _fail("seed", f"must be an int or null, not {record['seed']!r}")
    _check_moves(record["moves"])
    _check_result(record["result"], n)


def _check_moves(moves: Any) -> None:
    if not isinstance(moves, list):
        _fail("moves", "must be a list")
    for index, move in enumerate(moves):
        field = f"moves[{index}]"
        if not isinstance(move, dict) or set(move) != set(MOVE_KEYS):
            _fail(field, f"must have exactly the keys {', '.join(MOVE_KEYS)}")
        if not _is_int(move["action"]) or move["action"] < 0:
            _fail(field + ".action", f"must be a non-negative int, not {move['action']!r}")
        if not isinstance(move["string"], str):
            _fail(field + ".string", "must be a str")
        if not _is_int(move["player"]):
            _fail(field + ".player", "must be an int")


def _check_result(result: Any, n: int) -> None:
    if not isinstance(result, dict) or set(result) != set(RESULT_KEYS):
        _fail("result", f"must have exactly the keys {', '.join(RESULT_KEYS)}")
    if not isinstance(result["terminal"], bool):
        _fail("result.terminal", "must be a bool")
    for key, kind in (
        ("fame", _is_int),
        ("gold", _is_int),
        ("returns", lambda v: _is_int(v) or isinstance(v, float)),
    ):
        values = result[key]
        if not isinstance(values, list) or len(values) != n or not all(map(kind, values)):
            _fail(f"result.{key}", f"must be a list of {n} numbers")
    if not all(math.isfinite(v) for v in result["returns"]):
        _fail("result.returns", "must be finite")


# --- replay --------------------------------------------------------------------------------


def new_game(record: dict[str, Any], engine: ModuleType) -> Any:
    """The engine's Game of the record."""
    game = record["game"]
    return engine.Game(num_players=game["num_players"], **game["options"])


def check_module_set(record: dict[str, Any], modules: Sequence[str]) -> None:
    """ValueError naming game.options when the record's game is not of the module set
    `modules` (module_sets; a command's --modules): a record replays with its own set only."""
    found = module_sets.name(module_sets.of_options(record["game"]["options"]))
    if found != module_sets.name(modules):
        _fail(
            "game.options",
            f"the record's module set is {found!r}, not --modules {module_sets.name(modules)!r}",
        )


def states(record: dict[str, Any], engine: ModuleType) -> Iterator[Any]:
    """Every state of the game, from the initial one (step 0) to the end (step len(moves)),
    checking each move: legal at its point, its string and player as the engine gives them.
    A bad move raises ValueError naming its number (the first move is number 0)."""
    check_structure(record)
    state = new_game(record, engine).new_initial_state()
    yield state.clone()
    for index, move in enumerate(record["moves"]):
        _apply(state, index, move)
        yield state.clone()
    _check_end(record, state)


def _apply(state: Any, index: int, move: dict[str, Any]) -> None:
    action = move["action"]
    if state.is_terminal():
        raise ValueError(f"move {index} ({move['string']!r}): the game is already over")
    if action not in state.legal_actions():
        raise ValueError(
            f"move {index} ({move['string']!r}, action {action}): not legal at "
            f"this point (phase {state.to_dict()['phase']})"
        )
    expected = state.action_to_string(action)
    if move["string"] != expected:
        raise ValueError(
            f"move {index}: string {move['string']!r} does not match action "
            f"{action}, which is {expected!r} here"
        )
    if move["player"] != state.current_player():
        raise ValueError(
            f"move {index} ({expected!r}): player {move['player']} recorded, "
            f"but player {state.current_player()} is to move"
        )
    state.apply_action(action)


def _check_end(record: dict[str, Any], state: Any) -> None:
    expected = _result(state)
    for key in RESULT_KEYS:
        if record["result"][key] != expected[key]:
            _fail(
                f"result.{key}",
                f"{record['result'][key]!r} recorded, but the moves give {expected[key]!r}",
            )


def replay(record: dict[str, Any], engine: ModuleType, step: Optional[int] = None) -> Any:
    """The state after the first `step` moves (default: all of them), in `engine`. Every move is
    checked, and so is the recorded result, whatever `step` is."""
    total = (
        len(record["moves"])
        if isinstance(record, dict) and isinstance(record.get("moves"), list)
        else 0
    )
    if step is None:
        step = total
    if not _is_int(step) or not 0 <= step <= total:
        raise ValueError(f"step must be in 0..{total}, not {step!r}")
    chosen = None
    for index, state in enumerate(states(record, engine)):
        if index == step:
            chosen = state
    return chosen
