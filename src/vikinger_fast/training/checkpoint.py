"""Checkpoints (docs/learning.md "Files"): one `.npz` read with allow_pickle=False holding

  format        "vikinger-train-checkpoint/1"
  config        the run's TrainConfig as JSON text (parsed as JSON, never run)
  iteration     the iteration the checkpoint belongs to
  step          training steps taken in the whole run
  net_<name>    the network's arrays (the names of vikinger-mlp/1: w0 b0 .. value_b)
  opt_<k>       the optimizer state's arrays, k in the order of jax.tree_util.tree_leaves

written under a temporary name and renamed, so a crash leaves the last complete one. Loading
checks the format, the game, sizes and shapes and names what differs (ValueError).
"""

import io
import os
import zipfile
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from vikinger_ref.actions import NUM_DISTINCT_ACTIONS
from vikinger_ref.observation import observation_size

from .. import selfplay_data
from ..safety import outputs
from .config import TrainConfig
from .network import init_params

FORMAT = "vikinger-train-checkpoint/1"


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
    def load(cls, path: str, expect: Optional[TrainConfig] = None) -> "Checkpoint":
        """The checkpoint of `path`; with `expect`, its game and network must be that config's
        (the training settings may differ: a run may change them on resume)."""
        try:
            # The bytes first: numpy leaves its own file open when the zip is damaged.
            with open(path, "rb") as source:
                data = np.load(io.BytesIO(source.read()), allow_pickle=False)
        except FileNotFoundError:
            raise ValueError(f"checkpoint {path!r} does not exist") from None
        except (OSError, ValueError, EOFError, zipfile.BadZipFile) as error:
            raise ValueError(f"{path}: not a readable checkpoint ({error})") from None
        try:
            with data:
                files = set(data.files)

                def read(key: str) -> np.ndarray:
                    try:
                        return data[key]
                    except ValueError as error:  # an object array: refused, never unpickled
                        raise ValueError(
                            f"{path}: damaged checkpoint, {key!r} cannot be read "
                            f"without pickle ({error})"
                        ) from None

                def get(key: str) -> Any:
                    # One value, stored as a 0-d or 1-element array (npz_bytes writes the
                    # latter).
                    if key not in files:
                        raise ValueError(f"{path}: not a {FORMAT} file (no {key!r})")
                    array = read(key)
                    if array.size != 1:
                        raise ValueError(f"{path}: {key!r} must hold one value")
                    return array.reshape(-1)[0]

                if str(get("format")) != FORMAT:
                    raise ValueError(f"{path}: format {str(get('format'))!r}, expected {FORMAT!r}")
                config = TrainConfig.from_json(str(get("config")))
                params = {key[4:]: read(key) for key in sorted(files) if key.startswith("net_")}
                count = sum(1 for key in files if key.startswith("opt_"))
                optimizer = [read(f"opt_{k}") for k in range(count)]
                iteration, step = int(get("iteration")), int(get("step"))
        except (OSError, EOFError, KeyError, zipfile.BadZipFile) as error:
            raise ValueError(f"{path}: damaged checkpoint ({error})") from None
        check_params(params, config, path)
        if expect is not None:
            check_same_game(config, expect, path)
        return cls(config, iteration, step, params, optimizer)


def check_same_game(stored: TrainConfig, expect: TrainConfig, path: str) -> None:
    """ValueError naming the first difference of game or network between two configs."""
    for name in ("players", "options", "hidden"):
        a, b = getattr(stored, name), getattr(expect, name)
        if (sorted(a) if name == "options" else a) != (sorted(b) if name == "options" else b):
            raise ValueError(f"{path}: made for {name} {a!r}, this run has {b!r}")


def check_params(params: Dict[str, np.ndarray], config: TrainConfig, path: str) -> None:
    """The arrays must be the config's network: names, shapes (observation size, action count,
    players), float32 and finite."""
    expected = init_shapes(config)
    if sorted(params) != sorted(expected):
        raise ValueError(f"{path}: network arrays {sorted(params)}, expected {sorted(expected)}")
    for name, shape in expected.items():
        array = params[name]
        if array.shape != shape:
            what = (
                "observation size"
                if name == "w0" and array.ndim == 2
                else "action count"
                if name.startswith("policy")
                else "players"
                if name.startswith("value")
                else "shape"
            )
            raise ValueError(
                f"{path}: {name} has shape {array.shape}, expected {shape} "
                f"({what} of the game: observation size "
                f"{observation_size(config.players)}, {NUM_DISTINCT_ACTIONS} "
                f"actions, {config.players} players)"
            )
        if array.dtype != np.float32 or not np.isfinite(array).all():
            raise ValueError(f"{path}: {name} must be finite float32")


def init_shapes(config: TrainConfig) -> Dict[str, Tuple[int, ...]]:
    sizes = [observation_size(config.players), *config.hidden]
    shapes: Dict[str, Tuple[int, ...]] = {}
    for i, (a, b) in enumerate(zip(sizes, sizes[1:])):
        shapes[f"w{i}"], shapes[f"b{i}"] = (a, b), (b,)
    shapes["policy_w"], shapes["policy_b"] = (
        (sizes[-1], NUM_DISTINCT_ACTIONS),
        (NUM_DISTINCT_ACTIONS,),
    )
    shapes["value_w"], shapes["value_b"] = (sizes[-1], config.players), (config.players,)
    return shapes


def latest(run: str) -> Optional[str]:
    """The path of the run's checkpoint, or None."""
    path = os.path.join(run, "checkpoint.npz")
    return path if os.path.exists(path) else None


__all__ = ["Checkpoint", "FORMAT", "latest", "init_params", "check_params"]
