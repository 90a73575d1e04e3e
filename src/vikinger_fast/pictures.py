"""Pictures of a vikinger_fast State: the reference's SVG drawing (vikinger_ref/svg.py) reads
only `to_dict()`, which both engines produce alike, so the C++ State borrows it as its
`_repr_svg_` (notebooks show the board) instead of a second drawing in C++."""

from vikinger_ref.svg import board_svg, state_svg, write_svg

from ._core import State

State._repr_svg_ = state_svg

__all__ = ["board_svg", "state_svg", "write_svg"]
