"""Pictures of a vikinger_fast State: the reference's SVG drawing (vikinger_ref/svg.py) reads
only `to_dict()`, which both engines produce alike, so the C++ State borrows it as its
`_repr_svg_` (notebooks show the board) instead of a second drawing in C++.

The drawing module is imported on first use, so `import vikinger_fast` does not load the
reference engine. `board_svg`, `state_svg` and `write_svg` are those of vikinger_ref.svg
(docs/pictures.md).
"""

from __future__ import annotations

from typing import Any

from .._core import State

_DRAWING = ("board_svg", "state_svg", "write_svg")


def _repr_svg_(state: State) -> str:
    from vikinger_ref.svg import state_svg

    return state_svg(state)


setattr(State, "_repr_svg_", _repr_svg_)  # a class of the C++ module: typed without it


def __getattr__(name: str) -> Any:
    if name in _DRAWING:
        from vikinger_ref import svg

        return getattr(svg, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = list(_DRAWING)
