"""vikinger: a fast, exact engine of the board game Wikinger for game-AI research (the commands
below; `vikinger COMMAND --help` for each)."""

import argparse
import sys

from . import arena, bench, ladder, play, render, replay, selfplay, serve, simulate, soak, train

COMMANDS = (simulate, soak, bench, render, replay, arena, ladder, play, serve, selfplay, train)


# One module per subcommand, each with add_parser(commands), which registers its flags and run.
def build_parser():
    parser = argparse.ArgumentParser(
        prog="vikinger",
        description=__doc__,
    )
    # The commands are listed once, by argparse, each with its one-line help.
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(commands)
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
