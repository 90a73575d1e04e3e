"""The canonical dict, the bytes format and the position hash of docs/state.md.

`to_bytes` packs the content of the canonical dict (dict_writer.py); the hash is taken over the
packed position (history excluded). Reading bytes unpacks to a dict and goes through the checks
of dict_reader.py and validation.py.
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING, Any, Optional, Sequence

from .actions import PHASES
from .components import (
    COLOURS,
    DISPLAY_SLOTS,
    NUM_COLUMNS,
    NUM_ROWS,
    OPTION_NAMES,
    SPECIAL_KINDS,
    TILE_KINDS,
    WHEEL_SPACES,
)
from .consistency import fail
from .rng import MASK64, mix

if TYPE_CHECKING:
    from .board import PlayerBoard
    from .state import State

# 2: A0, the Vikings of a round with the auction or the draw of 13 are drawn before its tiles,
# so a version-1 position of those games means something else and is refused.
FORMAT_VERSION = 2
MAGIC = b"VKNG"
NONE_BYTE = 255
NO_BID = 65535
VIKING_FLAG = 16
SHIP_CHARS = ".rgyb"
ISLAND_CHARS = ".L1234R"
# The byte of an island cell (docs/state.md): 0 empty, else 1 + kind, plus VIKING_FLAG when a
# Viking stands on it; keyed by (kind or None, Viking there).
CELL_BYTE: dict[tuple[Optional[int], bool], int] = {
    (None, False): 0,
    **{
        (kind, viking): 1 + kind + (VIKING_FLAG if viking else 0)
        for kind in range(len(ISLAND_CHARS) - 1)
        for viking in (False, True)
    },
}
# 1..4: red, green, yellow, blue
SHIP_BYTE: dict[Optional[int], int] = {None: 0, **{kind: kind - 5 for kind in range(6, 10)}}


# --- bytes ---------------------------------------------------------------------------------


def _position_bytes(state: State) -> bytes:
    game = state.get_game()
    out = bytearray(
        [
            game.num_players,
            _options_byte(state),
            state.round,
            PHASES.index(state.phase),
            state.start_player,
            state.purchases,
            state.scoring_index,
        ]
    )
    out += bytes(state.stacks) + bytes(state.bag) + bytes(state.drawn) + bytes(state.removed)
    out.append(state.discarded_tiles)
    for s in range(WHEEL_SPACES):
        tile, viking = state.wheel.tiles[s], state.wheel.vikings[s]
        out += bytes([NONE_BYTE if tile is None else tile, NONE_BYTE if viking is None else viking])
    pending = state.pending
    if pending is None:
        out += bytes([NONE_BYTE, NONE_BYTE, 0, 0])
    else:
        row, col = pending["cell"] or (0, 0)
        out += bytes([pending["tile"], pending["viking"], row, col])
    out += _trip_bytes(state)
    for board in state.players:
        out += _board_bytes(board)
    out += _advanced_bytes(state)
    return bytes(out)


def _options_byte(state: State) -> int:
    options = state.get_game().options
    return sum(1 << i for i, name in enumerate(OPTION_NAMES) if options[name])


def _trip_bytes(state: State) -> bytes:
    if state.trip is None:
        return bytes([0, 0, 0])
    queue = state.trip["queue"]
    out = bytearray([1, state.trip["last_col"], len(queue)])
    for colour, k in queue:
        out += bytes([colour, k])
    return bytes(out)


def _board_bytes(board: PlayerBoard) -> bytes:
    out = bytearray(struct.pack("<ii", board.gold, board.fame))
    out.append(board.start_row or 0)
    out += bytes(board.mainland)
    out += bytes(map(SHIP_BYTE.__getitem__, board.ships[1:]))
    for row in range(1, NUM_ROWS + 1):
        used = board.width  # the columns beyond are empty
        cells = zip(board.tiles[row][1 : used + 1], board.vikings[row][1 : used + 1])
        out += bytes(map(CELL_BYTE.__getitem__, cells)) + bytes(NUM_COLUMNS - used)
    return bytes(out)


def _board_advanced_bytes(board: PlayerBoard) -> bytes:
    out = bytearray(board.specials)
    for cell in board.buildings:
        out += bytes(cell or (0, 0))
    return bytes(out)


def scorer_bytes(state: State, player: int) -> bytes:
    """The bytes the trips of `player` in a large scoring depend on (the endgame solver's key for
    a scorer's outcomes; serialization.cc's ScorerBytes): the options, the phase, the trip under
    way, and the player's part of the position bytes (board, A5 tiles and buildings)."""
    out = bytearray([_options_byte(state), PHASES.index(state.phase)]) + _trip_bytes(state)
    return bytes(out) + _player_part(state.players[player])


def other_scorer_bytes(state: State, player: int) -> bytes:
    """The bytes the outcomes of the other player of a 2-player large scoring depend on, before
    or after the scorer's trips (serialization.cc's OtherScorerBytes): the options, 0xFF (no
    phase: no scorer_bytes begin so), the scoring index (whether the other player has scored)
    and the player's part of the position bytes."""
    head = bytes([_options_byte(state), 0xFF, state.scoring_index])
    return head + _player_part(state.players[player])


def _player_part(board: PlayerBoard) -> bytes:
    """A player's part of the position bytes: the board, then its A5 tiles and buildings."""
    return _board_bytes(board) + _board_advanced_bytes(board)


def _advanced_bytes(state: State) -> bytes:
    """docs/advanced.md: the A1 auction and the A5 tiles, after the players."""
    auction = state.auction
    if auction is None:
        out = bytearray([0]) + struct.pack("<H", NO_BID) + bytes([0, 0, 0])
    else:
        passed = sum(1 << p for p, out_ in enumerate(auction.passed) if out_)
        high = NO_BID if auction.high is None else auction.high
        out = (
            bytearray([1]) + struct.pack("<H", high) + bytes([auction.leader, auction.turn, passed])
        )
    display = state.display
    out += bytes(display.stack)
    out += bytes(NONE_BYTE if kind is None else kind for kind in display.slots)
    out += bytes(display.removed)
    for board in state.players:
        out += _board_advanced_bytes(board)
    return bytes(out)


def to_bytes(state: State, with_history: bool = True) -> bytes:
    """The bytes of docs/state.md; without the history (an empty one) they hold the position
    alone, as a pickled VectorGame keeps its environments."""
    history = state.history() if with_history else []
    return (
        MAGIC
        + bytes([FORMAT_VERSION])
        + _position_bytes(state)
        + struct.pack("<I", len(history))
        + struct.pack(f"<{len(history)}H", *history)
    )


# --- bytes ---------------------------------------------------------------------------------


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0

    def take(self, count: int) -> bytes:
        if self.at + count > len(self.data):
            fail(f"bytes end at {len(self.data)}, {self.at + count} needed (truncated)")
        chunk = self.data[self.at : self.at + count]
        self.at += count
        return chunk

    def u8(self) -> int:
        return self.take(1)[0]

    def unpack(self, fmt: str) -> tuple[Any, ...]:
        return struct.unpack(fmt, self.take(struct.calcsize(fmt)))


def _name_or_none(names: Sequence[str], value: int, where: str) -> str | None:
    if value == NONE_BYTE:
        return None
    if value >= len(names):
        fail(f"{where} byte {value} is out of range")
    return names[value]


def check_format_version(version: int, what: str) -> None:
    """ValueError unless `version` is FORMAT_VERSION, with a reason for the older version 1."""
    if version == 1:
        fail(
            f"{what} 1 is the format before the A0 round order (docs/state.md) and cannot be "
            f"read; this engine reads version {FORMAT_VERSION}"
        )
    if version != FORMAT_VERSION:
        fail(f"{what} {version} is not {FORMAT_VERSION}")


def bytes_to_dict(data: object) -> dict[str, Any]:
    """The dict that the bytes of docs/state.md describe (checked later by from_dict)."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"deserialize_state needs bytes, not {type(data).__name__}")
    r = _Reader(bytes(data))
    if r.take(4) != MAGIC:
        fail("the bytes do not start with b'VKNG'")
    version = r.u8()
    check_format_version(version, "format version")
    n, options, round_, phase, start, purchases, scoring = r.take(7)
    if not 2 <= n <= 4:
        fail(f"num_players {n} is outside 2..4")
    if phase >= len(PHASES):
        fail(f"phase byte {phase} is out of range")
    d: dict[str, Any] = {
        "version": version,
        "num_players": n,
        "options": {name: bool(options >> i & 1) for i, name in enumerate(OPTION_NAMES)},
        "round": round_,
        "phase": PHASES[phase],
        "start_player": start,
        "purchases": purchases,
        "scoring_index": scoring,
        "stacks": dict(zip(TILE_KINDS, r.take(10))),
        "bag": dict(zip(COLOURS, r.take(6))),
        "drawn": dict(zip(COLOURS, r.take(6))),
        "removed": dict(zip(COLOURS, r.take(6))),
        "discarded_tiles": r.u8(),
    }
    if options >> len(OPTION_NAMES):
        fail(f"options byte {options} has unknown bits")
    wheel: list[dict[str, Any] | None] = []
    for s in range(WHEEL_SPACES):
        tile, viking = r.take(2)
        if tile == NONE_BYTE and viking == NONE_BYTE:
            wheel.append(None)
        else:
            wheel.append(
                {
                    "tile": _name_or_none(TILE_KINDS, tile, f"wheel[{s}].tile"),
                    "viking": _name_or_none(COLOURS, viking, f"wheel[{s}].viking"),
                }
            )
    d["wheel"] = wheel
    tile, viking, row, col = r.take(4)
    d["pending"] = (
        None
        if tile == NONE_BYTE and viking == NONE_BYTE
        else {
            "tile": _name_or_none(TILE_KINDS, tile, "pending.tile"),
            "viking": _name_or_none(COLOURS, viking, "pending.viking"),
            "cell": None if row == 0 and col == 0 else [row, col],
        }
    )
    if d["pending"] is None and (row or col):
        fail("pending bytes set without a pending purchase")
    present, last_col, length = r.take(3)
    if present > 1:
        fail(f"trip byte {present} is not 0 or 1")
    queue = [
        [_name_or_none(COLOURS, colour, "trip colour"), k]
        for colour, k in (r.take(2) for _ in range(length))
    ]
    d["trip"] = {"queue": queue, "last_col": last_col} if present else None
    if not present and (last_col or length):
        fail("trip bytes set without a trip")
    players = []
    for _ in range(n):
        gold, fame = r.unpack("<ii")
        start_row = r.u8()
        mainland = dict(zip(COLOURS, r.take(6)))
        ships = "".join(
            SHIP_CHARS[b] if b < len(SHIP_CHARS) else fail(f"ship byte {b} is out of range")
            for b in r.take(NUM_COLUMNS)
        ).rstrip(".")
        rows, vikings = [], []
        for _row in range(NUM_ROWS):
            cells = r.take(NUM_COLUMNS)
            chars = []
            for b in cells:
                kind = b & ~VIKING_FLAG
                if kind >= len(ISLAND_CHARS) or (b & VIKING_FLAG and kind == 0):
                    fail(f"cell byte {b} is out of range")
                chars.append(ISLAND_CHARS[kind])
            rows.append("".join(chars).rstrip("."))
            vikings.append([c + 1 for c, b in enumerate(cells) if b & VIKING_FLAG])
        players.append(
            {
                "gold": gold,
                "fame": fame,
                "start_row": start_row or None,
                "mainland": mainland,
                "ships": ships,
                "rows": rows,
                "vikings": vikings,
                "specials": None,
                "buildings": None,
            }
        )
    d["players"] = players
    _advanced_from_bytes(r, d)
    (count,) = r.unpack("<I")
    d["history"] = (
        list(r.unpack(f"<{count}H")) if count <= len(r.data) else fail("history truncated")
    )
    if r.at != len(r.data):
        fail(f"{len(r.data) - r.at} bytes after the end of the state")
    return d


def _advanced_from_bytes(r: _Reader, d: dict[str, Any]) -> None:
    present = r.u8()
    (high,) = r.unpack("<H")
    leader, turn, passed = r.take(3)
    n = d["num_players"]
    if present > 1 or passed >> n:
        fail("auction bytes out of range")
    d["auction"] = None
    if present:
        d["auction"] = {
            "high": None if high == NO_BID else high,
            "leader": leader,
            "passed": [bool(passed >> p & 1) for p in range(n)],
            "turn": turn,
        }
    elif high != NO_BID or leader or turn or passed:
        fail("auction bytes set without an auction")
    d["special_stack"] = dict(zip(SPECIAL_KINDS, r.take(len(SPECIAL_KINDS))))
    d["display"] = [_name_or_none(SPECIAL_KINDS, kind, "display") for kind in r.take(DISPLAY_SLOTS)]
    d["special_removed"] = dict(zip(SPECIAL_KINDS, r.take(len(SPECIAL_KINDS))))
    for player in d["players"]:
        player["specials"] = dict(zip(SPECIAL_KINDS, r.take(len(SPECIAL_KINDS))))
        cells = r.take(8)
        player["buildings"] = [
            None
            if cells[2 * b] == 0 and cells[2 * b + 1] == 0
            else [cells[2 * b], cells[2 * b + 1]]
            for b in range(4)
        ]


def hash_key(state: State) -> int:
    """docs/state.md: splitmix64 folded over the position bytes, 8 at a time."""
    return hash_bytes(_position_bytes(state))


def hash_bytes(data: bytes) -> int:
    """The fold of hash_key over any bytes (serialization.cc's HashBytes)."""
    h = len(data)
    for start in range(0, len(data), 8):
        chunk = int.from_bytes(data[start : start + 8].ljust(8, b"\0"), "little")
        h = mix(h ^ chunk)
    return h & MASK64
