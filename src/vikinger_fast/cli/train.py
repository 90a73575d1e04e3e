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

from vikinger_ref.network_features import FEATURE_SETS, OBSERVATION_MODULES_V2, OBSERVATION_V1

from . import common, sharding
from .. import module_sets
from ..safety import flags
from ..training.config import COUNTS, TrainConfig

FIELDS = {f.name: f for f in dataclasses.fields(TrainConfig)}
MIXED = "mixed"  # --modules mixed: each game draws its set (TrainConfig.mixed)


def _modules(text: str) -> Any:
    """argparse type of train's --modules: a set, or "mixed"."""
    return MIXED if text.strip() == MIXED else common.module_set(text)


def _validator(name: str) -> Callable[[str], Any]:
    """The argparse type of a setting's flag: its range from TrainConfig's."""
    if name in COUNTS:
        return flags.int_in(*COUNTS[name])
    if name == "players":
        return flags.int_in(2, 4)
    if name == "learning_rate":
        return flags.float_in(0.0, 1.0)
    if name in ("l2", "value_mix", "score_weight", "solver_policy", "endgame_starts"):
        return flags.float_in(0.0, 1.0, low_open=False)
    if name == "gate":
        return flags.float_in(0.5, 1.0, low_open=False)
    return str  # hidden: comma-separated, checked by config_of; anchor: checked by TrainConfig


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
        help="run until this many iterations are done (required, except with --compare-shipped)",
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
        if name == "mixed":
            continue  # --modules mixed
        if name == "options":
            parser.add_argument(
                "--modules",
                "--options",
                dest="options",
                type=_modules,
                metavar="SET",
                default=None,
                help=f"{common.MODULES_HELP}, or mixed: each self-play game draws its set, the "
                'base game a quarter of them (docs/learning.md "Networks for every table"); '
                "--options is another name of it (default none)",
            )
        elif name == "features":
            parser.add_argument(
                flag,
                choices=FEATURE_SETS,
                default=None,
                help='the network\'s input (docs/neural.md "Features"; default '
                f"{OBSERVATION_MODULES_V2} with --modules mixed, else {OBSERVATION_V1})",
            )
        elif name == "init":
            parser.add_argument(
                flag,
                default=None,
                metavar="MODEL",
                help="start from these weights instead of drawn ones: shipped (the shipped "
                "network of --players at the base game) or a weights file of as many layers, "
                "each at most as wide as --hidden's "
                '(docs/learning.md "Starting from a network"; default: drawn from --seed)',
            )
        elif name == "hidden":
            text = ",".join(map(str, value))
            parser.add_argument(flag, default=None, help=f"comma-separated (default {text!r})")
        else:
            parser.add_argument(
                flag, type=_validator(name), default=None, help=f"(default {value})"
            )
    parser.add_argument(
        "--compare-shipped",
        action="store_true",
        help="train nothing: play the run's best.npz against the shipped network of its table "
        'and say whether it replaces it (docs/learning.md "Replacing the shipped network")',
    )
    parser.add_argument(
        "--compare-games",
        type=flags.int_in(1, 1_000_000),
        default=200,
        help="games of --compare-shipped (default 200, the fewest the rule accepts)",
    )
    parser.add_argument(
        "--compare-seed",
        type=flags.int_in(0, (1 << 64) - 1),
        help="the seed of --compare-shipped's deals: one never used to choose anything",
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
    given: Dict[str, Any] = {}
    for name in FIELDS:
        value = getattr(args, name, None)
        if value is None:
            continue
        if name == "options" and value == MIXED:
            given["mixed"], value = True, ()
        elif name == "options" and isinstance(value, str):  # argparse gives a tuple already
            value = module_sets.parse(value)
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
    given = given_settings(args)
    if "options" in given and given.get("mixed", False) != config.mixed:
        words = {True: MIXED, False: "a module set"}
        raise ValueError(
            f"--modules: the run is {'mixed' if config.mixed else 'of one module set'}, not "
            f"{words[given.get('mixed', False)]} (config.json); a resumed run keeps its settings"
        )
    for name, value in given.items():
        stored = getattr(config, name)
        same = sorted(value) == sorted(stored) if name == "options" else value == stored
        if not same:
            flag = "--" + name.replace("_", "-")
            if name == "options":  # named as --modules names it (module_sets)
                flag, name = "--modules", "module set"
                value, stored = module_sets.name(value), module_sets.name(stored)
            raise ValueError(
                f"{flag} {value!r} differs from the run's {name} {stored!r} (config.json); a "
                "resumed run keeps its settings: drop the flag, or start a new run"
            )


def compare_shipped(args: argparse.Namespace) -> None:
    """--compare-shipped: the run's best.npz against the shipped network, and the verdict."""
    from ..training import evaluation, loop

    try:
        if args.iterations is not None or args.resume or args.force:
            raise ValueError(
                "--compare-shipped trains nothing: drop --iterations, --resume, --force"
            )
        if args.compare_seed is None:
            raise ValueError(
                "--compare-shipped needs --compare-seed N, a seed never used to choose anything"
            )
        config = loop.resume(args.out).config  # the run's files, checked
        check_resume_flags(args, config)
        best = loop.read_best(args.out)
        model = os.path.join(args.out, "best.npz")
        if best is None or not os.path.isfile(model):
            raise ValueError(f"{args.out}: the run has no best export yet (best.npz)")
        result = evaluation.compare_shipped(
            config, model, args.compare_games, args.compare_seed, jobs=args.jobs
        )
    except (ValueError, FileExistsError) as error:
        sys.exit(f"vikinger train: {error}")
    sims = evaluation.COMPARE_SIMULATIONS
    verdict = "it replaces" if result["replaces"] else "it does not replace"
    print(
        f"{model} (iteration {best['iteration']}) against the shipped "
        f"{os.path.basename(result['shipped'])}, both az:simulations={sims}, {result['games']} "
        f"games (seed {args.compare_seed}): pairwise score {result['score']:.3f} "
        f"[{result['score_low']:.3f}, {result['score_high']:.3f}], win share "
        f"{result['share']:.3f}: {verdict} the shipped network (the rule: at least "
        f"{evaluation.SHIP_GAMES} games, a score of at least {evaluation.SHIP_SCORE} and the "
        "interval's lower end above 0.5)"
    )


def run(args: argparse.Namespace) -> int:
    from ..training import loop, trainer

    if args.compare_shipped:
        compare_shipped(args)
        return 0
    if args.iterations is None:
        sys.exit("vikinger train: --iterations is required (or --compare-shipped)")
    try:
        trainer.check_available()
    except ImportError as error:
        print(f"vikinger train: {error}", file=sys.stderr)
        return 3
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


__all__ = ["add_parser", "config_of", "check_resume_flags", "compare_shipped"]
