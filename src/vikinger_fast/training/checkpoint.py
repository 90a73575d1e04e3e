"""Checkpoints (docs/learning.md "Files"): one `.npz` read with allow_pickle=False holding

  format        "vikinger-train-checkpoint/1"
  config        the run's TrainConfig as JSON text (parsed as JSON, never run)
  iteration     the iteration the checkpoint belongs to
  step          training steps taken in the whole run
  net_<name>    the network's arrays (the names of vikinger-mlp/1: w0 b0 .. value_b)
  opt_<k>       the optimizer state's arrays, k in the order of jax.tree_util.tree_leaves

written under a temporary name and renamed, so a crash leaves the last complete one. Loading
(through the checked reader of every .npz, vikinger_ref/npz.py) checks the format, the game,
sizes and shapes and names what differs (ValueError).
"""

import os
from typing import Any, Dict, List, Mapping, Optional, Tuple, Union

import numpy as np

from vikinger_ref.actions import NUM_DISTINCT_ACTIONS
from vikinger_ref.npz import MAX_BYTES, Archive, fspath
from vikinger_ref.network_features import feature_width

from .. import selfplay_data
from ..safety import outputs
from .config import TrainConfig
from .network import init_params

FORMAT = "vikinger-train-checkpoint/1"
# The weights and Adam's two moments, each at most a weights file's size.
MAX_CHECKPOINT_BYTES = 3 * MAX_BYTES + 1024 * 1024


class Checkpoint:
    """A run's state between steps: config, iteration, step, weights, optimizer arrays."""

    def __init__(
        self,
        config: TrainConfig,
        iteration: int,
        step: int,
        params: Dict[str, np.ndarray],
        optimizer: List[np.ndarray],
    ) -> None:
        self.config = config
        self.iteration = int(iteration)
        self.step = int(step)
        self.params = params
        self.optimizer = optimizer

    def save(self, path: str) -> None:
        arrays: Dict[str, np.ndarray] = {
            "format": np.array(FORMAT),
            "config": np.array(self.config.to_json()),
            "iteration": np.array(self.iteration, np.int64),
            "step": np.array(self.step, np.int64),
        }
        for name, array in self.params.items():
            arrays[f"net_{name}"] = np.asarray(array)
        for k, array in enumerate(self.optimizer):
            arrays[f"opt_{k}"] = np.asarray(array)
        outputs.write_atomic(path, selfplay_data.npz_bytes(arrays), sync=True)

    @classmethod
    def load(
        cls, path: Union[str, "os.PathLike[str]"], expect: Optional[TrainConfig] = None
    ) -> "Checkpoint":
        """The checkpoint of `path` (str or os.PathLike); with `expect`, its game and network
        must be that config's (the training settings may differ: a run may change them on
        resume). Read through vikinger_ref.npz.Archive: sizes, dtypes and the network's shapes
        are checked before any array is inflated; every problem is a ValueError naming it."""
        if not os.path.lexists(fspath(path, "checkpoint")):
            raise ValueError(f"checkpoint {fspath(path, 'checkpoint')!r} does not exist")
        with Archive(path, "checkpoint", max_bytes=MAX_CHECKPOINT_BYTES) as archive:
            where: str = archive.path  # the path as a str

            def get(key: str) -> Any:
                # One value, stored as a 0-d or 1-element array (npz_bytes writes the latter).
                if key not in archive.names:
                    raise ValueError(f"{where}: not a {FORMAT} file (no {key!r})")
                if int(np.prod(archive.shape(key))) != 1:
                    raise ValueError(f"{where}: {key!r} must hold one value")
                return archive.read(key).reshape(-1)[0]

            if str(get("format")) != FORMAT:
                raise ValueError(f"{where}: format {str(get('format'))!r}, expected {FORMAT!r}")
            try:
                config = TrainConfig.from_json(str(get("config")))
            except (ValueError, TypeError) as error:
                raise ValueError(f"{where}: {error}") from None
            iteration, step = get("iteration"), get("step")
            for name, value in (("iteration", iteration), ("step", step)):
                if archive.dtype(name).kind not in "iu" or value < 0:
                    raise ValueError(f"{where}: {name} must be an int >= 0, not {value!r}")
            names = sorted(key for key in archive.names if key.startswith("net_"))
            # The network's shapes and dtypes from the headers, before reading a weight.
            check_params(
                {key[4:]: _Header(archive.shape(key), archive.dtype(key)) for key in names},
                config,
                where,
            )
            params = {key[4:]: archive.read(key) for key in names}
            count = sum(1 for key in archive.names if key.startswith("opt_"))
            optimizer = []
            for k in range(count):
                if f"opt_{k}" not in archive.names:
                    raise ValueError(f"{where}: damaged checkpoint, no 'opt_{k}'")
                optimizer.append(archive.read(f"opt_{k}"))
        check_params(params, config, where)
        if expect is not None:
            check_same_game(config, expect, where)
        return cls(config, int(iteration), int(step), params, optimizer)


class _Header:
    """The shape and dtype of an array not read yet (what check_params looks at first)."""

    def __init__(self, shape: Tuple[int, ...], dtype: np.dtype) -> None:
        self.shape, self.dtype, self.ndim = shape, dtype, len(shape)


def check_same_game(stored: TrainConfig, expect: TrainConfig, path: str) -> None:
    """ValueError naming the first difference of game or network between two configs."""
    for name in ("players", "options", "mixed", "features", "hidden"):
        a, b = getattr(stored, name), getattr(expect, name)
        if (sorted(a) if name == "options" else a) != (sorted(b) if name == "options" else b):
            raise ValueError(f"{path}: made for {name} {a!r}, this run has {b!r}")


def check_params(
    params: Mapping[str, Union[np.ndarray, _Header]], config: TrainConfig, path: str
) -> None:
    """The arrays must be the config's network: names, shapes (input width of its features,
    action count, players), float32 and finite."""
    expected = init_shapes(config)
    if sorted(params) != sorted(expected):
        raise ValueError(f"{path}: network arrays {sorted(params)}, expected {sorted(expected)}")
    for name, shape in expected.items():
        array = params[name]
        if array.shape != shape:
            what = (
                "input width"
                if name == "w0" and array.ndim == 2
                else "action count"
                if name.startswith("policy")
                else "players"
                if name.startswith(("value", "score"))
                else "shape"
            )
            raise ValueError(
                f"{path}: {name} has shape {array.shape}, expected {shape} "
                f"({what} of the game: {feature_width(config.features, config.players)} "
                f"features {config.features!r}, {NUM_DISTINCT_ACTIONS} "
                f"actions, {config.players} players)"
            )
        if array.dtype != np.float32 or (
            isinstance(array, np.ndarray) and not np.isfinite(array).all()
        ):
            raise ValueError(f"{path}: {name} must be finite float32")


def init_shapes(config: TrainConfig) -> Dict[str, Tuple[int, ...]]:
    sizes = [feature_width(config.features, config.players), *config.hidden]
    shapes: Dict[str, Tuple[int, ...]] = {}
    for i, (a, b) in enumerate(zip(sizes, sizes[1:])):
        shapes[f"w{i}"], shapes[f"b{i}"] = (a, b), (b,)
    shapes["policy_w"], shapes["policy_b"] = (
        (sizes[-1], NUM_DISTINCT_ACTIONS),
        (NUM_DISTINCT_ACTIONS,),
    )
    shapes["value_w"], shapes["value_b"] = (sizes[-1], config.players), (config.players,)
    if config.score_weight > 0:
        shapes["score_w"], shapes["score_b"] = (sizes[-1], config.players), (config.players,)
    return shapes


def latest(run: str) -> Optional[str]:
    """The path of the run's checkpoint, or None."""
    path = os.path.join(run, "checkpoint.npz")
    return path if os.path.exists(path) else None


__all__ = ["Checkpoint", "FORMAT", "latest", "init_params", "check_params"]
