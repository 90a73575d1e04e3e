"""argparse `type=` validators for the CLI's numbers: every count, seed, scale and budget is
checked where it is parsed, so a user's mistake is one line from argparse and exit code 2,
never a traceback or a run that does nothing (docs/security.md).

>>> positive_int("3")
3
>>> seed("18446744073709551615")
18446744073709551615
>>> positive_int("0")
Traceback (most recent call last):
argparse.ArgumentTypeError: must be >= 1, not 0
"""

import argparse
import math
import re
from collections.abc import Callable

SEED_LIMIT = 1 << 64  # seeds are taken modulo 2**64 by both engines
COUNT_LIMIT = (1 << 63) - 1  # the engines' counts are int64


_DIGITS = re.compile(r"[+-]?[0-9]{1,40}")


def _whole_number(text: str) -> int:
    # ASCII digits only: int() would also take "1_000" and other scripts' digits, and refuses
    # "²" although "²".isdigit() is True.
    if not _DIGITS.fullmatch(text.strip()):
        raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}")
    return int(text.strip())


def int_in(low: int, high: int) -> Callable[[str], int]:
    """A validator of whole numbers in low..high (both included)."""

    def check(text: str) -> int:
        value = _whole_number(text)
        if value < low:
            raise argparse.ArgumentTypeError(f"must be >= {low}, not {value}")
        if value > high:
            raise argparse.ArgumentTypeError(f"must be <= {high}, not {value}")
        return value

    check.__name__ = f"int in {low}..{high}"
    return check


def positive_int(text: str) -> int:
    """A count >= 1 that fits the engines' int64."""
    return int_in(1, COUNT_LIMIT)(text)


def nonneg_int(text: str) -> int:
    """A count >= 0 that fits the engines' int64."""
    return int_in(0, COUNT_LIMIT)(text)


def seed(text: str) -> int:
    """A seed: 0..2**64-1 (the engines take seeds modulo 2**64; a negative or larger number
    would silently be another seed)."""
    return int_in(0, SEED_LIMIT - 1)(text)


def float_in(low: float, high: float, low_open: bool = True) -> Callable[[str], float]:
    """A validator of finite decimal numbers in (low, high] (or [low, high] if not low_open)."""

    def check(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a number, not {text!r}") from None
        if not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"must be a finite number, not {text!r}")
        if value < low or (low_open and value == low):
            raise argparse.ArgumentTypeError(
                f"must be {'>' if low_open else '>='} {low:g}, not {value:g}"
            )
        if value > high:
            raise argparse.ArgumentTypeError(f"must be <= {high:g}, not {value:g}")
        return value

    check.__name__ = "number"
    return check


def positive_finite_float(text: str) -> float:
    """A finite number > 0."""
    return float_in(0.0, 1e300)(text)


def nonneg_finite_float(text: str) -> float:
    """A finite number >= 0."""
    return float_in(0.0, 1e300, low_open=False)(text)


# The ranges of the CLI's flags, named once so that every command uses the same bounds.
GAMES = int_in(1, 100_000_000)  # games of a run (simulate keeps 40 bytes a game)
JOBS = int_in(1, 1024)  # local worker processes
SHARD_SIZE = int_in(1, 1_000_000_000)  # games per shard
CPUS = int_in(1, 4096)  # CPUs a Ray shard reserves
ITERATIONS = int_in(1, 1_000_000_000)  # MCTS iterations of one search
SOLVER_NODES = int_in(0, 1 << 40)  # endgame solver nodes (0: off)
MOVES = int_in(0, 1_000_000)  # decisions (self-play's sampled moves)
STEP = int_in(0, 1_000_000)  # a record's step (the record says how many it has)
SCALE = float_in(0.0, 64.0)  # PNG scale (64x is a 60000-pixel-wide image)
SECONDS = float_in(0.0, 1e9)  # report intervals
UCT_C = float_in(0.0, 1e6, low_open=False)
