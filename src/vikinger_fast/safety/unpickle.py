"""An unpickler that rebuilds the package's own objects and nothing else (docs/security.md).

A pickle is a program: `pickle.loads` of untrusted bytes can run any function. `loads` below
resolves only the globals in ALLOWED, the functions and classes that the Games, States,
VectorGames and bots of both engines pickle through (with numpy's array reconstruction), so a
pickle naming anything else (os.system, builtins.eval, ...) raises pickle.UnpicklingError
before anything runs. Every allowed function checks its data as the constructor does; the
reference's bots too rebuild through such functions (their constructors' checks), never by
setting an object's attributes from the pickle. Protocols 0-2 write bytes as a call of
`_codecs.encode(text, "latin1")`, which is resolved to a function that does only that.

>>> import pickle, vikinger_fast
>>> loads(pickle.dumps(vikinger_fast.Game(num_players=3)))
Game(num_players=3)
"""

import importlib
import io
import pickle
from typing import Any

ALLOWED = {
    # vikinger_fast (csrc/bindings*.cc __reduce__)
    ("vikinger_fast.safety.rebuild", "game_from_data"),
    ("vikinger_fast.safety.rebuild", "state_from_bytes"),
    ("vikinger_fast.safety.rebuild", "vector_game_from_data"),
    ("vikinger_fast.safety.rebuild", "random_bot"),
    ("vikinger_fast.safety.rebuild", "greedy_bot"),
    ("vikinger_fast.safety.rebuild", "mcts_bot"),
    # vikinger_ref (game.py, state.py, vector_game.py, bots.py, mcts.py __reduce__)
    ("vikinger_ref.game", "game_from_data"),
    ("vikinger_ref.state", "state_from_bytes"),
    ("vikinger_ref.vector_game", "vector_game_from_data"),
    ("vikinger_ref.bots", "random_bot_from_data"),
    ("vikinger_ref.bots", "greedy_bot_from_data"),
    ("vikinger_ref.mcts", "mcts_bot_from_data"),
    # numpy arrays (a VectorGame's arrays)
    ("numpy", "ndarray"),
    ("numpy", "dtype"),
    ("numpy.core.multiarray", "_reconstruct"),
    ("numpy._core.multiarray", "_reconstruct"),
    ("numpy.core.multiarray", "scalar"),
    ("numpy._core.multiarray", "scalar"),
    ("numpy.core.numeric", "_frombuffer"),  # protocol 5
    ("numpy._core.numeric", "_frombuffer"),
}


def _latin1(text: Any, encoding: Any) -> bytes:
    """What protocols 0-2 write bytes as (`_codecs.encode(text, "latin1")`), and nothing else of
    _codecs: a str to its latin-1 bytes."""
    if not isinstance(text, str) or encoding != "latin1":
        raise pickle.UnpicklingError("refused _codecs.encode other than of a str to latin1")
    return text.encode("latin1")


class RestrictedUnpickler(pickle.Unpickler):
    """pickle.Unpickler whose find_class resolves only ALLOWED (and _codecs.encode as _latin1)."""

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) == ("_codecs", "encode"):
            return _latin1
        if (module, name) not in ALLOWED:
            raise pickle.UnpicklingError(
                f"refused to load {module}.{name}: not one of the package's own rebuild functions"
            )
        return getattr(importlib.import_module(module), name)


def loads(data: bytes) -> Any:
    """pickle.loads restricted to ALLOWED (pickle.UnpicklingError for anything else)."""
    return RestrictedUnpickler(io.BytesIO(data)).load()
