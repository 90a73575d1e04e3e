"""vikinger: a fast, exact engine of the board game Wikinger for game-AI research.

simulate   random games, outcome statistics          soak      both engines compared, move by move
bench      the benchmark table (the main job)        arena     a duplicate tournament between bots
play       you against the bots in the terminal      replay    a game record as boards or the viewer
render     one position as SVG or PNG                selfplay  MCTS self-play training data
serve      play the bots in a browser (web app)     train     self-play training of a network
"""

import argparse
import sys

from . import arena, bench, play, render, replay, selfplay, serve, simulate, soak, train

COMMANDS = (simulate, soak, bench, render, replay, arena, play, serve, selfplay, train)


# One module per subcommand, each with add_parser(commands), which registers its flags and run.
def build_parser():
    parser = argparse.ArgumentParser(
        prog="vikinger",
        description=__doc__.split("\n\n")[0],
        epilog=__doc__.split("\n\n")[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True)
    for command in COMMANDS:
        command.add_parser(commands)
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
