"""A small multilayer perceptron evaluator in numpy, its weights in an `.npz` file read without
pickle (docs/neural.md "The weights file"). Engine independent: vikinger_fast.neural uses this
same code.

The file (format "vikinger-mlp/1") holds, all as plain numpy arrays:
  format               str, "vikinger-mlp/1"
  num_players          int, the game's players (2..4)
  options              str[k], the game's modules that are on (OPTION_NAMES spelling)
  observation_size     int, the width of an observation row
  num_distinct_actions int, 2036
  hidden_layers        int, L
  w0, b0 .. w{L-1}, b{L-1}   float32 [in, out], [out]: x <- max(x @ w + b, 0)
  policy_w, policy_b   float32 [h, num_distinct_actions], [num_distinct_actions]: the logits
  value_w, value_b     float32 [h, num_players], [num_players]: values = softmax(x @ w + b),
                       relative to the player to move (slot k: player (mover + k) % n), in
                       [0, 1] and summing to 1 as the B8.9 win shares do.
"""

import numpy as np

from .actions import NUM_DISTINCT_ACTIONS
from .components import OPTION_NAMES
from .observation import observation_size

FORMAT = "vikinger-mlp/1"


def _game_fields(game):
    return game.num_players, [name for name in OPTION_NAMES if game.options[name]]


class MLPEvaluator:
    """evaluator(observations, legal) -> (logits, values) of the layers (see the module)."""

    def __init__(self, game, layers, policy, value):
        self.num_players, self.options = _game_fields(game)
        self.observation_size = observation_size(self.num_players)
        self.layers = [(np.asarray(w, np.float32), np.asarray(b, np.float32)) for w, b in layers]
        self.policy = tuple(np.asarray(a, np.float32) for a in policy)
        self.value = tuple(np.asarray(a, np.float32) for a in value)
        self._check_shapes()

    @classmethod
    def random(cls, game, hidden=(64,), seed=0):
        """Small random weights (He initialisation) for tests and benchmarks."""
        rng = np.random.default_rng(seed)
        n = game.num_players
        sizes = [observation_size(n), *hidden]
        layers = [
            (rng.standard_normal((a, b)) * np.sqrt(2.0 / a), np.zeros(b))
            for a, b in zip(sizes, sizes[1:])
        ]
        h = sizes[-1]
        policy = (
            rng.standard_normal((h, NUM_DISTINCT_ACTIONS)) * 0.1,
            np.zeros(NUM_DISTINCT_ACTIONS),
        )
        value = (rng.standard_normal((h, n)) * 0.1, np.zeros(n))
        return cls(game, layers, policy, value)

    def _check_shapes(self):
        width = self.observation_size
        arrays = [a for layer in self.layers for a in layer] + [*self.policy, *self.value]
        for array in arrays:
            if not np.isfinite(array).all():
                raise ValueError("the MLP's weights must be finite")
        for i, (w, b) in enumerate(self.layers):
            if w.ndim != 2 or w.shape[0] != width or b.shape != (w.shape[1],):
                raise ValueError(
                    f"layer {i}: w{i} must be ({width}, k) and b{i} (k,), not "
                    f"{w.shape} and {b.shape}"
                )
            width = w.shape[1]
        for name, (w, b), out in (
            ("policy", self.policy, NUM_DISTINCT_ACTIONS),
            ("value", self.value, self.num_players),
        ):
            if w.shape != (width, out) or b.shape != (out,):
                raise ValueError(
                    f"{name}_w must be ({width}, {out}) and {name}_b ({out},), not "
                    f"{w.shape} and {b.shape}"
                )

    def __call__(self, observations, legal):
        x = observations
        for w, b in self.layers:
            x = np.maximum(x @ w + b, np.float32(0))
        logits = x @ self.policy[0] + self.policy[1]
        raw = x @ self.value[0] + self.value[1]
        values = np.exp(raw - raw.max(axis=1, keepdims=True))
        values /= values.sum(axis=1, keepdims=True)
        return logits.astype(np.float32, copy=False), values.astype(np.float32, copy=False)

    def save(self, path):
        """Writes the weights file (the module's format)."""
        arrays = {
            "format": np.array(FORMAT),
            "num_players": np.array(self.num_players),
            "options": np.array(self.options, dtype=str),
            "observation_size": np.array(self.observation_size),
            "num_distinct_actions": np.array(NUM_DISTINCT_ACTIONS),
            "hidden_layers": np.array(len(self.layers)),
            "policy_w": self.policy[0],
            "policy_b": self.policy[1],
            "value_w": self.value[0],
            "value_b": self.value[1],
        }
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i}"], arrays[f"b{i}"] = w, b
        with open(path, "wb") as f:
            np.savez(f, **arrays)

    @classmethod
    def load(cls, path, game):
        """The evaluator of a weights file, checked against `game` (ValueError naming what
        differs). Read with allow_pickle=False: a file holding objects is refused."""
        with np.load(path, allow_pickle=False) as data:

            def get(key):
                if key not in data.files:
                    raise ValueError(f"{path}: not a {FORMAT} file (no {key!r})")
                return data[key]

            if str(get("format")) != FORMAT:
                raise ValueError(f"{path}: format {str(get('format'))!r}, expected {FORMAT!r}")
            num_players, options = _game_fields(game)
            stored = (int(get("num_players")), sorted(str(o) for o in get("options")))
            if stored != (num_players, sorted(options)):
                raise ValueError(
                    f"{path}: weights for {stored[0]} players with modules "
                    f"{stored[1]}, the game has {num_players} with {sorted(options)}"
                )
            if int(get("observation_size")) != observation_size(num_players):
                raise ValueError(
                    f"{path}: observation_size {int(get('observation_size'))}, the "
                    f"game's is {observation_size(num_players)}"
                )
            if int(get("num_distinct_actions")) != NUM_DISTINCT_ACTIONS:
                raise ValueError(
                    f"{path}: num_distinct_actions "
                    f"{int(get('num_distinct_actions'))}, the game's is "
                    f"{NUM_DISTINCT_ACTIONS}"
                )
            layers = [(get(f"w{i}"), get(f"b{i}")) for i in range(int(get("hidden_layers")))]
            return cls(
                game, layers, (get("policy_w"), get("policy_b")), (get("value_w"), get("value_b"))
            )
