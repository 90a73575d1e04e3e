"""The settings of a training run (docs/learning.md "Settings"): one dataclass, stored as JSON in
the run folder and in every checkpoint, so a resumed run and a loaded checkpoint are checked
against the game and sizes they were made for."""

import dataclasses
import json
import math
from typing import Any, Dict, Tuple

from vikinger_ref.actions import NUM_DISTINCT_ACTIONS
from vikinger_ref.components import OPTION_NAMES
from vikinger_ref.mlp import ALL_SETS, set_name
from vikinger_ref.network_features import (
    OBSERVATION_MODULES_V2,
    OBSERVATION_V1,
    check_features,
    feature_width,
)
from vikinger_ref.npz import MAX_BYTES

from ..safety.json_limits import loads_limited

# The settings' ranges: wide enough for any real run, narrow enough that a typo (an extra
# digit, a negative) is caught before the run starts rather than hours into it.
COUNTS = {
    "seed": (0, (1 << 64) - 1),
    "games": (1, 1_000_000),
    "shard_games": (1, 1_000_000),
    "simulations": (1, 1_000_000),
    "max_considered": (1, 2036),
    "search_batch": (1, 1_000_000),
    "warm_iterations": (0, 1_000_000_000),
    "steps": (1, 1_000_000_000),
    "batch": (1, 1_000_000),
    "window": (1, 1_000_000),
    "eval_every": (1, 1_000_000_000),
    "eval_games": (1, 1_000_000),
    "eval_simulations": (1, 1_000_000),
    "ladder_opponents": (1, 64),
    "ladder_games": (1, 1_000_000),
    "rescore_nodes": (0, 1_000_000_000),
}
# The evaluation's fixed strong opponent (docs/learning.md "Generations and the gate"): the
# shipped network of the run's table in the exports' own search, none, or any arena bot spec.
ANCHOR_SHIPPED = "shipped"
ANCHOR_NONE = "none"
MAX_ANCHOR_CHARS = 500
MAX_LAYERS = 16
INIT_SHIPPED = "shipped"
MAX_INIT_CHARS = 4096
# A mixed run's evaluation tables, deal by deal: the base game, every module, each module alone,
# each left out, then the pairs and the threes (ALL_SETS order within each size).
_SIZE_ORDER = (0, 5, 1, 4, 2, 3)
EVAL_ORDER = tuple(
    sorted(ALL_SETS, key=lambda s: _SIZE_ORDER.index(0 if s == "none" else s.count(",") + 1))
)
MAX_WIDTH = 16384


def network_bytes(players: int, hidden: Tuple[int, ...], features: str = OBSERVATION_V1) -> int:
    """The float32 bytes of the network's weights (what an export holds)."""
    sizes = [feature_width(features, players), *hidden]
    weights = sum(a * b + b for a, b in zip(sizes, sizes[1:]))
    weights += (sizes[-1] + 1) * (NUM_DISTINCT_ACTIONS + 2 * players)  # with a score head
    return 4 * weights


@dataclasses.dataclass(frozen=True)
class TrainConfig:
    """Every setting of a run. The network is an MLP (vikinger-mlp/1) with `hidden` ReLU layers;
    an iteration plays `games` self-play games (batches of `shard_games` played together, one
    tree each) with `simulations` per move, then takes `steps` training steps of `batch` samples
    drawn from the last `window` iterations' data."""

    players: int = 2
    options: Tuple[str, ...] = ()  # the modules on (OPTION_NAMES spelling)
    # Each self-play game draws its module set (selfplay.game_modules; `--modules mixed`): the
    # exports cover every set. options is then () (the Game an export is written for).
    mixed: bool = False
    # The network's input (vikinger_ref.network_features; docs/neural.md "Features"): "" picks
    # observation-modules-v2 for a mixed run (the module flags tell its sets apart) and
    # observation-v1 otherwise. A config.json without it is of observation-v1 (from_json).
    features: str = ""
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
    # The value target: (1 - value_mix) * the game's returns + value_mix * the root's mean value
    # of the search that chose the move (docs/learning.md "Value targets"); 0 = returns alone.
    value_mix: float = 0.0
    # The score head's loss weight (docs/learning.md "Score-aware values"): > 0 gives the network
    # a score head trained on each seat's squashed final margin; 0 = no score head. A
    # config.json without it is of a run from before the head: 0 (from_json).
    score_weight: float = 0.25
    # Solver rescoring (docs/learning.md "Score-aware values"): a sample at a round-6 decision
    # node with no chance ahead that solve_endgame finishes within `rescore_nodes` nodes gets
    # the exact result of perfect play as its value and score targets; 0 = off (and a
    # config.json without it, of a run from before it).
    rescore_nodes: int = 2000
    # The solver's move in the policy target (docs/learning.md "Score-aware values"): at a
    # rescored sample the target is (1 - solver_policy) * the search's improved policy +
    # solver_policy * 1 on the solver's margin-optimal action; 0 = the search's alone (and a
    # config.json without it, of a run from before it).
    solver_policy: float = 1.0
    # Endgame starts (docs/learning.md "Endgame starts"): this share of each iteration's games,
    # spread evenly over the game numbers (selfplay.endgame_start), plays rounds 1-5 by the
    # network's policy alone, sampled, and is searched and recorded from the first decision of
    # round 6 on: more round-6 samples, with the solver's targets, per CPU second. Warm
    # iterations (no network yet) play whole games. 0 = whole games only (and a config.json
    # without it, of a run from before it).
    endgame_starts: float = 0.0
    # The generations' ladder and the gate (docs/learning.md "Generations and the gate"): each
    # export plays at most `ladder_opponents` earlier exports, `ladder_games` games each
    # (`eval_games` against the run's best), replaces the best when it scores at least `gate`
    # against it, and plays `eval_games` games against `anchor`.
    ladder_opponents: int = 4
    ladder_games: int = 8
    gate: float = 0.55
    anchor: str = ANCHOR_SHIPPED
    # The weights the run starts from (docs/learning.md "Starting from a network"): "" = drawn
    # from the seed (init_params), "shipped" = the shipped network of the run's players at the
    # base game, or the path of a vikinger-mlp/1 file. Read once, when the run starts.
    init: str = ""

    def __post_init__(self) -> None:
        # Everything a run will use is checked here, before any work starts: from the flags,
        # from config.json and from a checkpoint alike (docs/learning.md "Settings").
        if isinstance(self.players, bool) or self.players not in (2, 3, 4):
            raise ValueError(f"players must be 2, 3 or 4, not {self.players!r}")
        if not isinstance(self.options, tuple) or not all(isinstance(o, str) for o in self.options):
            raise ValueError(f"options must be module names, not {self.options!r}")
        unknown = sorted(set(self.options) - set(OPTION_NAMES))
        if unknown:
            raise ValueError(f"unknown module {unknown[0]!r} (known: {', '.join(OPTION_NAMES)})")
        if not isinstance(self.mixed, bool):
            raise ValueError(f"mixed must be true or false, not {self.mixed!r}")
        if self.mixed and self.options:
            raise ValueError("a mixed run draws each game's modules: give no options with it")
        if self.features == "":
            chosen = OBSERVATION_MODULES_V2 if self.mixed else OBSERVATION_V1
            object.__setattr__(self, "features", chosen)
        check_features(self.features)
        for name, (low, high) in COUNTS.items():
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise ValueError(f"{name} must be an int in {low}..{high:,}, not {value!r}")
        if (
            not isinstance(self.hidden, tuple)
            or not 1 <= len(self.hidden) <= MAX_LAYERS
            or any(
                isinstance(h, bool) or not isinstance(h, int) or not 1 <= h <= MAX_WIDTH
                for h in self.hidden
            )
        ):
            raise ValueError(
                f"hidden must be 1 to {MAX_LAYERS} layer widths in 1..{MAX_WIDTH}, not "
                f"{self.hidden!r}"
            )
        size = network_bytes(self.players, self.hidden, self.features)
        if size > MAX_BYTES:
            raise ValueError(
                f"hidden {self.hidden!r}: a network of {size:,} bytes; its exports must load (at "
                f"most {MAX_BYTES:,})"
            )
        for name, least, most in (
            ("learning_rate", 0.0, 1.0),
            ("l2", 0.0, 1.0),
            ("value_mix", 0.0, 1.0),
            ("score_weight", 0.0, 1.0),
            ("solver_policy", 0.0, 1.0),
            ("endgame_starts", 0.0, 1.0),
            ("gate", 0.5, 1.0),
        ):
            number = getattr(self, name)
            if (
                isinstance(number, bool)
                or not isinstance(number, (int, float))
                or not math.isfinite(number)
                or not (
                    least < number <= most if name == "learning_rate" else least <= number <= most
                )
            ):
                bounds = (
                    f"({least:g}, {most:g}]"
                    if name == "learning_rate"
                    else f"[{least:g}, {most:g}]"
                )
                raise ValueError(f"{name} must be a finite number in {bounds}, not {number!r}")
        if (
            not isinstance(self.anchor, str)
            or not self.anchor.strip()
            or len(self.anchor) > MAX_ANCHOR_CHARS
        ):
            raise ValueError(
                f"anchor must be {ANCHOR_SHIPPED!r}, {ANCHOR_NONE!r} or a bot spec of at most "
                f"{MAX_ANCHOR_CHARS} characters, not {self.anchor!r}"
            )
        if self.anchor not in (ANCHOR_SHIPPED, ANCHOR_NONE):
            from ..arena import parse_spec

            try:
                parse_spec(self.anchor)
            except ValueError as error:
                raise ValueError(f"anchor: {error}") from None

        if not isinstance(self.init, str) or len(self.init) > MAX_INIT_CHARS:
            raise ValueError(
                f"init must be '', {INIT_SHIPPED!r} or a weights file's path of at most "
                f"{MAX_INIT_CHARS} characters, not {self.init!r}"
            )

    def game_options(self) -> Dict[str, bool]:
        """The Game keywords of the modules."""
        return {name: True for name in self.options}

    def covered(self) -> Tuple[str, ...]:
        """The module sets the run's exports play (mlp.py's spellings): all 32 when mixed."""
        return ALL_SETS if self.mixed else (set_name(self.options),)

    def eval_options(self, deal: int) -> Dict[str, bool]:
        """The Game keywords of evaluation deal `deal`: the run's modules, or in a mixed run the
        sets of EVAL_ORDER in turn (both seatings of a deal at one table)."""
        if not self.mixed:
            return self.game_options()
        table = EVAL_ORDER[deal % len(EVAL_ORDER)]
        return {} if table == "none" else {name: True for name in table.split(",")}

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> "TrainConfig":
        """The config of `text` (plain JSON, bounded; ValueError for anything else)."""
        fields: Dict[str, Any] = loads_limited(text, "a training config")
        if not isinstance(fields, dict):
            raise ValueError("not a training config: not a JSON object")
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(fields) - known)
        if unknown:
            raise ValueError(f"unknown training setting {unknown[0]!r}")
        fields.setdefault("features", OBSERVATION_V1)  # runs from before the field
        fields.setdefault("score_weight", 0.0)  # runs from before the score head
        fields.setdefault("rescore_nodes", 0)  # runs from before the rescoring
        fields.setdefault("solver_policy", 0.0)  # runs from before the solver's policy target
        fields.setdefault("init", "")  # runs from before --init
        for name in ("options", "hidden"):
            if name in fields:
                if not isinstance(fields[name], list):
                    raise ValueError(f"{name} must be a list, not {fields[name]!r}")
                fields[name] = tuple(fields[name])
        return cls(**fields)
