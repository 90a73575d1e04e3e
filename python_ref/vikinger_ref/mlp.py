"""A small multilayer perceptron evaluator in numpy, its weights in an `.npz` file read without
pickle (docs/neural.md "The weights file"). Engine independent: vikinger_fast.neural uses this
same code.

The file (format "vikinger-mlp/1") holds, all as plain numpy arrays:
  format               str, "vikinger-mlp/1"
  num_players          int, the game's players (2..4)
  options              str[k], the game's modules that are on (OPTION_NAMES spelling)
  modules_covered      str[m], optional: the module sets the weights play, each spelled as
                       the modules on in OPTION_NAMES order joined by "," or "none"; at most
                       32, none twice, `options`' set among them. A file without it covers
                       its `options` alone (the files written before it keep their meaning).
  observation_size     int, the width of an observation row
  features             str, optional: the feature set the network reads (network_features.py:
                       "observation-v1" or "observation-modules-v2"); the first layer has its
                       width of rows. A file without it has "observation-v1" (the files
                       written before it keep their meaning); an unknown name is refused.
  num_distinct_actions int, 2036
  hidden_layers        int, L
  w0, b0 .. w{L-1}, b{L-1}   float32 [in, out], [out]: x <- max(x @ w + b, 0)
  policy_w, policy_b   float32 [h, num_distinct_actions], [num_distinct_actions]: the logits
  value_w, value_b     float32 [h, num_players], [num_players]: values = softmax(x @ w + b),
                       relative to the player to move (slot k: player (mover + k) % n), in
                       [0, 1] and summing to 1 as the B8.9 win shares do.
  score_w, score_b     float32 [h, num_players], [num_players], optional, both or neither: the
                       score head, scores = tanh(x @ w + b), each seat's squashed final margin
                       relative to the mover as the values (docs/learning.md "Score-aware
                       values"). A file without them has no score head; a search with
                       score_utility > 0 needs one (docs/neural.md "Score-aware values").
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any, ContextManager, Iterable, Sequence

import numpy as np

from .actions import NUM_DISTINCT_ACTIONS
from .components import OPTION_NAMES
from .network import BIAS_LIMIT, WEIGHT_LIMIT, check_range
from .network_features import OBSERVATION_V1, check_features, dense, feature_width, module_flags
from .npz import Archive
from .observation import observation_size
from .solver import score_utility

# The one message of a score utility asked of weights without a score head (bots, searches).
SCORE_HEAD_NEEDED = (
    "score_utility > 0 needs a network with a score head (score_w, score_b in its weights file)"
)

if TYPE_CHECKING:
    import os

    from .game import GameLike

FORMAT = "vikinger-mlp/1"
MAX_HIDDEN_LAYERS = 64
NO_MODULES = "none"  # the spelling of the base game's set (vikinger_fast.module_sets')
ALL_SETS = tuple(
    ",".join(m for k, m in enumerate(OPTION_NAMES) if bits >> k & 1) or NO_MODULES
    for bits in range(1 << len(OPTION_NAMES))
)  # every module set, spelled as modules_covered spells it: "none", "auction", ...


# threadpoolctl's controller, made on the first call (it scans the loaded libraries).
_CONTROLLER: list[Any] = []


def one_blas_thread() -> ContextManager[Any]:
    """A context in which numpy's BLAS runs one thread (threadpoolctl, when installed: the
    `web`, `arena` and `train` extras bring it). A batch of a few dozen rows gains nothing from
    more, and a thread per core spins against a search's other work: with one other busy process
    on 2 cores a 0.1 s move fell from about 1,200 visits to a median of 387 (docs/learning.md)."""
    if not _CONTROLLER:
        try:
            from threadpoolctl import ThreadpoolController
        except ImportError:
            _CONTROLLER.append(None)
        else:
            _CONTROLLER.append(ThreadpoolController())
    controller = _CONTROLLER[0]
    if controller is None:
        return contextlib.nullcontext()
    return controller.limit(limits=1, user_api="blas")


def _game_fields(game: GameLike) -> tuple[int, list[str]]:
    return game.num_players, [name for name in OPTION_NAMES if game.options[name]]


def set_name(options: Iterable[str]) -> str:
    """The spelling of the set of the modules `options` (names, any order) in modules_covered."""
    return ",".join(name for name in OPTION_NAMES if name in options) or NO_MODULES


def covered_sets(names: Iterable[object]) -> tuple[str, ...]:
    """The module sets of `names` (modules_covered's spellings, any order), in ALL_SETS order.
    ValueError naming the first bad one: not a set's spelling, a module named twice, a set
    listed twice, or none at all."""
    names = list(names)
    if not names or len(names) > len(ALL_SETS):
        raise ValueError(f"modules_covered must list 1 to {len(ALL_SETS)} module sets")
    seen = set()
    for text in names:
        if not isinstance(text, str):
            raise ValueError(f"modules_covered must list text, not {type(text).__name__}")
        words = [] if text == NO_MODULES else text.split(",")
        for word in words:
            if word not in OPTION_NAMES:
                raise ValueError(
                    f"modules_covered: unknown module {word!r} in {text!r} (valid: "
                    f"{', '.join(OPTION_NAMES)}, or {NO_MODULES!r} alone)"
                )
            if words.count(word) > 1:
                raise ValueError(f"modules_covered: module {word!r} twice in {text!r}")
        spelled = set_name(words)
        if spelled in seen:
            raise ValueError(f"modules_covered: the set {spelled!r} is listed twice")
        seen.add(spelled)
    return tuple(name for name in ALL_SETS if name in seen)


HALF_MAX = float(np.finfo(np.float16).max)  # 65504: save(half=True) refuses a weight beyond


def _real(array: Any) -> np.ndarray:
    """`array` as float32; ValueError for what is not real numbers (complex would lose its
    imaginary part, objects are not numbers)."""
    array = np.asarray(array)
    if array.dtype.kind not in "biuf":
        raise ValueError(f"the MLP's weights must be real numbers, not {array.dtype}")
    return array.astype(np.float32, copy=False)


def _check_layer_shapes(
    width: int,
    num_players: int,
    layers: Sequence[tuple[Sequence[int], Sequence[int]]],
    policy: tuple[Sequence[int], Sequence[int]],
    value: tuple[Sequence[int], Sequence[int]],
    prefix: str = "",
    score: tuple[Sequence[int], Sequence[int]] | None = None,
) -> None:
    """ValueError unless the shapes are those of an MLP from `width` inputs: layers [(w, b)],
    then the policy and value heads (w, b) and the optional score head, each a shape tuple."""
    for i, (w, b) in enumerate(layers):
        if len(w) != 2 or w[0] != width or tuple(b) != (w[1],):
            raise ValueError(
                f"{prefix}layer {i}: w{i} must be ({width}, k) and b{i} (k,), not "
                f"{tuple(w)} and {tuple(b)}"
            )
        width = w[1]
    for name, (w, b), out in (
        ("policy", policy, NUM_DISTINCT_ACTIONS),
        ("value", value, num_players),
        *((("score", score, num_players),) if score is not None else ()),
    ):
        if tuple(w) != (width, out) or tuple(b) != (out,):
            raise ValueError(
                f"{prefix}{name}_w must be ({width}, {out}) and {name}_b ({out},), not "
                f"{tuple(w)} and {tuple(b)}"
            )


class MLPEvaluator:
    """evaluator(observations, legal) -> (logits, values) of the layers (see the module): the
    observation rows become the rows of the network's `features` (network_features.py) for the
    game's modules. `score`: the optional score head (w, b), read by scores() alone."""

    def __init__(
        self,
        game: GameLike,
        layers: Iterable[tuple[Any, Any]],
        policy: Iterable[Any],
        value: Iterable[Any],
        features: str = OBSERVATION_V1,
        score: Iterable[Any] | None = None,
    ) -> None:
        self.num_players, self.options = _game_fields(game)
        self.modules_covered: tuple[str, ...] = (set_name(self.options),)  # cover() widens it
        self.observation_size = observation_size(self.num_players)
        self.features = check_features(features)
        self._flags = module_flags(self.options)
        self.layers = [(_real(w), _real(b)) for w, b in layers]
        self.policy = tuple(_real(a) for a in policy)
        self.value = tuple(_real(a) for a in value)
        self.score = None if score is None else tuple(_real(a) for a in score)
        self.check_weights()

    def cover(self, sets: Iterable[object]) -> MLPEvaluator:
        """The module sets the weights play (modules_covered: spellings of ALL_SETS), the game's
        among them; what save writes. ValueError naming a bad list."""
        covers = covered_sets(sets)
        if set_name(self.options) not in covers:
            raise ValueError(
                f"the game's module set {set_name(self.options)!r} is not among modules_covered"
            )
        self.modules_covered = covers
        return self

    @classmethod
    def random(
        cls,
        game: GameLike,
        hidden: Sequence[int] = (64,),
        seed: int = 0,
        features: str = OBSERVATION_V1,
        score: bool = False,
    ) -> MLPEvaluator:
        """Small random weights (He initialisation) for tests and benchmarks; score=True adds a
        score head (drawn after the other arrays, so these are the same with or without it)."""
        rng = np.random.default_rng(seed)
        n = game.num_players
        sizes = [feature_width(features, n), *hidden]
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
        heads = (rng.standard_normal((h, n)) * 0.1, np.zeros(n)) if score else None
        return cls(game, layers, policy, value, features, heads)

    def check_weights(self) -> None:
        """ValueError unless the arrays are finite, of the layers' shapes for the features and
        the players, and within what the integer network can hold (both engines' Network(mlp)
        call it, so a bad MLP gets the same message from each)."""
        arrays = [a for layer in self.layers for a in layer] + [*self.policy, *self.value]
        arrays += [*self.score] if self.score is not None else []
        for array in arrays:
            if not np.isfinite(array).all():
                raise ValueError("the MLP's weights must be finite")
        _check_layer_shapes(
            feature_width(self.features, self.num_players),
            self.num_players,
            [(w.shape, b.shape) for w, b in self.layers],
            (self.policy[0].shape, self.policy[1].shape),
            (self.value[0].shape, self.value[1].shape),
            score=None if self.score is None else (self.score[0].shape, self.score[1].shape),
        )
        # What the integer network can hold (network.py), checked in double before any value
        # is scaled: a file beyond it is refused at load, by both engines alike.
        heads = [("policy", self.policy), ("value", self.value)]
        heads += [("score", self.score)] if self.score is not None else []
        named: list[tuple[Any, ...]] = [
            (f"w{i}", f"b{i}", w, b) for i, (w, b) in enumerate(self.layers)
        ]
        named += [(f"{head}_w", f"{head}_b", *pair) for head, pair in heads]
        for w_name, b_name, w, b in named:
            check_range(w_name, w, WEIGHT_LIMIT)
            check_range(b_name, b, BIAS_LIMIT)

    def __call__(self, observations: Any, legal: Any) -> tuple[np.ndarray, np.ndarray]:
        with one_blas_thread():
            return self._forward(observations)

    def scores(self, observations: Any) -> np.ndarray:
        """The score head's outputs, float32 (N, n) in (-1, 1), relative to the mover; a
        ValueError for weights without a score head."""
        if self.score is None:
            raise ValueError("these weights have no score head")
        with one_blas_thread():
            x = self._hidden(observations)
            return np.tanh(x @ self.score[0] + self.score[1]).astype(np.float32, copy=False)

    def with_score_utility(self, weight: float) -> ScoreUtilityEvaluator:
        """The evaluator of the score utility (docs/neural.md "Score-aware values"): its values
        are (1 - weight) * win share + weight * (score + 1) / 2 per seat, computed in float64
        from the heads' float32 outputs and rounded to float32. ValueError for weights without a
        score head."""
        if self.score is None:
            raise ValueError(SCORE_HEAD_NEEDED)
        return ScoreUtilityEvaluator(self, weight)

    def _hidden(self, observations: Any) -> np.ndarray:
        x = dense(self.features, observations, self._flags)
        for w, b in self.layers:
            x = np.maximum(x @ w + b, np.float32(0))
        return x

    def _forward(self, observations: Any, weight: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
        x = self._hidden(observations)
        logits = x @ self.policy[0] + self.policy[1]
        raw = x @ self.value[0] + self.value[1]
        values = np.exp(raw - raw.max(axis=1, keepdims=True))
        values /= values.sum(axis=1, keepdims=True)
        values = values.astype(np.float32, copy=False)
        if weight > 0.0:
            assert self.score is not None  # with_score_utility checked it
            score = np.tanh(x @ self.score[0] + self.score[1]).astype(np.float32, copy=False)
            utility = score_utility(values.astype(np.float64), score.astype(np.float64), weight)
            values = utility.astype(np.float32)
        return logits.astype(np.float32, copy=False), values

    def save(self, path: Any, half: bool = False) -> None:
        """Writes the weights file (the module's format) to `path` (a str or os.PathLike), or
        into a binary file object (as np.savez: an io.BytesIO for the bytes alone). `half`: the
        weights rounded to float16, half the bytes (how the networks for every module set ship,
        docs/neural.md "The weights file"); ValueError for a weight float16 cannot hold."""
        if not isinstance(half, bool):
            raise TypeError(f"half must be True or False, not {type(half).__name__}")
        arrays: dict[str, Any] = {
            "format": np.array(FORMAT),
            "num_players": np.array(self.num_players),
            "options": np.array(self.options, dtype=str),
            "modules_covered": np.array(self.modules_covered, dtype=str),
            "observation_size": np.array(self.observation_size),
            "features": np.array(self.features),
            "num_distinct_actions": np.array(NUM_DISTINCT_ACTIONS),
            "hidden_layers": np.array(len(self.layers)),
            "policy_w": self.policy[0],
            "policy_b": self.policy[1],
            "value_w": self.value[0],
            "value_b": self.value[1],
        }
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i}"], arrays[f"b{i}"] = w, b
        if self.score is not None:
            arrays["score_w"], arrays["score_b"] = self.score
        if half:
            for name, array in list(arrays.items()):
                if array.dtype == np.float32:
                    if np.abs(array).max(initial=0.0) > HALF_MAX:
                        raise ValueError(f"{name} has a weight beyond float16's {HALF_MAX:g}")
                    arrays[name] = array.astype(np.float16)
        if hasattr(path, "write"):
            np.savez(path, **arrays)
            return
        with open(path, "wb") as f:
            np.savez(f, **arrays)

    @classmethod
    def load(cls, path: str | os.PathLike[str], game: GameLike) -> MLPEvaluator:
        """The evaluator of a weights file (str or os.PathLike), checked against `game`.

        Read through npz.Archive: only a regular .npz file whose declared sizes, dtypes and
        shapes are checked before any array is inflated; real float weights only. Every
        malformed file is a ValueError that names the file and the problem (docs/security.md)."""
        with Archive(path, "model") as archive:
            path = archive.path
            num_players, options = _game_fields(game)
            if str(_meta(archive, "format", "U")) != FORMAT:
                raise ValueError(
                    f"{path}: format {str(_meta(archive, 'format', 'U'))!r}, expected {FORMAT!r}"
                )
            stored_options = _meta(archive, "options", "U", size=len(OPTION_NAMES))
            stored = (int(_meta(archive, "num_players", "iu")), sorted(map(str, stored_options)))
            covers: Sequence[str] = [set_name(stored[1])]
            if "modules_covered" in archive.names:
                listed = _meta(archive, "modules_covered", "U", size=len(ALL_SETS))
                try:
                    covers = covered_sets(map(str, listed))
                except ValueError as error:
                    raise ValueError(f"{path}: {error}") from None
                if set_name(stored[1]) not in covers:
                    raise ValueError(f"{path}: options {stored[1]} are not among modules_covered")
            if stored[0] != num_players or set_name(options) not in covers:
                what = (
                    f"modules {stored[1]}"
                    if len(covers) == 1
                    else f"the module sets {list(covers)}"
                    if len(covers) < len(ALL_SETS)
                    else "every module set"
                )
                raise ValueError(
                    f"{path}: weights for {stored[0]} players with {what}, the game has "
                    f"{num_players} with {sorted(options)}"
                )
            for key, expected in (
                ("observation_size", observation_size(num_players)),
                ("num_distinct_actions", NUM_DISTINCT_ACTIONS),
            ):
                value = int(_meta(archive, key, "iu"))
                if value != expected:
                    raise ValueError(f"{path}: {key} {value}, the game's is {expected}")
            features = OBSERVATION_V1
            if "features" in archive.names:
                try:
                    features = check_features(str(_meta(archive, "features", "U")))
                except ValueError as error:
                    raise ValueError(f"{path}: {error}") from None
            width = feature_width(features, num_players)
            hidden = int(_meta(archive, "hidden_layers", "iu"))
            if not 0 <= hidden <= MAX_HIDDEN_LAYERS:
                raise ValueError(f"{path}: hidden_layers {hidden}, not in 0..{MAX_HIDDEN_LAYERS}")
            names = [n for i in range(hidden) for n in (f"w{i}", f"b{i}")]
            names += ["policy_w", "policy_b", "value_w", "value_b"]
            scored = "score_w" in archive.names or "score_b" in archive.names
            names += ["score_w", "score_b"] if scored else []  # both or neither
            for name in names:
                if name not in archive.names:
                    raise ValueError(f"{path}: not a {FORMAT} file (no {name!r})")
                if archive.dtype(name).kind != "f":
                    raise ValueError(
                        f"{path}: {name} must hold real floats, not {archive.dtype(name)}"
                    )
            # The shapes from the headers, checked before any weight is inflated.
            shape = archive.shape
            rows = shape("w0" if hidden else "policy_w")
            if len(rows) == 2 and rows[0] != width:
                raise ValueError(
                    f"{path}: features {features!r} are {width} inputs for {num_players} "
                    f"players, the first layer has {rows[0]}"
                )
            _check_layer_shapes(
                width,
                num_players,
                [(shape(f"w{i}"), shape(f"b{i}")) for i in range(hidden)],
                (shape("policy_w"), shape("policy_b")),
                (shape("value_w"), shape("value_b")),
                prefix=f"{path}: ",
                score=(shape("score_w"), shape("score_b")) if scored else None,
            )
            arrays = {name: archive.read(name) for name in names}
        try:
            return cls(
                game,
                [(arrays[f"w{i}"], arrays[f"b{i}"]) for i in range(hidden)],
                (arrays["policy_w"], arrays["policy_b"]),
                (arrays["value_w"], arrays["value_b"]),
                features,
                (arrays["score_w"], arrays["score_b"]) if scored else None,
            ).cover(covers)
        except ValueError as error:
            raise ValueError(f"{path}: {error}") from None


class ScoreUtilityEvaluator:
    """MLPEvaluator.with_score_utility(weight): the MLP's logits, and as values the score
    utility of its win shares and scores."""

    def __init__(self, mlp: MLPEvaluator, weight: float) -> None:
        self.mlp, self.weight = mlp, float(weight)

    def __call__(self, observations: Any, legal: Any) -> tuple[np.ndarray, np.ndarray]:
        with one_blas_thread():
            return self.mlp._forward(observations, self.weight)


def _meta(archive: Archive, key: str, kinds: str, size: int = 1) -> Any:
    """A metadata array of the weights file: present, of a dtype kind in `kinds`, at most
    `size` elements (one value: returned as a scalar)."""
    if key not in archive.names:
        raise ValueError(f"{archive.path}: not a {FORMAT} file (no {key!r})")
    if archive.dtype(key).kind not in kinds or np.prod(archive.shape(key)) > size:
        raise ValueError(
            f"{archive.path}: {key} must be {'text' if kinds == 'U' else 'an int'}, not "
            f"{archive.dtype(key)} of shape {archive.shape(key)}"
        )
    array = archive.read(key)
    if size == 1:
        if array.size != 1:
            raise ValueError(f"{archive.path}: {key} must hold one value")
        return array.reshape(-1)[0]
    return array.reshape(-1)
