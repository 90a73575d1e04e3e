"""Network: a vikinger-mlp/1 network in integer arithmetic (docs/neural.md "The integer network"),
the reference twin of vikinger_fast's csrc/search/network.cc: the same rounding, the same sums,
the same bits, so that both engines build the same trees with it.

Built from a loaded MLPEvaluator (one file loader, mlp.py, serves both engines). The input is the
non-zero entries of the MLP's features for the player to move (network_features.py; every entry
is an integer): the first layer is the sum of their weight rows times their values; the hidden
layers are dense; the policy head computes the legal actions' logits only; the value head is a
softmax, as in mlp.py; the optional score head is tanh of its raw outputs (in double, math.tanh
as std::tanh), each rounded to float32.

Quantization: a weight matrix W with bias b, fed by inputs with `a` fraction bits (0 for the
features, ACT_SHIFT for activations), gets the scale 2^s with s the largest integer in
[0, MAX_SHIFT] such that W_q = round(W * 2^s) and b_q = round(b * 2^(s + a)) (in double, half
away from zero) satisfy |W_q| <= 32767 and
    first layer:   |b_q| <= 2^30 (so a features' L1 norm of 2^15 keeps the int32 sum of the
                   C++ below 2^15 * 32767 + 2^30 < 2^31);
    other layers and the heads:  ACT_MAX * sum_j |W_q[j, k]| + |b_q[k]| <= 2^31 - 1 for every
                   output k.
Before any value is scaled, every weight must lie within [-WEIGHT_LIMIT, WEIGHT_LIMIT] and every
bias within [-BIAS_LIMIT, BIAS_LIMIT], compared in double (check_range; the MLP's own checks make
the same one, so a weights file is refused at load): beyond them no s >= 0 fits. The first
layer's input is the features' exact integers (docs/neural.md "The network's input range"), not
the float32 tensor, which rounds gold and Fame above 2^24. A hidden layer's output is re-scaled
to ACT_SHIFT fraction bits, h = clip(((acc >> (t - 1)) + 1) >> 1, 0, ACT_MAX) with
t = s + a - ACT_SHIFT >= 1 (rounding half up; a layer needing t < 1, a
first layer with weights of 16 and more, cannot be quantized). logit = float32(acc * 2^-(s +
ACT_SHIFT)) from the double; values: the raw values the same way in double, a softmax with the
maximum subtracted, exp (math.exp, the C library's, as std::exp) and the sum in player order,
each share rounded to float32.

The sums here are int64 numpy products (exact, no BLAS); the C++ sums in int32, which the bounds
above keep from overflowing (the first layer in int64 when the features' L1 norm could take it
beyond int32: gold or Fame near 2^30), so both give the same integers.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from .arguments import type_name
from .game import Game
from .network_features import check_features, sparse

if TYPE_CHECKING:
    from .state import State

ACT_SHIFT = 10  # activations: 10 fraction bits, in [0, 32)
ACT_MAX = 32767  # the clamp of an activation (ReLU's top), int16
MAX_SHIFT = 24
WEIGHT_MAX = 32767  # int16
FIRST_BIAS_MAX = 1 << 30
SUM_MAX = (1 << 31) - 1
# What a weights file may hold for the integer network: |w| <= 32767 (an int16 at s = 0), |b| <=
# 2^21 (b * 2^ACT_SHIFT an int32 at s = 0).
WEIGHT_LIMIT = WEIGHT_MAX
BIAS_LIMIT = 1 << 21


def check_range(name: str, array: Any, limit: float) -> None:
    """ValueError naming the array unless every value lies within [-limit, limit] (NaN does
    not), compared in double."""
    if not (np.abs(np.asarray(array, np.float64)) <= limit).all():
        raise ValueError(
            f"{name} must lie within [-{limit}, {limit}] (what the integer network can hold)"
        )


def _scaled(x: Any, s: int) -> np.ndarray:
    """round(x * 2^s), half away from zero, as int64 (exact in double: float32 times 2^s)."""
    scaled = np.asarray(x, np.float64) * 2.0**s
    return (np.sign(scaled) * np.floor(np.abs(scaled) + 0.5)).astype(np.int64)


def _quantize(
    w: Any,
    b: Any,
    fraction_bits: int,
    first: bool,
    min_shift: int,
    name: str,
    w_name: str,
    b_name: str,
) -> tuple[np.ndarray, np.ndarray, int]:
    """(W_q, b_q, s) with the largest s of the module's rule; the predicate only gets harder as s
    grows, so the scan goes down from the first s whose largest weight fits. The arrays are taken
    as float32, as the C++ takes them."""
    w, b = np.asarray(w, np.float32), np.asarray(b, np.float32)
    check_range(w_name, w, WEIGHT_LIMIT)
    check_range(b_name, b, BIAS_LIMIT)
    top = np.abs(w).max(initial=np.float32(0))
    for s in range(MAX_SHIFT, -1, -1):
        if _scaled(top, s) > WEIGHT_MAX:
            continue
        wq, bq = _scaled(w, s), _scaled(b, s + fraction_bits)
        if first:
            fits = np.abs(bq).max(initial=0) <= FIRST_BIAS_MAX
        else:
            fits = (ACT_MAX * np.abs(wq).sum(axis=0) + np.abs(bq)).max(initial=0) <= SUM_MAX
        if not fits:
            continue
        if s < min_shift:
            break
        return wq, bq, s
    raise ValueError(f"{name}: the weights are too large for the integer network")


class Network:
    """Network(mlp): the integer network of a loaded MLPEvaluator, for the MLP's game (see the
    module docstring). PuctSearch.run(network) and run_batch(network) evaluate their leaves with
    it."""

    def __init__(self, mlp: Any) -> None:  # a loaded MLPEvaluator (its fields are checked)
        for name in ("num_players", "options", "features", "layers", "policy", "value"):
            if not hasattr(mlp, name):
                raise TypeError(f"mlp must be an MLPEvaluator, not {type_name(mlp)}")
        mlp.check_weights()  # the MLP's checks and messages (finite, shapes, range)
        self._game = Game(mlp.num_players, **{str(name): True for name in mlp.options})
        self._features_name = check_features(mlp.features)
        if not mlp.layers:
            raise ValueError("the integer network needs a hidden layer")
        self._layers = []
        for i, (w, b) in enumerate(mlp.layers):
            # A hidden layer is re-scaled by t = s + a - ACT_SHIFT >= 1.
            fraction_bits = 0 if i == 0 else ACT_SHIFT
            min_shift = ACT_SHIFT + 1 - fraction_bits
            names = (f"layer {i}", f"w{i}", f"b{i}")
            self._layers.append(_quantize(w, b, fraction_bits, i == 0, min_shift, *names))
        self._policy = _quantize(*mlp.policy, ACT_SHIFT, False, 0, "policy", "policy_w", "policy_b")  # type: ignore[call-arg]
        self._value = _quantize(*mlp.value, ACT_SHIFT, False, 0, "value", "value_w", "value_b")  # type: ignore[call-arg]
        score = getattr(mlp, "score", None)
        self._score = (
            None
            if score is None
            else _quantize(*score, ACT_SHIFT, False, 0, "score", "score_w", "score_b")  # type: ignore[call-arg]
        )

    def get_game(self) -> Any:
        """The game the network plays (the MLP's)."""
        return self._game

    @property
    def shifts(self) -> list[int]:
        """The scale exponents s of the hidden layers, the policy head, the value head and,
        when the network has one, the score head."""
        heads = [self._policy[2], self._value[2]]
        heads += [self._score[2]] if self._score is not None else []
        return [s for _, _, s in self._layers] + heads

    @property
    def has_score_head(self) -> bool:
        """Whether the weights have a score head (score_w, score_b)."""
        return self._score is not None

    def _node(self, state: State, method: str) -> None:
        if state.get_game() != self._game:
            raise ValueError(
                f"{method} got a state of {state.get_game()!r}, the network plays {self._game!r}"
            )
        if state.is_terminal() or state.is_chance_node():
            raise ValueError(f"{method} needs a decision node")

    def _features(self, state: State) -> tuple[np.ndarray, np.ndarray]:
        return sparse(self._features_name, state)

    def features(self, state: State) -> tuple[np.ndarray, np.ndarray]:
        """(indices int32[m], values int32[m]): the non-zero entries of the network's features
        (network_features.py) of a decision node for the player to move, by index, as exact
        integers (the observation tensor's float32 rounds gold and Fame above 2^24): the first
        layer's input."""
        self._node(state, "features")
        return self._features(state)

    def _hidden(self, state: State) -> Any:
        index, value = self._features(state)
        act = None
        for i, (w, b, s) in enumerate(self._layers):
            if i == 0:
                acc = value.astype(np.int64) @ w[index] + b  # the rows of the active features
            else:
                acc = act @ w + b
            t = s + (0 if i == 0 else ACT_SHIFT) - ACT_SHIFT
            act = np.clip(((acc >> (t - 1)) + 1) >> 1, 0, ACT_MAX)
        return act

    def evaluate(self, state: State) -> tuple[np.ndarray, np.ndarray]:
        """(logits float32[k], values float32[num_players]) of a decision node: the logits of its
        k legal actions (in legal_actions() order) and the values relative to the player to
        move."""
        self._node(state, "evaluate")
        return self._heads(state, self._hidden(state))

    def _evaluate_scored(self, state: State) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """evaluate(state) and scores(state) of one pass through the hidden layers: the search
        with a score utility reads both heads at every leaf. For batched_search only (no public
        twin: the C++ search computes them together; the search has already refused weights
        without a score head)."""
        self._node(state, "evaluate")
        act = self._hidden(state)
        logits, values = self._heads(state, act)
        return logits, values, self._scores(act)

    def _heads(self, state: State, act: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The policy logits of the legal actions and the values of hidden activations `act`."""
        legal = state.legal_actions()
        w, b, s = self._policy
        scale = 2.0 ** -(s + ACT_SHIFT)
        logits = ((act @ w[:, legal] + b[legal]).astype(np.float64) * scale).astype(np.float32)
        w, b, s = self._value
        scale = 2.0 ** -(s + ACT_SHIFT)
        raw = [float(q) * scale for q in act @ w + b]
        top = max(raw)
        shares = [math.exp(r - top) for r in raw]
        total = 0.0
        for share in shares:
            total += share
        values = np.array([share / total for share in shares], np.float32)
        return logits, values

    def _scores(self, act: np.ndarray) -> np.ndarray:
        """The score head: tanh of the raw outputs, in double (math.tanh, the C library's, as
        std::tanh), each rounded to float32."""
        assert self._score is not None
        w, b, s = self._score
        scale = 2.0 ** -(s + ACT_SHIFT)
        return np.array([math.tanh(float(q) * scale) for q in act @ w + b], np.float32)

    def scores(self, state: State) -> np.ndarray:
        """The score head's outputs float32[num_players] of a decision node, in [-1, 1],
        relative to the player to move: each seat's squashed final margin (docs/learning.md
        "Score-aware values"). ValueError for weights without a score head."""
        self._node(state, "scores")
        if self._score is None:
            raise ValueError("these weights have no score head")
        return self._scores(self._hidden(state))
