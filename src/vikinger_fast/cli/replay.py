"""`vikinger replay`: a game record as text boards or as the HTML viewer (docs/records.md,
docs/pictures.md)."""

import sys

from .. import arena, records
from ..pictures import viewer
from ..safety import flags, outputs


def _who(move):
    return "chance" if move["player"] < 0 else f"player {move['player']}"


def run(args):
    """Print the text board at --step K, or walk through the whole game (every move and the
    board after it); --html writes the viewer instead."""
    engine = arena.engine_module(args.engine)
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


def add_parser(commands):
    parser = commands.add_parser("replay", help="print or view a game record (docs/records.md)")
    parser.add_argument("file", help="a game record (JSON)")
    parser.add_argument("--step", type=flags.STEP, metavar="K",
                     help="print only the board after the first K moves")
    parser.add_argument("--html", metavar="OUT",
                     help="write the game viewer, one self-contained HTML file")
    parser.add_argument("--engine", choices=tuple(arena.ENGINES), default="fast",
                     help="the engine that replays (and checks) the record")
    parser.set_defaults(run=run)
    return parser
