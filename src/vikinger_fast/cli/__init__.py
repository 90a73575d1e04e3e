"""vikinger: a fast, exact engine of the board game Wikinger for game-AI research (the commands
below; `vikinger COMMAND --help` for each)."""

import argparse
import sys
from types import ModuleType
from typing import Optional, Sequence, Tuple

from .. import __version__
from ..safety import interrupts


def _commands() -> Tuple[ModuleType, ...]:
    # Imported when the parser is built, inside main's interrupt handling: a Ctrl-C during
    # these imports (half a second) stops the command as one at any later moment does.
    from . import arena, bench, endgame, ladder, play, render, replay, selfplay, serve, simulate
    from . import soak, train

    return (
        simulate,
        soak,
        bench,
        render,
        replay,
        arena,
        ladder,
        play,
        serve,
        selfplay,
        train,
        endgame,
    )


# One module per subcommand, each with add_parser(commands), which registers its flags and run.
def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="vikinger",
        description=__doc__,
    )
    parser.add_argument("--version", action="version", version=f"vikinger {__version__}")
    # The commands are listed once, by argparse, each with its one-line help.
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in _commands():
        command.add_parser(commands)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Runs one command; returns its exit status. Ctrl-C and SIGTERM (`kill`, a scheduler's or
    a container's stop) stop every command the same way (safety/interrupts.py): its worker
    processes ended, its files whole or absent (or in the journal --resume reads), no
    traceback, exit status 130, on the first signal and on every later one. `argv` None: the
    process's own command line (the `vikinger` program), which, once stopped, ends the process
    here (interrupts.leave: no wait on a thread the stop left stuck)."""
    code = None
    try:
        with interrupts.command(program=argv is None):
            try:
                args = build_parser().parse_args(argv)
                from . import sharding  # loaded with the commands by build_parser

                code = 3 if sharding.ray_missing(args) else args.run(args)
            except KeyboardInterrupt:
                # A command that prints no line of its own on Ctrl-C: one line here.
                print("\ninterrupted", file=sys.stderr)
            except SystemExit as error:
                if not interrupts.received():
                    raise
                if isinstance(error.code, str):  # sys.exit(message): printed as Python does
                    print(error.code, file=sys.stderr)
    except KeyboardInterrupt:  # the first signal came as the command ended
        pass
    if interrupts.received() and argv is None:
        interrupts.leave()  # the program ends here, with status 130
    return interrupts.exit_status(code)


if __name__ == "__main__":
    sys.exit(main())
