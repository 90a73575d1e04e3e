"""Replay data on disk (docs/learning.md "Files"): iteration i's self-play games in
`selfplay/iter-NNNNN/`, shards and a manifest in the format of vikinger_fast.selfplay_data
(`vikinger-selfplay` manifest, `.npz` shards read with allow_pickle=False) with two more
per-sample arrays, `target` (the improved policy) and `root_value` (the root's values). A folder
without its manifest is unfinished and is played again on resume.

The training batches of step t are drawn from the samples of the last `window` finished
iterations with numpy's default_rng seeded (seed, t): the same steps see the same batches on a
resume.

The network's input rows are the features of the run's `features` (vikinger_ref.network_features)
built from the stored observations: for observation-modules-v2 with each sample's module flags,
those of its game's set (selfplay.game_modules: a function of the run's settings, the iteration
and the game number, so the shards need no more arrays and every shard stays readable).
"""

import os
from typing import Any, Dict, Iterable, List, Optional

import numpy as np

from vikinger_ref.network_features import NUM_MODULE_FLAGS, OBSERVATION_V1, dense, module_flags

from .. import arena, distributed, selfplay_data
from ..distributed.executors import Executor
from ..progress import ProgressBar
from ..safety import files
from . import selfplay, targets
from .config import TrainConfig

TRAINING_ARRAYS = ("observation", "legal_mask", "target", "player", "returns")


def iteration_folder(run: str, iteration: int) -> str:
    return os.path.join(run, "selfplay", f"iter-{iteration:05d}")


def generate(
    run: str,
    config: TrainConfig,
    weights: Optional[Dict[str, np.ndarray]],
    iteration: int,
    executor: Optional[Executor] = None,
    bar: Optional[ProgressBar] = None,
    engine: str = "fast",
) -> Dict[str, Any]:
    """Plays iteration `iteration`'s games into its folder (shards as they finish, the manifest
    last) and returns the manifest; a finished folder is returned as it is."""
    folder = iteration_folder(run, iteration)
    if os.path.exists(os.path.join(folder, selfplay_data.MANIFEST)):
        return selfplay_data.load_manifest(folder)
    os.makedirs(folder, exist_ok=True)
    parts = selfplay.shards(config, weights, iteration, engine)
    entries = selfplay_data.write_shards(
        folder,
        executor or distributed.LocalProcesses(1),
        [shard for shard, _ in parts],
        [first_count for _, first_count in parts],
        bar,
    )
    module = arena.engine_module(engine)
    game = module.Game(num_players=config.players, **config.game_options())
    return selfplay_data.write_manifest(
        folder,
        entries,
        engine=engine,
        game=game,
        bot={
            "name": "gumbel-puct",
            "params": {
                "simulations": config.simulations,
                "max_considered": config.max_considered,
                "evaluator": selfplay.evaluator_name(module, weights, game, config.features),
            },
        },
        run={"iteration": iteration, **({"modules": "mixed"} if config.mixed else {})},
        seed=config.seed,
        games=config.games,
        shard_size=config.shard_games,
        extra=selfplay.EXTRA_ARRAYS,
    )


def load_iteration(
    run: str, iteration: int, keys: Iterable[str] = TRAINING_ARRAYS
) -> Dict[str, np.ndarray]:
    """The `keys` arrays of a finished iteration (SHA-256 checked, no pickle)."""
    return selfplay_data.load(iteration_folder(run, iteration), keys)


def network_input(config: TrainConfig, iteration: int, arrays: Dict[str, np.ndarray]) -> np.ndarray:
    """The network's input rows of an iteration's samples (`observation`, and `game` unless the
    run reads observation-v1): the features of config.features."""
    if config.features == OBSERVATION_V1:
        return arrays["observation"]
    games = arrays["game"]
    sets = {
        int(g): module_flags(selfplay.game_modules(config, iteration, int(g))) for g in set(games)
    }
    flags = np.array([sets[int(g)] for g in games], np.float32).reshape(-1, NUM_MODULE_FLAGS)
    return dense(config.features, arrays["observation"], flags)


def check_files(run: str, config: TrainConfig, iteration: int) -> None:
    """Before a resumed run does any work: the self-play files its first training steps read,
    those of the finished iterations of the window that ends at `iteration` (which may be
    unfinished: it is played again). Each manifest is read and checked, each shard opened as
    the loader opens it (safety.files), not read: a FIFO, a device or a link to one, a folder,
    a missing or oversized file is a ValueError naming it, and nothing blocks."""
    for number in range(max(0, iteration - config.window + 1), iteration + 1):
        folder = iteration_folder(run, number)
        manifest = os.path.join(folder, selfplay_data.MANIFEST)
        if number == iteration and not os.path.lexists(manifest):
            continue
        for entry in selfplay_data.load_manifest(folder)["shards"]:
            shard = os.path.join(folder, entry["file"])
            files.open_regular(shard, selfplay_data.MAX_SHARD_BYTES).close()


class Replay:
    """The samples of the last `window` iterations in memory, ready for batches: `observation`
    (the network's input rows, network_input), legal_mask and the two targets of targets.py,
    `policy_target` and `value_target`."""

    def __init__(self, run: str, config: TrainConfig) -> None:
        self.run = run
        self.config = config
        self.parts: Dict[int, Dict[str, np.ndarray]] = {}
        self.rescored: Dict[int, int] = {}  # samples the solver rescored, by iteration

    def load(self, last: int) -> None:
        """Holds iterations last - window + 1 .. last."""
        wanted = set(range(max(0, last - self.config.window + 1), last + 1))
        for iteration in list(self.parts):
            if iteration not in wanted:
                del self.parts[iteration]
        for iteration in sorted(wanted - set(self.parts)):
            mix, scored = self.config.value_mix, self.config.score_weight > 0
            # Runs from before root_value (value_mix 0) or final_score (score_weight 0) never
            # read them.
            keys = TRAINING_ARRAYS + (("root_value",) if mix > 0 else ())
            keys += ("final_score",) if scored else ()
            # Runs from before the rescoring (rescore_nodes 0) never read exact_margin.
            keys += ("exact_margin",) if self.config.rescore_nodes > 0 else ()
            if self.config.features != OBSERVATION_V1:
                keys += ("game",)
            arrays = load_iteration(self.run, iteration, keys)
            self.parts[iteration] = {
                "observation": network_input(self.config, iteration, arrays),
                "legal_mask": arrays["legal_mask"],
                "policy_target": targets.policy_target(arrays),
                "value_target": targets.value_target(arrays, mix),
            }
            if scored:
                self.parts[iteration]["score_target"] = targets.score_target(arrays)
            self.rescored[iteration] = targets.rescored(arrays)

    @property
    def size(self) -> int:
        return sum(len(p["value_target"]) for p in self.parts.values())

    def batch(self, step: int) -> Dict[str, np.ndarray]:
        """The batch of training step `step` (default_rng((seed, step)))."""
        rng = np.random.default_rng((self.config.seed, step))
        order = sorted(self.parts)
        sizes = np.array([len(self.parts[i]["value_target"]) for i in order])
        picks = np.sort(rng.integers(0, sizes.sum(), self.config.batch))
        starts = np.concatenate([[0], np.cumsum(sizes)])
        out: Dict[str, List[np.ndarray]] = {
            k: [] for k in ("observation", "legal_mask", "policy_target", "value_target")
        }
        if self.config.score_weight > 0:
            out["score_target"] = []
        for j, iteration in enumerate(order):
            rows = picks[(picks >= starts[j]) & (picks < starts[j + 1])] - starts[j]
            for key in out:
                out[key].append(self.parts[iteration][key][rows])
        batch = {key: np.concatenate(values) for key, values in out.items()}
        batch["policy_target"] = batch["policy_target"].astype(np.float32)
        return batch
