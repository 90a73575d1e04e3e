"""JSON read with bounded size and nesting, and written strictly (docs/security.md).

Python's json module parses nested arrays and objects recursively: a document 5,000 levels deep
raises RecursionError (or, in a thread with a small stack, worse) instead of a ValueError. The
nesting is measured before parsing, on the brackets outside strings, so no hostile document
reaches the parser. The measure is one pass over the text, linear in its length whatever it
holds: one regular expression reads each string once, from its quote to its closing quote (each
escape taken with the character it escapes), or to the end of the text when it is not closed,
and every run of other characters but brackets at once; what is left is the brackets, whose
running depth numpy sums. (Matching strings from every quote again, as a search for a closed
string does on an unclosed one, takes time quadratic in its length: minutes for 1 MB of `\"`.)
JSON written by the package is strict: NaN and infinities are refused (`allow_nan=False`), as
other readers cannot read them.

>>> loads_limited('{"a": [1, 2]}', "a record")
{'a': [1, 2]}
>>> loads_limited("[" * 100 + "]" * 100, "a record")
Traceback (most recent call last):
ValueError: a record nests 100 levels deep; at most 32 are read
"""

import json
import math
import re
from typing import Any

import numpy as np

MAX_DEPTH = 32  # the package's documents nest at most 5 levels
MAX_BYTES = 64 * 1024 * 1024  # a record of 1,000 moves is about 60 KB

# What is not a bracket: a string (possessive runs, so nothing is matched twice; an unclosed one
# runs to the end of the text, a lone backslash at the end included), or a run of characters
# that are neither brackets nor quotes.
_NOT_BRACKET = re.compile(r'"[^"\\]*+(?:\\.[^"\\]*+)*+(?:"|\\?\Z)|[^\[\]{}"]++', re.DOTALL)
_STEP = np.zeros(128, np.int8)
_STEP[[ord("["), ord("{")]] = 1
_STEP[[ord("]"), ord("}")]] = -1
_CHUNK = 1 << 20


def nesting(text: str) -> int:
    r"""The deepest nesting of arrays and objects in `text` (strings skipped), in one pass linear
    in the length of `text`.

    >>> nesting(r'["]\\", "[\"{", [1]]')  # the strings "]\\" and "[\"{" hold no bracket
    2
    """
    steps = _STEP[np.frombuffer(_NOT_BRACKET.sub("", text).encode("ascii"), np.uint8)]
    depth = deepest = 0
    for start in range(0, len(steps), _CHUNK):  # a running sum in pieces: bounded memory
        running = np.cumsum(steps[start : start + _CHUNK].astype(np.int64))
        running += depth
        deepest, depth = max(deepest, int(running.max())), int(running[-1])
    return deepest


def loads_limited(
    text: str | bytes, what: str, max_depth: int = MAX_DEPTH, max_bytes: int = MAX_BYTES
) -> Any:
    """json.loads(text) for a document that is at most `max_bytes` long and nests at most
    `max_depth` levels; ValueError naming `what` otherwise (and for text that is not JSON).
    NaN and Infinity, which are not JSON, are refused too."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as error:
            raise ValueError(f"{what} must be UTF-8 text: {error}") from None
    if len(text) > max_bytes:
        raise ValueError(f"{what} is {len(text):,} characters long; at most {max_bytes:,} are read")
    depth = nesting(text)
    if depth > max_depth:
        raise ValueError(f"{what} nests {depth} levels deep; at most {max_depth} are read")
    try:
        return json.loads(text, parse_constant=_no_constant)
    except ValueError as error:  # JSONDecodeError, or NaN / Infinity (_no_constant)
        raise ValueError(f"{what} must be JSON: {error}") from None
    except RecursionError:  # unreachable after the depth check; kept as the last guard
        raise ValueError(f"{what} nests too deeply") from None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def dumps_strict(value: Any, **options: Any) -> str:
    """json.dumps with allow_nan=False: ValueError for NaN or an infinity, which strict JSON
    readers refuse."""
    try:
        return json.dumps(value, allow_nan=False, **options)
    except ValueError as error:
        raise ValueError(f"cannot write strict JSON: {error} (NaN or infinity)") from None


def non_finite_as_text(value: Any) -> Any:
    """`value` with every NaN or infinite float (in dicts, lists and tuples) replaced by its
    text "nan", "inf" or "-inf": for measured numbers, which must not be lost for one NaN."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {key: non_finite_as_text(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [non_finite_as_text(item) for item in value]
    return value
