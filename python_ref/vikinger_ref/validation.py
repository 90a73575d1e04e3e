"""Reading states back: `from_dict` with every check of docs/state.md, and `from_bytes`.

A dict is checked completely before any state is built, so a refused dict changes nothing.
Every refusal is a ValueError naming the first problem found (TypeError for a non-dict).
"""

import struct
from collections import deque

from .actions import BUYER_PHASES, CHANCE_PHASES, PHASES, SCORER_PHASES
from .components import (BOATSMAN, COLOURS, LEFT, NUM_COLUMNS, NUM_ROUNDS, NUM_ROWS,
                         GROUPS_PER_ROUND, STACK_COUNTS, STACK_TILES, TILE_KINDS, TILE_SHORT,
                         VIKINGS_PER_COLOUR, WHEEL_SPACES, is_ship, row_of_colour, sea_on_left,
                         sea_on_right)
from .serialization import (FORMAT_VERSION, ISLAND_CHARS, MAGIC, NONE_BYTE, OPTION_NAMES,
                            SHIP_CHARS, VIKING_FLAG)

BASE_PHASES = PHASES[:10]
TOP_KEYS = ("version", "num_players", "options", "round", "phase", "start_player", "purchases",
            "scoring_index", "stacks", "bag", "drawn", "removed", "discarded_tiles", "wheel",
            "pending", "trip", "players", "history")
PLAYER_KEYS = ("gold", "fame", "start_row", "mainland", "ships", "rows", "vikings")


def _fail(message):
    raise ValueError(f"invalid state: {message}")


def _keys(value, keys, where):
    if not isinstance(value, dict):
        _fail(f"{where} must be a dict, not {type(value).__name__}")
    missing = [k for k in keys if k not in value]
    extra = [k for k in value if k not in keys]
    if missing:
        _fail(f"{where} lacks key {missing[0]!r}")
    if extra:
        _fail(f"{where} has unknown key {extra[0]!r}")


def _int(value, where, low, high=None):
    if isinstance(value, bool) or not isinstance(value, int):
        _fail(f"{where} must be an int, not {type(value).__name__}")
    if value < low or (high is not None and value > high):
        _fail(f"{where} = {value} is outside {low}..{'' if high is None else high}")
    return value


def _name(value, names, where, allow_none=False):
    if value is None and allow_none:
        return None
    if not isinstance(value, str) or value not in names:
        _fail(f"{where} = {value!r} is not one of {', '.join(names)}")
    return names.index(value)


def _counts(value, names, where, limits=None):
    _keys(value, names, where)
    return [_int(value[name], f"{where}[{name!r}]", 0, None if limits is None else limits[i])
            for i, name in enumerate(names)]


def _cell(value, where):
    if not isinstance(value, list) or len(value) != 2:
        _fail(f"{where} must be a list [row, column]")
    return _int(value[0], f"{where} row", 1, NUM_ROWS), _int(value[1], f"{where} column", 1, NUM_COLUMNS)


def _text(value, alphabet, where):
    if not isinstance(value, str):
        _fail(f"{where} must be a str, not {type(value).__name__}")
    if len(value) > NUM_COLUMNS:
        _fail(f"{where} is longer than {NUM_COLUMNS} columns")
    bad = [ch for ch in value if ch not in alphabet]
    if bad:
        _fail(f"{where} has character {bad[0]!r} (allowed: {alphabet})")
    return value


def _parse_player(d, p, n):
    where = f"players[{p}]"
    _keys(d, PLAYER_KEYS, where)
    player = {
        "gold": _int(d["gold"], f"{where}.gold", 0),
        "fame": _int(d["fame"], f"{where}.fame", -(1 << 31), (1 << 31) - 1),
        "start_row": None if d["start_row"] is None else _int(d["start_row"], f"{where}.start_row", 1, NUM_ROWS),
        "mainland": _counts(d["mainland"], COLOURS, f"{where}.mainland", [VIKINGS_PER_COLOUR] * 6),
    }
    ships = _text(d["ships"], SHIP_CHARS, f"{where}.ships")
    player["ships"] = [None if ch == "." else TILE_SHORT.index(ch) for ch in ships]
    rows = d["rows"]
    if not isinstance(rows, list) or len(rows) != NUM_ROWS:
        _fail(f"{where}.rows must be a list of {NUM_ROWS} strings")
    player["tiles"] = [[None if ch == "." else TILE_SHORT.index(ch)
                        for ch in _text(rows[r], ISLAND_CHARS, f"{where}.rows[{r}]")]
                       for r in range(NUM_ROWS)]
    vikings = d["vikings"]
    if not isinstance(vikings, list) or len(vikings) != NUM_ROWS:
        _fail(f"{where}.vikings must be a list of {NUM_ROWS} lists")
    player["vikings"] = []
    for r in range(NUM_ROWS):
        if not isinstance(vikings[r], list):
            _fail(f"{where}.vikings[{r}] must be a list of columns")
        cols = [_int(col, f"{where}.vikings[{r}]", 1, NUM_COLUMNS) for col in vikings[r]]
        if len(set(cols)) != len(cols):
            _fail(f"{where}.vikings[{r}] names a column twice (one Viking per tile)")
        for col in cols:
            if col > len(player["tiles"][r]) or player["tiles"][r][col - 1] is None:
                _fail(f"{where} has a Viking on row {r + 1} column {col}, where no tile stands")
        player["vikings"].append(sorted(cols))
    return player


def _parse(game, d):
    """Types, keys and ranges: a plain description of the state, or ValueError."""
    if not isinstance(d, dict):
        raise TypeError(f"state_from_dict needs a dict, not {type(d).__name__}")
    _keys(d, TOP_KEYS, "state")
    if _int(d["version"], "version", 0) != FORMAT_VERSION:
        _fail(f"version {d['version']} is not {FORMAT_VERSION}")
    n = game.num_players
    if _int(d["num_players"], "num_players", 2, 4) != n:
        _fail(f"num_players {d['num_players']} differs from the game's {n}")
    _keys(d["options"], OPTION_NAMES, "options")
    if any(not isinstance(d["options"][k], bool) for k in OPTION_NAMES):
        _fail("options values must be bools")
    if d["options"] != game.options:
        _fail("options differ from the game's")
    s = {
        "round": _int(d["round"], "round", 1, NUM_ROUNDS),
        "phase": _name(d["phase"], BASE_PHASES, "phase"),
        "start_player": _int(d["start_player"], "start_player", 0, n - 1),
        "purchases": _int(d["purchases"], "purchases", 0, GROUPS_PER_ROUND),
        "scoring_index": _int(d["scoring_index"], "scoring_index", 0, n - 1),
        "stacks": _counts(d["stacks"], TILE_KINDS, "stacks", STACK_COUNTS),
        "bag": _counts(d["bag"], COLOURS, "bag", [VIKINGS_PER_COLOUR] * 6),
        "drawn": _counts(d["drawn"], COLOURS, "drawn", [GROUPS_PER_ROUND] * 6),
        "removed": _counts(d["removed"], COLOURS, "removed", [VIKINGS_PER_COLOUR] * 6),
        "discarded_tiles": _int(d["discarded_tiles"], "discarded_tiles", 0, STACK_TILES),
    }
    wheel = d["wheel"]
    if not isinstance(wheel, list) or len(wheel) != WHEEL_SPACES:
        _fail(f"wheel must be a list of {WHEEL_SPACES} entries")
    s["wheel"] = []
    for i, group in enumerate(wheel):
        if group is None:
            s["wheel"].append((None, None))
            continue
        _keys(group, ("tile", "viking"), f"wheel[{i}]")
        s["wheel"].append((_name(group["tile"], TILE_KINDS, f"wheel[{i}].tile"),
                           _name(group["viking"], COLOURS, f"wheel[{i}].viking", allow_none=True)))
    pending = d["pending"]
    if pending is not None:
        _keys(pending, ("tile", "viking", "cell"), "pending")
        pending = {"tile": _name(pending["tile"], TILE_KINDS, "pending.tile"),
                   "viking": _name(pending["viking"], COLOURS, "pending.viking"),
                   "cell": None if pending["cell"] is None else list(_cell(pending["cell"], "pending.cell"))}
    s["pending"] = pending
    trip = d["trip"]
    if trip is not None:
        _keys(trip, ("queue", "last_col"), "trip")
        if not isinstance(trip["queue"], list) or not trip["queue"]:
            _fail("trip.queue must be a non-empty list")
        queue = []
        for i, entry in enumerate(trip["queue"]):
            if not isinstance(entry, list) or len(entry) != 2:
                _fail(f"trip.queue[{i}] must be [colour, count]")
            queue.append([_name(entry[0], COLOURS[:BOATSMAN], f"trip.queue[{i}] colour"),
                          _int(entry[1], f"trip.queue[{i}] count", 1, NUM_COLUMNS)])
        trip = {"queue": queue, "last_col": _int(trip["last_col"], "trip.last_col", 0, NUM_COLUMNS)}
    s["trip"] = trip
    players = d["players"]
    if not isinstance(players, list) or len(players) != n:
        _fail(f"players must be a list of {n} entries")
    s["players"] = [_parse_player(players[p], p, n) for p in range(n)]
    history = d["history"]
    if not isinstance(history, list):
        _fail("history must be a list of ints")
    s["history"] = [_int(a, "history entry", 0, 65535) for a in history]
    return s


# --- consistency: a position that a legal game can reach the shape of ----------------------


def _tile_at(player, row, col):
    tiles = player["tiles"][row - 1]
    return tiles[col - 1] if 1 <= col <= len(tiles) else None


def _check_board(player, where):
    """B2.3, B6.0, B6.1, B6.2: start tile, edges, connection to the mainland, ship columns."""
    cells = [(r + 1, c + 1) for r in range(NUM_ROWS)
             for c, kind in enumerate(player["tiles"][r]) if kind is not None]
    start = player["start_row"]
    if start is None and cells:
        _fail(f"{where} has island tiles but no start tile")
    if start is not None and _tile_at(player, start, 1) != LEFT:
        _fail(f"{where}.start_row {start} has no left piece in column 1")
    for row, col in cells:
        kind = _tile_at(player, row, col)
        if is_ship(kind):
            _fail(f"{where} has a ship in island row {row}")
        left = _tile_at(player, row, col - 1) if col > 1 else None
        left_sea = True if col == 1 else (None if left is None else sea_on_right(left))
        if left_sea is not None and left_sea != sea_on_left(kind):
            _fail(f"{where} row {row} column {col}: the edge to its left does not match")
    reached = {cell for cell in cells if cell[1] == 1}
    todo = deque(reached)
    while todo:
        row, col = todo.popleft()
        for nxt in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
            if nxt not in reached and 1 <= nxt[0] <= NUM_ROWS and _tile_at(player, *nxt) is not None:
                reached.add(nxt)
                todo.append(nxt)
    if len(reached) != len(cells):
        _fail(f"{where} has island tiles not connected to the mainland")
    columns = [c + 1 for c, kind in enumerate(player["ships"]) if kind is not None]
    if any(not is_ship(player["ships"][c - 1]) for c in columns):
        _fail(f"{where}.ships holds a non-ship")
    if len(columns) <= 3 and any(c > 3 for c in columns) or \
            len(columns) > 3 and columns != list(range(1, len(columns) + 1)):
        _fail(f"{where}.ships: ships after the third must fill columns left to right (B6.1)")
    if start is None and (columns or any(player["mainland"])):
        _fail(f"{where} owns ships or Vikings but has no start tile")


def _check_conservation(s):
    """78 Vikings, 13 of each colour; 72 stack tiles, no kind more often than printed."""
    vikings = [s["bag"][c] + s["drawn"][c] + s["removed"][c] for c in range(6)]
    tiles = list(s["stacks"])
    for tile, viking in s["wheel"]:
        if tile is not None:
            tiles[tile] += 1
        if viking is not None:
            vikings[viking] += 1
    if s["pending"] is not None:
        tiles[s["pending"]["tile"]] += 1
        vikings[s["pending"]["viking"]] += 1
    for player in s["players"]:
        for c in range(6):
            vikings[c] += player["mainland"][c]
        for r in range(NUM_ROWS):
            vikings[5 - (r + 1)] += len(player["vikings"][r])
            for c, kind in enumerate(player["tiles"][r]):
                if kind is not None and not (r + 1 == player["start_row"] and c == 0):
                    tiles[kind] += 1
        for kind in player["ships"]:
            if kind is not None:
                tiles[kind] += 1
    for c in range(6):
        if vikings[c] != VIKINGS_PER_COLOUR:
            _fail(f"{vikings[c]} {COLOURS[c]} Vikings in all, not {VIKINGS_PER_COLOUR}")
    for k in range(len(TILE_KINDS)):
        if tiles[k] > STACK_COUNTS[k]:
            _fail(f"{tiles[k]} {TILE_KINDS[k]} tiles in all, more than {STACK_COUNTS[k]}")
    if sum(tiles) + s["discarded_tiles"] != STACK_TILES:
        _fail(f"{sum(tiles) + s['discarded_tiles']} stack tiles in all, not {STACK_TILES}")
    if any(s["removed"][c] for c in range(BOATSMAN)):
        _fail("only spent boatsmen leave the game in the base game")


def _check_wheel_shape(s, with_vikings):
    """B4.1 islands from space 0 up, ships from 11 down; B4.2 Vikings sorted by colour."""
    tiles = [tile for tile, _ in s["wheel"]]
    vikings = [viking for _, viking in s["wheel"]]
    if with_vikings:
        groups = [v for t, v in s["wheel"] if t is not None]
        if any(v is None for v in groups) or any(t is None and v is not None for t, v in s["wheel"]):
            _fail("every group on the wheel needs a tile and a Viking")
        if groups != sorted(groups):
            _fail("the wheel's Vikings are not in colour order (B4.2)")
        return sum(t is not None for t in tiles)
    if any(v is not None for v in vikings):
        _fail(f"phase {PHASES[s['phase']]} has Vikings on the wheel")
    islands = sum(t is not None and not is_ship(t) for t in tiles)
    ships = sum(t is not None and is_ship(t) for t in tiles)
    expected = [None] * WHEEL_SPACES
    expected[:islands] = ["island"] * islands
    if ships:
        expected[WHEEL_SPACES - ships:] = ["ship"] * ships
    actual = [None if t is None else ("ship" if is_ship(t) else "island") for t in tiles]
    if actual != expected:
        _fail("wheel tiles are not laid out as B4.1 places them")
    return islands + ships


def _check_phase(s, n):
    phase = PHASES[s["phase"]]
    for key in ("pending", "trip"):
        wanted = {"pending": ("start_row", "ship_column", "island_cell", "viking"),
                  "trip": ("trip_target",)}[key]
        if (s[key] is not None) != (phase in wanted):
            _fail(f"{key} must be {'set' if phase in wanted else 'None'} in phase {phase}")
    if phase not in SCORER_PHASES and s["scoring_index"]:
        _fail(f"scoring_index must be 0 in phase {phase}")
    if phase != "draw_viking" and any(s["drawn"]):
        _fail(f"drawn Vikings must be on the wheel in phase {phase}")
    if phase in CHANCE_PHASES:
        if s["purchases"]:
            _fail(f"purchases must be 0 in phase {phase}")
        on_wheel = _check_wheel_shape(s, with_vikings=False)
        if phase == "draw_viking" and on_wheel != GROUPS_PER_ROUND or \
                phase == "reveal_tile" and on_wheel == GROUPS_PER_ROUND:
            _fail(f"{on_wheel} tiles on the wheel do not fit phase {phase}")
        if phase == "draw_viking" and sum(s["drawn"]) >= GROUPS_PER_ROUND:
            _fail("twelve drawn Vikings belong on the wheel")
        revealed = on_wheel
        drawn = sum(s["drawn"])
    else:
        groups = _check_wheel_shape(s, with_vikings=True)
        left = GROUPS_PER_ROUND - s["purchases"] - (s["pending"] is not None)
        if groups != left:
            _fail(f"{groups} groups on the wheel after {s['purchases']} purchases")
        if phase in BUYER_PHASES and s["purchases"] >= GROUPS_PER_ROUND:
            _fail(f"phase {phase} after all {GROUPS_PER_ROUND} purchases")
        if phase in SCORER_PHASES + ("game_over",) and s["purchases"] != GROUPS_PER_ROUND:
            _fail(f"phase {phase} needs all {GROUPS_PER_ROUND} purchases made")
        revealed = drawn = GROUPS_PER_ROUND
    earlier = GROUPS_PER_ROUND * (s["round"] - 1)
    if sum(s["stacks"]) != STACK_TILES - earlier - revealed:
        _fail(f"{sum(s['stacks'])} tiles in the stacks do not fit round {s['round']}, phase {phase}")
    if sum(s["bag"]) != VIKINGS_PER_COLOUR * 6 - earlier - drawn:
        _fail(f"{sum(s['bag'])} Vikings in the bag do not fit round {s['round']}, phase {phase}")
    if phase in SCORER_PHASES and s["round"] % 2:
        _fail(f"phase {phase} happens only after rounds 2, 4, 6")
    if phase == "game_over" and s["round"] != NUM_ROUNDS:
        _fail("game_over needs round 6")


def _check_decision_context(s, n):
    """The pending purchase or trip must leave the player a legal decision."""
    phase = PHASES[s["phase"]]
    if s["pending"] is not None:
        buyer = s["players"][(s["start_player"] + s["purchases"]) % n]
        pending = s["pending"]
        if (phase == "start_row") != (buyer["start_row"] is None):
            _fail(f"phase {phase} does not fit the buyer's start tile")
        ship = is_ship(pending["tile"])
        if phase == "ship_column" and not (ship and sum(k is not None for k in buyer["ships"]) < 3):
            _fail("phase ship_column needs a pending ship and fewer than 3 ships")
        if phase in ("island_cell", "viking") and ship:
            _fail(f"phase {phase} needs a pending island tile")
        if (pending["cell"] is not None) != (phase == "viking"):
            _fail("pending.cell is set exactly in phase viking")
        if phase == "viking":
            row, col = pending["cell"]
            if _tile_at(buyer, row, col) != pending["tile"] or col in buyer["vikings"][row - 1]:
                _fail("pending.cell must hold the pending tile, without a Viking")
            if row_of_colour(pending["viking"]) != row:
                _fail("pending.cell is not in the row of the pending Viking")
    if phase in SCORER_PHASES:
        scorer = s["players"][(s["start_player"] + s["scoring_index"]) % n]
        free = [[c + 1 for c, kind in enumerate(scorer["tiles"][r])
                 if kind is not None and c + 1 not in scorer["vikings"][r]] for r in range(NUM_ROWS)]
        if phase == "trip":
            movable = [c for c in range(BOATSMAN) if scorer["mainland"][c] and free[4 - c]]
            if not scorer["mainland"][BOATSMAN] or not movable:
                _fail("phase trip needs a possible boatsman trip")
        else:
            queued = [0] * 6
            for colour, k in s["trip"]["queue"]:
                queued[colour] += k
            if any(queued[c] > scorer["mainland"][c] for c in range(6)):
                _fail("trip.queue holds more Vikings than the mainland")
            colour, k = s["trip"]["queue"][0]
            row_free = [c for c in free[4 - colour] if c > s["trip"]["last_col"]]
            if len(row_free) < k:
                _fail("trip.queue's first entry has too few free tiles")


def check(game, d):
    """The parsed, fully checked description of a state dict (ValueError otherwise)."""
    s = _parse(game, d)
    n = game.num_players
    phase = PHASES[s["phase"]]
    for p, player in enumerate(s["players"]):
        _check_board(player, f"players[{p}]")
        if player["fame"] < 0 and phase != "game_over":
            _fail(f"players[{p}].fame is negative before the final scoring (B5.5)")
    _check_conservation(s)
    _check_phase(s, n)
    _check_decision_context(s, n)
    return s


def from_dict(game, d):
    """A new state from a dict of docs/state.md, checked completely first."""
    s = check(game, d)
    state = game.new_initial_state()
    for key in ("round", "start_player", "purchases", "scoring_index", "stacks", "bag", "drawn",
                "removed", "discarded_tiles", "pending", "trip"):
        setattr(state, key, s[key])
    state.phase = PHASES[s["phase"]]
    state.wheel.tiles = [tile for tile, _ in s["wheel"]]
    state.wheel.vikings = [viking for _, viking in s["wheel"]]
    for board, player in zip(state.players, s["players"]):
        board.gold, board.fame = player["gold"], player["fame"]
        board.start_row = player["start_row"]
        board.mainland = player["mainland"]
        for col, kind in enumerate(player["ships"], start=1):
            board.ships[col] = kind
        for r in range(NUM_ROWS):
            for col, kind in enumerate(player["tiles"][r], start=1):
                board.tiles[r + 1][col] = kind
            for col in player["vikings"][r]:
                board.vikings[r + 1][col] = True
    state._history = s["history"]
    return state


# --- bytes ---------------------------------------------------------------------------------


class _Reader:
    def __init__(self, data):
        self.data, self.at = data, 0

    def take(self, count):
        if self.at + count > len(self.data):
            _fail(f"bytes end at {len(self.data)}, {self.at + count} needed (truncated)")
        chunk = self.data[self.at:self.at + count]
        self.at += count
        return chunk

    def u8(self):
        return self.take(1)[0]

    def unpack(self, fmt):
        return struct.unpack(fmt, self.take(struct.calcsize(fmt)))


def _name_or_none(names, value, where):
    if value == NONE_BYTE:
        return None
    if value >= len(names):
        _fail(f"{where} byte {value} is out of range")
    return names[value]


def bytes_to_dict(data):
    """The dict that the bytes of docs/state.md describe (checked later by from_dict)."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"deserialize_state needs bytes, not {type(data).__name__}")
    r = _Reader(bytes(data))
    if r.take(4) != MAGIC:
        _fail("the bytes do not start with b'VKNG'")
    version = r.u8()
    if version != FORMAT_VERSION:
        _fail(f"format version {version} is not {FORMAT_VERSION}")
    n, options, round_, phase, start, purchases, scoring = r.take(7)
    if not 2 <= n <= 4:
        _fail(f"num_players {n} is outside 2..4")
    if phase >= len(PHASES):
        _fail(f"phase byte {phase} is out of range")
    d = {"version": version, "num_players": n,
         "options": {name: bool(options >> i & 1) for i, name in enumerate(OPTION_NAMES)},
         "round": round_, "phase": PHASES[phase], "start_player": start, "purchases": purchases,
         "scoring_index": scoring,
         "stacks": dict(zip(TILE_KINDS, r.take(10))), "bag": dict(zip(COLOURS, r.take(6))),
         "drawn": dict(zip(COLOURS, r.take(6))), "removed": dict(zip(COLOURS, r.take(6))),
         "discarded_tiles": r.u8()}
    if options >> len(OPTION_NAMES):
        _fail(f"options byte {options} has unknown bits")
    wheel = []
    for s in range(WHEEL_SPACES):
        tile, viking = r.take(2)
        if tile == NONE_BYTE and viking == NONE_BYTE:
            wheel.append(None)
        else:
            wheel.append({"tile": _name_or_none(TILE_KINDS, tile, f"wheel[{s}].tile"),
                          "viking": _name_or_none(COLOURS, viking, f"wheel[{s}].viking")})
    d["wheel"] = wheel
    tile, viking, row, col = r.take(4)
    d["pending"] = None if tile == NONE_BYTE and viking == NONE_BYTE else {
        "tile": _name_or_none(TILE_KINDS, tile, "pending.tile"),
        "viking": _name_or_none(COLOURS, viking, "pending.viking"),
        "cell": None if row == 0 and col == 0 else [row, col]}
    present, last_col, length = r.take(3)
    if present > 1:
        _fail(f"trip byte {present} is not 0 or 1")
    queue = [[_name_or_none(COLOURS, colour, "trip colour"), k]
             for colour, k in (r.take(2) for _ in range(length))]
    d["trip"] = {"queue": queue, "last_col": last_col} if present else None
    if not present and (last_col or length):
        _fail("trip bytes set without a trip")
    players = []
    for _ in range(n):
        gold, fame = r.unpack("<ii")
        start_row = r.u8()
        mainland = dict(zip(COLOURS, r.take(6)))
        ships = "".join(SHIP_CHARS[b] if b < len(SHIP_CHARS) else _fail(f"ship byte {b}")
                        for b in r.take(NUM_COLUMNS)).rstrip(".")
        rows, vikings = [], []
        for _row in range(NUM_ROWS):
            cells = r.take(NUM_COLUMNS)
            chars = []
            for b in cells:
                kind = b & ~VIKING_FLAG
                if kind >= len(ISLAND_CHARS) or (b & VIKING_FLAG and kind == 0):
                    _fail(f"cell byte {b} is out of range")
                chars.append(ISLAND_CHARS[kind])
            rows.append("".join(chars).rstrip("."))
            vikings.append([c + 1 for c, b in enumerate(cells) if b & VIKING_FLAG])
        players.append({"gold": gold, "fame": fame, "start_row": start_row or None,
                        "mainland": mainland, "ships": ships, "rows": rows, "vikings": vikings})
    d["players"] = players
    (count,) = r.unpack("<I")
    d["history"] = list(r.unpack(f"<{count}H")) if count <= len(r.data) else _fail("history truncated")
    if r.at != len(r.data):
        _fail(f"{len(r.data) - r.at} bytes after the end of the state")
    return d
