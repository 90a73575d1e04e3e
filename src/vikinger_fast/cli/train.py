"""`vikinger train` (docs/learning.md): start or resume a training run in a folder."""

import argparse
import dataclasses
import sys
from typing import Any

from . import sharding
from ..training.config import TrainConfig

FIELDS = {f.name: f for f in dataclasses.fields(TrainConfig)}


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
        "--iterations", type=int, required=True, help="run until this many iterations are done"
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="continue the run in --out from its last checkpoint (its settings)",
    )
    defaults = TrainConfig()
    for name, field in FIELDS.items():
        flag = "--" + name.replace("_", "-")
        value = getattr(defaults, name)
        if name in ("options", "hidden"):
            parser.add_argument(
                flag,
                default=",".join(map(str, value)),
                help=f"comma-separated (default {','.join(map(str, value))!r})",
            )
        else:
            parser.add_argument(flag, type=type(value), default=value, help=f"(default {value})")
    parser.add_argument("--no-progress", action="store_true", help="no progress bars")
    parser.add_argument("--quiet", action="store_true", help="no per-iteration lines")
    parser.add_argument(
        "--ray", nargs="?", const="local", metavar="ADDRESS", help=sharding.RAY_HELP
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="local self-play processes when not on Ray (the data do not depend on it)",
    )
    parser.add_argument(
        "--cpus-per-shard",
        type=int,
        default=1,
        metavar="N",
        help="on Ray, the CPUs each self-play shard reserves",
    )
    parser.set_defaults(run=run, shard_size=1)


def config_of(args: argparse.Namespace) -> TrainConfig:
    fields = {}
    for name in FIELDS:
        value = getattr(args, name)
        if name == "options":
            value = tuple(v for v in value.split(",") if v)
        elif name == "hidden":
            try:
                value = tuple(int(v) for v in value.split(",") if v)
            except ValueError:
                raise ValueError(f"--hidden must be comma-separated ints, not {value!r}") from None
        fields[name] = value
    return TrainConfig(**fields)


def run(args: argparse.Namespace) -> None:
    from ..training.loop import train

    try:
        config = None if args.resume else config_of(args)
        with sharding.executor(args) as executor:
            checkpoint = train(
                args.out,
                args.iterations,
                config,
                executor=executor,
                jobs=args.jobs,
                progress=not args.no_progress,
                quiet=args.quiet,
            )
    except (ValueError, FileExistsError) as error:
        sys.exit(f"vikinger train: {error}")
    except KeyboardInterrupt:
        sys.exit("vikinger train: interrupted; continue with --resume")
    print(
        f"{args.out}: {checkpoint.iteration} iterations, {checkpoint.step} steps; the last "
        f"export is in {args.out}/models, the best in {args.out}/best.npz"
    )
