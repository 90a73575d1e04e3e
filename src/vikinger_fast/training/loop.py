"""The training loop (docs/learning.md "The loop"): for each iteration, self-play with the
current network → replay data on disk → training steps → a checkpoint → (every eval_every
iterations) evaluation against fixed opponents, the anchor and earlier exports (the
generations' ladder and the gate) → the curves.

A run lives in one folder: `config.json`, `checkpoint.npz` (the last state, written every
CHECKPOINT_EVERY steps and at the end of each stage), `selfplay/iter-NNNNN/` (replay data),
`models/iter-NNNNN.npz` (exports, vikinger-mlp/1), `best.npz` (the export that last passed the
gate: it beat the best before it), `ladder/iter-NNNNN.json` (the generations' games),
`generations.csv` (their Elo), `curves.csv`, `curves.png`. Ctrl-C or a crash loses at
most the stage in flight: the self-play shards not yet written, the steps since the last
checkpoint, an unfinished evaluation; `resume` repeats exactly those.
"""

import io
import json
import os
import time
from typing import Any, Dict, Optional

import numpy as np

from .. import arena
from ..distributed.executors import Executor
from ..progress import progress_bar
from ..safety import files, interrupts, outputs
from ..safety.json_limits import loads_limited
from . import curves, evaluation, generations, replay
from .checkpoint import Checkpoint, check_same_game, latest
from .config import INIT_SHIPPED, TrainConfig
from .network import evaluator as network_evaluator
from .network import init_params, warm_start
from .trainer import Trainer

CHECKPOINT_EVERY = 25


def _log(message: str, quiet: bool) -> None:
    if not quiet:
        print(message, flush=True)


# Every name a run writes in its folder: a new run refuses a folder holding any of them (it never
# writes onto a file it did not create), with or without --force.
RUN_FILES = (
    "config.json",
    "checkpoint.npz",
    "selfplay",
    "models",
    "best.npz",
    "best.json",
    "curves.csv",
    "curves.png",
    generations.FOLDER,
    generations.CSV,
)
MAX_CONFIG_BYTES = 64 * 1024  # config.json and best.json are a few hundred bytes


def check_new_run(run: str, force: bool = False) -> None:
    """ValueError unless `run` may hold a new run: absent, or an empty writable folder, or with
    `force` a folder without any of the run's names (safety.outputs' --force rule; the run's
    files are then added beside the user's, none replaced). Creates nothing."""
    if not isinstance(run, str):
        raise TypeError(f"run must be a folder name (str), not {type(run).__name__}")
    if os.path.exists(os.path.join(run, "config.json")) or latest(run):
        raise FileExistsError(
            f"{run} already holds a training run: use --resume, or another folder"
        )
    outputs.check_output_folder(run, force=force, what="--out")
    taken = [name for name in RUN_FILES if os.path.lexists(os.path.join(run, name))]
    if taken:
        raise ValueError(
            f"--out {run} holds {taken[0]!r}, a name the run writes: a run never writes onto a "
            "file it did not create; choose another folder"
        )


def start(run: str, config: TrainConfig, force: bool = False) -> Checkpoint:
    """A new run folder (checked by check_new_run) and its first checkpoint."""
    check_new_run(run, force)
    params = init_params(
        config.players, config.hidden, config.seed, config.features, config.score_weight > 0
    )
    if config.init:  # read before the folder is made: a bad file leaves nothing behind
        params = warm_start(params, initial_network(config), config.features, config.init)
    os.makedirs(run, exist_ok=True)
    checkpoint = Checkpoint(config, 0, 0, params, Trainer(config, params).numpy_optimizer())
    # Both or neither (a Ctrl-C waits for the pair): a folder with one of them could neither be
    # resumed nor take a new run.
    with interrupts.held():
        checkpoint.save(os.path.join(run, "checkpoint.npz"))
        outputs.write_atomic(os.path.join(run, "config.json"), config.to_json() + "\n", sync=True)
    return checkpoint


def initial_network(config: TrainConfig) -> Any:
    """The network of --init (config.init): the shipped one of the run's players at the base
    game, or the weights file, loaded for the run's table (a mixed run: the base game)."""
    import vikinger_ref
    from vikinger_ref.az_bot import shipped_model
    from vikinger_ref.mlp import MLPEvaluator

    game = vikinger_ref.Game(num_players=config.players, **config.game_options())
    path = shipped_model(game) if config.init == INIT_SHIPPED else config.init
    return MLPEvaluator.load(path, game)


def _read_small(path: str, what: str) -> str:
    """The text of one of the run's small JSON files: a regular file, bounded, UTF-8."""
    data = files.read_regular(path, MAX_CONFIG_BYTES)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(f"{path}: {what} must be UTF-8 text ({error})") from None


def read_best(run: str) -> Optional[Dict[str, Any]]:
    """The run's best.json (None when absent), checked: the evaluation's shares of the match
    names, numbers in [0, 1], and the iteration (ValueError naming what is wrong)."""
    path = os.path.join(run, "best.json")
    if not os.path.lexists(path):
        return None
    best = loads_limited(_read_small(path, "best.json"), f"{path}", max_depth=4)
    if not isinstance(best, dict):
        raise ValueError(f"{path}: not a JSON object")
    for name in evaluation.MATCHES:
        entry = best.get(name)
        share = entry.get("share") if isinstance(entry, dict) else None
        if isinstance(share, bool) or not isinstance(share, (int, float)) or not 0 <= share <= 1:
            raise ValueError(f"{path}: {name}.share must be a number in [0, 1], not {share!r}")
    iteration = best.get("iteration")
    if isinstance(iteration, bool) or not isinstance(iteration, int) or iteration < 0:
        raise ValueError(f"{path}: iteration must be an int >= 0, not {iteration!r}")
    return best


def resume(run: str) -> Checkpoint:
    """The run's last checkpoint, checked against its config.json, and its best.json and ladder
    files checked: everything a resumed run reads, before any work."""
    path = latest(run)
    config_path = os.path.join(run, "config.json")
    if path is None or not os.path.lexists(config_path):
        raise ValueError(f"{run}: no training run to resume (no config.json or checkpoint.npz)")
    try:
        config = TrainConfig.from_json(_read_small(config_path, "config.json"))
    except (ValueError, TypeError) as error:
        raise ValueError(f"{config_path}: {error}") from None
    checkpoint = Checkpoint.load(path, expect=config)
    if checkpoint.config != config:
        raise ValueError(f"{path}: its settings are not the run's config.json")
    read_best(run)
    curves.read(run)
    replay.check_files(run, config, checkpoint.iteration)
    generations.records(run, checkpoint.iteration)
    return checkpoint


def export(params: Dict[str, np.ndarray], config: TrainConfig, path: str) -> None:
    """The weights as a vikinger-mlp/1 file (what AZBot and MLPEvaluator load)."""
    import vikinger_ref

    game = vikinger_ref.Game(num_players=config.players, **config.game_options())
    data = io.BytesIO()
    network_evaluator(params, game, config.features).cover(config.covered()).save(data)
    outputs.write_atomic(path, data.getvalue())  # Ctrl-C: the old file or the new one, never half


def train(
    run: str,
    iterations: int,
    config: Optional[TrainConfig] = None,
    *,
    executor: Optional[Executor] = None,
    jobs: int = 1,
    progress: bool = False,
    quiet: bool = False,
    engine: str = "fast",
    force: bool = False,
) -> Checkpoint:
    """Runs (or, with config None, resumes) the run in `run` until `iterations` iterations are
    done; returns the last checkpoint. `force`: a new run may go into a non-empty folder
    (check_new_run)."""
    if config is not None:
        evaluation.anchor(config, engine)  # a bad --anchor spec stops here, before any file
    checkpoint = start(run, config, force) if config is not None else resume(run)
    config = checkpoint.config
    trainer = Trainer(config, checkpoint.params, checkpoint.optimizer)
    step = checkpoint.step
    data = replay.Replay(run, config)
    path = os.path.join(run, "checkpoint.npz")
    for iteration in range(checkpoint.iteration, iterations):
        row: Dict[str, Any] = {"iteration": iteration}
        # Self-play (skipped when the iteration's folder is finished).
        weights = None if iteration < config.warm_iterations else trainer.numpy_params()
        started = time.perf_counter()
        bar = progress_bar(config.games, progress)
        try:
            manifest = replay.generate(run, config, weights, iteration, executor, bar, engine)
        finally:
            if bar:
                bar.close()
        row["selfplay_seconds"] = round(time.perf_counter() - started, 1)
        row["samples"] = manifest["samples"]
        _log(
            f"iteration {iteration}: {manifest['samples']} samples of {config.games} games in "
            f"{row['selfplay_seconds']} s",
            quiet,
        )
        # Training steps.
        data.load(iteration)
        row["rescored"] = data.rescored[iteration]
        end = (iteration + 1) * config.steps
        started = time.perf_counter()
        losses = []
        bar = progress_bar(end - step, progress, unit="step") if step < end else None
        try:
            while step < end:
                losses.append(trainer.step(data.batch(step)))
                step += 1
                if bar:
                    bar.update(1)
                if step % CHECKPOINT_EVERY == 0 or step == end:
                    Checkpoint(
                        config, iteration, step, trainer.numpy_params(), trainer.numpy_optimizer()
                    ).save(path)
        finally:
            if bar:
                bar.close()
        row["train_seconds"] = round(time.perf_counter() - started, 1)
        row["step"] = step
        if losses:
            for key, name in (
                ("total", "loss"),
                ("policy", "policy_loss"),
                ("value", "value_loss"),
                ("score", "score_loss"),
            ):
                row[name] = round(float(np.mean([entry[key] for entry in losses])), 5)
            _log(
                f"iteration {iteration}: steps to {step}, loss {row['loss']} (policy "
                f"{row['policy_loss']}, value {row['value_loss']}) in {row['train_seconds']} s",
                quiet,
            )
        # Evaluation.
        if (iteration + 1) % config.eval_every == 0 or iteration + 1 == iterations:
            models = os.path.join(run, "models")
            os.makedirs(models, exist_ok=True)
            model = os.path.join(models, f"iter-{iteration:05d}.npz")
            export(trainer.numpy_params(), config, model)
            seed = arena.bot_seed(config.seed, iteration, 9)
            result = evaluation.evaluate(config, model, seed, jobs=jobs, engine=engine)
            for name, entry in result.items():
                row[name] = round(entry["share"], 4)
                row[name + "_low"] = round(entry["low"], 4)
                row[name + "_high"] = round(entry["high"], 4)
            _log(
                f"iteration {iteration}: "
                + ", ".join(
                    f"{name} {entry['share']:.3f} [{entry['low']:.3f}, {entry['high']:.3f}]"
                    for name, entry in result.items()
                ),
                quiet,
            )
            exact = evaluation.endgame(config, model, seed, engine=engine)
            row.update({name: round(share, 4) for name, share in exact.items()})
            if exact:
                _log(
                    f"iteration {iteration}: endgame (critical positions, solver off): "
                    + ", ".join(f"{name[8:]} {share:.3f}" for name, share in exact.items()),
                    quiet,
                )
            best_path = os.path.join(run, "best.json")
            anchor = evaluation.evaluate_anchor(config, model, seed, jobs=jobs, engine=engine)
            best = read_best(run)
            stored = None if best is None else best["iteration"]
            ladder = generations.evaluate(run, config, iteration, stored, jobs, engine)
            gate = ladder["gate"]
            row.update(generations.curve_fields(anchor, ladder))
            _log(f"iteration {iteration}: {generations.describe(anchor, ladder)}", quiet)
            if gate["replaced"]:
                with open(model, "rb") as source:
                    exported = source.read()
                with interrupts.held():  # best.npz and best.json together
                    outputs.write_atomic(os.path.join(run, "best.npz"), exported, sync=True)
                    outputs.write_atomic(
                        best_path,
                        json.dumps(
                            {**result, "iteration": iteration, "model": model, "gate": gate},
                            indent=1,
                        )
                        + "\n",
                        sync=True,
                    )
        previous = [r for r in curves.read(run) if int(r["iteration"]) == iteration]
        if previous and not losses:  # resumed after the steps: keep the first record's numbers
            row = {
                **previous[0],
                **{k: v for k, v in row.items() if k not in ("selfplay_seconds", "train_seconds")},
            }
        curves.write_row(run, row)
        curves.plot(run)
        checkpoint = Checkpoint(
            config, iteration + 1, step, trainer.numpy_params(), trainer.numpy_optimizer()
        )
        checkpoint.save(path)
    return checkpoint


__all__ = ["train", "start", "resume", "export", "check_same_game", "check_new_run", "read_best"]
