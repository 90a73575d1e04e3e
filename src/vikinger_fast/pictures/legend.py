"""The legend of the board picture (svg.py): every mark with a small sample and a sentence, as
HTML. Shown by the web app and by the game viewer, so both explain the same marks alike."""

import html
from typing import List, Tuple

from vikinger_ref.svg_pieces import LEGAL, THREAT, VIKING_FILL


def _dot(colour: str) -> str:
    return (
        f'<svg width="18" height="18" viewBox="0 0 18 18"><circle cx="9" cy="9" r="6.5" '
        f'fill="{VIKING_FILL[colour]}" stroke="#222" stroke-width="1"/></svg>'
    )


SAMPLES: List[Tuple[str, str]] = (
    [
        (
            '<svg width="26" height="18" viewBox="0 0 26 18"><rect x="1" y="1" width="24" height="16" '
            f'rx="4" fill="{LEGAL}" fill-opacity="0.14" stroke="{LEGAL}" stroke-width="2" '
            'stroke-dasharray="4 3"/></svg>',
            "dashed green outline: a choice you can make now - click it (cells, ship columns, "
            "groups on the wheel)",
        ),
    ]
    + [
        (
            _dot(colour),
            f"{colour}"
            + (f" (row {row})" if row else " (grey: no row; carries Vikings on trips, B7.2.1)"),
        )
        for colour, row in (
            ("fisherman", 5),
            ("goldsmith", 4),
            ("scout", 3),
            ("noble", 2),
            ("warrior", 1),
            ("boatsman", 0),
        )
    ]
    + [
        (
            '<svg width="26" height="18" viewBox="0 0 26 18"><defs><pattern id="lg-h" width="6" '
            'height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" '
            f'height="6" fill="{THREAT}" fill-opacity="0.08"/><line x1="0" y1="0" x2="0" y2="6" '
            f'stroke="{THREAT}" stroke-width="2" stroke-opacity="0.35"/></pattern></defs><rect '
            'x="1" y="1" width="24" height="16" fill="url(#lg-h)" stroke="#ccc"/></svg>',
            "red hatching: a cell threatened by the ship of its column (B7.0): a Viking there "
            "scores nothing",
        ),
        (
            f'<svg width="26" height="18" viewBox="0 0 26 18"><circle cx="13" cy="9" r="7.5" '
            f'fill="none" stroke="{THREAT}" stroke-width="2" stroke-dasharray="3 2"/></svg>',
            "dashed red ring round a Viking: that Viking is threatened (B7.0)",
        ),
        (
            '<svg width="26" height="18" viewBox="0 0 26 18"><path d="M8,2h10v7c0,5-5,7-5,7c0,0-5-2'
            '-5-7Z" fill="#1e1e1e" stroke="#fff"/></svg>',
            "black shield on a ship: repelled by a warrior in row 1 of its column; it protects the "
            "column and pays its value at every large scoring (B7.2)",
        ),
        (
            '<svg width="26" height="18" viewBox="0 0 26 18"><path d="M9,3v12M9,3l7,3l-7,3" '
            'stroke="#5b4a2e" fill="#fff"/></svg>',
            "white flag on a tile: the player's start tile (B6.0)",
        ),
        (
            '<svg width="26" height="18" viewBox="0 0 26 18"><circle cx="13" cy="9" r="6" fill="#fff" '
            'stroke="#7b3fa0" stroke-width="2"/></svg>',
            "white circle after a player's name: the start player of the round (B3.3)",
        ),
        (
            '<svg width="26" height="18" viewBox="0 0 26 18"><text x="13" y="14" font-size="13" '
            f'text-anchor="middle" font-weight="bold" fill="{THREAT}">0</text></svg>',
            "number outside the wheel: the price of the group beside it (B4.3); red 0: free, but "
            "only if no other group has its colour of Viking (B5.2)",
        ),
        (
            '<svg width="26" height="18" viewBox="0 0 26 18"><rect x="1" y="1" width="24" height="16" '
            'rx="4" fill="#b9a06a" stroke="#8a744a"/></svg>',
            "mainland (left of each board): Vikings waiting for a boatsman trip, one column per colour",
        ),
        (
            '<svg width="26" height="18" viewBox="0 0 26 18"><rect x="2" y="2" width="22" height="14" '
            'rx="3" fill="none" stroke="#c99a06" stroke-width="2.5"/></svg>',
            "gold frame on a tile: a building (special tiles, A5)",
        ),
    ]
)

NOTATION = (
    "Rows are numbered 1-5 from the top (warrior, noble, scout, goldsmith, fisherman); "
    "columns 1, 2, ... from the mainland. r2c3 means row 2, column 3."
)


def legend_html() -> str:
    """The legend as an HTML list (class "legend")."""
    items = "".join(
        f'<li><span class="sample">{sample}</span> {html.escape(text)}</li>'
        for sample, text in SAMPLES
    )
    return f'<ul class="legend">{items}</ul><p class="notation">{html.escape(NOTATION)}</p>'
