"""Learning from self-play (docs/learning.md): `vikinger train`, an AlphaZero / Gumbel MuZero
style loop on the batched network search of vikinger_fast.neural. Needs the `train` extra
(JAX, optax); playing a trained network needs numpy only (vikinger_fast.AZBot)."""

from .checkpoint import Checkpoint
from .config import TrainConfig
from .loop import export, resume, start, train

__all__ = ["Checkpoint", "TrainConfig", "export", "resume", "start", "train"]
