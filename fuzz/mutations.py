"""Mutators of the fuzzers: a real position's dict or bytes, changed a little.

`mutate_dict` (for `Game.state_from_dict`, docs/state.md) applies 1-4 structure-aware changes: a
value replaced by an odd one (wrong type, boundary, bool for int), a key deleted or added, a list
shortened or lengthened, a Viking or tile moved between count tables (totals kept, to reach the
deep checks), a board cell or ship changed, the phase changed. `mutate_bytes` (for
`Game.deserialize_state`) flips, sets, inserts and deletes bytes. Both draw every decision from a
chooser (choosers.py), so atheris, hypothesis and seeded runs share them.
"""

import copy
import marshal

from vikinger_ref import PHASES
from vikinger_ref.components import COLOURS, SPECIAL_KINDS, TILE_KINDS
from vikinger_ref.serialization import ISLAND_CHARS, SHIP_CHARS

NAMES = COLOURS + TILE_KINDS + SPECIAL_KINDS + PHASES

# Values that break types and ranges: bool is not an int, floats and numpy scalars are not
# ints of the dict format, boundaries of u8/u16/i32/i64.
ODD_VALUES = (
    None,
    True,
    False,
    0,
    1,
    -1,
    2,
    3,
    4,
    5,
    6,
    7,
    11,
    12,
    13,
    14,
    17,
    21,
    25,
    63,
    64,
    65,
    72,
    78,
    255,
    256,
    1023,
    1024,
    65535,
    65536,
    2**30,
    2**31 - 1,
    2**31,
    2**32,
    -(2**31),
    -(2**31) - 1,
    2**63,
    -(2**63),
    2**64,
    1.0,
    0.5,
    float("nan"),
    "",
    "0",
    "L",
    "x",
    "fisherman",
    "ship_red",
    "buy",
    [],
    [0],
    [1, 1],
    [None],
    {},
    {"tile": "left"},
    (1, 1),
    b"VKNG",
)


# --- dict mutations ----------------------------------------------------------------------------


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
        alphabet = ISLAND_CHARS + SHIP_CHARS + "x*"
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
            extra = (
                copy.deepcopy(new[chooser.choose(len(new))])
                if new and chooser.choose(2)
                else copy.deepcopy(ODD_VALUES[chooser.choose(len(ODD_VALUES))])
            )
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
    paths = [
        ("bag",),
        ("drawn",),
        ("removed",),
        ("stacks",),
        ("special_stack",),
        ("special_removed",),
    ]
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
                if all(type(c) is int for c in cols):  # earlier mutations may have left junk
                    cols.sort()
    elif op == 1 and isinstance(player.get("rows"), list) and player["rows"]:
        row = chooser.choose(len(player["rows"]))
        if isinstance(player["rows"][row], str):
            text = list(player["rows"][row].ljust(8, "."))
            text[chooser.choose(8)] = ISLAND_CHARS[chooser.choose(len(ISLAND_CHARS))]
            player["rows"][row] = "".join(text).rstrip(".")
    elif op == 2 and isinstance(player.get("ships"), str):
        text = list(player["ships"].ljust(6, "."))
        text[chooser.choose(6)] = SHIP_CHARS[chooser.choose(len(SHIP_CHARS))]
        player["ships"] = "".join(text).rstrip(".")
    elif isinstance(player.get("start_row"), (int, type(None))):
        player["start_row"] = (None, 1, 2, 3, 4, 5)[chooser.choose(6)]


def _change_phase(d, chooser):
    d["phase"] = PHASES[chooser.choose(len(PHASES))]


def mutate_dict(d, chooser, max_mutations=4):
    """A mutated deep copy of `d` (the root itself may be replaced by a non-dict)."""
    if chooser.choose(64) == 63:
        return copy.deepcopy(ODD_VALUES[chooser.choose(len(ODD_VALUES))])
    d = marshal.loads(marshal.dumps(d))  # a deep copy of plain data, fast
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
            del data[at : at + 1 + chooser.choose(8)]
        elif op == 3:
            data[at:at] = bytes(chooser.choose(256) for _ in range(1 + chooser.choose(4)))
        elif op == 4:
            del data[at:]
        elif data:
            i = min(at, len(data) - 1)
            data[i] = (data[i] + (-1, 1)[chooser.choose(2)]) % 256
    return bytes(data)
