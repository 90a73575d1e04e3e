"""The network in JAX: the MLP of vikinger-mlp/1 (docs/neural.md "The weights file") as a dict
of arrays with the file's own names (w0 b0 .. policy_w policy_b value_w value_b), so exporting
is writing the arrays, and the numpy MLPEvaluator plays with exactly what was trained. A run with
score_weight > 0 has a score head too (score_w score_b: tanh of x @ w + b, each seat's squashed
final margin relative to the mover, docs/learning.md "Score-aware values").

The loss of a batch (docs/learning.md "Training steps"): policy cross-entropy between the
policy target (the search's improved policy) and the softmax of the legal logits, plus the mean
squared error between the value head's win shares and the value target (both relative to the
mover; targets.py forms them), plus score_weight times the mean squared error of the score head
(when it has one), plus l2 times the sum of the squared weight matrices.
"""

from typing import Any, Dict, Tuple

import numpy as np

from vikinger_ref.actions import NUM_DISTINCT_ACTIONS
from vikinger_ref.mlp import MLPEvaluator
from vikinger_ref.network_features import FEATURE_SETS, OBSERVATION_V1, feature_width

Params = Dict[str, Any]
NEG = -1e9  # the logit of an illegal action: exp underflows to 0 in float32


def init_params(
    players: int,
    hidden: Tuple[int, ...],
    seed: int,
    features: str = OBSERVATION_V1,
    score: bool = False,
) -> Dict[str, np.ndarray]:
    """He-initialised weights (numpy, float32), zero biases, small heads; the first layer reads
    `features` (vikinger_ref.network_features); `score`: with a score head (drawn after the
    others, so the other arrays are those of the same seed without one)."""
    rng = np.random.default_rng(seed)
    sizes = [feature_width(features, players), *hidden]
    params: Dict[str, np.ndarray] = {}
    for i, (a, b) in enumerate(zip(sizes, sizes[1:])):
        params[f"w{i}"] = (rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32)
        params[f"b{i}"] = np.zeros(b, np.float32)
    h = sizes[-1]
    params["policy_w"] = (rng.standard_normal((h, NUM_DISTINCT_ACTIONS)) * 0.01).astype(np.float32)
    params["policy_b"] = np.zeros(NUM_DISTINCT_ACTIONS, np.float32)
    params["value_w"] = (rng.standard_normal((h, players)) * 0.01).astype(np.float32)
    params["value_b"] = np.zeros(players, np.float32)
    if score:
        params["score_w"] = (rng.standard_normal((h, players)) * 0.01).astype(np.float32)
        params["score_b"] = np.zeros(players, np.float32)
    return params


def warm_start(
    params: Dict[str, np.ndarray], mlp: MLPEvaluator, features: str, origin: str
) -> Dict[str, np.ndarray]:
    """`params` (init_params' arrays) with `mlp`'s weights over them, so the started network
    computes what `mlp` computes: the same number of hidden layers, each at least as wide as
    `mlp`'s, read from the same features or from an earlier set (observation-v1 into a run
    with module flags, either into one with trip counts: the new rows of the first layer start
    at 0, so the network first plays as `mlp` at every table); a score head `mlp` lacks keeps
    its drawn weights. ValueError naming `origin` when the layers do not fit.

    A wider run (Net2WiderNet's aim, by zeros rather than copies): the file's units keep their
    weights and read nothing from the new units (those rows 0), and the new units keep their
    drawn weights into them but nothing out of them (their rows of the next layer and of the
    heads 0). So the outputs are the file's, and the new units still learn: the gradient of
    a row out of a unit is its activation times the error, not 0."""
    own = hidden_count(params)
    widths = tuple(int(w.shape[1]) for w, _ in mlp.layers)
    wanted = tuple(int(params[f"w{i}"].shape[1]) for i in range(own))
    if len(widths) != len(wanted) or any(a > b for a, b in zip(widths, wanted)):
        raise ValueError(
            f"--init {origin}: hidden layers {widths}, the run's are {wanted} (give --hidden "
            f"{','.join(map(str, widths))}, or as many layers, each at least as wide)"
        )
    # Each feature set extends the one before it (network_features.py), so a network of an
    # earlier set reads the first rows of a later one: its rows are copied, the rest are 0.
    if FEATURE_SETS.index(mlp.features) > FEATURE_SETS.index(features):
        raise ValueError(
            f"--init {origin}: its features are {mlp.features!r}, the run's {features!r} (a "
            f"network can only start from its own features or an earlier set, in the order "
            f"{', '.join(FEATURE_SETS)})"
        )
    started = {key: value.copy() for key, value in params.items()}
    below = 0  # the file's units in the layer below (the observation's rows for the first)
    for i, (w, b) in enumerate(mlp.layers):
        w = np.asarray(w, np.float32)
        rows, units = w.shape
        layer = started[f"w{i}"]
        if i == 0:
            layer[:, :units] = 0.0  # the flags' rows of the file's units 0
        else:
            layer[below:, :units] = 0.0  # the file's units read nothing from new ones
        layer[:rows, :units] = w
        started[f"b{i}"][:units] = np.asarray(b, np.float32)
        below = units
    heads = [("policy", mlp.policy), ("value", mlp.value)]
    if mlp.score is not None and "score_w" in params:
        heads.append(("score", mlp.score))
    for name, (w, b) in heads:
        started[f"{name}_w"][:below] = np.asarray(w, np.float32)
        started[f"{name}_w"][below:] = 0.0  # nothing out of the new units
        started[f"{name}_b"] = np.asarray(b, np.float32).copy()
    return started


def hidden_count(params: Params) -> int:
    return sum(1 for key in params if key.startswith("w"))


def evaluator(params: Params, game: Any, features: str = OBSERVATION_V1) -> MLPEvaluator:
    """The numpy evaluator of these weights reading `features` (what self-play, the bots and the
    file use)."""
    layers = [
        (np.asarray(params[f"w{i}"]), np.asarray(params[f"b{i}"]))
        for i in range(hidden_count(params))
    ]
    return MLPEvaluator(
        game,
        layers,
        (np.asarray(params["policy_w"]), np.asarray(params["policy_b"])),
        (np.asarray(params["value_w"]), np.asarray(params["value_b"])),
        features,
        (np.asarray(params["score_w"]), np.asarray(params["score_b"]))
        if "score_w" in params
        else None,
    )


def params_of(mlp: MLPEvaluator) -> Dict[str, np.ndarray]:
    """The dict of a numpy evaluator's weights."""
    params = {}
    for i, (w, b) in enumerate(mlp.layers):
        params[f"w{i}"], params[f"b{i}"] = w, b
    params["policy_w"], params["policy_b"] = mlp.policy
    params["value_w"], params["value_b"] = mlp.value
    if mlp.score is not None:
        params["score_w"], params["score_b"] = mlp.score
    return params


def _hidden(params: Params, observations: Any) -> Any:
    import jax.numpy as jnp

    x = observations
    for i in range(hidden_count(params)):
        x = jnp.maximum(x @ params[f"w{i}"] + params[f"b{i}"], 0.0)
    return x


def forward(params: Params, observations: Any) -> Tuple[Any, Any]:
    """(logits, value logits) of a batch, in JAX."""
    x = _hidden(params, observations)
    return x @ params["policy_w"] + params["policy_b"], x @ params["value_w"] + params["value_b"]


def loss(
    params: Params, batch: Dict[str, Any], l2: float, score_weight: float = 0.0
) -> Tuple[Any, Dict[str, Any]]:
    """(total loss, {"policy", "value", "score", "l2"}) of a batch with observation, legal_mask,
    policy_target, value_target and, when score_weight > 0, score_target (targets.py); the
    "score" part is score_weight times the score head's squared error (0 without a head)."""
    import jax
    import jax.numpy as jnp

    x = _hidden(params, batch["observation"])
    logits = x @ params["policy_w"] + params["policy_b"]
    value_logits = x @ params["value_w"] + params["value_b"]
    logits = jnp.where(batch["legal_mask"], logits, NEG)
    log_policy = jax.nn.log_softmax(logits, axis=-1)
    target = batch["policy_target"]
    policy_loss = -jnp.mean(jnp.sum(jnp.where(target > 0, target * log_policy, 0.0), axis=-1))
    values = jax.nn.softmax(value_logits, axis=-1)
    value_loss = jnp.mean(jnp.sum((values - batch["value_target"]) ** 2, axis=-1))
    squares = sum(jnp.sum(params[k] ** 2) for k in params if k.startswith("w") or k.endswith("_w"))
    l2_loss = l2 * squares
    score_loss = jnp.zeros((), jnp.float32)
    if score_weight > 0 and "score_w" in params:
        predicted = jnp.tanh(x @ params["score_w"] + params["score_b"])
        error = jnp.sum((predicted - batch["score_target"]) ** 2, axis=-1)
        score_loss = score_weight * jnp.mean(error)
    total = policy_loss + value_loss + score_loss + l2_loss
    return total, {"policy": policy_loss, "value": value_loss, "score": score_loss, "l2": l2_loss}
