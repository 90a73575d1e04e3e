"""The position as an SVG picture, drawn from `state.to_dict()` with the standard library only.

One drawing serves both engines: their `to_dict()` is the same (docs/state.md), and
`State._repr_svg_` of each calls `state_svg` (so notebooks show the board): this module gives
the reference's State its `_repr_svg_` when it is imported (vikinger_ref/__init__.py imports
it), as vikinger_fast.pictures does for the C++ State, so the pictures depend on the state and
never the reverse. The parts: svg_panel.py (wheel and supply), svg_board.py (a player's board),
svg_pieces.py (the pieces); here the header and the whole picture. Everything that is
counted is marked for machines too: tiles, Vikings, ships and wheel groups carry a `class` and
`data-*` attributes (docs/pictures.md), which the tests count against the state.

>>> import vikinger_ref as vk
>>> svg = state_svg(vk.Game(num_players=2).new_initial_state())
>>> svg.startswith("<svg") and 'class="board"' in svg
True
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from typing import Any, Mapping, Sequence, Union

from .state import State
from .svg_board import board_columns, board_size, draw_board
from .svg_panel import draw_supply, draw_wheel
from .svg_pieces import (
    THREAT,
    el,
    text_el,
    tooltip,
)

PANEL_W = 300  # the left panel: wheel, supply, modules
HEADER_H = 34
GAP = 12
FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"
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


def _header(parent: ET.Element, d: Mapping[str, Any], width: float, to_move: int | None) -> None:
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


def _legal_places(
    legal: Sequence[str] | None,
) -> tuple[dict[tuple[int, int], str], dict[int, str]]:
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


def board_svg(
    d: Mapping[str, Any],
    to_move: int | None = None,
    min_columns: int = 8,
    returns: Sequence[float] | None = None,
    legal: Sequence[str] | None = None,
) -> str:
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
    draw_wheel(svg, d, PANEL_W / 2 + GAP / 2, HEADER_H + GAP + 140, 118, legal_buys)
    draw_supply(svg, d, GAP, HEADER_H + GAP + 310)
    for p in range(n):
        bx = PANEL_W + GAP + (p % grid_cols) * (board_w + GAP)
        by = HEADER_H + GAP + (p // grid_cols) * (board_h + GAP)
        draw_board(
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


def state_svg(state: Any, min_columns: int = 8, show_legal: bool = True) -> str:
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


def write_svg(state: Any, path: Union[str, os.PathLike[str]], min_columns: int = 8) -> None:
    """Write the picture of `state` to `path` (an .svg file)."""
    with open(path, "w", encoding="utf-8") as out:
        out.write(state_svg(state, min_columns=min_columns))


def _repr_svg_(state: Any) -> str:
    return state_svg(state)


State._repr_svg_ = _repr_svg_  # type: ignore[attr-defined]
