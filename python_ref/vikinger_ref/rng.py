"""Random numbers shared bit-for-bit with the C++ core (docs/api.md).

`mix` is the splitmix64 finaliser; it also hashes positions (docs/state.md). An int seed gives
one uniform double; a numpy Generator gives `rng.random()`.
"""

import numpy as np

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def mix(x):
    """splitmix64: a well-mixed 64-bit value from any 64-bit value."""
    x = (x + GOLDEN) & MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK64
    return x ^ (x >> 31)


def unit_double(bits):
    """The top 53 bits of a 64-bit value as a double in [0, 1)."""
    return (bits >> 11) * (1.0 / (1 << 53))


def uniform_from(rng):
    """A uniform double in [0, 1) from an int seed or a numpy Generator."""
    if isinstance(rng, np.random.Generator):
        return float(rng.random())
    if isinstance(rng, (bool, np.bool_)) or not isinstance(rng, (int, np.integer)):
        raise TypeError(f"rng must be a numpy.random.Generator or an int seed, "
                        f"not {type(rng).__name__}")
    return unit_double(mix(int(rng) & MASK64))
