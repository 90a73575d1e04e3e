"""Flags several commands share, each defined here once: its name, type and choices; a command
gives what differs (its default, its help). The sharded commands' own flags are in sharding.py."""

import argparse
from typing import Any, Optional

from .. import arena, module_sets
from ..safety import flags, outputs


def add_bots_command(commands: Any, name: str, help: str, description: str) -> Any:
    """A command whose --help ends with the list of the built-in bots, after `description`
    (line breaks kept, so that the list stays a column)."""
    return commands.add_parser(
        name,
        help=help,
        description=description + arena.bots_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def add_players(parser: argparse.ArgumentParser, **options: Any) -> None:
    """--players 2, 3 or 4 (`options`: default, help)."""
    parser.add_argument("--players", type=int, choices=(2, 3, 4), **options)


def add_seed(parser: argparse.ArgumentParser, **options: Any) -> None:
    """--seed, default 0 (`options`: help)."""
    parser.add_argument("--seed", type=flags.seed, default=0, **options)


def add_engine(parser: argparse.ArgumentParser) -> None:
    """--engine fast or ref, default fast."""
    parser.add_argument("--engine", choices=tuple(arena.ENGINES), default="fast")


def add_out(parser: argparse.ArgumentParser, help: str, force_help: str, **options: Any) -> None:
    """--out DIR, the output folder (`options`: required, or `numbered=BASE`: without --out the
    run writes to BASE, or to BASE-2, BASE-3, ... when BASE holds an earlier run, see out_folder),
    and --force, which lets it be a folder that is not empty."""
    numbered = options.pop("numbered", None)
    parser.add_argument("--out", metavar="DIR", help=help, **options)
    parser.add_argument("--force", action="store_true", help=force_help)
    if numbered is not None:
        parser.set_defaults(out_numbered=numbered)


def out_folder(args: argparse.Namespace, keep: bool = False) -> Optional[str]:
    """Sets args.out where --out was not given: the base (`numbered` of add_out) with --force
    or `keep` (a run to go on with, --resume), else outputs.numbered_folder's. Returns the note
    to print when that is not the base (None otherwise). OutputError past the numbers."""
    if args.out is not None:
        return None
    base = args.out_numbered
    args.out = base if args.force or keep else outputs.numbered_folder(base)
    if args.out == base:
        return None
    return f"{base} holds an earlier run: this one goes to {args.out}"


def add_jobs(parser: argparse.ArgumentParser, help: str) -> None:
    """--jobs, worker processes, default 1."""
    parser.add_argument("--jobs", type=flags.JOBS, default=1, help=help)


MODULES_HELP = (
    "the advanced modules A1-A5 on (docs/advanced.md): comma-separated names of the Game "
    f"keywords ({', '.join(module_sets.OPTION_NAMES)}), or all, or none"
)


def module_set(text: str) -> module_sets.ModuleSet:
    """argparse type of --modules: a bad name is argparse's one line listing the valid ones."""
    try:
        return module_sets.parse(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def add_modules(
    parser: argparse.ArgumentParser, *aliases: str, help: str = "", **options: Any
) -> None:
    """--modules SET, parsed into a tuple of module names (module_sets.parse). `options`: its
    default (() the base game, the default; None tells a set left out from one given) and
    dest; `aliases`: other flag names of it; `help` follows the common text."""
    text = MODULES_HELP + (f"; {help}" if help else "; default none (the base game)")
    options.setdefault("default", ())
    parser.add_argument("--modules", *aliases, type=module_set, metavar="SET", help=text, **options)
