"""Which Python values the API accepts as ints and how errors name types (docs/api.md "Errors").

The C++ module's bindings apply the very same rules, so both engines refuse the same values with
the same messages.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np


def type_name(value: object) -> str:
    """`type(value).__name__`: "int64", "timedelta64", "NoneType"."""
    return type(value).__name__


def is_integer(value: object) -> bool:
    """A Python or numpy integer; bool, numpy.bool_ and numpy.timedelta64 (a duration, although
    numpy files it under np.integer) are not."""
    if isinstance(value, (bool, np.bool_, np.timedelta64)):
        return False
    return isinstance(value, (int, np.integer))


def check_int(name: str, value: Any) -> int:
    """`value` as an int, TypeError naming `name` unless is_integer(value)."""
    if not is_integer(value):
        raise TypeError(f"{name} must be an int, not {type_name(value)}")
    return int(value)


def index_value(name: str, value: Any) -> int:
    """An int from anything with __index__ except bool and timedelta64 (actions). An __index__
    that fails is a TypeError, whatever it raised."""
    if isinstance(value, (bool, np.bool_, np.timedelta64)):
        raise TypeError(f"{name} must be an int, not {type_name(value)}")
    try:
        return operator.index(value)
    except Exception:  # noqa: BLE001 -- any failure of a foreign __index__ means "not an int"
        raise TypeError(f"{name} must be an int, not {type_name(value)}") from None


INT64_MAX = (1 << 63) - 1
UINT64_MAX = (1 << 64) - 1


def check_uint64(name: str, value: Any) -> int:
    """`value` as an int in 0..2**64-1 (the state of a stream in a pickle): TypeError for a
    non-int, ValueError outside, as the C++ module's Uint64Arg."""
    value = check_int(name, value)
    if not 0 <= value <= UINT64_MAX:
        raise ValueError(f"{name} {value} is outside 0..{UINT64_MAX}")
    return value


def check_not_huge(name: str, value: int) -> int:
    """ValueError for a count beyond int64, as the C++ module refuses it (its counts are
    int64): "iterations 9223372036854775808 is too large"."""
    if value > INT64_MAX:
        raise ValueError(f"{name} {value} is too large")
    return value


def check_int64(name: str, value: Any) -> int:
    """`value` as an int within int64: TypeError for a non-int, ValueError beyond, as the C++
    module's IntArg."""
    value = check_int(name, value)
    if not -(1 << 63) <= value <= INT64_MAX:
        raise ValueError(f"{name} {value} is too large")
    return value


def check_real(name: str, value: Any) -> float:
    """`value` as a float: an int or a float (bool refused); an int beyond the float range is
    +-inf, as the C++ module's RealArg takes it."""
    if isinstance(value, (bool, np.bool_)) or not (isinstance(value, float) or is_integer(value)):
        raise TypeError(f"{name} must be a number, not {type_name(value)}")
    try:
        return float(value)
    except OverflowError:
        return float("inf") if value > 0 else float("-inf")


def check_count_seed_threads(count_name: str, count: Any, seed: Any, threads: Any) -> None:
    """The arguments of the calls that play many games on threads (rollouts, playouts): three
    ints, a count >= 0 within int64 and threads >= 1, in the order the C++ module checks them."""
    for name, value in ((count_name, count), ("seed", seed), ("threads", threads)):
        check_int(name, value)
    if count < 0:
        raise ValueError(f"{count_name} must be >= 0, not {count}")
    check_not_huge(count_name, count)
    if threads < 1:
        raise ValueError(f"threads must be >= 1, not {threads}")


# A time budget at or above this many seconds (about 31 years) sets no deadline: it is the same
# as float("inf"). The C++ clock could not hold the deadline of a larger one (int64
# nanoseconds), so both engines treat it alike (docs/search.md "Budgets").
MAX_SECONDS = 1e9


def check_seconds(name: str, value: Any) -> float:
    """A time budget: an int, float or numpy number > 0 as a float; ints beyond the float range
    are inf. NaN, 0 and negative values are a ValueError, other types a TypeError."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(
        value, (int, float, np.integer, np.floating)
    ):
        raise TypeError(f"{name} must be a number, not {type_name(value)}")
    try:
        seconds = float(value)
    except OverflowError:  # an int beyond the float range
        seconds = float("inf") if value > 0 else float("-inf")
    if not seconds > 0.0:
        raise ValueError(f"{name} must be > 0, not {value}")
    return seconds
