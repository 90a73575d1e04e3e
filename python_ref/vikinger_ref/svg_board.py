"""One player's board in the SVG picture (svg.py): the title with gold, Fame and the held
tiles, the mainland, the ship row with each ship's reach (B7.0), the five island rows with their
tiles, Vikings and buildings, the threatened cells and, for the player to move, where the legal
decisions act. Drawn from the player's part of `to_dict()` alone."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Collection, Mapping, Sequence

from .components import COLOURS, ROW_NAMES, SPECIAL_KINDS, TILE_KINDS, TILE_SHORT
from .svg_pieces import (
    CELL,
    MAINLAND,
    PLAYER_ACCENT,
    SAIL_NAME,
    SEA,
    SEA_EDGE,
    SPECIAL_LABEL,
    THREAT,
    draw_chip,
    draw_land,
    draw_ship,
    draw_viking,
    el,
    legal_outline,
    ship_value,
    text_el,
    tooltip,
)

LABEL_W = 92  # row numbers and names left of the mainland
MAINLAND_W = 86  # the mainland's parking area (B2.3: its edge counts as sea)
TITLE_H = 28
BOARD_PAD = 10

if TYPE_CHECKING:
    import xml.etree.ElementTree as ET


def _threat(
    player: Mapping[str, Any],
) -> tuple[dict[int, tuple[int, bool]], set[tuple[int, int]]]:
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


def board_columns(player: Mapping[str, Any]) -> int:
    """The widest column the player uses (ships or island rows)."""
    return max([len(player["ships"])] + [len(row) for row in player["rows"]])


def board_size(columns: int, special_tiles: bool) -> tuple[int, int]:
    width = BOARD_PAD * 2 + LABEL_W + MAINLAND_W + columns * CELL
    height = TITLE_H + 6 * CELL + 16 + (26 if special_tiles else 0) + BOARD_PAD
    return width, height


def draw_board(
    parent: ET.Element,
    d: Mapping[str, Any],
    p: int,
    x: float,
    y: float,
    columns: int,
    to_move: int | None,
    returns: Sequence[float] | None,
    legal_cells: Mapping[tuple[int, int], str],
    legal_vikings: Collection[str] = (),
) -> tuple[int, int]:
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


def _viking_choices(
    board: ET.Element,
    d: Mapping[str, Any],
    legal_vikings: Collection[str],
    grid_x: float,
    grid_y: float,
    mainland_x: float,
) -> None:
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


def _board_title(
    board: ET.Element, d: Mapping[str, Any], p: int, x: float, y: float, width: float, moving: bool
) -> None:
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


def _mainland(board: ET.Element, player: Mapping[str, Any], x: float, y: float) -> None:
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


def _board_ship(
    board: ET.Element, sail: str, x: float, y: float, col: int, reach: int, repelled: bool
) -> None:
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


def _board_viking(
    board: ET.Element, x: float, y: float, row: int, col: int, threatened: bool
) -> None:
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


def _building(board: ET.Element, x: float, y: float, b: int) -> None:
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


def _held_specials(board: ET.Element, player: Mapping[str, Any], x: float, y: float) -> None:
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
