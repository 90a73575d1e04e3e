"""The settings of a training run (docs/learning.md "Settings"): one dataclass, stored as JSON in
the run folder and in every checkpoint, so a resumed run and a loaded checkpoint are checked
against the game and sizes they were made for."""

import dataclasses
import json
from typing import Any, Dict, Tuple

from vikinger_ref.components import OPTION_NAMES


@dataclasses.dataclass(frozen=True)
class TrainConfig:
    """Every setting of a run. The network is an MLP (vikinger-mlp/1) with `hidden` ReLU layers;
    an iteration plays `games` self-play games (batches of `shard_games` played together, one
    tree each) with `simulations` per move, then takes `steps` training steps of `batch` samples
    drawn from the last `window` iterations' data."""

    players: int = 2
    options: Tuple[str, ...] = ()  # the modules on (OPTION_NAMES spelling)
    hidden: Tuple[int, ...] = (128, 128)
    seed: int = 0
    games: int = 32
    shard_games: int = 16
    simulations: int = 32
    max_considered: int = 8
    search_batch: int = 256
    warm_iterations: int = 1  # self-play on the heuristic evaluation (warm start)
    steps: int = 100
    batch: int = 256
    window: int = 4
    learning_rate: float = 1e-3
    l2: float = 1e-4
    eval_every: int = 2
    eval_games: int = 20
    eval_simulations: int = 32

    def __post_init__(self) -> None:
        if isinstance(self.players, bool) or self.players not in (2, 3, 4):
            raise ValueError(f"players must be 2, 3 or 4, not {self.players!r}")
        unknown = sorted(set(self.options) - set(OPTION_NAMES))
        if unknown:
            raise ValueError(f"unknown module {unknown[0]!r} (known: {', '.join(OPTION_NAMES)})")
        positive = (
            "games",
            "shard_games",
            "simulations",
            "max_considered",
            "search_batch",
            "steps",
            "batch",
            "window",
            "eval_every",
            "eval_games",
            "eval_simulations",
        )
        for name in positive:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be an int >= 1, not {value!r}")
        if not self.hidden or any(
            isinstance(h, bool) or not isinstance(h, int) or h < 1 for h in self.hidden
        ):
            raise ValueError(f"hidden must be one or more ints >= 1, not {self.hidden!r}")
        for name in ("warm_iterations", "seed"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} must be an int >= 0, not {value!r}")
        if not self.learning_rate > 0 or not self.l2 >= 0:
            raise ValueError("learning_rate must be > 0 and l2 >= 0")

    def game_options(self) -> Dict[str, bool]:
        """The Game keywords of the modules."""
        return {name: True for name in self.options}

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> "TrainConfig":
        """The config of `text` (plain JSON; ValueError for anything else)."""
        try:
            fields: Dict[str, Any] = json.loads(text)
        except json.JSONDecodeError as error:
            raise ValueError(f"not a training config: {error}") from None
        if not isinstance(fields, dict):
            raise ValueError("not a training config: not a JSON object")
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(fields) - known)
        if unknown:
            raise ValueError(f"unknown training setting {unknown[0]!r}")
        for name in ("options", "hidden"):
            if name in fields:
                fields[name] = tuple(fields[name])
        return cls(**fields)
