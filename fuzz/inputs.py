"""Inputs and oracles shared by the fuzzers (fuzz/*.py, atheris) and tests/test_fuzz_inputs.py.

Three entry points take untrusted input: `Game.state_from_dict(d)`, `Game.deserialize_state(b)`
and `State.apply_action(a)` (with the other calls that take an id or a player). For each one
this module has

* **seeds**: real positions from seeded random games (every phase of every round), so mutations
  start next to valid input and reach the deep checks of docs/state.md;
* **mutators** driven by a `chooser` (anything with `choose(n) -> 0..n-1`): hypothesis' `data`,
  atheris' FuzzedDataProvider or `random.Random`, through the small adapters below;
* **oracles** that hold for any input, on one engine or on two:
  - the call returns or raises `ValueError` / `TypeError`, never anything else;
  - the input (dict) is not modified, and a refused call leaves the state as it was;
  - an accepted dict round-trips (`to_dict() == d`); accepted bytes are canonical
    (`serialize() == b`); an accepted position is alive: a decision node has a legal action;
  - two engines accept and refuse the same inputs with the same error type, and accepted inputs
    give the same `to_dict()`.

A broken oracle raises `Finding` with a description of the input; fuzzers and tests let it
propagate.
"""

import copy
import marshal
import math
import random

CONFIGS = (
    (2, {}), (3, {}), (4, {}),
    (2, {"auction": True, "draw13": True, "offer_by_colour": True, "weak_boatsmen": True,
         "special_tiles": True}),
    (3, {"auction": True, "special_tiles": True}),
    (4, {"draw13": True, "offer_by_colour": True, "weak_boatsmen": True}),
)
EXPECTED_ERRORS = (ValueError, TypeError)

COLOURS = ("fisherman", "goldsmith", "scout", "noble", "warrior", "boatsman")
TILE_KINDS = ("left", "middle1", "middle2", "middle3", "middle4", "right",
              "ship_red", "ship_green", "ship_yellow", "ship_blue")
SPECIAL_KINDS = ("gold5", "goldsmith1", "goldsmith2", "boat", "noble1", "scout1", "fisherman1",
                 "horn", "fish", "treasury", "building1", "building2", "building3", "building4")
PHASES = ("reveal_tile", "draw_viking", "buy", "start_row", "ship_column", "island_cell",
          "viking", "trip", "trip_target", "game_over", "special_fill", "auction",
          "remove_viking", "offer_colour", "take_special", "building_replace")
NAMES = COLOURS + TILE_KINDS + SPECIAL_KINDS + PHASES
ROW_ALPHABET = ".L1234R"
SHIP_ALPHABET = ".rgyb"
NUM_DISTINCT_ACTIONS = 2036
MAX_CHANCE_OUTCOMES = 30

# Values that break types and ranges: bool is not an int, floats and numpy scalars are not
# ints of the dict format, boundaries of u8/u16/i32/i64.
ODD_VALUES = (None, True, False, 0, 1, -1, 2, 3, 4, 5, 6, 7, 11, 12, 13, 14, 17, 21, 25, 63, 64,
              65, 72, 78, 255, 256, 1023, 1024, 65535, 65536, 2**30, 2**31 - 1, 2**31, 2**32,
              -2**31, -2**31 - 1, 2**63, -2**63, 2**64, 1.0, 0.5, float("nan"), "", "0", "L",
              "x", "fisherman", "ship_red", "buy", [], [0], [1, 1], [None], {}, {"tile": "left"},
              (1, 1), b"VKNG")


class Finding(AssertionError):
    """An oracle does not hold: a bug in an engine (or in the two engines' agreement)."""


# --- choosers ----------------------------------------------------------------------------------

class RandomChooser:
    def __init__(self, seed):
        self.rng = random.Random(seed)

    def choose(self, n):
        return self.rng.randrange(n) if n > 0 else 0


class ProviderChooser:
    """atheris.FuzzedDataProvider as a chooser; `exhausted` once the fuzz input is used up."""

    def __init__(self, provider):
        self.provider = provider

    def choose(self, n):
        return self.provider.ConsumeIntInRange(0, n - 1) if n > 1 else 0


class DataChooser:
    """hypothesis' `data` object (st.data()) as a chooser: shrinks towards choice 0."""

    def __init__(self, data, strategies):
        self.data, self.st = data, strategies

    def choose(self, n):
        return self.data.draw(self.st.integers(0, n - 1)) if n > 1 else 0


# --- seeds -------------------------------------------------------------------------------------

def make_game(engine, num_players, flags):
    return engine.Game(num_players=num_players, **flags)


_SUPPORTED = {}


def supports(engine, flags):
    """Whether `engine` plays the modules `flags` (an engine may refuse some with ValueError)."""
    key = (engine.__name__, tuple(sorted(flags)))
    if key not in _SUPPORTED:
        try:
            make_game(engine, 2, flags)
            _SUPPORTED[key] = True
        except ValueError:
            _SUPPORTED[key] = False
    return _SUPPORTED[key]


def shared_configs(engines, configs=CONFIGS):
    """The configurations every engine of `engines` plays."""
    return tuple((n, flags) for n, flags in configs if all(supports(e, flags) for e in engines))


def random_game_states(engine, num_players, flags, seed, every=1, max_steps=2000):
    """States along one random game (clones), every `every` actions, the terminal one last."""
    rng = random.Random(seed)
    state = make_game(engine, num_players, flags).new_initial_state()
    states = []
    for step in range(max_steps):
        if step % every == 0:
            states.append(state.clone())
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_random_chance(rng.getrandbits(64))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    if not states[-1].is_terminal():
        states.append(state.clone())
    return states


def seed_dicts(engine, configs=CONFIGS, games_per_config=1, every=7):
    """[(num_players, flags, dict)] from seeded random games."""
    seeds = []
    for index, (n, flags) in enumerate(configs):
        for g in range(games_per_config):
            for state in random_game_states(engine, n, flags, seed=1000 * index + g, every=every):
                seeds.append((n, flags, state.to_dict()))
    return seeds


# --- outcomes ----------------------------------------------------------------------------------

def outcome(call):
    """('ok', value) or (error type, message). Unexpected error types are a Finding."""
    try:
        return "ok", call()
    except EXPECTED_ERRORS as error:
        return type(error), str(error)
    except Exception as error:  # noqa: BLE001 -- any other type is exactly what we look for
        raise Finding(f"unexpected {type(error).__name__}: {error}") from error


def _same_kind(a, b):
    return a[0] == b[0] if a[0] == "ok" or b[0] == "ok" else a[0] is b[0]


def describe(value, limit=400):
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


# --- checks on one engine ----------------------------------------------------------------------

def check_alive(state, steps=0, rng=None):
    """An accepted position can be played: a decision node has legal actions, each a legal id;
    `steps` random actions from it keep that true. Returns the state reached."""
    rng = rng or random.Random(0)
    for _ in range(steps + 1):
        if state.is_terminal():
            if state.legal_actions():
                raise Finding("a terminal state has legal actions")
            return state
        legal = state.legal_actions()
        if not legal:
            raise Finding(f"no legal action in phase {state.to_dict()['phase']}")
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            total = sum(p for _, p in outcomes)
            if [a for a, _ in outcomes] != legal or not math.isclose(total, 1.0):
                raise Finding("chance outcomes do not match the legal chance ids")
        if steps == 0:
            return state
        kind, value = outcome(lambda: state.apply_action(rng.choice(legal)))
        if kind != "ok":
            raise Finding(f"a legal action was refused: {value}")
        steps -= 1
    return state


def check_accepted_state(state, d=None, data=None, steps=0):
    """The oracles of an accepted input: round trips, a working API, alive."""
    back = state.to_dict()
    if d is not None and back != d:
        raise Finding(f"to_dict() differs from the accepted dict: {describe(back)}")
    raw = state.serialize()
    if data is not None and raw != data:
        raise Finding("accepted bytes are not canonical: serialize() gives other bytes")
    game = state.get_game()
    again = outcome(lambda: game.deserialize_state(raw))
    if again[0] != "ok" or again[1].to_dict() != back:
        raise Finding(f"serialize() of an accepted state does not read back: {again}")
    for p in range(game.num_players):
        state.observation_tensor(p)
    str(state)
    state.hash_key()
    state.legal_actions_mask()
    return check_alive(state.clone(), steps=steps)


# --- dict mutations ----------------------------------------------------------------------------

def _paths(value, prefix=()):
    """Every path into a nested dict/list, the root included."""
    yield prefix
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _paths(child, prefix + (key,))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            yield from _paths(child, prefix + (i,))


def _random_path(d, chooser):
    """A path from the root down: at each container a child, or (1 in 4) stop there."""
    path, node = (), d
    while isinstance(node, (dict, list)) and node and (not path or chooser.choose(4)):
        keys = list(node) if isinstance(node, dict) else range(len(node))
        key = keys[chooser.choose(len(keys))]
        path, node = path + (key,), node[key]
    return path if path else (next(iter(d)),)


def _get(d, path):
    for key in path:
        d = d[key]
    return d


def _set(d, path, value):
    _get(d, path[:-1])[path[-1]] = value


def _mutate_leaf(d, path, chooser):
    value = _get(d, path)
    if isinstance(value, bool) or value is None or chooser.choose(3) == 0:
        new = ODD_VALUES[chooser.choose(len(ODD_VALUES))]
        new = copy.deepcopy(new)
    elif isinstance(value, int):
        new = value + (-3, -2, -1, 1, 2, 3, 13, -13)[chooser.choose(8)]
    elif isinstance(value, str):
        alphabet = (ROW_ALPHABET + SHIP_ALPHABET + "x*")
        chars = list(value)
        op = chooser.choose(4)
        if op == 0 and chars:
            chars[chooser.choose(len(chars))] = alphabet[chooser.choose(len(alphabet))]
        elif op == 1:
            chars.insert(chooser.choose(len(chars) + 1), alphabet[chooser.choose(len(alphabet))])
        elif op == 2 and chars:
            del chars[chooser.choose(len(chars))]
        else:
            return _set(d, path, NAMES[chooser.choose(len(NAMES))])
        new = "".join(chars)
    elif isinstance(value, list):
        op = chooser.choose(4)
        new = list(value)
        if op == 0 and new:
            del new[chooser.choose(len(new))]
        elif op == 1:
            extra = copy.deepcopy(new[chooser.choose(len(new))]) if new and chooser.choose(2) \
                else copy.deepcopy(ODD_VALUES[chooser.choose(len(ODD_VALUES))])
            new.insert(chooser.choose(len(new) + 1), extra)
        elif op == 2 and len(new) > 1:
            i, j = chooser.choose(len(new)), chooser.choose(len(new))
            new[i], new[j] = new[j], new[i]
        else:
            new = copy.deepcopy(ODD_VALUES[chooser.choose(len(ODD_VALUES))])
    elif isinstance(value, dict):
        keys = list(value)
        op = chooser.choose(3)
        new = dict(value)
        if op == 0 and keys:
            del new[keys[chooser.choose(len(keys))]]
        elif op == 1:
            new[("extra", "history", "gold", 1, None)[chooser.choose(5)]] = 0
        elif len(keys) > 1:
            a, b = keys[chooser.choose(len(keys))], keys[chooser.choose(len(keys))]
            new[a], new[b] = new[b], new[a]
    else:
        new = None
    if path:
        _set(d, path, new)
    return new


def _counts_paths(d):
    """Paths of every {name: count} table with Vikings or tiles, for conserving moves."""
    paths = [("bag",), ("drawn",), ("removed",), ("stacks",), ("special_stack",),
             ("special_removed",)]
    if isinstance(d.get("players"), list):
        for p, player in enumerate(d["players"]):
            if isinstance(player, dict):
                paths += [("players", p, "mainland"), ("players", p, "specials")]
    return [path for path in paths if _is_counts(d, path)]


def _is_counts(d, path):
    try:
        table = _get(d, path)
    except (KeyError, IndexError, TypeError):
        return False
    return isinstance(table, dict) and all(type(v) is int for v in table.values())


def _move_count(d, chooser):
    """Moves one unit of a kind between two count tables (keeps totals: reaches deep checks)."""
    paths = _counts_paths(d)
    if len(paths) < 2:
        return
    src, dst = paths[chooser.choose(len(paths))], paths[chooser.choose(len(paths))]
    a, b = _get(d, src), _get(d, dst)
    common = [k for k in a if k in b]
    if common:
        key = common[chooser.choose(len(common))]
        a[key] -= 1
        b[key] += 1


def _move_board_piece(d, chooser):
    """Edits a board as a player would see it: a tile or a Viking appears or disappears."""
    players = d.get("players")
    if not isinstance(players, list) or not players or not isinstance(players[0], dict):
        return
    player = players[chooser.choose(len(players))]
    if not isinstance(player, dict):
        return
    op = chooser.choose(4)
    if op == 0 and isinstance(player.get("vikings"), list) and player["vikings"]:
        row = chooser.choose(len(player["vikings"]))
        if isinstance(player["vikings"][row], list):
            cols = player["vikings"][row]
            col = 1 + chooser.choose(8)
            if col in cols:
                cols.remove(col)
            else:
                cols.append(col)
                if all(type(c) is int for c in cols):     # earlier mutations may have left junk
                    cols.sort()
    elif op == 1 and isinstance(player.get("rows"), list) and player["rows"]:
        row = chooser.choose(len(player["rows"]))
        if isinstance(player["rows"][row], str):
            text = list(player["rows"][row].ljust(8, "."))
            text[chooser.choose(8)] = ROW_ALPHABET[chooser.choose(len(ROW_ALPHABET))]
            player["rows"][row] = "".join(text).rstrip(".")
    elif op == 2 and isinstance(player.get("ships"), str):
        text = list(player["ships"].ljust(6, "."))
        text[chooser.choose(6)] = SHIP_ALPHABET[chooser.choose(len(SHIP_ALPHABET))]
        player["ships"] = "".join(text).rstrip(".")
    elif isinstance(player.get("start_row"), (int, type(None))):
        player["start_row"] = (None, 1, 2, 3, 4, 5)[chooser.choose(6)]


def _change_phase(d, chooser):
    d["phase"] = PHASES[chooser.choose(len(PHASES))]


def mutate_dict(d, chooser, max_mutations=4):
    """A mutated deep copy of `d` (the root itself may be replaced by a non-dict)."""
    if chooser.choose(64) == 63:
        return copy.deepcopy(ODD_VALUES[chooser.choose(len(ODD_VALUES))])
    d = marshal.loads(marshal.dumps(d))     # a deep copy of plain data, fast
    for _ in range(1 + chooser.choose(max_mutations)):
        op = chooser.choose(8)
        if op <= 3:
            _mutate_leaf(d, _random_path(d, chooser), chooser)
        elif op == 4:
            _move_count(d, chooser)
        elif op == 5:
            _move_board_piece(d, chooser)
        elif op == 6:
            _change_phase(d, chooser)
        else:
            for key in ("purchases", "scoring_index", "round", "start_player", "discarded_tiles"):
                if type(d.get(key)) is int and chooser.choose(3) == 0:
                    d[key] += (-1, 1)[chooser.choose(2)]
    return d


# --- byte mutations ----------------------------------------------------------------------------

def mutate_bytes(data, chooser, max_mutations=4):
    data = bytearray(data)
    for _ in range(1 + chooser.choose(max_mutations)):
        op = chooser.choose(6)
        at = chooser.choose(len(data) + 1)
        if op == 0 and data:
            data[min(at, len(data) - 1)] = chooser.choose(256)
        elif op == 1 and data:
            data[min(at, len(data) - 1)] ^= 1 << chooser.choose(8)
        elif op == 2:
            del data[at:at + 1 + chooser.choose(8)]
        elif op == 3:
            data[at:at] = bytes(chooser.choose(256) for _ in range(1 + chooser.choose(4)))
        elif op == 4:
            del data[at:]
        elif data:
            i = min(at, len(data) - 1)
            data[i] = (data[i] + (-1, 1)[chooser.choose(2)]) % 256
    return bytes(data)


# --- oracles on one engine and on two -----------------------------------------------------------

def check_dict_one(game, d, steps=0):
    """Oracles of state_from_dict on one engine; returns the outcome."""
    kept = _snapshot(d)
    result = outcome(lambda: game.state_from_dict(d))
    if _snapshot(d) != kept:
        raise Finding("state_from_dict modified its argument")
    if result[0] == "ok":
        check_accepted_state(result[1], d=d, steps=steps)
    return result


def check_bytes_one(game, data, steps=0):
    result = outcome(lambda: game.deserialize_state(data))
    if result[0] == "ok":
        check_accepted_state(result[1], data=data, steps=steps)
    return result


def _snapshot(value):
    """Exact content (types, key order, True apart from 1) of plain data, else its repr."""
    try:
        return marshal.dumps(value, 2)   # version 2: no back-references (refcount-free)
    except ValueError:
        return repr(value)


def compare(results, what):
    """Both engines accept (equal to_dict) or both refuse with the same error type."""
    (ref_kind, ref_value), (fast_kind, fast_value) = results
    if not _same_kind(results[0], results[1]):
        raise Finding(f"{what}: reference gives {getattr(ref_kind, '__name__', ref_kind)} "
                      f"({describe(ref_value, 200)}), fast gives "
                      f"{getattr(fast_kind, '__name__', fast_kind)} ({describe(fast_value, 200)})")
    if ref_kind == "ok":
        for name, view in (("to_dict()", lambda s: s.to_dict()),
                           ("serialize()", lambda s: s.serialize()),
                           ("hash_key()", lambda s: s.hash_key()), ("str()", str),
                           ("legal_actions()", lambda s: s.legal_actions()),
                           ("chance_outcomes()", lambda s: s.chance_outcomes()),
                           ("observation_tensor(0)", lambda s: s.observation_tensor(0).tolist())):
            if view(ref_value) != view(fast_value):
                raise Finding(f"{what}: both accept, but {name} differs")


def play_on(states, steps, seed=0, round_trip_every=10):
    """Plays `steps` random actions (chance included) in every state of `states` alike: their
    legal lists and bytes must stay equal; a decision node must have a legal action; every
    `round_trip_every` actions (and at the end) the states reached must read back from their
    bytes."""
    rng = random.Random(seed)
    for step in range(steps):
        first = states[0]
        if first.is_terminal():
            break
        legal = first.legal_actions()
        if not legal:
            raise Finding(f"no legal action in phase {first.to_dict()['phase']}")
        if any(state.legal_actions() != legal for state in states[1:]):
            raise Finding("the engines' legal actions differ")
        action = rng.choice(legal)
        for state in states:
            kind, value = outcome(lambda: state.apply_action(action))
            if kind != "ok":
                raise Finding(f"a legal action ({action}) was refused: {value}")
        if any(state.serialize() != first.serialize() for state in states[1:]):
            raise Finding(f"after action {action} the engines' states differ")
        if step % round_trip_every == round_trip_every - 1 or first.is_terminal():
            _check_reads_back(states, f"action {action}")
    _check_reads_back(states, "the last action")
    return states


def _check_reads_back(states, what):
    for state in states:
        kind, value = outcome(lambda: state.get_game().deserialize_state(state.serialize()))
        if kind != "ok":
            raise Finding(f"a state reached by {what} is refused: {value}")


def check_dict_both(games, d, steps=0):
    results = [check_dict_one(game, d, steps) for game in games]
    if len(results) == 2:
        compare(results, f"state_from_dict({describe(d)})")
    return results[0]


def check_bytes_both(games, data, steps=0):
    results = [check_bytes_one(game, data, steps) for game in games]
    if len(results) == 2:
        compare(results, f"deserialize_state({describe(data)})")
    return results[0]


# --- action sequences --------------------------------------------------------------------------

ODD_ACTIONS = (-1, -2**31, 2**31, 2**63 - 1, 2**63, -2**63 - 1, 2**64, NUM_DISTINCT_ACTIONS,
               NUM_DISTINCT_ACTIONS + 1, MAX_CHANCE_OUTCOMES, 65535, 65536,
               1.0, 3.0, "0", None, True, False, [0], b"\x00")


def numpy_odd_actions():
    """Numpy scalars: integers are ids (docs/api.md), bools and floats are not."""
    import numpy as np
    return (np.int64(0), np.int32(-1), np.uint8(5), np.uint64(2**64 - 1), np.int16(340),
            np.float64(1.0), np.float32(2.0), np.bool_(True), np.array([3]))


def pick_action(state, chooser, numpy_values):
    """A legal id (most of the time), an arbitrary id near the spaces, or an odd value."""
    op = chooser.choose(8)
    legal = state.legal_actions()
    if op <= 3 and legal:
        return legal[chooser.choose(len(legal))]
    if op <= 5:
        return chooser.choose(NUM_DISTINCT_ACTIONS + 4) - 2
    values = ODD_ACTIONS + numpy_values
    return values[chooser.choose(len(values))]


def _api_probe(state, chooser, numpy_values):
    """One call other than apply_action, with an argument that may be wrong: (name, call)."""
    op = chooser.choose(7)
    n = state.get_game().num_players
    if op == 0:
        value = pick_action(state, chooser, numpy_values)
        return "action_to_string", lambda: state.action_to_string(value)
    if op == 1:
        player = (list(range(-1, n + 1)) + [None, 1.0, True, "0"])[chooser.choose(n + 6)]
        return "observation_tensor", lambda: state.observation_tensor(player).tolist()
    if op == 2:
        texts = ("buy:0", "tile:r1c1", "reveal:left", "draw:boatsman", "buy:12", "", None, 3,
                 "special:decline", "auction:bid:1023", "auction:bid:1024", "trip:stop")
        text = texts[chooser.choose(len(texts))]
        return "string_to_action", lambda: state.string_to_action(text)
    if op == 3:
        seeds = (0, 1, 2**64 - 1, 2**64, -1, 1.5, None, "1", True)
        rng = seeds[chooser.choose(len(seeds))]
        return "apply_random_chance", lambda: state.apply_random_chance(rng)
    if op == 4:
        return "legal_actions_mask", lambda: state.legal_actions_mask().tolist()
    if op == 5:
        return "chance_outcomes", state.chance_outcomes
    return "returns", state.returns


def run_action_sequence(states, chooser, length, numpy_values=()):
    """Drives one state per engine through the same calls; every call must give the same
    outcome in each, a refused call must leave the state unchanged, and the states must stay
    equal. `states` is a list of 1 or 2 states (reference first)."""
    for _ in range(length):
        if states[0].is_terminal() and chooser.choose(4) == 0:
            break
        if chooser.choose(5) == 0:
            # The same call on each engine: the second replays the choices of the first.
            recorder = _Recorder(chooser)
            name, first = _api_probe(states[0], recorder, numpy_values)
            calls = [first] + [_api_probe(s, recorder.replay(), numpy_values)[1]
                               for s in states[1:]]
        else:
            action = pick_action(states[0], chooser, numpy_values)
            calls = [(lambda s=s: s.apply_action(action)) for s in states]
            name = f"apply_action({action!r})"
        befores = [s.serialize() for s in states]
        results = [outcome(call) for call in calls]
        for state, before, (kind, value) in zip(states, befores, results):
            if kind != "ok" and state.serialize() != before:
                raise Finding(f"{name} raised {kind.__name__} but changed the state")
        if len(states) == 2:
            a, b = results
            if not _same_kind(a, b) or (a[0] == "ok" and not _result_equal(a[1], b[1])):
                raise Finding(f"{name}: reference {describe(a, 200)}, fast {describe(b, 200)}")
            if states[0].serialize() != states[1].serialize():
                raise Finding(f"after {name} the engines' states differ")
    return states


def _result_equal(a, b):
    if hasattr(a, "tolist"):
        a = a.tolist()
    if hasattr(b, "tolist"):
        b = b.tolist()
    return a == b


class _Recorder:
    """Records the choices of one draw so the same draw can be made again for another engine."""

    def __init__(self, chooser):
        self.chooser, self.log = chooser, []

    def choose(self, n):
        value = self.chooser.choose(n)
        self.log.append(value)
        return value

    def replay(self):
        return _Replay(list(self.log))


class _Replay:
    def __init__(self, log):
        self.log = log

    def choose(self, n):
        return self.log.pop(0) if self.log else 0


def game_cache():
    """`game(module, n, flags)`, memoised: building a Game for every fuzz input would dominate."""
    games = {}

    def game(module, n, flags):
        key = (module.__name__, n, tuple(flags))
        if key not in games:
            games[key] = make_game(module, n, flags)
        return games[key]

    return game
