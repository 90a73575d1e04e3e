"""The left panel of the SVG picture (svg.py): the wheel (B4) turned so that price 0 is at the
top, with the groups the player to move may buy; the supply (bag, Vikings, tiles) and, with A5,
the displayed special tiles."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Mapping

from .components import COLOURS, TILE_KINDS
from .svg_pieces import (
    SPECIAL_LABEL,
    THREAT,
    draw_chip,
    draw_tile,
    draw_viking,
    el,
    legal_outline,
    text_el,
    tooltip,
)

if TYPE_CHECKING:
    import xml.etree.ElementTree as ET


def draw_wheel(
    parent: ET.Element,
    d: Mapping[str, Any],
    cx: float,
    cy: float,
    radius: float,
    legal_buys: Mapping[int, str],
) -> None:
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


def _counts_row(
    parent: ET.Element,
    x: float,
    y: float,
    label: str,
    counts: Mapping[str, int],
    attrs_class: str,
) -> None:
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


def draw_supply(parent: ET.Element, d: Mapping[str, Any], x: float, y: float) -> float:
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


def _display(parent: ET.Element, d: Mapping[str, Any], x: float, y: float) -> float:
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
