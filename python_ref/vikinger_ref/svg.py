"""The position as an SVG picture, drawn from `state.to_dict()` with the standard library only.

One drawing serves both engines: their `to_dict()` is the same (docs/state.md), and
`State._repr_svg_` of each calls `state_svg` (so notebooks show the board). Everything that is
counted is marked for machines too: tiles, Vikings, ships and wheel groups carry a `class` and
`data-*` attributes (docs/pictures.md), which the tests count against the state.

>>> import vikinger_ref as vk
>>> svg = state_svg(vk.Game(num_players=2).new_initial_state())
>>> svg.startswith("<svg") and 'class="board"' in svg
True
"""

import math
import xml.etree.ElementTree as ET

from .components import COLOURS, ROW_NAMES, SPECIAL_KINDS, TILE_KINDS, TILE_SHORT
from .svg_pieces import (
    CELL,
    LEGAL,
    MAINLAND,
    PLAYER_ACCENT,
    SAIL_NAME,
    SEA,
    SEA_EDGE,
    THREAT,
    draw_chip,
    draw_land,
    draw_ship,
    draw_tile,
    draw_viking,
    el,
    ship_value,
    text_el,
    tooltip,
)

LABEL_W = 92  # row numbers and names left of the mainland
MAINLAND_W = 86  # the mainland's parking area (B2.3: its edge counts as sea)
TITLE_H = 28
BOARD_PAD = 10
PANEL_W = 300  # the left panel: wheel, supply, modules
HEADER_H = 34
GAP = 12
FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"

# A5 tile labels short enough for a chip; the full name goes into the tooltip.
SPECIAL_LABEL = {
    "gold5": "+5 gold",
    "goldsmith1": "G +1",
    "goldsmith2": "G +2",
    "boat": "boat",
    "noble1": "N +1",
    "scout1": "S +1",
    "fisherman1": "F +1",
    "horn": "horn",
    "fish": "fish",
    "treasury": "treasury",
    "building1": "bldg 1",
    "building2": "bldg 2",
    "building3": "bldg 3",
    "building4": "bldg 4",
}
MODULE_IDS = {
    "auction": "A1",
    "draw13": "A2",
    "offer_by_colour": "A3",
    "weak_boatsmen": "A4",
    "special_tiles": "A5",
}
CHANCE_WHAT = {
    "reveal_tile": "a tile is revealed",
    "draw_viking": "a Viking is drawn",
    "special_fill": "a special tile is revealed",
}


# --- the player's board -----------------------------------------------------------------------


def legal_outline(opacity):
    """The dashed outline of every place a legal action acts on (the legend explains it)."""
    return {
        "fill": LEGAL,
        "fill_opacity": opacity,
        "stroke": LEGAL,
        "stroke_width": 2,
        "stroke_dasharray": "4 3",
    }


def _threat(player):
    """B7.0 from the dict: {column: (reach, repelled)} for every ship, and the threatened
    cells. A ship is repelled by a warrior on the row-1 tile of its column."""
    warriors = set(player["vikings"][0])
    ships = {}
    for col, sail in enumerate(player["ships"], start=1):
        if sail != ".":
            ships[col] = (ship_value(sail)[1], col in warriors)
    cells = {
        (row, col)
        for col, (reach, repelled) in ships.items()
        if not repelled
        for row in range(1, reach + 1)
    }
    return ships, cells


def board_columns(player):
    """The widest column the player uses (ships or island rows)."""
    return max([len(player["ships"])] + [len(row) for row in player["rows"]])


def board_size(columns, special_tiles):
    width = BOARD_PAD * 2 + LABEL_W + MAINLAND_W + columns * CELL
    height = TITLE_H + 6 * CELL + 16 + (26 if special_tiles else 0) + BOARD_PAD
    return width, height


def _board(parent, d, p, x, y, columns, to_move, returns, legal_cells, legal_vikings=()):
    player = d["players"][p]
    special_tiles = d["options"]["special_tiles"]
    width, height = board_size(columns, special_tiles)
    accent = PLAYER_ACCENT[p]
    board = el(parent, "g", class_="board", data_player=p)
    moving = to_move == p
    el(
        board,
        "rect",
        x=x,
        y=y,
        width=width,
        height=height,
        rx=8,
        fill="#fbfaf6",
        stroke=accent,
        stroke_width=3.5 if moving else 1.2,
    )
    _board_title(board, d, p, x, y, width, moving)
    if returns is not None and returns[p] > 0:
        text_el(
            board,
            x + width - BOARD_PAD,
            y + 18,
            "winner" if returns[p] == 1 else f"shared win ({returns[p]:.2g})",
            size=12,
            anchor="end",
            weight="bold",
            fill="#b8860b",
            class_="winner",
            data_value=f"{returns[p]:g}",
        )
    grid_x, grid_y = x + BOARD_PAD + LABEL_W + MAINLAND_W, y + TITLE_H
    ships, threatened = _threat(player)
    el(
        board,
        "rect",
        x=grid_x,
        y=grid_y,
        width=columns * CELL,
        height=6 * CELL,
        fill=SEA,
        stroke=SEA_EDGE,
    )
    # Rows and columns numbered as the moves name them (docs/actions.md: tile:r2c3 is row 2,
    # column 3; ship:c2 is ship column 2).
    for row, name in enumerate(("ships",) + ROW_NAMES):
        cy = grid_y + row * CELL + CELL / 2
        if row:
            draw_viking(board, x + BOARD_PAD + 7, cy, name, r=5)
        text_el(
            board,
            x + BOARD_PAD + (16 if row else 0),
            cy + 4,
            f"r{row} {name}" if row else name,
            size=11,
            fill="#444",
            class_="row-label",
            data_row=row,
        )
    for col in range(1, columns + 1):
        text_el(
            board,
            grid_x + (col - 0.5) * CELL,
            grid_y + 6 * CELL + 12,
            f"c{col}",
            size=10,
            anchor="middle",
            fill="#666",
            class_="col-label",
            data_col=col,
        )
    _mainland(board, player, x + BOARD_PAD + LABEL_W, grid_y)
    for row, col in sorted(threatened):
        el(
            board,
            "rect",
            class_="threat",
            data_row=row,
            data_col=col,
            x=grid_x + (col - 1) * CELL,
            y=grid_y + row * CELL,
            width=CELL,
            height=CELL,
            fill="url(#vk-threat)",
        )
    for col, (reach, repelled) in ships.items():
        _board_ship(
            board, player["ships"][col - 1], grid_x + (col - 1) * CELL, grid_y, col, reach, repelled
        )
    buildings = {tuple(cell): b + 1 for b, cell in enumerate(player.get("buildings") or []) if cell}
    vikings = [set(cols) for cols in player["vikings"]]
    for row, cells in enumerate(player["rows"], start=1):
        for col, short in enumerate(cells, start=1):
            if short == ".":
                continue
            cx, cy = grid_x + (col - 1) * CELL, grid_y + row * CELL
            tile = draw_land(
                board, cx, cy, short, class_="tile", data_kind=short, data_row=row, data_col=col
            )
            tooltip(
                tile,
                f"row {row} ({ROW_NAMES[row - 1]}), column {col}: "
                f"{TILE_KINDS[TILE_SHORT.index(short)]}"
                + (" (start tile)" if col == 1 and row == player["start_row"] else ""),
            )
            if col == 1 and row == player["start_row"]:
                el(
                    board,
                    "path",
                    d=f"M{cx + 9:g},{cy + 7:g}v10M{cx + 9:g},{cy + 7:g}l6,2.5l-6,2.5",
                    stroke="#5b4a2e",
                    fill="#fff",
                    stroke_width=1,
                )
            if (row, col) in buildings:
                _building(board, cx, cy, buildings[(row, col)])
            if col in vikings[row - 1]:
                _board_viking(board, cx, cy, row, col, (row, col) in threatened)
    for (row, col), action in sorted(legal_cells.items()):
        tooltip(
            el(
                board,
                "rect",
                x=grid_x + (col - 1) * CELL + 2,
                y=grid_y + row * CELL + 2,
                width=CELL - 4,
                height=CELL - 4,
                rx=5,
                **legal_outline(0.14),
                class_="legal",
                data_action=action,
                data_row=row,
                data_col=col,
            ),
            f"legal: {action}",
        )
    _viking_choices(board, d, legal_vikings, grid_x, grid_y, x + BOARD_PAD + LABEL_W)
    if special_tiles:
        _held_specials(board, player, x + BOARD_PAD, y + height - BOARD_PAD - 20)
    return width, height


def _viking_choices(board, d, legal_vikings, grid_x, grid_y, mainland_x):
    """B6.4: where the bought Viking may go, outlined like the other choices: a ring on the
    tile just placed (viking:tile) and the mainland (viking:mainland)."""
    cell = (d.get("pending") or {}).get("cell")
    if "viking:tile" in legal_vikings and cell:
        row, col = cell
        tooltip(
            el(
                board,
                "circle",
                cx=grid_x + (col - 1) * CELL + CELL * 0.34,
                cy=grid_y + row * CELL + CELL * 0.55,
                r=11,
                **legal_outline(0.14),
                class_="legal-viking",
                data_action="viking:tile",
            ),
            "legal: viking:tile",
        )
    if "viking:mainland" in legal_vikings:
        tooltip(
            el(
                board,
                "rect",
                x=mainland_x + 2,
                y=grid_y + CELL + 2,
                width=MAINLAND_W - 8,
                height=5 * CELL - 4,
                rx=6,
                **legal_outline(0.14),
                class_="legal-viking",
                data_action="viking:mainland",
            ),
            "legal: viking:mainland",
        )


def _board_title(board, d, p, x, y, width, moving):
    player = d["players"][p]
    accent = PLAYER_ACCENT[p]
    el(
        board,
        "rect",
        x=x + 1.5,
        y=y + 1.5,
        width=width - 3,
        height=TITLE_H - 6,
        rx=6,
        fill=accent,
        fill_opacity=0.14,
    )
    text_el(board, x + BOARD_PAD, y + 18, f"Player {p}", size=14, weight="bold", fill=accent)
    if d["start_player"] == p:
        tooltip(
            el(
                board,
                "circle",
                cx=x + BOARD_PAD + 78,
                cy=y + 13,
                r=6,
                fill="#fff",
                stroke=accent,
                stroke_width=2,
                class_="start-marker",
            ),
            "start player",
        )
    text_el(
        board,
        x + BOARD_PAD + 96,
        y + 18,
        f"gold {player['gold']}",
        size=12,
        class_="gold",
        data_value=player["gold"],
    )
    text_el(
        board,
        x + BOARD_PAD + 160,
        y + 18,
        f"Fame {player['fame']}",
        size=12,
        weight="bold",
        class_="fame",
        data_value=player["fame"],
    )
    if moving:
        text_el(
            board,
            x + width - BOARD_PAD,
            y + 18,
            "to move",
            size=12,
            anchor="end",
            weight="bold",
            fill=accent,
            class_="to-move",
        )


def _mainland(board, player, x, y):
    """The mainland and its waiting Vikings, one column of dots per colour (B6.4)."""
    area = el(
        board,
        "rect",
        x=x + 2,
        y=y + CELL + 2,
        width=MAINLAND_W - 8,
        height=5 * CELL - 4,
        rx=6,
        fill=MAINLAND,
        stroke="#8a744a",
    )
    tooltip(area, "mainland: " + ", ".join(f"{player['mainland'][c]} {c}" for c in COLOURS))
    el(
        board,
        "rect",
        x=x + 2,
        y=y + 2,
        width=MAINLAND_W - 8,
        height=CELL,
        rx=6,
        fill=MAINLAND,
        stroke="#8a744a",
        opacity=0.55,
    )
    text_el(
        board,
        x + MAINLAND_W / 2 - 2,
        y + CELL / 2 + 4,
        "mainland",
        size=10,
        anchor="middle",
        fill="#4d3f22",
    )
    step = (MAINLAND_W - 14) / 6
    for c, colour in enumerate(COLOURS):
        count = player["mainland"][colour]
        cx = x + 8 + step * (c + 0.5)
        for k in range(count):
            draw_viking(
                board,
                cx,
                y + CELL + 10 + k * 10.5,
                colour,
                r=4.6,
                stroke_width=0.8,
                class_="mainland-viking",
                data_colour=colour,
            )
        if count:
            text_el(board, cx, y + 6 * CELL - 5, count, size=9, anchor="middle", fill="#2b2415")


def _board_ship(board, sail, x, y, col, reach, repelled):
    value, _ = ship_value(sail)
    mark = draw_ship(
        board,
        x,
        y,
        sail,
        class_="ship",
        data_sail=sail,
        data_col=col,
        data_repelled=int(repelled),
        opacity=0.45 if repelled else None,
    )
    tooltip(
        mark,
        f"{SAIL_NAME[sail]} ship, column {col}: threatens rows 1-{reach}, worth "
        f"{value}" + (" - repelled by a warrior" if repelled else ""),
    )
    if repelled:
        el(
            board,
            "path",
            class_="repelled",
            data_col=col,
            d=f"M{x + 20:g},{y + 3:g}h9v6c0,5-4.5,7-4.5,7c0,0-4.5-2-4.5-7Z",
            fill="#1e1e1e",
            stroke="#fff",
            stroke_width=1,
        )


def _board_viking(board, x, y, row, col, threatened):
    colour = COLOURS[5 - row]
    mark = draw_viking(
        board,
        x + CELL * 0.34,
        y + CELL * 0.55,
        colour,
        class_="viking",
        data_colour=colour,
        data_row=row,
        data_col=col,
        data_threatened=int(threatened),
    )
    if threatened:
        el(
            board,
            "circle",
            cx=x + CELL * 0.34,
            cy=y + CELL * 0.55,
            r=10.5,
            fill="none",
            stroke=THREAT,
            stroke_width=2,
            stroke_dasharray="3 2",
        )
    tooltip(mark, f"{colour} on row {row}, column {col}" + (", threatened" if threatened else ""))


def _building(board, x, y, b):
    """A5: a building tile placed over a middle piece."""
    el(
        board,
        "rect",
        x=x + 1.5,
        y=y + 1.5,
        width=CELL - 3,
        height=CELL - 3,
        rx=4,
        fill="none",
        stroke="#c99a06",
        stroke_width=2.5,
        class_="building",
        data_building=b,
    )


def _held_specials(board, player, x, y):
    """A5: the special tiles a player holds (placed and waiting buildings included)."""
    text_el(board, x, y + 14, "specials", size=10, fill="#666")
    cx = x + 52
    for kind in SPECIAL_KINDS:
        count = (player.get("specials") or {}).get(kind, 0)
        if count:
            cx += (
                draw_chip(
                    board,
                    cx,
                    y,
                    SPECIAL_LABEL[kind] + (f" x{count}" if count > 1 else ""),
                    kind,
                    class_="held-special",
                    data_kind=kind,
                    data_count=count,
                )
                + 4
            )


# --- the wheel, the supply and the header -----------------------------------------------------


def _wheel(parent, d, cx, cy, radius, legal_buys):
    """B4: twelve spaces; the wheel is turned so that the group at price 0 is at the top and
    prices grow clockwise (B4.3: price = space - lowest occupied space)."""
    wheel = d["wheel"]
    occupied = [s for s, group in enumerate(wheel) if group is not None]
    low = occupied[0] if occupied else 0
    # A5: buying the group with the highest price (never price 0) brings a displayed special
    # tile; marked while groups are bought (earlier, the next reveals may change the highest).
    special_space = (
        occupied[-1]
        if d["options"].get("special_tiles")
        and d["phase"] == "buy"
        and len(occupied) > 1
        and any(d.get("display") or [])
        else None
    )
    el(parent, "circle", cx=cx, cy=cy, r=radius, fill="#efe6d2", stroke="#8a744a", stroke_width=2)
    el(parent, "circle", cx=cx, cy=cy, r=radius * 0.42, fill="#fbfaf6", stroke="#c8b68c")
    for s in range(12):
        angle = math.radians((s - low) * 30 - 90)
        gx, gy = cx + math.cos(angle) * radius * 0.7, cy + math.sin(angle) * radius * 0.7
        px, py = cx + math.cos(angle) * radius * 1.1, cy + math.sin(angle) * radius * 1.1
        el(
            parent,
            "line",
            x1=cx + math.cos(angle + math.pi / 12) * radius * 0.42,
            y1=cy + math.sin(angle + math.pi / 12) * radius * 0.42,
            x2=cx + math.cos(angle + math.pi / 12) * radius,
            y2=cy + math.sin(angle + math.pi / 12) * radius,
            stroke="#c8b68c",
        )
        group = wheel[s]
        if group is None:
            text_el(parent, gx, gy + 4, s, size=9, anchor="middle", fill="#b8a77f")
            continue
        price = s - low
        node = el(
            parent,
            "g",
            class_="group",
            data_space=s,
            data_price=price,
            data_tile=group.get("tile") or "",
            data_viking=group.get("viking") or "",
        )
        if s in legal_buys:
            tooltip(
                el(
                    parent,
                    "circle",
                    cx=gx - 2,
                    cy=gy,
                    r=21,
                    **legal_outline(0.12),
                    class_="legal-buy",
                    data_action=legal_buys[s],
                    data_space=s,
                ),
                f"legal: {legal_buys[s]}",
            )
        if group.get("tile"):
            draw_tile(node, gx - 16, gy - 13, group["tile"], 22)
        if group.get("viking"):
            draw_viking(node, gx + 9, gy + 4, group["viking"], r=6.5)
        tooltip(
            node,
            f"space {s}, price {price}: {group.get('tile') or 'no tile yet'} + "
            f"{group.get('viking') or 'no Viking yet'}",
        )
        text_el(
            parent,
            px,
            py + 4,
            price,
            size=12,
            anchor="middle",
            weight="bold",
            fill="#5b4a2e" if price else THREAT,
            class_="price",
        )
        if s == special_space:
            tooltip(
                el(
                    parent,
                    "circle",
                    cx=px,
                    cy=py,
                    r=10,
                    fill="none",
                    stroke="#c99a06",
                    stroke_width=2,
                    class_="special-offer",
                    data_space=s,
                ),
                "A5: buying this group (the highest price) may take a special tile",
            )
    text_el(parent, cx, cy - 4, f"Round {d['round']}", size=15, anchor="middle", weight="bold")
    text_el(parent, cx, cy + 13, "of 6", size=10, anchor="middle", fill="#666")


def _counts_row(parent, x, y, label, counts, attrs_class):
    text_el(parent, x, y + 4, label, size=10, fill="#666")
    for c, colour in enumerate(COLOURS):
        cx = x + 62 + c * 36
        draw_viking(parent, cx, y, colour, r=5.5, stroke_width=0.8)
        text_el(
            parent,
            cx + 8,
            y + 4,
            counts.get(colour, 0),
            size=10,
            class_=attrs_class,
            data_colour=colour,
        )


def _supply(parent, d, x, y):
    """The stacks, the bag, the Vikings drawn this round (A0: beside the wheel), the group
    being placed, a boatsman trip and the A1 auction; returns the y below."""
    text_el(parent, x, y, "stacks", size=10, fill="#666")
    for k, kind in enumerate(TILE_KINDS):
        gx = x + 44 + (k % 5) * 48
        gy = y - 14 + (k // 5) * 24
        draw_tile(parent, gx, gy, kind, 18)
        text_el(
            parent, gx + 21, gy + 13, d["stacks"][kind], size=10, class_="stack", data_kind=kind
        )
    y += 46
    _counts_row(parent, x, y, "bag", d["bag"], "bag")
    y += 20
    for key, label in (("drawn", "drawn"), ("removed", "removed")):
        if any(d.get(key, {}).values()):
            _counts_row(parent, x, y, label, d[key], key)
            y += 20
    pending = d.get("pending")
    if pending:
        text_el(parent, x, y + 4, "placing", size=10, fill="#666")
        draw_tile(parent, x + 56, y - 9, pending["tile"], 20)
        draw_viking(parent, x + 86, y + 1, pending["viking"], r=6)
        cell = pending.get("cell")
        text_el(
            parent,
            x + 98,
            y + 5,
            f"{pending['tile']} + {pending['viking']}"
            + (f" at r{cell[0]}c{cell[1]}" if cell else ""),
            size=10,
        )
        y += 24
    trip = d.get("trip")
    if trip:
        queue = ", ".join(f"{k} {colour}" for colour, k in trip["queue"])
        text_el(parent, x, y + 4, f"boatsman trip: {queue} to place", size=10)
        y += 20
    auction = d.get("auction")
    if auction:
        high = "none yet" if auction["high"] is None else auction["high"]
        passed = [str(p) for p, out in enumerate(auction["passed"]) if out]
        text_el(
            parent,
            x,
            y + 4,
            f"auction (A1): high bid {high} by player {auction['leader']}; "
            f"passed: {', '.join(passed) or 'nobody'}",
            size=10,
            class_="auction",
        )
        y += 20
    if d["options"].get("special_tiles"):
        y = _display(parent, d, x, y)
    return y


def _display(parent, d, x, y):
    """A5: the four display places and the special stack."""
    text_el(parent, x, y + 4, "specials", size=10, fill="#666")
    cx = x + 56
    for slot, kind in enumerate(d.get("display") or []):
        if kind is None:
            el(
                parent,
                "rect",
                x=cx,
                y=y - 9,
                width=40,
                height=19,
                rx=9.5,
                fill="none",
                stroke="#c9b98a",
                stroke_dasharray="3 2",
                class_="special-slot",
                data_slot=slot,
            )
            cx += 44
        else:
            cx += (
                draw_chip(
                    parent,
                    cx,
                    y - 9,
                    SPECIAL_LABEL[kind],
                    f"display place {slot}: {kind}",
                    class_="special",
                    data_kind=kind,
                    data_slot=slot,
                )
                + 4
            )
    stack = sum((d.get("special_stack") or {}).values())
    text_el(parent, x + 56, y + 26, f"special stack: {stack} tiles", size=10, fill="#666")
    return y + 40


def _header(parent, d, width, to_move):
    phase = d["phase"]
    if phase == "game_over":
        who = "game over"
    elif phase in CHANCE_WHAT:
        who = f"chance: {CHANCE_WHAT[phase]}"
    elif to_move is not None:
        who = f"player {to_move} to move"
    else:
        who = ""
    active = [name for name, on in d["options"].items() if on]
    el(parent, "rect", x=0, y=0, width=width, height=HEADER_H, fill="#2e3d49")
    text_el(
        parent,
        GAP,
        22,
        f"Round {d['round']}/6",
        size=15,
        weight="bold",
        fill="#fff",
        class_="round",
        data_value=d["round"],
    )
    text_el(
        parent,
        GAP + 100,
        22,
        f"phase {phase.replace('_', ' ')}",
        size=13,
        fill="#dfe6ea",
        class_="phase",
        data_value=phase,
    )
    text_el(
        parent,
        GAP + 300,
        22,
        who,
        size=13,
        weight="bold",
        fill="#ffd866",
        class_="turn",
        data_value="" if to_move is None else to_move,
    )
    modules = text_el(
        parent,
        width - GAP,
        22,
        f"{d['num_players']} players"
        + (f" | {', '.join(MODULE_IDS[name] for name in active)}" if active else ""),
        size=11,
        anchor="end",
        fill="#b8c4cc",
    )
    tooltip(modules, "modules: " + (", ".join(active) or "none (base game)"))


# --- the whole picture ------------------------------------------------------------------------


def _legal_places(legal):
    """Where the decisions in `legal` (action strings of docs/actions.md) act: {(row, col):
    action} on the mover's board (row 0 is the ship row) and {space: action} on the wheel.
    Decisions without a place (trips, bids, colours, specials) are not drawn; the Viking's
    (B6.4) are drawn by _viking_choices."""
    cells, buys = {}, {}
    for action in legal or ():
        kind, _, where = action.partition(":")
        if kind in ("tile", "target", "building"):
            row, col = where[1:].split("c")
            cells[(int(row), int(col))] = action
        elif kind == "start":
            cells[(int(where[1:]), 1)] = action
        elif kind == "ship":
            cells[(0, int(where[1:]))] = action
        elif kind == "buy":
            buys[int(where)] = action
    return cells, buys


def board_svg(d, to_move=None, min_columns=8, returns=None, legal=None):
    """The SVG text of a position given as its `to_dict()`; `to_move` is the player to move
    (None at chance and terminal nodes, or when unknown); boards are at least `min_columns`
    wide (the viewer passes a game's widest board, so pictures keep one size); `returns`, at
    the end of a game, marks the winners (B8.9, as the engine's `returns()` says); `legal`, the
    strings of the legal decisions, outlines where they act (cells, ship columns, groups)."""
    n = d["num_players"]
    columns = max([min_columns] + [board_columns(player) + 1 for player in d["players"]])
    board_w, board_h = board_size(columns, d["options"].get("special_tiles", False))
    grid_cols = 1 if n == 2 else 2
    width = PANEL_W + GAP + grid_cols * (board_w + GAP)
    height = HEADER_H + GAP + max(2 * (board_h + GAP), 560)
    svg = ET.Element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "width": str(width),
            "height": str(height),
            "viewBox": f"0 0 {width} {height}",
            "font-family": FONT,
            "class": "vikinger-state",
        },
    )
    defs = el(svg, "defs")
    hatch = el(
        defs,
        "pattern",
        id="vk-threat",
        width=6,
        height=6,
        patternUnits="userSpaceOnUse",
        patternTransform="rotate(45)",
    )
    el(hatch, "rect", width=6, height=6, fill=THREAT, fill_opacity=0.08)
    el(hatch, "line", x1=0, y1=0, x2=0, y2=6, stroke=THREAT, stroke_width=2, stroke_opacity=0.35)
    el(svg, "rect", x=0, y=0, width=width, height=height, fill="#f3efe6")
    _header(svg, d, width, to_move)
    legal_cells, legal_buys = _legal_places(legal)
    _wheel(svg, d, PANEL_W / 2 + GAP / 2, HEADER_H + GAP + 140, 118, legal_buys)
    _supply(svg, d, GAP, HEADER_H + GAP + 310)
    for p in range(n):
        bx = PANEL_W + GAP + (p % grid_cols) * (board_w + GAP)
        by = HEADER_H + GAP + (p // grid_cols) * (board_h + GAP)
        _board(
            svg,
            d,
            p,
            bx,
            by,
            columns,
            to_move,
            returns,
            legal_cells if p == to_move else {},
            [a for a in legal or () if a.startswith("viking:")] if p == to_move else (),
        )
    return ET.tostring(svg, encoding="unicode")


def state_svg(state, min_columns=8, show_legal=True):
    """The SVG text of a State of either engine; `show_legal` outlines where the legal
    decisions of the player to move act."""
    player = state.current_player()
    to_move = player if player >= 0 else None
    returns = [float(r) for r in state.returns()] if state.is_terminal() else None
    legal = (
        [state.action_to_string(a) for a in state.legal_actions()]
        if show_legal and to_move is not None
        else None
    )
    return board_svg(
        state.to_dict(), to_move=to_move, min_columns=min_columns, returns=returns, legal=legal
    )


def write_svg(state, path, min_columns=8):
    """Write the picture of `state` to `path` (an .svg file)."""
    with open(path, "w", encoding="utf-8") as out:
        out.write(state_svg(state, min_columns=min_columns))
