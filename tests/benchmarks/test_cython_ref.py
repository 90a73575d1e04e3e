"""benchmarks/cython_ref.py: the reference compiled with Cython is the same API as the Python
one. Its annotations are for the type checker only (annotation_typing=False): read by Cython,
`num_players: int` and `auction: bool` would convert a bad argument instead of refusing it with
the reference's message. Slow (the build takes minutes on 2 cores; cached afterwards in the
user's cache, VIKINGER_CACHE_DIR): pytest -m slow."""

import pytest

import vikinger_ref
from vikinger_fast.benchmarks import cython_ref

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not cython_ref.available(), reason="the bench extra: Cython"),
]


@pytest.fixture(scope="module")
def compiled():
    return cython_ref.load()


def test_the_compiled_reference_plays_the_same_games(compiled):
    for players in (2, 3, 4):
        python, cython = (
            engine.rollouts(engine.Game(players, auction=True, special_tiles=True), 5, 11)
            for engine in (vikinger_ref, compiled)
        )
        assert all((python[key] == cython[key]).all() for key in python)


@pytest.mark.parametrize(
    "args, keywords, message",
    [
        (("2",), {}, "num_players must be an int, not str"),
        ((2.0,), {}, "num_players must be an int, not float"),
        ((2,), {"auction": 1}, "auction must be a bool, not int"),
    ],
)
def test_the_compiled_reference_refuses_what_the_python_refuses(compiled, args, keywords, message):
    for engine in (vikinger_ref, compiled):
        with pytest.raises(TypeError) as error:
            engine.Game(*args, **keywords)
        assert str(error.value) == message
