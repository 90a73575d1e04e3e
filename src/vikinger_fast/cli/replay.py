"""`vikinger replay`: a game record as text boards or as the HTML viewer (docs/records.md,
docs/pictures.md)."""

import argparse
import sys
from typing import Any

from .. import arena, records
from ..pictures import viewer
from ..safety import flags, outputs
from . import common


def _who(move: dict) -> str:
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
    lines = [
        f"{name}: {n} players, modules: {modules}, seed {seed}",
        "players: " + " | ".join(f"{p} {_player_text(e)}" for p, e in enumerate(record["players"])),
        f"length: {len(moves)} moves ({len(moves) - chance} decisions, {chance} chance), "
        + (
            "finished"
            if state.is_terminal()
            else f"not finished: round {d['round']}/6, phase {d['phase']}"
        ),
        "scores: "
        + " | ".join(
            f"player {p} Fame {state.scores()[p]}, gold {state.gold()[p]}" for p in range(n)
        ),
    ]
    if state.is_terminal():
        winners = [p for p, r in enumerate(state.returns()) if r > 0]
        lines.append(
            ("winners: " if len(winners) > 1 else "winner: ")
            + ", ".join(f"player {p} ({_player_text(record['players'][p])})" for p in winners)
            + " (most Fame, then most gold: B8.9)"
        )
    lines.append("(every board: --boards; one step: --step K; the viewer: --html OUT)")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Print a summary of the record (players, modules, seed, length, scores, winner), the
    text board at --step K, or with --boards walk through the whole game (every move and the
    board after it); --html writes the viewer instead."""
    engine = arena.engine_module(args.engine)
    try:
        if args.html:  # before any work: never onto the record being read
            outputs.check_output_file(args.html, inputs=[args.file], what="--html")
        record = records.load(args.file)
        if args.modules is not None:
            records.check_module_set(record, args.modules)
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
            print(
                f"step {step}/{total}" + (f": {_who(move)} {move['string']}" if move else ": start")
            )
            print(state)
            print()
    except (OSError, ValueError) as error:
        print(f"vikinger replay: {error}", file=sys.stderr)
        return 2
    return 0


def add_parser(commands: Any) -> argparse.ArgumentParser:
    parser = commands.add_parser(
        "replay", help="summarize, print or view a game record (docs/records.md)"
    )
    parser.add_argument("file", help="a game record (JSON)")
    common.add_modules(
        parser,
        default=None,
        help="the set the record must be of (default: the record's own, as it names it)",
    )
    parser.add_argument(
        "--step", type=flags.STEP, metavar="K", help="print only the board after the first K moves"
    )
    parser.add_argument(
        "--boards",
        action="store_true",
        help="walk through the game: every move and the board after it",
    )
    parser.add_argument(
        "--html", metavar="OUT", help="write the game viewer, one self-contained HTML file"
    )
    parser.add_argument(
        "--engine",
        choices=tuple(arena.ENGINES),
        default="fast",
        help="the engine that replays (and checks) the record",
    )
    parser.set_defaults(run=run)
    return parser
