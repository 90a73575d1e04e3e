"""`vikinger render`: one position as SVG or PNG (docs/pictures.md)."""

import argparse
import sys
from typing import Any

from .. import arena
from ..pictures import render
from ..safety import flags, outputs
from . import common


def run(args: argparse.Namespace) -> int:
    """One position (record step, dict JSON, bytes or base64) to an SVG or PNG file."""
    engine = arena.engine_module(args.engine)
    try:
        if args.output != "-":
            outputs.check_output_file(args.output, inputs=[args.input], what="--output")
        state = render.read_position(args.input, engine, step=args.step)
        if args.output == "-":
            sys.stdout.write(render.state_svg(state) + "\n")
            return 0
        render.write_picture(state, args.output, scale=args.scale)
    except ImportError as error:
        print(f"vikinger render: {error}", file=sys.stderr)
        return 3
    except (OSError, TypeError, ValueError) as error:
        print(f"vikinger render: {error}", file=sys.stderr)
        return 2
    print(f"wrote {args.output}")
    return 0


def add_parser(commands: Any) -> argparse.ArgumentParser:
    parser = commands.add_parser("render", help="draw a position as SVG or PNG")
    parser.add_argument(
        "input", help="a game record, a to_dict() JSON file, serialize() bytes or their base64 text"
    )
    parser.add_argument(
        "-o",
        "--output",
        required=True,
        help="OUT.svg, OUT.png (needs the png extra) or - for SVG on stdout",
    )
    parser.add_argument(
        "--step", type=flags.STEP, metavar="K", help="a record's step (default: its end)"
    )
    parser.add_argument("--scale", type=flags.SCALE, default=1.0, help="PNG scale factor (0..64]")
    common.add_engine(parser)
    parser.set_defaults(run=run)
    return parser
