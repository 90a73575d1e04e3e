"""`vikinger replay` and `vikinger render`: a game record as text boards or as the HTML viewer,
and one position as SVG or PNG (docs/records.md, docs/pictures.md)."""

import importlib
import sys

from . import records, render, viewer
from .safety import flags, outputs

ENGINES = {"fast": "vikinger_fast", "ref": "vikinger_ref"}


def _engine(name):
    return importlib.import_module(ENGINES[name])


def _who(move):
    return "chance" if move["player"] < 0 else f"player {move['player']}"


def replay(args):
    """Print the text board at --step K, or walk through the whole game (every move and the
    board after it); --html writes the viewer instead."""
    engine = _engine(args.engine)
    try:
        if args.html:       # before any work: never onto the record being read
            outputs.check_output_file(args.html, inputs=[args.file], what="--html")
        record = records.load(args.file)
        if args.html:
            size = viewer.write_viewer(record, engine, args.html)
            print(f"wrote {args.html} ({len(record['moves']) + 1} steps, {size:,} bytes)")
            return 0
        total = len(record["moves"])
        if args.step is not None:
            state = records.replay(record, engine, step=args.step)
            print(f"step {args.step}/{total}")
            print(state)
            return 0
        for step, state in enumerate(records.states(record, engine)):
            move = record["moves"][step - 1] if step else None
            print(f"step {step}/{total}" + (f": {_who(move)} {move['string']}" if move else
                                            ": start"))
            print(state)
            print()
    except (OSError, ValueError) as error:
        print(f"vikinger replay: {error}", file=sys.stderr)
        return 2
    return 0


def render_command(args):
    """One position (record step, dict JSON, bytes or base64) to an SVG or PNG file."""
    engine = _engine(args.engine)
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


def add_parsers(commands):
    rep = commands.add_parser("replay", help="print or view a game record (docs/records.md)")
    rep.add_argument("file", help="a game record (JSON)")
    rep.add_argument("--step", type=flags.STEP, metavar="K",
                     help="print only the board after the first K moves")
    rep.add_argument("--html", metavar="OUT",
                     help="write the game viewer, one self-contained HTML file")
    rep.add_argument("--engine", choices=tuple(ENGINES), default="fast",
                     help="the engine that replays (and checks) the record")
    rep.set_defaults(run=replay)
    ren = commands.add_parser("render", help="draw a position as SVG or PNG")
    ren.add_argument("input", help="a game record, a to_dict() JSON file, serialize() bytes "
                                   "or their base64 text")
    ren.add_argument("-o", "--output", required=True,
                     help="OUT.svg, OUT.png (needs the png extra) or - for SVG on stdout")
    ren.add_argument("--step", type=flags.STEP, metavar="K",
                     help="a record's step (default: its end)")
    ren.add_argument("--scale", type=flags.SCALE, default=1.0, help="PNG scale factor (0..64]")
    ren.add_argument("--engine", choices=tuple(ENGINES), default="fast")
    ren.set_defaults(run=render_command)
