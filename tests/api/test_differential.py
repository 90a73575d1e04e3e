"""Differential tests: seeded random games through vikinger_ref and vikinger_fast, compared after
every action (docs/api.md: "same everything"; the comparison is vikinger_fast.differential, the
one `vikinger soak` uses).

CI plays GAMES games spread over the configurations, on every core; every FULL_EVERY-th game
compares every field at every step, the others the cheap fields (legal lists, chance outcomes,
serialize bytes) with the final state in full. `-m slow` plays SLOW_GAMES more. The tests after
those plant known bugs into the reference to show that the harness finds each kind of difference.
"""

import math
import os
import types

import numpy as np
import pytest

from conftest import ONLY_REF, load_engine

try:
    from vikinger_fast import cli, differential
    from vikinger_fast.cli import soak
except ImportError:
    if not ONLY_REF:
        raise
    pytest.skip("vikinger_fast is not importable; VIKINGER_ONLY_REF=1", allow_module_level=True)

GAMES = 192  # 2 games for each of the 96 configurations
FULL_EVERY = 10
SLOW_GAMES = 3000
JOBS = os.cpu_count() or 1
CONFIGS = differential.CONFIGURATIONS


def _differences(engines, config, first_seed, count):
    """`count` games of `config` from seed `first_seed + k * count`, k its place in the list, so
    the full comparisons (seeds that FULL_EVERY divides) spread evenly over any number of them."""
    first_seed += CONFIGS.index(config) * count
    games = differential.schedule([config], first_seed, count, full_every=FULL_EVERY)
    names = [engine.__name__ for engine in engines]
    return [str(found) for _, found in differential.run(names, games, jobs=JOBS) if found]


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_random_games_agree(engines, config):
    """B1-B8, every rule a random game reaches: both engines agree after every action."""
    differences = _differences(engines, config, 0, math.ceil(GAMES / len(CONFIGS)))
    assert not differences, differences[0]


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_many_random_games_agree(engines, config):
    differences = _differences(engines, config, 10_000, math.ceil(SLOW_GAMES / len(CONFIGS)))
    assert not differences, differences[0]


# --- the harness finds planted bugs ----------------------------------------------------------


@pytest.fixture
def ref():
    return load_engine("ref")


def engine_with(ref, **methods):
    """An engine module: the reference with some State methods replaced."""
    state_class = type("PlantedState", (ref.State,), methods)
    game_class = type(
        "PlantedGame", (ref.Game,), {"new_initial_state": lambda self: state_class(self)}
    )
    return types.SimpleNamespace(__name__="planted", Game=game_class)


def planted(ref, method, bug):
    """The reference with `bug(state, result)` rewriting the result of one State method."""
    original = getattr(ref.State, method)
    return engine_with(ref, **{method: lambda self, *args: bug(self, original(self, *args))})


def _late(state):
    return len(state.history()) >= 40


BUGS = {
    "legal order": ("legal_actions", lambda s, v: v[::-1] if _late(s) else v, "legal_actions[0]"),
    "probability": (
        "chance_outcomes",
        lambda s, v: [(a, float(np.float32(p))) for a, p in v] if _late(s) else v,
        "chance_outcomes[0][1]",
    ),
    "player type": ("current_player", lambda s, v: np.int64(v), "current_player (type)"),
    "final Fame": (
        "scores",
        lambda s, v: [v[0] + 1, *v[1:]] if s.is_terminal() else v,
        "scores[0]",
    ),  # cheap mode too: the final state is always compared in full
    "returns": ("returns", lambda s, v: [0.5] * len(v) if s.is_terminal() else v, "returns[0]"),
    "hash": ("hash_key", lambda s, v: v ^ 1 if _late(s) else v, "hash_key"),
    "text": ("__str__", lambda s, v: v + " " if _late(s) else v, "str lines["),
    "mask dtype": (
        "legal_actions_mask",
        lambda s, v: v.astype(np.uint8),
        "legal_actions_mask (dtype, shape)",
    ),
    "observation": (
        "observation_tensor",
        lambda s, v: v + (np.arange(v.size) == 7),
        "observation_tensor[0][7]",
    ),
    "dict key order": ("to_dict", lambda s, v: dict(reversed(v.items())), "to_dict (keys)"),
    "action string": ("action_to_string", lambda s, v: v.upper(), "action_to_string("),
}


@pytest.mark.parametrize("bug", BUGS, ids=str)
def test_a_planted_bug_is_found(ref, bug):
    method, change, field = BUGS[bug]
    full = method not in ("scores", "returns")
    found = differential.play(
        ref, planted(ref, method, change), differential.Config(2), seed=3, full=full
    )
    assert found is not None and found.field.startswith(field), found


def test_a_wrong_error_type_is_found(ref):
    """docs/api.md: an out-of-range id is a ValueError, in both engines."""
    original = ref.State.apply_action

    def apply_action(self, action):
        if isinstance(action, int) and not 0 <= action < 2036:
            raise IndexError(action)
        return original(self, action)

    found = differential.play(
        ref, engine_with(ref, apply_action=apply_action), differential.Config(3), seed=0
    )
    assert found is not None and "should raise ValueError" in found.field, found
    assert found.value_b.error == "IndexError"


def test_a_state_changed_by_an_illegal_action_is_found(ref):
    """docs/api.md: after any error the state is unchanged."""
    original = ref.State.apply_action

    def apply_action(self, action):
        if action not in self.legal_actions() and self.players[0].gold > 0:
            self.players[0].gold -= 1
        return original(self, action)

    engine = engine_with(ref, apply_action=apply_action)
    full = differential.play(ref, engine, differential.Config(2), seed=0, full=True)
    assert full is not None and full.field == "state changed by an illegal call", full
    cheap = differential.play(ref, engine, differential.Config(2), seed=0, full=False)
    assert cheap is not None and cheap.field == "to_dict.players[0].gold", cheap


def test_a_configuration_one_engine_lacks_is_a_difference(ref):
    """A flag set joins differential.FLAG_SETS only when both engines play it."""

    class Game(ref.Game):
        def __init__(self, num_players=2, **flags):
            if flags:
                raise ValueError("not supported yet")
            super().__init__(num_players)

    lacking = types.SimpleNamespace(__name__="lacking", Game=Game)
    found = differential.play(ref, lacking, differential.Config(2, ("auction",)), seed=0)
    assert found is not None and found.field == "Game(...)" and found.step == 0, found


def test_first_difference_paths():
    first = differential.first_difference
    assert first({"a": [1, (2, 3.0)]}, {"a": [1, (2, 3.0)]}) is None
    assert first({"a": [1, (2, 3.0)]}, {"a": [1, (2, 3.5)]}) == (".a[1][1]", 3.0, 3.5)
    assert first([1, 2], (1, 2))[0] == " (type)"
    assert first(0.0, -0.0) == ("", 0.0, -0.0)
    assert first("x\ny", "x\nz") == (" lines[1]", "y", "z")
    assert first(np.zeros(3, np.float32), np.ones(3, np.float32))[0] == "[0]"
    assert first(b"VKNG\x01", b"VKNG\x02")[0] == " byte 4 of 5/5"


# --- the soak command ------------------------------------------------------------------------

PLANTED_ENGINE = """
import vikinger_ref


class State(vikinger_ref.State):
    def scores(self):
        fame = super().scores()
        return [fame[0] - 1, *fame[1:]] if self.is_terminal() else fame


class Game(vikinger_ref.Game):
    def new_initial_state(self):
        return State(self)
"""
CRASHING_ENGINE = """
import os


def Game(**kwargs):
    os._exit(3)
"""


@pytest.fixture
def fake_fast(ref, tmp_path, monkeypatch):
    """Makes `vikinger soak` compare the reference with an engine module written to tmp_path;
    worker processes find it (and the reference: `ref`) through sys.path, which they inherit."""

    def install(name, source):
        (tmp_path / f"{name}.py").write_text(source)
        monkeypatch.syspath_prepend(str(tmp_path))
        monkeypatch.setitem(soak.ENGINES, "fast", name)

    return install


def test_soak_command_passes(engines, capsys):
    assert cli.main(["soak", "--games", "4", "--seed", "7", "--jobs", "1"]) == 0
    assert "4 games, no difference" in capsys.readouterr().out


def test_soak_command_reports_the_first_difference(fake_fast, capsys):
    fake_fast("planted_engine", PLANTED_ENGINE)
    assert cli.main(["soak", "--games", "3", "--seed", "5", "--players", "4", "--jobs", "2"]) == 1
    out = capsys.readouterr().out
    assert "DIFFERENCE in 4p seed 5" in out and "scores[0] differs" in out


def test_soak_command_reports_a_crashed_worker(fake_fast, capsys):
    fake_fast("crashing_engine", CRASHING_ENGINE)
    assert cli.main(["soak", "--games", "4", "--seed", "20", "--jobs", "2"]) == 2
    assert "CRASH" in capsys.readouterr().out
