"""`vikinger train` (docs/learning.md): start or resume a training run in a folder.

Everything is checked before any work starts (docs/security.md "Training runs"): every flag by
its validator (argparse's one line, exit code 2), the settings together (TrainConfig), the
folder (a new run goes into an absent or empty folder, or with --force into one whose files
do not carry the run's names: a run never writes onto a file it did not create), and on
--resume the run's own files (config.json, checkpoint.npz, best.json) and the flags given,
which must be the run's settings (a different value is refused by name, not ignored).
"""

import argparse
import dataclasses
import os
import sys
from typing import Any, Callable, Dict

from . import common, sharding
from ..safety import flags
from ..training.config import COUNTS, TrainConfig

FIELDS = {f.name: f for f in dataclasses.fields(TrainConfig)}


def _validator(name: str) -> Callable[[str], Any]:
    """The argparse type of a setting's flag: its range from TrainConfig's."""
    if name in COUNTS:
        return flags.int_in(*COUNTS[name])
    if name == "players":
        return flags.int_in(2, 4)
    if name == "learning_rate":
        return flags.float_in(0.0, 1.0)
    if name in ("l2", "value_mix"):
        return flags.float_in(0.0, 1.0, low_open=False)
    return str  # options, hidden: comma-separated, checked by config_of


def add_parser(commands: Any) -> None:
    """Registers `vikinger train`."""
    parser = commands.add_parser(
        "train",
        help="learn a network from self-play (AlphaZero / Gumbel loop)",
        description="Self-play with the current network through the batched C++ search "
        "(Gumbel root), replay data on disk, JAX training steps, checkpoints, "
        "evaluation against greedy and MCTS, curves (docs/learning.md).",
    )
    parser.add_argument("--out", required=True, metavar="DIR", help="the run's folder")
    parser.add_argument(
        "--iterations",
        type=flags.int_in(1, 1_000_000_000),
        required=True,
        help="run until this many iterations are done",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="continue the run in --out from its last checkpoint (its settings; a setting "
        "flag given must match them)",
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="start a run in a non-empty --out folder (none of its files may have the run's "
        "names: they are never overwritten)",
    )
    defaults = TrainConfig()
    for name in FIELDS:
        flag = "--" + name.replace("_", "-")
        value = getattr(defaults, name)
        # default None: a flag the user gave is told from one left at its default (--resume).
        if name in ("options", "hidden"):
            text = ",".join(map(str, value))
            parser.add_argument(flag, default=None, help=f"comma-separated (default {text!r})")
        else:
            parser.add_argument(
                flag, type=_validator(name), default=None, help=f"(default {value})"
            )
    parser.add_argument("--no-progress", action="store_true", help="no progress bars")
    parser.add_argument("--quiet", action="store_true", help="no per-iteration lines")
    sharding.add_ray(parser)
    common.add_jobs(
        parser, "local self-play processes when not on Ray (the data do not depend on it)"
    )
    sharding.add_cpus_per_shard(parser, "on Ray, the CPUs each self-play shard reserves")
    parser.set_defaults(run=run, shard_size=1)


def given_settings(args: argparse.Namespace) -> Dict[str, Any]:
    """The settings given as flags, parsed ({name: value})."""
    given = {}
    for name in FIELDS:
        value = getattr(args, name)
        if value is None:
            continue
        if name == "options":
            value = tuple(v.strip() for v in value.split(",") if v.strip())
        elif name == "hidden":
            parts = [v.strip() for v in value.split(",") if v.strip()]
            if not all(flags._DIGITS.fullmatch(p) for p in parts):
                raise ValueError(f"--hidden must be comma-separated ints, not {value!r}")
            value = tuple(int(p) for p in parts)
        given[name] = value
    return given


def config_of(args: argparse.Namespace) -> TrainConfig:
    """The new run's settings: the flags given over TrainConfig's defaults, checked."""
    return TrainConfig(**given_settings(args))


def check_resume_flags(args: argparse.Namespace, config: TrainConfig) -> None:
    """ValueError naming the first setting flag whose value is not the run's."""
    for name, value in given_settings(args).items():
        stored = getattr(config, name)
        same = sorted(value) == sorted(stored) if name == "options" else value == stored
        if not same:
            flag = "--" + name.replace("_", "-")
            raise ValueError(
                f"{flag} {value!r} differs from the run's {name} {stored!r} (config.json); a "
                "resumed run keeps its settings: drop the flag, or start a new run"
            )


def run(args: argparse.Namespace) -> int:
    from ..training import loop

    try:
        if args.resume:
            if args.force:
                raise ValueError("--force starts a new run; --resume continues one")
            # The run's files are read and checked here, before self-play starts.
            config = loop.resume(args.out).config
            check_resume_flags(args, config)
            start = None
        else:
            start = config_of(args)
            loop.check_new_run(args.out, force=args.force)
        with sharding.executor(args) as executor:
            checkpoint = loop.train(
                args.out,
                args.iterations,
                start,
                executor=executor,
                jobs=args.jobs,
                progress=not args.no_progress,
                quiet=args.quiet,
                force=args.force,
            )
    except (ValueError, FileExistsError) as error:
        sys.exit(f"vikinger train: {error}")
    except KeyboardInterrupt:
        started = os.path.exists(os.path.join(args.out, "config.json"))
        hint = "continue with --resume" if started else "no run was started"
        print(f"\nvikinger train: interrupted; {hint}", file=sys.stderr)
        return 130
    models = os.path.join(args.out, "models")
    print(
        f"{args.out}: {checkpoint.iteration} iterations, {checkpoint.step} steps; the last "
        f"export is in {models}, the best in {os.path.join(args.out, 'best.npz')}"
    )
    return 0


__all__ = ["add_parser", "config_of", "check_resume_flags"]
