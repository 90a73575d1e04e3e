"""A position from a file, and its picture as SVG or PNG (docs/pictures.md).

A position may be given as a game record (docs/records.md; a step of it), a `to_dict()` JSON
file, the bytes of `serialize()`, or those bytes in base64 text. PNG goes through cairosvg, an
optional extra (`png`; PNG_HINT says how to install it): the SVG itself needs no dependency.
"""

from __future__ import annotations

import base64
import binascii
from types import ModuleType
from typing import Any

from vikinger_ref import OPTION_NAMES
from vikinger_ref.serialization import MAGIC
from vikinger_ref.svg import state_svg

from .. import records
from ..extras import install_hint
from ..safety import files, json_limits, outputs

PNG_HINT = install_hint("PNG output needs the optional converter cairosvg", "png")


def _game_of_bytes(data: bytes, engine: ModuleType) -> Any:
    """The Game a serialized state belongs to: num_players and option bits follow the header
    (docs/state.md)."""
    if len(data) < 7 or data[:4] != MAGIC:
        raise ValueError("not the bytes of a state (they start with b'VKNG')")
    bits = data[6]
    return engine.Game(
        num_players=data[5], **{name: bool(bits >> i & 1) for i, name in enumerate(OPTION_NAMES)}
    )


def state_from_bytes(data: bytes, engine: ModuleType) -> Any:
    return _game_of_bytes(data, engine).deserialize_state(data)


def state_from_dict(d: object, engine: ModuleType) -> Any:
    if not isinstance(d, dict) or not isinstance(d.get("options"), dict):
        raise ValueError("a state dict needs 'num_players' and 'options' (docs/state.md)")
    game = engine.Game(num_players=d.get("num_players"), **d["options"])
    return game.state_from_dict(d)


def read_position(path: files.PathText, engine: ModuleType, step: int | None = None) -> Any:
    """The state stored in `path` in any of the four forms, in `engine`; `step` picks a step of
    a record (default its end) and is refused for the other forms."""
    data = files.read_regular(path, json_limits.MAX_BYTES)  # a regular file, bounded
    if data.startswith(MAGIC):
        kind, state = "bytes", state_from_bytes(data, engine)
    else:
        try:
            text = data.decode("utf-8").strip()
        except UnicodeDecodeError:
            raise ValueError(f"{path}: neither state bytes, base64 nor JSON") from None
        if text.startswith("{"):
            document = json_limits.loads_limited(text, str(path))
            if isinstance(document, dict) and document.get("format") == records.FORMAT:
                records.check_structure(document)
                return records.replay(document, engine, step=step)
            kind, state = "JSON", state_from_dict(document, engine)
        else:
            try:
                raw = base64.b64decode(text, validate=True)
            except binascii.Error:
                raise ValueError(f"{path}: neither state bytes, base64 nor JSON") from None
            kind, state = "base64", state_from_bytes(raw, engine)
    if step is not None:
        raise ValueError(f"--step needs a game record, not a state given as {kind}")
    return state


def svg_to_png(svg_text: str, path: files.PathText, scale: float = 1.0) -> None:
    """Write the SVG text as a PNG file (needs cairosvg; ImportError with the hint when it is
    missing)."""
    try:
        import cairosvg
    except ImportError:
        raise ImportError(PNG_HINT) from None
    png = cairosvg.svg2png(bytestring=svg_text.encode("utf-8"), scale=scale)
    outputs.write_atomic(str(path), png)


def write_picture(state: Any, path: files.PathText, scale: float = 1.0) -> str:
    """`path` ending in .png: a PNG; anything else: the SVG text."""
    svg_text = state_svg(state)
    if str(path).lower().endswith(".png"):
        svg_to_png(svg_text, path, scale=scale)
    else:
        outputs.write_atomic(str(path), svg_text)
    return svg_text
