"""Names of docs/actions.md and builders of constructed positions, shared by all tests.

A position is written the way a person reads a board:

    player(gold=5, fame=10, ships="brgg", mainland="B2 S1",
           rows={1: "L*R*", 3: "L*1*2"})

`rows` maps an island row (1 warrior .. 5 fisherman, B2.1) to its cells from column 1: `.` empty,
`L` left piece, `1`..`4` middle pieces, `R` right piece; a `*` after a cell puts a Viking of that
row's colour on it. `mainland` counts Vikings by short colour (F G S N W B). `ships` is the ship
row as in `to_dict` (`.` r g y b). The start tile is column 1 of `start_row`; by default the first
row whose column 1 is `L`.

`build_state` starts from `game.new_initial_state().to_dict()`, writes the position (keys it
is not given, such as those of docs/advanced.md, keep their initial values), and then fills
`bag` and `stacks` so that the 78-Viking and 72-tile checks of `state_from_dict` hold
(docs/state.md) and both fit the round (12 tiles revealed and 12 Vikings, 13 with draw13, drawn
per round, in the order of A0 when the auction or draw13 is on). What
the written position does not account for goes where it changes nothing: Vikings onto the
mainland of a `filler` seat (never boatsmen: spare ones count as spent), tiles among the
discarded ones. It raises if a position uses more than exists or than the round allows. In
phase `viking` the bought tile already lies on the board, so `pending` counts only its Viking.

Scoring a constructed position (`scoring_table`): the API has no "score now" call, so the position
is built in phase `buy` of the wanted round with `purchases = 11` and a single group left on the
wheel, bought by a *dummy* extra player. The dummy owns only its start tile (row 1, column 1) and
the last group is a middle piece with a fisherman: its only legal cell is row 1, column 2 and the
fisherman (row 5) goes to the mainland, so buying it needs no further decision (docs/actions.md,
automatic decisions) and touches nobody else. Purchase 12 then triggers the round's scoring
(B3.2), and after round 6 the final scoring (B8). The dummy sits at the buyer's seat
`(start_player + 11) % n` with `start_player = (round - 1) % n` (B3.3); the examined players
fill the other seats in order (`Table.seats`). The dummy also takes the Vikings the round's
count puts outside the bag (never boatsmen). It has 0 Fame, no fisherman on an island, no
boatsman and no completed island, so its final Fame is negative (B8.6) and it never changes who
gets a majority bonus (B8.3–B8.5, B8.7) or who wins (B8.9).
"""

import copy
from dataclasses import dataclass

from vikinger_ref import OPTION_NAMES as FLAGS  # noqa: F401  (the Game flags, A1-A5, bit order)

COLOURS = ("fisherman", "goldsmith", "scout", "noble", "warrior", "boatsman")
SHORT_COLOURS = dict(zip("FGSNWB", COLOURS))
KINDS = (
    "left",
    "middle1",
    "middle2",
    "middle3",
    "middle4",
    "right",
    "ship_red",
    "ship_green",
    "ship_yellow",
    "ship_blue",
)
ROW_CHARS = {
    "L": "left",
    "1": "middle1",
    "2": "middle2",
    "3": "middle3",
    "4": "middle4",
    "R": "right",
}
SHIP_CHARS = {"r": "ship_red", "g": "ship_green", "y": "ship_yellow", "b": "ship_blue"}
SHORT_KINDS = {**ROW_CHARS, **SHIP_CHARS}
PRINTED = {
    "left": 17,
    "middle1": 5,
    "middle2": 5,
    "middle3": 5,
    "middle4": 5,
    "right": 21,
    "ship_red": 3,
    "ship_green": 4,
    "ship_yellow": 4,
    "ship_blue": 3,
}  # B1.2-B1.4
STACK_TILES = sum(PRINTED.values())  # 72, B1.4
VIKINGS_PER_COLOUR = 13  # B1.1
SPECIALS = (
    "gold5",
    "goldsmith1",
    "goldsmith2",
    "boat",
    "noble1",
    "scout1",
    "fisherman1",
    "horn",
    "fish",
    "treasury",
    "building1",
    "building2",
    "building3",
    "building4",
)  # A5
PHASES = (
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
    "special_fill",
    "auction",
    "remove_viking",
    "offer_colour",
    "take_special",
    "building_replace",
)
START_GOLD = {2: 30, 3: 25, 4: 20}  # B1.5
START_FAME = 10

NUM_DISTINCT_ACTIONS = 2036
MAX_CHANCE_OUTCOMES = 30
CHANCE = -1
TERMINAL = -4


# --- action ids (docs/actions.md) ------------------------------------------------------------


def BUY(space):
    return space


def START(row):
    return 11 + row


def SHIP(col):
    return 16 + col


def TILE(row, col):
    return 20 + (row - 1) * 64 + (col - 1)


VIKING_ON_TILE = 340
VIKING_TO_MAINLAND = 341
TRIP_STOP = 342
TRIP_EACH = 348


def TRIP_ALL(colour):
    return 343 + COLOURS.index(colour)


def TARGET(row, col):
    return 354 + (row - 1) * 64 + (col - 1)


def REVEAL(kind):
    return KINDS.index(kind)


def DRAW(colour):
    return 10 + COLOURS.index(colour)


def row_of(colour):
    """B2.1: fisherman row 5 .. warrior row 1."""
    return 5 - COLOURS.index(colour)


# --- writing positions -----------------------------------------------------------------------


def colour_counts(text=""):
    """'B2 S1' -> {'fisherman': 0, ..., 'scout': 1, ..., 'boatsman': 2} (all six, B1.1 order)."""
    counts = dict.fromkeys(COLOURS, 0)
    for item in text.split():
        counts[SHORT_COLOURS[item[0]]] += int(item[1:])
    return counts


def parse_row(text):
    """'L*1.R' -> ('L1.R', [1]): the to_dict row string and the columns holding a Viking."""
    cells, vikings = "", []
    for ch in text:
        if ch == "*":
            vikings.append(len(cells))
        else:
            assert ch == "." or ch in ROW_CHARS, f"bad cell {ch!r} in {text!r}"
            cells += ch
    return cells.rstrip("."), vikings


def player(
    gold=0,
    fame=START_FAME,
    ships="",
    rows=None,
    mainland="",
    start_row="auto",
    specials=None,
    buildings=None,
):
    """One entry of to_dict()['players'], written as described in the module docstring.

    A5 (docs/advanced.md): `specials` maps a special tile kind to the count held (placed and
    waiting buildings included); `buildings` maps a building picture 1..4 to its (row, col).
    Left out, both keep their initial values.
    """
    parsed = [parse_row((rows or {}).get(r, "")) for r in range(1, 6)]
    if start_row == "auto":
        start_row = next((r + 1 for r, (cells, _) in enumerate(parsed) if cells[:1] == "L"), None)
    p = {
        "gold": gold,
        "fame": fame,
        "start_row": start_row,
        "mainland": colour_counts(mainland),
        "ships": ships.rstrip("."),
        "rows": [cells for cells, _ in parsed],
        "vikings": [v for _, v in parsed],
    }
    if specials is not None or buildings is not None:
        held = dict.fromkeys(SPECIALS, 0)
        held.update(specials or {})
        p["specials"] = held
        p["buildings"] = [
            None if (buildings or {}).get(b) is None else list(buildings[b]) for b in range(1, 5)
        ]
    return p


def group(tile, viking):
    """A wheel entry: group('L', 'F') or group('left', 'fisherman'); viking None while drawing."""
    tile = SHORT_KINDS.get(tile, tile)
    viking = SHORT_COLOURS.get(viking, viking) if viking is not None else None
    return {"tile": tile, "viking": viking}


def used_vikings(d):
    """Vikings outside the bag; those queued for a trip are still on the mainland."""
    used = dict.fromkeys(COLOURS, 0)
    for name in ("drawn", "removed"):
        for colour, count in d[name].items():
            used[colour] += count
    for entry in d["wheel"]:
        if entry is not None and entry["viking"] is not None:
            used[entry["viking"]] += 1
    if d["pending"] is not None:
        used[d["pending"]["viking"]] += 1
    for p in d["players"]:
        for colour, count in p["mainland"].items():
            used[colour] += count
        for r, columns in enumerate(p["vikings"], start=1):
            used[COLOURS[5 - r]] += len(columns)
    return used


def used_tiles(d):
    used = dict.fromkeys(KINDS, 0)
    for entry in d["wheel"]:
        if entry is not None:
            used[entry["tile"]] += 1
    if d["pending"] is not None and d["pending"]["cell"] is None:
        used[d["pending"]["tile"]] += 1  # in phase viking the tile already lies on the board
    for p in d["players"]:
        placed = {tuple(cell) for cell in p.get("buildings", ()) if cell is not None}
        for r, cells in enumerate(p["rows"], start=1):
            for c, ch in enumerate(cells, start=1):
                if ch == "." or (r == p["start_row"] and c == 1) or (r, c) in placed:
                    continue  # the start tile and placed A5 buildings are no stack tiles (B1.2)
                used[ROW_CHARS[ch]] += 1
        for ch in p["ships"]:
            if ch != ".":
                used[SHIP_CHARS[ch]] += 1
    return used


def position_dict(
    engine,
    players,
    *,
    round=1,
    phase="buy",
    start_player=None,
    purchases=None,
    scoring_index=0,
    wheel=None,
    pending=None,
    trip=None,
    removed="",
    drawn="",
    history=(),
    filler=None,
    options=None,
    display=None,
    special_removed=None,
    auction=None,
):
    """A to_dict() of a constructed position that `state_from_dict` accepts.

    `wheel` maps an original space to a group (see `group`). In phase buy, `purchases` defaults
    to 12 minus the groups on the wheel. `start_player` defaults to (round - 1) % n (B3.3).
    The bag and the stacks must fit the round (B1.4, B4): 12 tiles revealed and 12 Vikings drawn
    (13 with draw13, A2) per round so far. What the written position leaves over is put where it
    changes nothing: surplus Vikings onto the mainland of the player in seat `filler` (default:
    the last seat; never boatsmen, whose surplus counts as spent: `removed`), surplus tiles among
    the discarded ones (the largest stacks first).

    Advanced modules (docs/advanced.md): `options` are the Game flags; `display` the 4 display
    places (kind or None), `special_removed` {kind: count}, `auction` the auction dict. With
    special_tiles on, the special stack holds the tiles nobody holds, shows or has removed.
    In special_fill nothing of the round is revealed or drawn. A0: with the auction or draw13 on
    the round's Vikings come first -- the wheel stays empty through draw_viking, auction and
    remove_viking, and `drawn` must hold all of them from the auction to the last tile -- else
    the tiles come first and nothing is drawn in reveal_tile.
    """
    n = len(players)
    game = engine.Game(num_players=n, **(options or {}))
    d = game.new_initial_state().to_dict()
    wheel = wheel or {}
    if purchases is None:
        purchases = 12 - len(wheel) if phase == "buy" else 0
    d.update(
        {
            "round": round,
            "phase": phase,
            "start_player": (round - 1) % n if start_player is None else start_player,
            "purchases": purchases,
            "scoring_index": scoring_index,
            "drawn": colour_counts(drawn),
            "removed": colour_counts(removed),
            "discarded_tiles": 0,
            "wheel": [wheel.get(s) for s in range(12)],
            "pending": pending,
            "trip": trip,
            "history": list(history),
            "auction": auction,
            # keys a spec leaves out (docs/advanced.md) keep their initial values
            "players": [{**copy.deepcopy(d["players"][0]), **copy.deepcopy(p)} for p in players],
        }
    )
    if display is not None:
        d["display"] = list(display)
    if special_removed is not None:
        d["special_removed"].update(special_removed)
    if game.options["special_tiles"]:
        _fill_specials(d)
    first = game.options["auction"] or game.options["draw13"]  # A0
    per_round = 13 if game.options["draw13"] else 12  # A2
    empty_wheel = (
        phase in ("special_fill", "auction") or first and phase in ("draw_viking", "remove_viking")
    )
    revealed = (
        0
        if empty_wheel
        else sum(w is not None for w in d["wheel"])
        if phase == "reveal_tile"
        else 12
    )
    drawn_now = (
        0
        if phase == "special_fill" or phase == "reveal_tile" and not first
        else sum(d["drawn"].values())
        if phase == "draw_viking"
        else per_round
    )
    _fill_vikings(
        d,
        78 - per_round * (round - 1) - drawn_now,
        d["players"][n - 1 if filler is None else filler],
    )
    _fill_tiles(d, 72 - 12 * (round - 1) - revealed)
    return d


def _fill_vikings(d, bag_total, filler):
    used = used_vikings(d)
    bag = {c: VIKINGS_PER_COLOUR - used[c] for c in COLOURS}
    if min(bag.values()) < 0 or sum(bag.values()) < bag_total:
        raise ValueError("the position uses more Vikings than exist or than the round allows")
    while sum(bag.values()) > bag_total:
        colour = max(COLOURS[:5], key=lambda c: bag[c])  # first of the fullest, B1.1 order
        if bag[colour]:
            filler["mainland"][colour] += 1
        else:
            colour = "boatsman"
            d["removed"][colour] += 1
        bag[colour] -= 1
    d["bag"] = bag


def _fill_specials(d):
    """A5: the special stack holds what is not shown, held or removed (25 tiles in all)."""
    stack = dict(d["special_stack"])  # the initial stack: all 25 tiles
    for kind in SPECIALS:
        stack[kind] -= d["special_removed"][kind] + d["display"].count(kind)
        stack[kind] -= sum(p["specials"][kind] for p in d["players"])
    if min(stack.values()) < 0:
        raise ValueError("the position uses more special tiles than exist")
    d["special_stack"] = stack


def _fill_tiles(d, stacks_total):
    used = used_tiles(d)
    stacks = {k: PRINTED[k] - used[k] for k in KINDS}
    if min(stacks.values()) < 0 or sum(stacks.values()) < stacks_total:
        raise ValueError("the position uses more tiles than exist or than the round allows")
    while sum(stacks.values()) > stacks_total:
        stacks[max(KINDS, key=lambda k: stacks[k])] -= 1
        d["discarded_tiles"] += 1
    d["stacks"] = stacks


def build_state(engine, players, **fields):
    """`position_dict` made into a state of `engine` by `Game.state_from_dict`."""
    d = position_dict(engine, players, **fields)
    game = engine.Game(num_players=len(players), **(fields.get("options") or {}))
    return game.state_from_dict(d)


# --- scoring a constructed position ----------------------------------------------------------

DUMMY = player(gold=0, fame=0, rows={1: "L"})
LAST_SPACE = 11
LAST_GROUP = group("1", "F")  # middle1: the dummy's only legal cell is r1c2; fisherman -> mainland


@dataclass
class Table:
    """A scoring position: `seats[k]` is the seat of the k-th examined player."""

    state: object
    seats: list

    def finish(self):
        """Let the dummy buy the last group: the round's scoring (and B8 after round 6) follows."""
        self.state.apply_action(BUY(LAST_SPACE))
        return self

    def fame(self):
        return [self.state.scores()[s] for s in self.seats]

    def gold(self):
        return [self.state.gold()[s] for s in self.seats]

    def player(self, k):
        return self.state.to_dict()["players"][self.seats[k]]


def scoring_table(engine, round, players, **fields):
    """The examined `players` (1..3) plus the dummy, one purchase before the scoring of `round`.

    The dummy also holds on its mainland the Vikings that the round's count needs outside the
    bag (never boatsmen): it has no boatsman, so it never makes a trip. Further `fields`
    (`options`, `display`, ...) go to `position_dict`; the last group costs 0, so it never
    gives an A5 special tile.
    """
    n = len(players) + 1
    dummy_seat = ((round - 1) % n + 11) % n
    seats = [s for s in range(n) if s != dummy_seat]
    everyone = list(players)
    everyone.insert(dummy_seat, DUMMY)
    state = build_state(
        engine,
        everyone,
        round=round,
        phase="buy",
        wheel={LAST_SPACE: LAST_GROUP},
        filler=dummy_seat,
        **fields,
    )
    return Table(state, seats)


def score(engine, round, players, **fields):
    """The table after the scoring of `round` (use only when no boatsman trip is possible)."""
    return scoring_table(engine, round, players, **fields).finish()
