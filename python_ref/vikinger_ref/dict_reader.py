"""Reading the canonical dict of docs/state.md into plain values: every key, type and range
checked in a fixed order, so that the first problem is named the same way in both engines (C++:
csrc/formats/dict_reader.cc). Whether the position can occur is checked next, by consistency.py;
validation.py builds the state. Writing the dict is dict_writer.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NoReturn, Optional, Sequence

from .actions import MAX_BID, PHASES
from .components import (
    BOATSMAN,
    COLOURS,
    DISPLAY_SLOTS,
    GROUPS_PER_ROUND,
    NUM_COLUMNS,
    NUM_ROUNDS,
    NUM_ROWS,
    OPTION_NAMES,
    SPECIAL_COUNTS,
    SPECIAL_KINDS,
    STACK_COUNTS,
    STACK_TILES,
    TILE_KINDS,
    TILE_SHORT,
    VIKINGS_PER_COLOUR,
    WHEEL_SPACES,
)
from .serialization import ISLAND_CHARS, SHIP_CHARS, check_format_version

if TYPE_CHECKING:
    from .game import Game

TOP_KEYS = (
    "version",
    "num_players",
    "options",
    "round",
    "phase",
    "start_player",
    "purchases",
    "scoring_index",
    "stacks",
    "bag",
    "drawn",
    "removed",
    "discarded_tiles",
    "wheel",
    "pending",
    "trip",
    "auction",
    "special_stack",
    "display",
    "special_removed",
    "players",
    "history",
)
PLAYER_KEYS = (
    "gold",
    "fame",
    "start_row",
    "mainland",
    "ships",
    "rows",
    "vikings",
    "specials",
    "buildings",
)
# Gold and Fame are 32-bit in the bytes and in the C++ core. Far above any game, this bound leaves
# room for every later gain and for gold + Fame (the A1 bid cap), so playing on from an accepted
# state can never overflow.
MAX_MONEY = (1 << 30) - 1


def fail(message: str) -> NoReturn:
    raise ValueError(f"invalid state: {message}")


def _keys(value: Any, keys: Sequence[str], where: str) -> None:
    if not isinstance(value, dict):
        fail(f"{where} must be a dict, not {type(value).__name__}")
    missing = [k for k in keys if k not in value]
    extra = [k for k in value if k not in keys]
    if missing:
        fail(f"{where} lacks key {missing[0]!r}")
    if extra:
        fail(f"{where} has unknown key {extra[0]!r}")


def _int(value: Any, where: str, low: int, high: Optional[int] = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        fail(f"{where} must be an int, not {type(value).__name__}")
    if value < low or (high is not None and value > high):
        fail(f"{where} = {value} is outside {low}..{'' if high is None else high}")
    return value


def _name(value: Any, names: Sequence[str], where: str, allow_none: bool = False) -> Optional[int]:
    if value is None and allow_none:
        return None
    if not isinstance(value, str) or value not in names:
        fail(f"{where} is not one of the known names")  # the value itself may not print
    return names.index(value)


def _counts(
    value: Any, names: Sequence[str], where: str, limits: Optional[Sequence[int]] = None
) -> list[int]:
    _keys(value, names, where)
    return [
        _int(value[name], f"{where}[{name!r}]", 0, None if limits is None else limits[i])
        for i, name in enumerate(names)
    ]


def _cell(value: Any, where: str) -> tuple[int, int]:
    if not isinstance(value, list) or len(value) != 2:
        fail(f"{where} must be a list [row, column]")
    return _int(value[0], f"{where} row", 1, NUM_ROWS), _int(
        value[1], f"{where} column", 1, NUM_COLUMNS
    )


def _text(value: Any, alphabet: str, where: str) -> str:
    if not isinstance(value, str):
        fail(f"{where} must be a str, not {type(value).__name__}")
    if len(value) > NUM_COLUMNS:
        fail(f"{where} is longer than {NUM_COLUMNS} columns")
    bad = [ch for ch in value if ch not in alphabet]
    if bad:
        fail(f"{where} has character {bad[0]!r} (allowed: {alphabet})")
    if value.endswith("."):
        fail(f"{where} must not end with '.' (trailing empty columns are cut)")
    return value


def _parse_player(d: Any, p: int, n: int) -> dict[str, Any]:
    where = f"players[{p}]"
    _keys(d, PLAYER_KEYS, where)
    player: dict[str, Any] = {
        "gold": _int(d["gold"], f"{where}.gold", 0, MAX_MONEY),
        "fame": _int(d["fame"], f"{where}.fame", -MAX_MONEY, MAX_MONEY),
        "start_row": None
        if d["start_row"] is None
        else _int(d["start_row"], f"{where}.start_row", 1, NUM_ROWS),
        "mainland": _counts(d["mainland"], COLOURS, f"{where}.mainland", [VIKINGS_PER_COLOUR] * 6),
    }
    ships = _text(d["ships"], SHIP_CHARS, f"{where}.ships")
    player["ships"] = [None if ch == "." else TILE_SHORT.index(ch) for ch in ships]
    rows = d["rows"]
    if not isinstance(rows, list) or len(rows) != NUM_ROWS:
        fail(f"{where}.rows must be a list of {NUM_ROWS} strings")
    player["tiles"] = [
        [
            None if ch == "." else TILE_SHORT.index(ch)
            for ch in _text(rows[r], ISLAND_CHARS, f"{where}.rows[{r}]")
        ]
        for r in range(NUM_ROWS)
    ]
    vikings = d["vikings"]
    if not isinstance(vikings, list) or len(vikings) != NUM_ROWS:
        fail(f"{where}.vikings must be a list of {NUM_ROWS} lists")
    player["vikings"] = []
    for r in range(NUM_ROWS):
        if not isinstance(vikings[r], list):
            fail(f"{where}.vikings[{r}] must be a list of columns")
        cols = [_int(col, f"{where}.vikings[{r}]", 1, NUM_COLUMNS) for col in vikings[r]]
        if any(a >= b for a, b in zip(cols, cols[1:])):
            fail(f"{where}.vikings[{r}] must be strictly increasing columns (one Viking per tile)")
        for col in cols:
            if col > len(player["tiles"][r]) or player["tiles"][r][col - 1] is None:
                fail(f"{where} has a Viking on row {r + 1} column {col}, where no tile stands")
        player["vikings"].append(cols)
    player["specials"] = _counts(d["specials"], SPECIAL_KINDS, f"{where}.specials", SPECIAL_COUNTS)
    buildings = d["buildings"]
    if not isinstance(buildings, list) or len(buildings) != 4:
        fail(f"{where}.buildings must be a list of 4 entries")
    player["buildings"] = [
        None if cell is None else _cell(cell, f"{where}.buildings[{b}]")
        for b, cell in enumerate(buildings)
    ]
    return player


def _parse_auction(auction: Any, n: int) -> Optional[dict[str, Any]]:
    if auction is None:
        return None
    _keys(auction, ("high", "leader", "passed", "turn"), "auction")
    passed = auction["passed"]
    if (
        not isinstance(passed, list)
        or len(passed) != n
        or any(not isinstance(flag, bool) for flag in passed)
    ):
        fail(f"auction.passed must be a list of {n} bools")
    return {
        "high": None
        if auction["high"] is None
        else _int(auction["high"], "auction.high", 0, MAX_BID),
        "leader": _int(auction["leader"], "auction.leader", 0, n - 1),
        "passed": list(passed),
        "turn": _int(auction["turn"], "auction.turn", 0, n - 1),
    }


def parse(game: Game, d: Any) -> dict[str, Any]:
    """Types, keys and ranges: a plain description of the state, or ValueError."""
    if not isinstance(d, dict):
        raise TypeError(f"state_from_dict needs a dict, not {type(d).__name__}")
    _keys(d, TOP_KEYS, "state")
    check_format_version(_int(d["version"], "version", 0), "version")
    n = game.num_players
    if _int(d["num_players"], "num_players", 2, 4) != n:
        fail(f"num_players {d['num_players']} differs from the game's {n}")
    _keys(d["options"], OPTION_NAMES, "options")
    if any(not isinstance(d["options"][k], bool) for k in OPTION_NAMES):
        fail("options values must be bools")
    if d["options"] != game.options:
        fail("options differ from the game's")
    s: dict[str, Any] = {
        "round": _int(d["round"], "round", 1, NUM_ROUNDS),
        "phase": _name(d["phase"], PHASES, "phase"),
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
        fail(f"wheel must be a list of {WHEEL_SPACES} entries")
    s["wheel"] = []
    for i, group in enumerate(wheel):
        if group is None:
            s["wheel"].append((None, None))
            continue
        _keys(group, ("tile", "viking"), f"wheel[{i}]")
        s["wheel"].append(
            (
                _name(group["tile"], TILE_KINDS, f"wheel[{i}].tile"),
                _name(group["viking"], COLOURS, f"wheel[{i}].viking", allow_none=True),
            )
        )
    pending = d["pending"]
    if pending is not None:
        _keys(pending, ("tile", "viking", "cell"), "pending")
        pending = {
            "tile": _name(pending["tile"], TILE_KINDS, "pending.tile"),
            "viking": _name(pending["viking"], COLOURS, "pending.viking"),
            "cell": None
            if pending["cell"] is None
            else list(_cell(pending["cell"], "pending.cell")),
        }
    s["pending"] = pending
    trip = d["trip"]
    if trip is not None:
        _keys(trip, ("queue", "last_col"), "trip")
        if not isinstance(trip["queue"], list) or not trip["queue"]:
            fail("trip.queue must be a non-empty list")
        queue = []
        for i, entry in enumerate(trip["queue"]):
            if not isinstance(entry, list) or len(entry) != 2:
                fail(f"trip.queue[{i}] must be [colour, count]")
            queue.append(
                [
                    _name(entry[0], COLOURS[:BOATSMAN], f"trip.queue[{i}] colour"),
                    _int(entry[1], f"trip.queue[{i}] count", 1, NUM_COLUMNS),
                ]
            )
        trip = {"queue": queue, "last_col": _int(trip["last_col"], "trip.last_col", 0, NUM_COLUMNS)}
    s["trip"] = trip
    s["auction"] = _parse_auction(d["auction"], n)
    s["special_stack"] = _counts(d["special_stack"], SPECIAL_KINDS, "special_stack", SPECIAL_COUNTS)
    display = d["display"]
    if not isinstance(display, list) or len(display) != DISPLAY_SLOTS:
        fail(f"display must be a list of {DISPLAY_SLOTS} entries")
    s["display"] = [
        _name(kind, SPECIAL_KINDS, f"display[{i}]", allow_none=True)
        for i, kind in enumerate(display)
    ]
    s["special_removed"] = _counts(
        d["special_removed"], SPECIAL_KINDS, "special_removed", SPECIAL_COUNTS
    )
    players = d["players"]
    if not isinstance(players, list) or len(players) != n:
        fail(f"players must be a list of {n} entries")
    s["players"] = [_parse_player(players[p], p, n) for p in range(n)]
    history = d["history"]
    if not isinstance(history, list):
        fail("history must be a list of ints")
    s["history"] = [_int(a, "history entry", 0, 65535) for a in history]
    return s
