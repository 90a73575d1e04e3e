"""Which Python values the API accepts as ints and how errors name types (docs/api.md "Errors").

The C++ module's bindings apply the very same rules, so both engines refuse the same values with
the same messages.
"""

import operator

import numpy as np


def type_name(value):
    """`type(value).__name__`: "int64", "timedelta64", "NoneType"."""
    return type(value).__name__


def is_integer(value):
    """A Python or numpy integer; bool, numpy.bool_ and numpy.timedelta64 (a duration, although
    numpy files it under np.integer) are not."""
    if isinstance(value, (bool, np.bool_, np.timedelta64)):
        return False
    return isinstance(value, (int, np.integer))


def check_int(name, value):
    """`value` as an int, TypeError naming `name` unless is_integer(value)."""
    if not is_integer(value):
        raise TypeError(f"{name} must be an int, not {type_name(value)}")
    return int(value)


def index_value(name, value):
    """An int from anything with __index__ except bool and timedelta64 (actions). An __index__
    that fails is a TypeError, whatever it raised."""
    if isinstance(value, (bool, np.bool_, np.timedelta64)):
        raise TypeError(f"{name} must be an int, not {type_name(value)}")
    try:
        return operator.index(value)
    except Exception:  # noqa: BLE001 -- any failure of a foreign __index__ means "not an int"
        raise TypeError(f"{name} must be an int, not {type_name(value)}") from None

