"""Whether a parsed state dict describes a position the game can be in (docs/state.md).

validation.py turns a dict into plain values (types, keys, ranges); this module checks that the
values fit together: conservation of Vikings and tiles, board shapes, and a phase whose context
(wheel, pending purchase, trip, auction, display) leaves the player to move a legal decision.
Every refusal is a ValueError naming the problem.
"""

from __future__ import annotations

from collections import deque
from typing import Any, Mapping, NoReturn

from .actions import BUYER_PHASES, PHASES, SCORER_PHASES, vikings_before_tiles
from .components import (
    BOATSMAN,
    BUILDING1,
    DISPLAY_SLOTS,
    GOLD5,
    GROUPS_PER_ROUND,
    LEFT,
    MIDDLE1,
    NUM_ROUNDS,
    NUM_ROWS,
    SPECIAL_COUNTS,
    SPECIAL_KINDS,
    STACK_COUNTS,
    STACK_TILES,
    TILE_KINDS,
    VIKINGS_PER_COLOUR,
    COLOURS,
    WHEEL_SPACES,
    is_ship,
    row_of_colour,
    sea_on_left,
    sea_on_right,
)

PURCHASE_PHASES = BUYER_PHASES[1:] + ("take_special", "building_replace")
ROUND_START_PHASES = ("special_fill", "auction")
BEFORE_LAYOUT_PHASES = ROUND_START_PHASES + (
    "reveal_tile",
    "draw_viking",
    "remove_viking",
    "offer_colour",
)


def empty_wheel_phases(options: Mapping[str, bool]) -> tuple[str, ...]:
    """A0: the phases before the first tile: with the Vikings drawn first also theirs."""
    if vikings_before_tiles(options):
        return ROUND_START_PHASES + ("draw_viking", "remove_viking")
    return ROUND_START_PHASES


def drawn_phases(options: Mapping[str, bool]) -> tuple[str, ...]:
    """The phases in which drawn Vikings wait beside the wheel (A0: from the draw to the tiles)."""
    if vikings_before_tiles(options):
        return ("draw_viking", "auction", "remove_viking", "reveal_tile", "offer_colour")
    return ("draw_viking", "remove_viking", "offer_colour")


MODULE_OF_PHASE = {
    "special_fill": "special_tiles",
    "auction": "auction",
    "remove_viking": "draw13",
    "offer_colour": "offer_by_colour",
    "take_special": "special_tiles",
    "building_replace": "special_tiles",
}


def fail(message: str) -> NoReturn:
    raise ValueError(f"invalid state: {message}")


def tile_at(player: dict[str, Any], row: int, col: int) -> Any:  # a tile kind, or None
    tiles = player["tiles"][row - 1]
    return tiles[col - 1] if 1 <= col <= len(tiles) else None


def _check_board(player: dict[str, Any], where: str) -> None:
    """B2.3, B6.0, B6.1, B6.2: start tile, edges, connection to the mainland, ship columns."""
    cells = [
        (r + 1, c + 1)
        for r in range(NUM_ROWS)
        for c, kind in enumerate(player["tiles"][r])
        if kind is not None
    ]
    start = player["start_row"]
    if start is None and cells:
        fail(f"{where} has island tiles but no start tile")
    if start is not None and tile_at(player, start, 1) != LEFT:
        fail(f"{where}.start_row {start} has no left piece in column 1")
    for row, col in cells:
        kind = tile_at(player, row, col)
        left = tile_at(player, row, col - 1) if col > 1 else None
        left_sea = True if col == 1 else (None if left is None else sea_on_right(left))
        if left_sea is not None and left_sea != sea_on_left(kind):
            fail(f"{where} row {row} column {col}: the edge to its left does not match")
    reached = {cell for cell in cells if cell[1] == 1}
    todo = deque(reached)
    while todo:
        row, col = todo.popleft()
        for nxt in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
            if nxt not in reached and 1 <= nxt[0] <= NUM_ROWS and tile_at(player, *nxt) is not None:
                reached.add(nxt)
                todo.append(nxt)
    if len(reached) != len(cells):
        fail(f"{where} has island tiles not connected to the mainland")
    columns = [c + 1 for c, kind in enumerate(player["ships"]) if kind is not None]
    if (
        len(columns) <= 3
        and any(c > 3 for c in columns)
        or len(columns) > 3
        and columns != list(range(1, len(columns) + 1))
    ):
        fail(f"{where}.ships: ships after the third must fill columns left to right (B6.1)")
    if start is None and (columns or any(player["mainland"])):
        fail(f"{where} owns ships or Vikings but has no start tile")


def _check_buildings(player: dict[str, Any], where: str, placing: bool) -> None:
    """A5: a placed building stands on a middle tile of its picture; a waiting one means the
    player has no such tile yet (except while `placing` it)."""
    if player["specials"][GOLD5]:
        fail(f"{where} holds a gold5 tile, which leaves the game when taken")
    for b in range(4):
        held = player["specials"][BUILDING1 + b]
        cell = player["buildings"][b]
        if held > 1 or cell is not None and not held:
            fail(f"{where}.buildings[{b}] does not match its specials")
        middles = [
            (r + 1, c + 1)
            for r in range(NUM_ROWS)
            for c, kind in enumerate(player["tiles"][r])
            if kind == MIDDLE1 + b
        ]
        if cell is not None and tuple(cell) not in middles:
            fail(f"{where}.buildings[{b}] is not on a middle tile showing building {b + 1}")
        if held and cell is None and middles and not placing:
            fail(f"{where} has a waiting building {b + 1} and a middle tile it should replace")
    if len({tuple(c) for c in player["buildings"] if c is not None}) != sum(
        c is not None for c in player["buildings"]
    ):
        fail(f"{where} has two buildings on one cell")


def _check_conservation(s: dict[str, Any], options: Mapping[str, bool]) -> None:
    """78 Vikings, 13 of each colour; 72 stack tiles, no kind more often than printed; the 25
    special tiles."""
    vikings = [s["bag"][c] + s["drawn"][c] + s["removed"][c] for c in range(6)]
    tiles = list(s["stacks"])
    for tile, viking in s["wheel"]:
        if tile is not None:
            tiles[tile] += 1
        if viking is not None:
            vikings[viking] += 1
    if s["pending"] is not None:
        if s["pending"]["cell"] is None:  # in phase viking the tile is placed
            tiles[s["pending"]["tile"]] += 1
        vikings[s["pending"]["viking"]] += 1
    specials = [s["special_stack"][k] + s["special_removed"][k] for k in range(len(SPECIAL_KINDS))]
    for kind in s["display"]:
        if kind is not None:
            specials[kind] += 1
    for player in s["players"]:
        not_stack = {(player["start_row"], 1)} | {tuple(c) for c in player["buildings"] if c}
        for c in range(6):
            vikings[c] += player["mainland"][c]
        for r in range(NUM_ROWS):
            vikings[5 - (r + 1)] += len(player["vikings"][r])
            for c, kind in enumerate(player["tiles"][r]):
                if kind is not None and (r + 1, c + 1) not in not_stack:
                    tiles[kind] += 1
        for kind in player["ships"]:
            if kind is not None:
                tiles[kind] += 1
        for k in range(len(SPECIAL_KINDS)):
            specials[k] += player["specials"][k]
    for c in range(6):
        if vikings[c] != VIKINGS_PER_COLOUR:
            fail(f"{vikings[c]} {COLOURS[c]} Vikings in all, not {VIKINGS_PER_COLOUR}")
    for k in range(len(TILE_KINDS)):
        if tiles[k] > STACK_COUNTS[k]:
            fail(f"{tiles[k]} {TILE_KINDS[k]} tiles in all, more than {STACK_COUNTS[k]}")
    if sum(tiles) + s["discarded_tiles"] != STACK_TILES:
        fail(f"{sum(tiles) + s['discarded_tiles']} stack tiles in all, not {STACK_TILES}")
    for k in range(len(SPECIAL_KINDS)):
        if specials[k] != SPECIAL_COUNTS[k]:
            fail(f"{specials[k]} {SPECIAL_KINDS[k]} special tiles in all, not {SPECIAL_COUNTS[k]}")
    if not options["special_tiles"] and list(s["special_stack"]) != list(SPECIAL_COUNTS):
        fail("special tiles are in play without the special_tiles module")
    if not options["draw13"] and any(s["removed"][c] for c in range(BOATSMAN)):
        fail("only spent boatsmen leave the game without the draw13 module")


def _check_wheel(s: dict[str, Any], phase: str, options: Mapping[str, bool]) -> int:
    """B4.1 islands from space 0 up, ships from 11 down, while revealing; B4.2 Vikings sorted
    by colour (A3: colour blocks from space 11 down); returns the tiles on the wheel."""
    tiles = [tile for tile, _ in s["wheel"]]
    vikings = [viking for _, viking in s["wheel"]]
    count = sum(t is not None for t in tiles)
    if any(t is None and v is not None for t, v in s["wheel"]):
        fail("a Viking on an empty wheel space")
    if phase in BEFORE_LAYOUT_PHASES:
        islands = sum(t is not None and not is_ship(t) for t in tiles)
        ships = count - islands
        shape = ["island"] * islands + [None] * (WHEEL_SPACES - count) + ["ship"] * ships
        if [None if t is None else ("ship" if is_ship(t) else "island") for t in tiles] != shape:
            fail("wheel tiles are not laid out as B4.1 places them")
        placed = [v for v in vikings if v is not None]
        if phase != "offer_colour" and placed:
            fail(f"phase {phase} has Vikings on the wheel")
        if phase == "offer_colour":
            # A3: each colour is placed whole, so it forms one block of spaces.
            split = any(c in placed[:i] and placed[i - 1] != c for i, c in enumerate(placed))
            if (
                vikings[WHEEL_SPACES - len(placed) :] != placed
                or split
                or any(s["drawn"][c] for c in placed)
            ):
                fail("A3 Vikings stand on the highest spaces, one colour block at a time")
            if sum(s["drawn"]) != count - len(placed):
                fail("A3 the drawn Vikings must fill the wheel spaces still without one")
        return count
    groups = [v for t, v in s["wheel"] if t is not None]
    if any(v is None for v in groups):
        fail("every group on the wheel needs a tile and a Viking")
    if not options["offer_by_colour"] and groups != sorted(groups):
        fail("the wheel's Vikings are not in colour order (B4.2)")
    return count


def _check_round_counts(
    s: dict[str, Any], phase: str, options: Mapping[str, bool], on_wheel: int
) -> None:
    """The stacks and the bag fit the round and phase (B1.4, B4, A0, A2)."""
    per_round = GROUPS_PER_ROUND + (1 if options["draw13"] else 0)
    first = vikings_before_tiles(options)
    earlier = s["round"] - 1
    drawn_now = sum(s["drawn"])
    revealed = (
        0
        if phase in empty_wheel_phases(options)
        else on_wheel
        if phase == "reveal_tile"
        else GROUPS_PER_ROUND
    )
    drawn = (
        0
        if phase == "special_fill" or phase == "reveal_tile" and not first
        else drawn_now
        if phase == "draw_viking"
        else per_round
    )
    if sum(s["stacks"]) != STACK_TILES - GROUPS_PER_ROUND * earlier - revealed:
        fail(f"{sum(s['stacks'])} tiles in the stacks do not fit round {s['round']}, phase {phase}")
    if sum(s["bag"]) != VIKINGS_PER_COLOUR * 6 - per_round * earlier - drawn:
        fail(f"{sum(s['bag'])} Vikings in the bag do not fit round {s['round']}, phase {phase}")
    if phase == "reveal_tile" and on_wheel == GROUPS_PER_ROUND:
        fail("twelve tiles on the wheel end phase reveal_tile")
    if (
        phase == "offer_colour" or phase == "draw_viking" and not first
    ) and on_wheel != GROUPS_PER_ROUND:
        fail(f"phase {phase} needs all {GROUPS_PER_ROUND} tiles on the wheel")
    if phase == "draw_viking" and drawn_now >= per_round:
        fail(f"{per_round} drawn Vikings end phase draw_viking")
    if phase in ("auction", "remove_viking") and drawn_now != per_round:
        fail(f"phase {phase} needs all {per_round} drawn Vikings (A0)")
    if phase == "reveal_tile" and first and drawn_now != GROUPS_PER_ROUND:
        fail(f"phase reveal_tile needs the round's {GROUPS_PER_ROUND} Vikings drawn (A0)")


def _check_phase(s: dict[str, Any], n: int, options: Mapping[str, bool]) -> None:
    phase = PHASES[s["phase"]]
    module = MODULE_OF_PHASE.get(phase)
    if module and not options[module]:
        fail(f"phase {phase} needs the {module} module")
    for key, wanted in (
        ("pending", PURCHASE_PHASES),
        ("trip", ("trip_target",)),
        ("auction", ("auction",)),
    ):
        if (s[key] is not None) != (phase in wanted):
            fail(f"{key} must be {'set' if phase in wanted else 'None'} in phase {phase}")
    if phase not in SCORER_PHASES and s["scoring_index"]:
        fail(f"scoring_index must be 0 in phase {phase}")
    if phase not in drawn_phases(options) and any(s["drawn"]):
        fail(f"drawn Vikings must be on the wheel in phase {phase}")
    on_wheel = _check_wheel(s, phase, options)
    if phase in BEFORE_LAYOUT_PHASES:
        if s["purchases"]:
            fail(f"purchases must be 0 in phase {phase}")
        if phase in empty_wheel_phases(options) and on_wheel:
            fail(f"the wheel must be empty in phase {phase}")
    else:
        left = GROUPS_PER_ROUND - s["purchases"] - (s["pending"] is not None)
        if on_wheel != left:
            fail(f"{on_wheel} groups on the wheel after {s['purchases']} purchases")
        if phase in SCORER_PHASES + ("game_over",):
            if s["purchases"] != GROUPS_PER_ROUND:
                fail(f"phase {phase} needs all {GROUPS_PER_ROUND} purchases made")
        elif s["purchases"] >= GROUPS_PER_ROUND:
            fail(f"phase {phase} after all {GROUPS_PER_ROUND} purchases")
    _check_round_counts(s, phase, options, on_wheel)
    if phase in SCORER_PHASES and s["round"] % 2:
        fail(f"phase {phase} happens only after rounds 2, 4, 6")
    if phase == "game_over" and s["round"] != NUM_ROUNDS:
        fail("game_over needs round 6")
    if phase == "special_fill" and (None not in s["display"] or not any(s["special_stack"])):
        fail("phase special_fill needs an empty display place and special tiles in the stack")


def _check_pending(s: dict[str, Any], n: int, phase: str) -> None:
    buyer = s["players"][(s["start_player"] + s["purchases"]) % n]
    pending = s["pending"]
    placing = phase in ("take_special", "building_replace")
    if (
        phase == "start_row"
        and buyer["start_row"] is not None
        or phase not in ("start_row",)
        and not placing
        and buyer["start_row"] is None
    ):
        fail(f"phase {phase} does not fit the buyer's start tile")
    ship = is_ship(pending["tile"])
    if phase == "ship_column" and not (ship and sum(k is not None for k in buyer["ships"]) < 3):
        fail("phase ship_column needs a pending ship and fewer than 3 ships")
    if phase in ("island_cell", "viking") and ship:
        fail(f"phase {phase} needs a pending island tile")
    if (pending["cell"] is not None) != (phase == "viking"):
        fail("pending.cell is set exactly in phase viking")
    if phase == "viking":
        row, col = pending["cell"]
        if tile_at(buyer, row, col) != pending["tile"] or col in buyer["vikings"][row - 1]:
            fail("pending.cell must hold the pending tile, without a Viking")
        if row_of_colour(pending["viking"]) != row:
            fail("pending.cell is not in the row of the pending Viking")
    if phase == "take_special" and all(kind is None for kind in s["display"]):
        fail("phase take_special needs a tile on display")
    if phase == "building_replace" and not any(
        buyer["specials"][BUILDING1 + b]
        and buyer["buildings"][b] is None
        and any(kind == MIDDLE1 + b for row in buyer["tiles"] for kind in row)
        for b in range(4)
    ):
        fail("phase building_replace needs a building tile to place")


def _check_scorer(s: dict[str, Any], n: int, phase: str, options: Mapping[str, bool]) -> None:
    scorer = s["players"][(s["start_player"] + s["scoring_index"]) % n]
    free = [
        [
            c + 1
            for c, kind in enumerate(scorer["tiles"][r])
            if kind is not None and c + 1 not in scorer["vikings"][r]
        ]
        for r in range(NUM_ROWS)
    ]
    if phase == "trip":
        movable = [c for c in range(BOATSMAN) if scorer["mainland"][c] and free[4 - c]]
        if not scorer["mainland"][BOATSMAN] or not movable:
            fail("phase trip needs a possible boatsman trip")
        return
    queued = [0] * 6
    for colour, k in s["trip"]["queue"]:
        queued[colour] += k
    if any(queued[c] > scorer["mainland"][c] for c in range(6)):
        fail("trip.queue holds more Vikings than the mainland")
    if len({colour for colour, _ in s["trip"]["queue"]}) != len(s["trip"]["queue"]):
        fail("trip.queue names a colour twice")
    colour, k = s["trip"]["queue"][0]
    if len([c for c in free[4 - colour] if c > s["trip"]["last_col"]]) < k:
        fail("trip.queue's first entry has too few free tiles")
    if any(len(free[4 - colour]) < k for colour, k in s["trip"]["queue"][1:]):
        fail("a later trip.queue entry has too few free tiles")


def _check_auction(s: dict[str, Any], n: int) -> None:
    auction = s["auction"]
    active = [p for p in range(n) if not auction["passed"][p]]
    if len(active) < 2:
        fail("an auction with fewer than two bidders is over")
    if auction["passed"][auction["leader"]] or auction["passed"][auction["turn"]]:
        fail("the auction's leader and the player to bid have not passed")
    if auction["high"] is None and (
        auction["turn"] != s["start_player"]
        or auction["leader"] != s["start_player"]
        or len(active) != n
    ):
        fail("before the opening bid the start player is to bid and nobody has passed")
    if auction["high"] is not None and auction["turn"] == auction["leader"]:
        fail("the auction's leader cannot be the player to bid")
    leader = s["players"][auction["leader"]]
    if auction["high"] is not None and auction["high"] > leader["gold"] + leader["fame"]:
        fail("the auction's high bid is more than its leader can pay (B5.5)")


def check_position(s: dict[str, Any], options: Mapping[str, bool]) -> None:
    """All consistency checks on a parsed dict `s`; ValueError on the first problem."""
    n = len(s["players"])
    phase = PHASES[s["phase"]]
    for p, player in enumerate(s["players"]):
        where = f"players[{p}]"
        _check_board(player, where)
        buyer = (s["start_player"] + s["purchases"]) % n
        _check_buildings(player, where, placing=phase == "building_replace" and p == buyer)
        if player["fame"] < 0 and phase != "game_over":
            fail(f"{where}.fame is negative before the final scoring (B5.5)")
    _check_conservation(s, options)
    _check_phase(s, n, options)
    if s["pending"] is not None:
        _check_pending(s, n, phase)
    if phase in SCORER_PHASES:
        _check_scorer(s, n, phase, options)
    if s["auction"] is not None:
        _check_auction(s, n)
    if len(s["display"]) != DISPLAY_SLOTS:
        fail(f"display must have {DISPLAY_SLOTS} places")
