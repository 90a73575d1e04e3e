"""A Game is immutable and made only through checked paths (docs/api.md "Game"): the constructor,
unpickling (`_game_from_data` / `game_from_data`), and the game part of a state's bytes. Edited
pickles and `Game.__new__` instances never reach the engine; errors are the same in both engines.
"""

import copy
import pickle

import numpy as np
import pytest

from positions import FLAGS


def rebuild(engine):
    """The function a pickled Game names: each engine's checked rebuild."""
    game = engine.Game(2)
    function, args = game.__reduce__()
    assert args == (2, 0)
    return function


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("bits", [0, 1, 5, 31])
def test_pickle_and_copy_round_trip_every_game(engine, n, bits):
    flags = {name: bool(bits >> i & 1) for i, name in enumerate(FLAGS)}
    game = engine.Game(n, **flags)
    for other in (pickle.loads(pickle.dumps(game, protocol)) for protocol in range(6)):
        assert other == game and hash(other) == hash(game) and other.options == flags
    assert copy.copy(game) == game and copy.deepcopy(game) == game
    assert rebuild(engine)(n, bits) == game


@pytest.mark.parametrize(
    "data, error, message",
    [
        ((5, 0), ValueError, "num_players must be 2, 3 or 4, not 5"),
        ((8, 0), ValueError, "num_players must be 2, 3 or 4, not 8"),
        ((0, 0), ValueError, "num_players must be 2, 3 or 4, not 0"),
        ((-1, 0), ValueError, "num_players must be 2, 3 or 4, not -1"),
        ((64, 0), ValueError, "num_players must be 2, 3 or 4, not 64"),
        ((2, 32), ValueError, "options must be a bit set of the 5 modules (0..31), not 32"),
        ((2, -1), ValueError, "options must be a bit set of the 5 modules (0..31), not -1"),
        ((2, 255), ValueError, "options must be a bit set of the 5 modules (0..31), not 255"),
        (("2", 0), TypeError, "num_players must be an int, not str"),
        ((True, 0), TypeError, "num_players must be an int, not bool"),
        ((2.0, 0), TypeError, "num_players must be an int, not float"),
        ((2, None), TypeError, "options must be an int, not NoneType"),
        ((np.timedelta64(2), 0), TypeError, "num_players must be an int, not timedelta64"),
    ],
)
def test_edited_game_data_is_refused_with_the_same_message(engine, data, error, message):
    with pytest.raises(error) as raised:
        rebuild(engine)(*data)
    assert str(raised.value) == message


@pytest.mark.parametrize("data", [(5, 0), (3, 99), (-1, 0), (2, 1 << 40)])
def test_an_edited_pickle_is_refused(engine, data):
    """The bytes of a pickled Game with its player count or option bits changed."""
    game = engine.Game(3, auction=True)
    blob = pickle.dumps(game, protocol=2)
    function, args = game.__reduce__()
    edited = pickle.dumps(_Reduced(function, data), protocol=2)
    assert pickle.loads(blob) == game
    with pytest.raises(ValueError):
        pickle.loads(edited)


class _Reduced:
    """Pickles as a call of `function(*args)`, as an edited Game pickle would."""

    def __init__(self, function, args):
        self.function, self.args = function, args

    def __reduce__(self):
        return self.function, self.args


def test_game_is_immutable(engine):
    game = engine.Game(2, auction=True)
    with pytest.raises(AttributeError):
        game.num_players = 5
    with pytest.raises(AttributeError):
        game.options = {}
    game.options["draw13"] = True  # a copy: the game does not change
    assert game.options == dict.fromkeys(FLAGS, False) | {"auction": True}
    assert game == engine.Game(2, auction=True)
    with pytest.raises(AttributeError):  # no way to load other data into a Game
        engine.Game.__new__(engine.Game).__setstate__((5, 0))


def test_an_uninitialised_game_is_refused_not_used(engine):
    """Game.__new__(Game) without __init__: every use is an error, never a crash."""
    game = engine.Game.__new__(engine.Game)
    for use in (
        lambda: game.num_players,
        lambda: game.new_initial_state(),
        lambda: engine.rollouts(game, 2, 0),
        lambda: engine.VectorGame(game, 2, 0),
        lambda: repr(game),
        lambda: hash(game),
    ):
        with pytest.raises((TypeError, AttributeError)):
            use()


def test_uninitialised_states_and_vector_games_are_refused(engine):
    state = engine.State.__new__(engine.State)
    env = engine.VectorGame.__new__(engine.VectorGame)
    for use in (
        state.is_terminal,
        state.legal_actions,
        state.serialize,
        lambda: state.clone(),
        lambda: env.step([0]),
        env.legal_actions_mask,
        env.observation_tensor,
    ):
        with pytest.raises((TypeError, AttributeError)):
            use()


HEADER_SIZE = 5  # b"VKNG" and the format version (docs/state.md); then players, option bits


@pytest.mark.parametrize(
    "offset, value", [(0, 0), (0, 1), (0, 5), (0, 8), (0, 255), (1, 32), (1, 64), (1, 255)]
)
def test_the_game_part_of_bytes_is_checked(engine, offset, value):
    data = bytearray(engine.Game(2).new_initial_state().serialize())
    assert data[HEADER_SIZE] == 2 and data[HEADER_SIZE + 1] == 0
    data[HEADER_SIZE + offset] = value
    with pytest.raises(ValueError):
        engine.Game(2).deserialize_state(bytes(data))
    if engine.__name__ == "vikinger_fast":  # unpickling a State names its game by these bytes
        with pytest.raises(ValueError):
            engine._core._state_from_bytes(bytes(data))
