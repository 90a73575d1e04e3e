"""Inputs and oracles for the hostile-caller classes of docs/api.md: Game data (what an edited
pickle hands the rebuild function) and the values a Generator subclass's random() may return.

Both are run by fuzz/fuzz_hostile.py (atheris) and tests/api/test_fuzz_hostile.py (hypothesis). The
oracles: each engine returns or raises ValueError/TypeError, never anything else; both engines
give the same outcome with the same message; a refused draw leaves the state as it was; an
accepted Game equals the one the constructor makes and plays the same rollout in both engines.
"""

import math

import numpy as np

from fuzz.oracles import Finding, outcome
from vikinger_ref import OPTION_NAMES

EDGE_INTS = (-(2**64), -(2**31), -1, 0, 1, 2, 3, 4, 5, 8, 31, 32, 64, 255, 256, 2**31, 2**63, 2**64)
ODD_VALUES = (
    None,
    True,
    False,
    "2",
    2.0,
    b"\x02",
    [2],
    np.bool_(True),
    np.timedelta64(2),
    np.float64(2.0),
    np.int8(3),
    np.uint64(2),
    np.int64(-1),
)
EDGE_FLOATS = (
    -1e6,
    -0.0,
    0.0,
    5e-324,
    0.5,
    math.nextafter(1.0, 0.0),
    1.0,
    1.0 + 2**-52,
    2.0,
    1e300,
    math.inf,
    -math.inf,
    math.nan,
    np.float32(0.25),
    np.float32(1.0),
    np.float16(0.5),
    np.float64(0.75),
)
ODD_RANDOMS = (
    None,
    0,
    1,
    True,
    "0.5",
    b"",
    [0.5],
    np.array(0.5),
    np.array([0.5]),
    1j,
    np.int64(0),
    np.bool_(False),
)


def rebuild_function(engine):
    """What a pickled Game names: the engine's checked rebuild."""
    return engine.Game(2).__reduce__()[0]


def pick_game_value(chooser):
    """An int at an edge, any small int, or a value of another type."""
    which = chooser.choose(3)
    if which == 0:
        return EDGE_INTS[chooser.choose(len(EDGE_INTS))]
    if which == 1:
        return chooser.choose(1 << 12) - (1 << 11)
    return ODD_VALUES[chooser.choose(len(ODD_VALUES))]


def check_game_data(engines, num_players, options):
    """The same outcome in every engine; an accepted Game is the constructor's and plays."""
    results = [outcome(lambda e=e: rebuild_function(e)(num_players, options)) for e in engines]
    kinds = {r[0] if r[0] == "ok" else r[0].__name__ for r in results}
    if len(kinds) != 1:
        raise Finding(f"game data {num_players!r}, {options!r}: {results}")
    if results[0][0] != "ok":
        if len({r[1] for r in results}) != 1:
            raise Finding(f"messages differ for {num_players!r}, {options!r}: {results}")
        return results[0]
    games = [r[1] for r in results]
    for engine, game in zip(engines, games):
        bits = int(options)
        expected = engine.Game(
            int(num_players), **{f: bool(bits >> i & 1) for i, f in enumerate(OPTION_NAMES)}
        )
        if game != expected or game.num_players != int(num_players):
            raise Finding(f"{engine.__name__}: rebuilt {game!r}, expected {expected!r}")
    plays = [
        engine.rollouts(game, 1, seed=5)["scores"].tolist() for engine, game in zip(engines, games)
    ]
    if len({repr(p) for p in plays}) != 1:
        raise Finding(f"rebuilt games play differently: {plays}")
    return results[0]


class FixedGenerator(np.random.Generator):
    """A Generator whose random() returns `value`."""

    def __init__(self, value):
        super().__init__(np.random.PCG64(0))
        self.value = value

    def random(self, *args, **kwargs):
        return self.value


def pick_random_value(chooser):
    """A float at an edge, any double from 64 chosen bits, or a value of another type."""
    which = chooser.choose(3)
    if which == 0:
        return EDGE_FLOATS[chooser.choose(len(EDGE_FLOATS))]
    if which == 1:
        bits = sum(chooser.choose(1 << 16) << (16 * k) for k in range(4))
        return float(np.array([bits], dtype=np.uint64).view(np.float64)[0])
    return ODD_RANDOMS[chooser.choose(len(ODD_RANDOMS))]


def check_random_value(states, value):
    """apply_random_chance with a Generator returning `value` on a chance node of each engine:
    the same outcome or error (type and message); a refusal changes nothing."""
    before = [state.serialize() for state in states]
    results = [outcome(lambda s=s: s.apply_random_chance(FixedGenerator(value))) for s in states]
    kinds = {r[0] if r[0] == "ok" else r[0].__name__ for r in results}
    if len(kinds) != 1 or len({repr(r[1]) for r in results}) != 1:
        raise Finding(f"random() = {value!r}: {results}")
    if results[0][0] != "ok":
        if [s.serialize() for s in states] != before:
            raise Finding(f"random() = {value!r} was refused but changed the state")
    elif len({s.serialize() for s in states}) != 1:
        raise Finding(f"random() = {value!r}: the engines drew different outcomes")
    return results[0]
