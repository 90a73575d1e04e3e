"""The train step in JAX + optax (docs/learning.md "Training steps"): Adam on the loss of
network.loss, jitted once per run. The optimizer's state goes to and from plain numpy arrays
(its leaves in jax.tree_util order) for the checkpoint, so a resumed run continues with the same
moments and step count.

JAX on CPU runs the same compiled program on the same inputs to the same bits on one machine;
a different CPU, jax/XLA version or thread count may change the last bits of a step's sums
(docs/learning.md "Resuming").
"""

from types import ModuleType
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from ..extras import install_hint, installed
from .config import TrainConfig
from .network import loss


def _jax() -> Tuple[ModuleType, ModuleType]:
    try:
        import jax
        import optax
    except ImportError as error:
        raise ImportError(install_hint("training needs JAX and optax", "train")) from error
    return jax, optax


def check_available() -> None:
    """ImportError with the install hint when JAX or optax is missing: `vikinger train` asks
    before it makes the run's folder, so a missing extra is one line, not a traceback after
    the folder was made. It finds the packages without importing them (extras.installed): a
    command refused later for a bad flag should not pay JAX's import."""
    if not installed("jax", "optax"):
        raise ImportError(install_hint("training needs JAX and optax", "train"))


class Trainer:
    """Weights and optimizer state of a run, and its jitted step."""

    def __init__(
        self,
        config: TrainConfig,
        params: Dict[str, np.ndarray],
        optimizer: Optional[List[np.ndarray]] = None,
    ) -> None:
        jax, optax = _jax()
        self.config = config
        self._jax = jax
        self.optimizer = optax.adam(config.learning_rate)
        self.params = {k: jax.numpy.asarray(v) for k, v in params.items()}
        state = self.optimizer.init(self.params)
        leaves, self._treedef = jax.tree_util.tree_flatten(state)
        if optimizer is not None:
            # Sizes, not shapes: a 0-d leaf (Adam's count) is stored as one element.
            if len(optimizer) != len(leaves) or any(
                np.size(a) != np.size(b) for a, b in zip(optimizer, leaves)
            ):
                raise ValueError(
                    f"the checkpoint's optimizer state has {len(optimizer)} arrays "
                    f"that do not fit this network's Adam state ({len(leaves)})"
                )
            leaves = [
                jax.numpy.asarray(np.reshape(a, np.shape(b)), dtype=b.dtype)
                for a, b in zip(optimizer, leaves)
            ]
        self.state = jax.tree_util.tree_unflatten(self._treedef, leaves)
        l2, score_weight = float(config.l2), float(config.score_weight)

        def step(params: Any, state: Any, batch: Any) -> Tuple[Any, Any, Any, Any]:
            (total, parts), grads = jax.value_and_grad(loss, has_aux=True)(
                params, batch, l2, score_weight
            )
            updates, state = self.optimizer.update(grads, state, params)
            return optax.apply_updates(params, updates), state, total, parts

        def evaluate(params: Any, batch: Any) -> Any:
            return loss(params, batch, l2, score_weight)

        self._step = jax.jit(step)
        self._loss = jax.jit(evaluate)

    def step(self, batch: Dict[str, np.ndarray]) -> Dict[str, float]:
        """One Adam step on `batch`; the loss before it, by part."""
        self.params, self.state, total, parts = self._step(self.params, self.state, batch)
        out = {key: float(value) for key, value in parts.items()}
        out["total"] = float(total)
        if not np.isfinite(out["total"]):
            raise FloatingPointError(f"the loss is not finite: {out}")
        return out

    def loss(self, batch: Dict[str, np.ndarray]) -> float:
        """The loss of `batch` with the current weights (no step)."""
        return float(self._loss(self.params, batch)[0])

    def numpy_params(self) -> Dict[str, np.ndarray]:
        return {k: np.asarray(v, np.float32) for k, v in self.params.items()}

    def numpy_optimizer(self) -> List[np.ndarray]:
        return [np.asarray(leaf) for leaf in self._jax.tree_util.tree_leaves(self.state)]
