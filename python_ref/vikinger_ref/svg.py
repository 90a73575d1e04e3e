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

from .components import COLOURS, ROW_NAMES, SHIP_TABLE, SPECIAL_KINDS, TILE_KINDS, TILE_SHORT

CELL = 32                     # one board cell, in px
LABEL_W = 80                  # row names left of the mainland
MAINLAND_W = 86               # the mainland's parking area (B2.3: its edge counts as sea)
TITLE_H = 28
BOARD_PAD = 10
PANEL_W = 300                 # the left panel: wheel, supply, modules
HEADER_H = 34
GAP = 12
FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"

# B1.1 the Viking colours as the box prints them.
VIKING_FILL = {"fisherman": "#2f6fd6", "goldsmith": "#f1c232", "scout": "#3c9a4a",
               "noble": "#cc3329", "warrior": "#1e1e1e", "boatsman": "#9b9b9b"}
SAIL_FILL = {"r": "#cc3329", "g": "#3c9a4a", "y": "#f1c232", "b": "#2f6fd6"}
SAIL_NAME = {"r": "red", "g": "green", "y": "yellow", "b": "blue"}
PLAYER_ACCENT = ("#7b3fa0", "#d2691e", "#138d90", "#c2407a")
SEA, SEA_EDGE, LAND, LAND_EDGE = "#d7ecf6", "#9cc9de", "#a8cf76", "#6f9a47"
THREAT, MAINLAND = "#e0352b", "#b9a06a"
# A5 tile labels short enough for a chip; the full name goes into the tooltip.
SPECIAL_LABEL = {"gold5": "+5 gold", "goldsmith1": "G +1", "goldsmith2": "G +2", "boat": "boat",
                 "noble1": "N +1", "scout1": "S +1", "fisherman1": "F +1", "horn": "horn",
                 "fish": "fish", "treasury": "treasury", "building1": "bldg 1",
                 "building2": "bldg 2", "building3": "bldg 3", "building4": "bldg 4"}
MODULE_IDS = {"auction": "A1", "draw13": "A2", "offer_by_colour": "A3", "weak_boatsmen": "A4",
              "special_tiles": "A5"}
CHANCE_WHAT = {"reveal_tile": "a tile is revealed", "draw_viking": "a Viking is drawn",
               "special_fill": "a special tile is revealed"}


def _el(parent, tag, text=None, **attrs):
    """A child element; `class_` and `data_x` keywords become `class` and `data-x`."""
    clean = {}
    for key, value in attrs.items():
        if value is None:
            continue
        key = key.rstrip("_").replace("_", "-")
        clean[key] = f"{value:g}" if isinstance(value, float) else str(value)
    node = ET.SubElement(parent, tag, clean)
    if text is not None:
        node.text = str(text)
    return node


def _text(parent, x, y, text, size=12, anchor="start", weight=None, fill="#222", **attrs):
    return _el(parent, "text", text, x=x, y=y, font_size=size, text_anchor=anchor,
               font_weight=weight, fill=fill, **attrs)


def _title(node, text):
    """A tooltip (browsers show it on hover)."""
    _el(node, "title", text)
    return node


# --- the small pictures -----------------------------------------------------------------------

def _land(parent, x, y, short, size=CELL, **attrs):
    """An island tile: land with sea on top and bottom; the sea side (left of L, right of R) is
    rounded so that neighbouring pieces read as one island (B1.2)."""
    inset, r = size * 0.08, size * 0.3
    top, bottom = y + inset, y + size - inset
    left_round, right_round = short == "L", short == "R"
    x0 = x + (inset if left_round else 0)
    x1 = x + size - (inset if right_round else 0)
    path = [f"M{x0 + (r if left_round else 0):g},{top:g}",
            f"H{x1 - (r if right_round else 0):g}"]
    path.append(f"Q{x1:g},{top:g} {x1:g},{top + r:g}V{bottom - r:g}Q{x1:g},{bottom:g} "
                f"{x1 - r:g},{bottom:g}" if right_round else f"V{bottom:g}")
    path.append(f"H{x0 + (r if left_round else 0):g}")
    path.append(f"Q{x0:g},{bottom:g} {x0:g},{bottom - r:g}V{top + r:g}Q{x0:g},{top:g} "
                f"{x0 + r:g},{top:g}Z" if left_round else f"V{top:g}Z")
    node = _el(parent, "path", d="".join(path), fill=LAND, stroke=LAND_EDGE, stroke_width=1,
               **attrs)
    if short in "1234":
        _house(parent, x + size * 0.76, y + size * 0.3, size * 0.17, short)
    return node


def _house(parent, cx, cy, half, number, fill="#f7f1e1"):
    """A middle piece's building picture (1-4), drawn as a numbered house (B1.2)."""
    h = half
    _el(parent, "path", d=f"M{cx - h:g},{cy + h:g}V{cy - h * 0.2:g}L{cx:g},{cy - h:g}"
                         f"L{cx + h:g},{cy - h * 0.2:g}V{cy + h:g}Z",
        fill=fill, stroke="#5b4a2e", stroke_width=0.8)
    _text(parent, cx, cy + h * 0.85, number, size=h * 1.35, anchor="middle", fill="#5b4a2e")


def _ship(parent, x, y, sail, size=CELL, **attrs):
    """A ship tile: hull and a sail of its colour, which sets how deep it threatens (B1.3)."""
    group = _el(parent, "g", **attrs)
    s = size
    _el(group, "path", d=f"M{x + s * .12:g},{y + s * .66:g}H{x + s * .88:g}L{x + s * .74:g},"
                         f"{y + s * .86:g}H{x + s * .26:g}Z", fill="#7a5230")
    _el(group, "path", d=f"M{x + s * .5:g},{y + s * .1:g}V{y + s * .64:g}H{x + s * .18:g}Z",
        fill=SAIL_FILL[sail], stroke="#333", stroke_width=0.7)
    _el(group, "path", d=f"M{x + s * .55:g},{y + s * .2:g}V{y + s * .64:g}H{x + s * .8:g}Z",
        fill=SAIL_FILL[sail], stroke="#333", stroke_width=0.7, opacity=0.8)
    return group


def _ship_value(sail):
    info = SHIP_TABLE["rgyb".index(sail)]
    return f"{info.value} {'Fame' if info.pays_fame else 'gold'}", info.reach


def _viking(parent, cx, cy, colour, r=8.5, stroke_width=1.5, **attrs):
    return _el(parent, "circle", cx=cx, cy=cy, r=r, fill=VIKING_FILL[colour], stroke="#fff",
               stroke_width=stroke_width, **attrs)


def _tile_glyph(parent, x, y, kind, size):
    """A tile kind (docs/actions.md names) at any size: island piece or ship."""
    short = TILE_SHORT[TILE_KINDS.index(kind)]
    if short in "rgyb":
        _ship(parent, x, y, short, size=size)
    else:
        _land(parent, x, y, short, size=size)


# --- the player's board -----------------------------------------------------------------------

def _threat(player):
    """B7.0 from the dict: {column: (reach, repelled)} for every ship, and the threatened
    cells. A ship is repelled by a warrior on the row-1 tile of its column."""
    warriors = set(player["vikings"][0])
    ships = {}
    for col, sail in enumerate(player["ships"], start=1):
        if sail != ".":
            ships[col] = (_ship_value(sail)[1], col in warriors)
    cells = {(row, col) for col, (reach, repelled) in ships.items() if not repelled
             for row in range(1, reach + 1)}
    return ships, cells


def board_columns(player):
    """The widest column the player uses (ships or island rows)."""
    return max([len(player["ships"])] + [len(row) for row in player["rows"]])


def board_size(columns, special_tiles):
    width = BOARD_PAD * 2 + LABEL_W + MAINLAND_W + columns * CELL
    height = TITLE_H + 6 * CELL + 16 + (26 if special_tiles else 0) + BOARD_PAD
    return width, height


def _board(parent, d, p, x, y, columns, to_move, returns):
    player = d["players"][p]
    special_tiles = d["options"]["special_tiles"]
    width, height = board_size(columns, special_tiles)
    accent = PLAYER_ACCENT[p]
    board = _el(parent, "g", class_="board", data_player=p)
    moving = to_move == p
    _el(board, "rect", x=x, y=y, width=width, height=height, rx=8, fill="#fbfaf6",
        stroke=accent, stroke_width=3.5 if moving else 1.2)
    _board_title(board, d, p, x, y, width, moving)
    if returns is not None and returns[p] > 0:
        _text(board, x + width - BOARD_PAD, y + 18, "winner" if returns[p] == 1 else
              f"shared win ({returns[p]:.2g})", size=12, anchor="end", weight="bold",
              fill="#b8860b", class_="winner", data_value=f"{returns[p]:g}")
    grid_x, grid_y = x + BOARD_PAD + LABEL_W + MAINLAND_W, y + TITLE_H
    ships, threatened = _threat(player)
    _el(board, "rect", x=grid_x, y=grid_y, width=columns * CELL, height=6 * CELL, fill=SEA,
        stroke=SEA_EDGE)
    for row, name in enumerate(("ships",) + ROW_NAMES):
        cy = grid_y + row * CELL + CELL / 2
        if row:
            _viking(board, x + BOARD_PAD + 7, cy, name, r=5)
        _text(board, x + BOARD_PAD + (16 if row else 0), cy + 4, name, size=11, fill="#444")
    for col in range(1, columns + 1):
        _text(board, grid_x + (col - 0.5) * CELL, grid_y + 6 * CELL + 12, col, size=9,
              anchor="middle", fill="#888")
    _mainland(board, player, x + BOARD_PAD + LABEL_W, grid_y)
    for (row, col) in sorted(threatened):
        _el(board, "rect", class_="threat", data_row=row, data_col=col,
            x=grid_x + (col - 1) * CELL, y=grid_y + row * CELL, width=CELL, height=CELL,
            fill="url(#vk-threat)")
    for col, (reach, repelled) in ships.items():
        _board_ship(board, player["ships"][col - 1], grid_x + (col - 1) * CELL, grid_y, col,
                    reach, repelled)
    buildings = {tuple(cell): b + 1 for b, cell in enumerate(player.get("buildings") or [])
                 if cell}
    vikings = [set(cols) for cols in player["vikings"]]
    for row, cells in enumerate(player["rows"], start=1):
        for col, short in enumerate(cells, start=1):
            if short == ".":
                continue
            cx, cy = grid_x + (col - 1) * CELL, grid_y + row * CELL
            tile = _land(board, cx, cy, short, class_="tile", data_kind=short, data_row=row,
                         data_col=col)
            _title(tile, f"row {row} ({ROW_NAMES[row - 1]}), column {col}: "
                         f"{TILE_KINDS[TILE_SHORT.index(short)]}"
                         + (" (start tile)" if col == 1 and row == player["start_row"] else ""))
            if col == 1 and row == player["start_row"]:
                _el(board, "path", d=f"M{cx + 9:g},{cy + 7:g}v10M{cx + 9:g},{cy + 7:g}l6,2.5"
                                     f"l-6,2.5", stroke="#5b4a2e", fill="#fff", stroke_width=1)
            if (row, col) in buildings:
                _building(board, cx, cy, buildings[(row, col)])
            if col in vikings[row - 1]:
                _board_viking(board, cx, cy, row, col, (row, col) in threatened)
    if special_tiles:
        _held_specials(board, player, x + BOARD_PAD, y + height - BOARD_PAD - 20)
    return width, height


def _board_title(board, d, p, x, y, width, moving):
    player = d["players"][p]
    accent = PLAYER_ACCENT[p]
    _el(board, "rect", x=x + 1.5, y=y + 1.5, width=width - 3, height=TITLE_H - 6, rx=6,
        fill=accent, fill_opacity=0.14)
    _text(board, x + BOARD_PAD, y + 18, f"Player {p}", size=14, weight="bold", fill=accent)
    if d["start_player"] == p:
        _title(_el(board, "circle", cx=x + BOARD_PAD + 78, cy=y + 13, r=6, fill="#fff",
                   stroke=accent, stroke_width=2, class_="start-marker"), "start player")
    _text(board, x + BOARD_PAD + 96, y + 18, f"gold {player['gold']}", size=12,
          class_="gold", data_value=player["gold"])
    _text(board, x + BOARD_PAD + 160, y + 18, f"Fame {player['fame']}", size=12,
          weight="bold", class_="fame", data_value=player["fame"])
    if moving:
        _text(board, x + width - BOARD_PAD, y + 18, "to move", size=12, anchor="end",
              weight="bold", fill=accent, class_="to-move")


def _mainland(board, player, x, y):
    """The mainland and its waiting Vikings, one column of dots per colour (B6.4)."""
    area = _el(board, "rect", x=x + 2, y=y + CELL + 2, width=MAINLAND_W - 8, height=5 * CELL - 4,
               rx=6, fill=MAINLAND, stroke="#8a744a")
    _title(area, "mainland: " + ", ".join(f"{player['mainland'][c]} {c}" for c in COLOURS))
    _el(board, "rect", x=x + 2, y=y + 2, width=MAINLAND_W - 8, height=CELL, rx=6, fill=MAINLAND,
        stroke="#8a744a", opacity=0.55)
    _text(board, x + MAINLAND_W / 2 - 2, y + CELL / 2 + 4, "mainland", size=10,
          anchor="middle", fill="#4d3f22")
    step = (MAINLAND_W - 14) / 6
    for c, colour in enumerate(COLOURS):
        count = player["mainland"][colour]
        cx = x + 8 + step * (c + 0.5)
        for k in range(count):
            _viking(board, cx, y + CELL + 10 + k * 10.5, colour, r=4.6, stroke_width=0.8,
                    class_="mainland-viking", data_colour=colour)
        if count:
            _text(board, cx, y + 6 * CELL - 5, count, size=9, anchor="middle", fill="#2b2415")


def _board_ship(board, sail, x, y, col, reach, repelled):
    value, _ = _ship_value(sail)
    ship = _ship(board, x, y, sail, class_="ship", data_sail=sail, data_col=col,
                 data_repelled=int(repelled), opacity=0.45 if repelled else None)
    _title(ship, f"{SAIL_NAME[sail]} ship, column {col}: threatens rows 1-{reach}, worth "
                 f"{value}" + (" - repelled by a warrior" if repelled else ""))
    if repelled:
        _el(board, "path", class_="repelled", data_col=col,
            d=f"M{x + 20:g},{y + 3:g}h9v6c0,5-4.5,7-4.5,7c0,0-4.5-2-4.5-7Z", fill="#1e1e1e",
            stroke="#fff", stroke_width=1)


def _board_viking(board, x, y, row, col, threatened):
    colour = COLOURS[5 - row]
    mark = _viking(board, x + CELL * 0.34, y + CELL * 0.55, colour, class_="viking",
                   data_colour=colour, data_row=row, data_col=col,
                   data_threatened=int(threatened))
    if threatened:
        _el(board, "circle", cx=x + CELL * 0.34, cy=y + CELL * 0.55, r=10.5, fill="none",
            stroke=THREAT, stroke_width=2, stroke_dasharray="3 2")
    _title(mark, f"{colour} on row {row}, column {col}" + (", threatened" if threatened else ""))


def _building(board, x, y, b):
    """A5: a building tile placed over a middle piece."""
    _el(board, "rect", x=x + 1.5, y=y + 1.5, width=CELL - 3, height=CELL - 3, rx=4, fill="none",
        stroke="#c99a06", stroke_width=2.5, class_="building", data_building=b)


def _held_specials(board, player, x, y):
    """A5: the special tiles a player holds (placed and waiting buildings included)."""
    _text(board, x, y + 14, "specials", size=10, fill="#666")
    cx = x + 52
    for kind in SPECIAL_KINDS:
        count = (player.get("specials") or {}).get(kind, 0)
        if count:
            cx += _chip(board, cx, y, SPECIAL_LABEL[kind] + (f" x{count}" if count > 1 else ""),
                        kind, class_="held-special", data_kind=kind, data_count=count) + 4


def _chip(parent, x, y, label, tooltip, fill="#fff4cf", **attrs):
    width = 8 + 6.2 * len(label)
    chip = _el(parent, "g", **attrs)
    _el(chip, "rect", x=x, y=y, width=width, height=19, rx=9.5, fill=fill, stroke="#c99a06")
    _text(chip, x + width / 2, y + 13.5, label, size=10, anchor="middle", fill="#5a4500")
    _title(chip, tooltip)
    return width


# --- the wheel, the supply and the header -----------------------------------------------------

def _wheel(parent, d, cx, cy, radius):
    """B4: twelve spaces; the wheel is turned so that the group at price 0 is at the top and
    prices grow clockwise (B4.3: price = space - lowest occupied space)."""
    wheel = d["wheel"]
    occupied = [s for s, group in enumerate(wheel) if group is not None]
    low = occupied[0] if occupied else 0
    # A5: buying the group with the highest price (never price 0) brings a displayed special
    # tile; marked while groups are bought (earlier, the next reveals may change the highest).
    special_space = (occupied[-1] if d["options"].get("special_tiles") and d["phase"] == "buy"
                     and len(occupied) > 1 and any(d.get("display") or []) else None)
    _el(parent, "circle", cx=cx, cy=cy, r=radius, fill="#efe6d2", stroke="#8a744a",
        stroke_width=2)
    _el(parent, "circle", cx=cx, cy=cy, r=radius * 0.42, fill="#fbfaf6", stroke="#c8b68c")
    for s in range(12):
        angle = math.radians((s - low) * 30 - 90)
        gx, gy = cx + math.cos(angle) * radius * 0.7, cy + math.sin(angle) * radius * 0.7
        px, py = cx + math.cos(angle) * radius * 1.1, cy + math.sin(angle) * radius * 1.1
        _el(parent, "line", x1=cx + math.cos(angle + math.pi / 12) * radius * 0.42,
            y1=cy + math.sin(angle + math.pi / 12) * radius * 0.42,
            x2=cx + math.cos(angle + math.pi / 12) * radius,
            y2=cy + math.sin(angle + math.pi / 12) * radius, stroke="#c8b68c")
        group = wheel[s]
        if group is None:
            _text(parent, gx, gy + 4, s, size=9, anchor="middle", fill="#b8a77f")
            continue
        price = s - low
        node = _el(parent, "g", class_="group", data_space=s, data_price=price,
                   data_tile=group.get("tile") or "", data_viking=group.get("viking") or "")
        if group.get("tile"):
            _tile_glyph(node, gx - 16, gy - 13, group["tile"], 22)
        if group.get("viking"):
            _viking(node, gx + 9, gy + 4, group["viking"], r=6.5)
        _title(node, f"space {s}, price {price}: {group.get('tile') or 'no tile yet'} + "
                     f"{group.get('viking') or 'no Viking yet'}")
        _text(parent, px, py + 4, price, size=12, anchor="middle", weight="bold",
              fill="#5b4a2e" if price else THREAT, class_="price")
        if s == special_space:
            _title(_el(parent, "circle", cx=px, cy=py, r=10, fill="none", stroke="#c99a06",
                       stroke_width=2, class_="special-offer", data_space=s),
                   "A5: buying this group (the highest price) may take a special tile")
    _text(parent, cx, cy - 4, f"Round {d['round']}", size=15, anchor="middle", weight="bold")
    _text(parent, cx, cy + 13, "of 6", size=10, anchor="middle", fill="#666")


def _counts_row(parent, x, y, label, counts, attrs_class):
    _text(parent, x, y + 4, label, size=10, fill="#666")
    for c, colour in enumerate(COLOURS):
        cx = x + 62 + c * 36
        _viking(parent, cx, y, colour, r=5.5, stroke_width=0.8)
        _text(parent, cx + 8, y + 4, counts.get(colour, 0), size=10, class_=attrs_class,
              data_colour=colour)


def _supply(parent, d, x, y):
    """The stacks, the bag, the Vikings drawn this round (A0: beside the wheel), the group
    being placed, a boatsman trip and the A1 auction; returns the y below."""
    _text(parent, x, y, "stacks", size=10, fill="#666")
    for k, kind in enumerate(TILE_KINDS):
        gx = x + 44 + (k % 5) * 48
        gy = y - 14 + (k // 5) * 24
        _tile_glyph(parent, gx, gy, kind, 18)
        _text(parent, gx + 21, gy + 13, d["stacks"][kind], size=10, class_="stack",
              data_kind=kind)
    y += 46
    _counts_row(parent, x, y, "bag", d["bag"], "bag")
    y += 20
    for key, label in (("drawn", "drawn"), ("removed", "removed")):
        if any(d.get(key, {}).values()):
            _counts_row(parent, x, y, label, d[key], key)
            y += 20
    pending = d.get("pending")
    if pending:
        _text(parent, x, y + 4, "placing", size=10, fill="#666")
        _tile_glyph(parent, x + 56, y - 9, pending["tile"], 20)
        _viking(parent, x + 86, y + 1, pending["viking"], r=6)
        cell = pending.get("cell")
        _text(parent, x + 98, y + 5, f"{pending['tile']} + {pending['viking']}"
              + (f" at r{cell[0]}c{cell[1]}" if cell else ""), size=10)
        y += 24
    trip = d.get("trip")
    if trip:
        queue = ", ".join(f"{k} {colour}" for colour, k in trip["queue"])
        _text(parent, x, y + 4, f"boatsman trip: {queue} to place", size=10)
        y += 20
    auction = d.get("auction")
    if auction:
        high = "none yet" if auction["high"] is None else auction["high"]
        passed = [str(p) for p, out in enumerate(auction["passed"]) if out]
        _text(parent, x, y + 4, f"auction (A1): high bid {high} by player {auction['leader']}; "
                                f"passed: {', '.join(passed) or 'nobody'}", size=10,
              class_="auction")
        y += 20
    if d["options"].get("special_tiles"):
        y = _display(parent, d, x, y)
    return y


def _display(parent, d, x, y):
    """A5: the four display places and the special stack."""
    _text(parent, x, y + 4, "specials", size=10, fill="#666")
    cx = x + 56
    for slot, kind in enumerate(d.get("display") or []):
        if kind is None:
            _el(parent, "rect", x=cx, y=y - 9, width=40, height=19, rx=9.5, fill="none",
                stroke="#c9b98a", stroke_dasharray="3 2", class_="special-slot", data_slot=slot)
            cx += 44
        else:
            cx += _chip(parent, cx, y - 9, SPECIAL_LABEL[kind], f"display place {slot}: {kind}",
                        class_="special", data_kind=kind, data_slot=slot) + 4
    stack = sum((d.get("special_stack") or {}).values())
    _text(parent, x + 56, y + 26, f"special stack: {stack} tiles", size=10, fill="#666")
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
    _el(parent, "rect", x=0, y=0, width=width, height=HEADER_H, fill="#2e3d49")
    _text(parent, GAP, 22, f"Round {d['round']}/6", size=15, weight="bold", fill="#fff",
          class_="round", data_value=d["round"])
    _text(parent, GAP + 100, 22, f"phase {phase.replace('_', ' ')}", size=13, fill="#dfe6ea",
          class_="phase", data_value=phase)
    _text(parent, GAP + 300, 22, who, size=13, weight="bold", fill="#ffd866", class_="turn",
          data_value="" if to_move is None else to_move)
    modules = _text(parent, width - GAP, 22, f"{d['num_players']} players"
                    + (f" | {', '.join(MODULE_IDS[name] for name in active)}" if active else ""),
                    size=11, anchor="end", fill="#b8c4cc")
    _title(modules, "modules: " + (", ".join(active) or "none (base game)"))


# --- the whole picture ------------------------------------------------------------------------

def board_svg(d, to_move=None, min_columns=8, returns=None):
    """The SVG text of a position given as its `to_dict()`; `to_move` is the player to move
    (None at chance and terminal nodes, or when unknown); boards are at least `min_columns`
    wide (the viewer passes a game's widest board, so pictures keep one size); `returns`, at
    the end of a game, marks the winners (B8.9, as the engine's `returns()` says)."""
    n = d["num_players"]
    columns = max([min_columns] + [board_columns(player) + 1 for player in d["players"]])
    board_w, board_h = board_size(columns, d["options"].get("special_tiles", False))
    grid_cols = 1 if n == 2 else 2
    width = PANEL_W + GAP + grid_cols * (board_w + GAP)
    height = HEADER_H + GAP + max(2 * (board_h + GAP), 560)
    svg = ET.Element("svg", {"xmlns": "http://www.w3.org/2000/svg", "width": str(width),
                             "height": str(height), "viewBox": f"0 0 {width} {height}",
                             "font-family": FONT, "class": "vikinger-state"})
    defs = _el(svg, "defs")
    hatch = _el(defs, "pattern", id="vk-threat", width=6, height=6,
                patternUnits="userSpaceOnUse", patternTransform="rotate(45)")
    _el(hatch, "rect", width=6, height=6, fill=THREAT, fill_opacity=0.08)
    _el(hatch, "line", x1=0, y1=0, x2=0, y2=6, stroke=THREAT, stroke_width=2, stroke_opacity=0.35)
    _el(svg, "rect", x=0, y=0, width=width, height=height, fill="#f3efe6")
    _header(svg, d, width, to_move)
    _wheel(svg, d, PANEL_W / 2 + GAP / 2, HEADER_H + GAP + 140, 118)
    _supply(svg, d, GAP, HEADER_H + GAP + 310)
    for p in range(n):
        bx = PANEL_W + GAP + (p % grid_cols) * (board_w + GAP)
        by = HEADER_H + GAP + (p // grid_cols) * (board_h + GAP)
        _board(svg, d, p, bx, by, columns, to_move, returns)
    return ET.tostring(svg, encoding="unicode")


def state_svg(state, min_columns=8):
    """The SVG text of a State of either engine."""
    player = state.current_player()
    to_move = player if player >= 0 else None
    returns = [float(r) for r in state.returns()] if state.is_terminal() else None
    return board_svg(state.to_dict(), to_move=to_move, min_columns=min_columns, returns=returns)


def write_svg(state, path, min_columns=8):
    """Write the picture of `state` to `path` (an .svg file)."""
    with open(path, "w", encoding="utf-8") as out:
        out.write(state_svg(state, min_columns=min_columns))
