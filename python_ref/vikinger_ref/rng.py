"""Random numbers shared bit-for-bit with the C++ core (docs/api.md).

`mix` is the splitmix64 finaliser; it also hashes positions (docs/state.md). An int seed gives
one uniform double; a numpy Generator gives `rng.random()`. `SplitMix64` is the generator of
rollouts, playouts and bots (C++: csrc/base/rng.h).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .arguments import is_integer, type_name

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def mix(x: int) -> int:
    """splitmix64: a well-mixed 64-bit value from any 64-bit value."""
    x = (x + GOLDEN) & MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK64
    return x ^ (x >> 31)


def unit_double(bits: int) -> float:
    """The top 53 bits of a 64-bit value as a double in [0, 1)."""
    return (bits >> 11) * (1.0 / (1 << 53))


def uniform_from(rng: Any) -> float:
    """A uniform double in [0, 1) from an int seed or a numpy Generator.

    A Generator subclass may override random(): what it gives must be a float in [0, 1), or the
    draw would pick an outcome that is not left (TypeError / ValueError before anything changes).
    """
    if isinstance(rng, np.random.Generator):
        u = rng.random()
        if not isinstance(u, (float, np.floating)):
            raise TypeError(f"rng.random() must return a float, not {type_name(u)}")
        if not 0.0 <= u < 1.0:  # NaN fails too
            raise ValueError(f"rng.random() returned {u!r}, outside [0, 1)")
        return float(u)
    if not is_integer(rng):
        raise TypeError(
            f"rng must be a numpy.random.Generator or an int seed, not {type_name(rng)}"
        )
    return unit_double(mix(int(rng) & MASK64))


class SplitMix64:
    """The splitmix64 generator: one 64-bit state, advanced by the golden gamma."""

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next_double(self) -> float:
        value = mix(self.state)
        self.state = (self.state + GOLDEN) & MASK64
        return unit_double(value)
