"""The pieces of the SVG picture (svg.py): element helpers, the colours and labels, the outline
of a legal place, and the small drawings of island tiles, ships and Vikings, at any size.
Standard library only."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

from .components import SHIP_TABLE, TILE_KINDS, TILE_SHORT

CELL = 32  # one board cell, in px

# B1.1 the Viking colours as the box prints them.
VIKING_FILL = {
    "fisherman": "#2f6fd6",
    "goldsmith": "#f1c232",
    "scout": "#3c9a4a",
    "noble": "#cc3329",
    "warrior": "#1e1e1e",
    "boatsman": "#9b9b9b",
}
SAIL_FILL = {"r": "#cc3329", "g": "#3c9a4a", "y": "#f1c232", "b": "#2f6fd6"}
SAIL_NAME = {"r": "red", "g": "green", "y": "yellow", "b": "blue"}
PLAYER_ACCENT = ("#7b3fa0", "#d2691e", "#138d90", "#c2407a")
SEA, SEA_EDGE, LAND, LAND_EDGE = "#d7ecf6", "#9cc9de", "#a8cf76", "#6f9a47"
THREAT, MAINLAND, LEGAL = "#e0352b", "#b9a06a", "#178a3e"

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


def legal_outline(opacity: float) -> dict[str, Any]:
    """The dashed outline of every place a legal action acts on (the legend explains it)."""
    return {
        "fill": LEGAL,
        "fill_opacity": opacity,
        "stroke": LEGAL,
        "stroke_width": 2,
        "stroke_dasharray": "4 3",
    }


def el(parent: ET.Element, tag: str, text: object = None, **attrs: Any) -> ET.Element:
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


def text_el(
    parent: ET.Element,
    x: float,
    y: float,
    text: object,
    size: float = 12,
    anchor: str = "start",
    weight: str | None = None,
    fill: str = "#222",
    **attrs: Any,
) -> ET.Element:
    return el(
        parent,
        "text",
        text,
        x=x,
        y=y,
        font_size=size,
        text_anchor=anchor,
        font_weight=weight,
        fill=fill,
        **attrs,
    )


def tooltip(node: ET.Element, text: str) -> ET.Element:
    """A tooltip (browsers show it on hover)."""
    el(node, "title", text)
    return node


def draw_land(
    parent: ET.Element, x: float, y: float, short: str, size: float = CELL, **attrs: Any
) -> ET.Element:
    """An island tile: land with sea on top and bottom; the sea side (left of L, right of R) is
    rounded so that neighbouring pieces read as one island (B1.2)."""
    inset, r = size * 0.08, size * 0.3
    top, bottom = y + inset, y + size - inset
    left_round, right_round = short == "L", short == "R"
    x0 = x + (inset if left_round else 0)
    x1 = x + size - (inset if right_round else 0)
    path = [f"M{x0 + (r if left_round else 0):g},{top:g}", f"H{x1 - (r if right_round else 0):g}"]
    path.append(
        f"Q{x1:g},{top:g} {x1:g},{top + r:g}V{bottom - r:g}Q{x1:g},{bottom:g} {x1 - r:g},{bottom:g}"
        if right_round
        else f"V{bottom:g}"
    )
    path.append(f"H{x0 + (r if left_round else 0):g}")
    path.append(
        f"Q{x0:g},{bottom:g} {x0:g},{bottom - r:g}V{top + r:g}Q{x0:g},{top:g} {x0 + r:g},{top:g}Z"
        if left_round
        else f"V{top:g}Z"
    )
    node = el(parent, "path", d="".join(path), fill=LAND, stroke=LAND_EDGE, stroke_width=1, **attrs)
    if short in "1234":
        draw_house(parent, x + size * 0.76, y + size * 0.3, size * 0.17, short)
    return node


def draw_house(
    parent: ET.Element, cx: float, cy: float, half: float, number: int | str, fill: str = "#f7f1e1"
) -> None:
    """A middle piece's building picture (1-4), drawn as a numbered house (B1.2)."""
    h = half
    el(
        parent,
        "path",
        d=f"M{cx - h:g},{cy + h:g}V{cy - h * 0.2:g}L{cx:g},{cy - h:g}"
        f"L{cx + h:g},{cy - h * 0.2:g}V{cy + h:g}Z",
        fill=fill,
        stroke="#5b4a2e",
        stroke_width=0.8,
    )
    text_el(parent, cx, cy + h * 0.85, number, size=h * 1.35, anchor="middle", fill="#5b4a2e")


def draw_ship(
    parent: ET.Element, x: float, y: float, sail: str, size: float = CELL, **attrs: Any
) -> ET.Element:
    """A ship tile: hull and a sail of its colour, which sets how deep it threatens (B1.3)."""
    group = el(parent, "g", **attrs)
    s = size
    el(
        group,
        "path",
        d=f"M{x + s * 0.12:g},{y + s * 0.66:g}H{x + s * 0.88:g}L{x + s * 0.74:g},"
        f"{y + s * 0.86:g}H{x + s * 0.26:g}Z",
        fill="#7a5230",
    )
    # Two sails on the mast: the high one, and a lower, paler one on the other side.
    sails = (
        (f"M{x + s * 0.5:g},{y + s * 0.1:g}V{y + s * 0.64:g}H{x + s * 0.18:g}Z", None),
        (f"M{x + s * 0.55:g},{y + s * 0.2:g}V{y + s * 0.64:g}H{x + s * 0.8:g}Z", 0.8),
    )
    for path, opacity in sails:
        el(
            group,
            "path",
            d=path,
            fill=SAIL_FILL[sail],
            stroke="#333",
            stroke_width=0.7,
            opacity=opacity,
        )
    return group


def ship_value(sail: str) -> tuple[str, int]:
    info = SHIP_TABLE["rgyb".index(sail)]
    return f"{info.value} {'Fame' if info.pays_fame else 'gold'}", info.reach


def draw_viking(
    parent: ET.Element,
    cx: float,
    cy: float,
    colour: str,
    r: float = 8.5,
    stroke_width: float = 1.5,
    **attrs: Any,
) -> ET.Element:
    return el(
        parent,
        "circle",
        cx=cx,
        cy=cy,
        r=r,
        fill=VIKING_FILL[colour],
        stroke="#fff",
        stroke_width=stroke_width,
        **attrs,
    )


def draw_tile(parent: ET.Element, x: float, y: float, kind: str, size: float) -> None:
    """A tile kind (docs/actions.md names) at any size: island piece or ship."""
    short = TILE_SHORT[TILE_KINDS.index(kind)]
    if short in "rgyb":
        draw_ship(parent, x, y, short, size=size)
    else:
        draw_land(parent, x, y, short, size=size)


def draw_chip(
    parent: ET.Element,
    x: float,
    y: float,
    label: str,
    hint: str,
    fill: str = "#fff4cf",
    **attrs: Any,
) -> float:
    width = 8 + 6.2 * len(label)
    chip = el(parent, "g", **attrs)
    el(chip, "rect", x=x, y=y, width=width, height=19, rx=9.5, fill=fill, stroke="#c99a06")
    text_el(chip, x + width / 2, y + 13.5, label, size=10, anchor="middle", fill="#5a4500")
    tooltip(chip, hint)
    return width
