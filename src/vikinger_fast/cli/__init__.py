"""vikinger: a fast, exact engine of the board game Wikinger for game-AI research (the commands
below; `vikinger COMMAND --help` for each)."""

import argparse
import signal
import sys
import threading

from .. import __version__
from . import arena, bench, endgame, ladder, play, render, replay, selfplay, serve, simulate, soak
from . import train

COMMANDS = (
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
def build_parser():
    parser = argparse.ArgumentParser(
        prog="vikinger",
        description=__doc__,
    )
    parser.add_argument("--version", action="version", version=f"vikinger {__version__}")
    # The commands are listed once, by argparse, each with its one-line help.
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(commands)
    return parser


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def stop_on_sigterm():
    """SIGTERM (`kill`, a scheduler's or a container's stop) ends a command as Ctrl-C does: its
    worker processes stopped, its files whole or absent, exit status 130. Python's default would
    end the process at once and leave the workers playing their shards and their scratch folder
    behind. Only in the main thread, and only over the default action (a caller's own handler,
    or `vikinger serve`'s server, keeps its own)."""
    if (
        threading.current_thread() is threading.main_thread()
        and signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    ):
        signal.signal(signal.SIGTERM, _interrupt)


def main(argv=None):
    args = build_parser().parse_args(argv)
    stop_on_sigterm()
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
