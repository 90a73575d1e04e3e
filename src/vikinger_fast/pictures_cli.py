"""`vikinger replay` and `vikinger render`: a game record as text boards or as the HTML viewer,
and one position as SVG or PNG (docs/records.md, docs/pictures.md)."""

import importlib
import sys
from typing import Any

from . import records, render, viewer

ENGINES = {"fast": "vikinger_fast", "ref": "vikinger_ref"}


def _engine(name):
    return importlib.import_module(ENGINES[name])


def _who(move):
    return "chance" if move["player"] < 0 else f"player {move['player']}"


def _player_text(entry: dict) -> str:
    params = ",".join(f"{k}={v}" for k, v in entry["params"].items())
    return entry["name"] + (f":{params}" if params else "")


def summary(record: dict, state: Any, name: str) -> str:
    """The record in a few lines: players, modules, seed, length, scores and the winner."""
    game, moves = record["game"], record["moves"]
    n = game["num_players"]
    modules = ", ".join(k for k, on in game["options"].items() if on) or "none (base game)"
    seed = "unknown" if record["seed"] is None else record["seed"]
    chance = sum(1 for move in moves if move["player"] < 0)
    d = state.to_dict()
    lines = [f"{name}: {n} players, modules: {modules}, seed {seed}",
             "players: " + " | ".join(f"{p} {_player_text(e)}"
                                      for p, e in enumerate(record["players"])),
             f"length: {len(moves)} moves ({len(moves) - chance} decisions, {chance} chance), "
             + ("finished" if state.is_terminal() else
                f"not finished: round {d['round']}/6, phase {d['phase']}"),
             "scores: " + " | ".join(f"player {p} Fame {state.scores()[p]}, gold "
                                     f"{state.gold()[p]}" for p in range(n))]
    if state.is_terminal():
        winners = [p for p, r in enumerate(state.returns()) if r > 0]
        lines.append(("winners: " if len(winners) > 1 else "winner: ") + ", ".join(
            f"player {p} ({_player_text(record['players'][p])})" for p in winners)
            + " (most Fame, then most gold: B8.9)")
    lines.append("(every board: --boards; one step: --step K; the viewer: --html OUT)")
    return "\n".join(lines)


def replay(args):
    """Print a summary of the record (players, modules, seed, length, scores, winner), the
    text board at --step K, or with --boards walk through the whole game (every move and the
    board after it); --html writes the viewer instead."""
    engine = _engine(args.engine)
    try:
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
        if not args.boards:
            print(summary(record, records.replay(record, engine), args.file))
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
    rep = commands.add_parser("replay", help="summarize, print or view a game record "
                                             "(docs/records.md)")
    rep.add_argument("file", help="a game record (JSON)")
    rep.add_argument("--step", type=int, metavar="K",
                     help="print only the board after the first K moves")
    rep.add_argument("--boards", action="store_true",
                     help="walk through the game: every move and the board after it")
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
    ren.add_argument("--step", type=int, metavar="K", help="a record's step (default: its end)")
    ren.add_argument("--scale", type=float, default=1.0, help="PNG scale factor")
    ren.add_argument("--engine", choices=tuple(ENGINES), default="fast")
    ren.set_defaults(run=render_command)
