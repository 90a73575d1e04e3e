"""str(state): the readable text board of docs/state.md."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from .actions import CHANCE, TERMINAL
from .components import (
    BUILDING1,
    COLOUR_SHORT,
    COLOURS,
    NUM_ROWS,
    ROW_NAMES,
    SPECIAL_KINDS,
    TILE_KINDS,
    TILE_SHORT,
)

if TYPE_CHECKING:
    from .board import PlayerBoard
    from .state import State


def _counts(counts: Sequence[int]) -> str:
    return " ".join(f"{COLOUR_SHORT[c]}={counts[c]}" for c in range(len(counts)))


def _header(state: State) -> str:
    player = state.current_player()
    to_move = (
        "chance"
        if player == CHANCE
        else "game over"
        if player == TERMINAL
        else f"player {player} to move"
    )
    return (
        f"Round {state.round}/6 | phase {state.phase} | start player {state.start_player} | "
        f"{to_move}"
    )


def _wheel(state: State) -> str:
    wheel = state.wheel
    occupied = wheel.occupied()
    if not occupied:
        return "Wheel: empty"
    groups = []
    for s in occupied:
        viking = "-" if wheel.vikings[s] is None else COLOURS[wheel.vikings[s]]
        groups.append(f"{s}:{TILE_SHORT[wheel.tiles[s]]}/{viking}${s - occupied[0]}")
    return "Wheel: " + " ".join(groups)


def _board_lines(board: PlayerBoard, p: int) -> list[str]:
    lines = [
        f"Player {p}: gold {board.gold}, fame {board.fame}, mainland {_counts(board.mainland)}"
    ]
    width = max(
        [col for col, _ in board.ship_list()] + [col for _, col, _ in board.island_tiles()],
        default=0,
    )
    ships = "".join(
        ("." if board.ships[c] is None else TILE_SHORT[board.ships[c]]) + " "
        for c in range(1, width + 1)
    )
    lines.append(f"  {'ships':<10}|{ships}".rstrip())
    held = _specials(board)
    if held:
        lines.append(f"  {'specials':<10}{held}")
    for row in range(1, NUM_ROWS + 1):
        cells = ""
        for col in range(1, width + 1):
            kind = board.tile(row, col)
            cells += ("." if kind is None else TILE_SHORT[kind]) + (
                "*" if board.has_viking(row, col) else " "
            )
        lines.append(f"  {ROW_NAMES[row - 1]:<10}|{cells}".rstrip())
    return lines


def _specials(board: PlayerBoard) -> str:
    """A5: `kind=count` for held tiles; placed buildings as `building2@r3c4`."""
    parts = []
    for kind, count in enumerate(board.specials):
        if not count:
            continue
        cell = board.buildings[kind - BUILDING1] if kind >= BUILDING1 else None
        parts.append(
            f"{SPECIAL_KINDS[kind]}@r{cell[0]}c{cell[1]}"
            if cell
            else f"{SPECIAL_KINDS[kind]}={count}"
        )
    return " ".join(parts)


def _advanced_lines(state: State) -> list[str]:
    lines = []
    auction = state.auction
    if auction is not None:
        high = "-" if auction.high is None else auction.high
        passed = ",".join(str(p) for p, out in enumerate(auction.passed) if out) or "none"
        lines.append(
            f"Auction: high {high} by player {auction.leader}, turn {auction.turn}, passed {passed}"
        )
    if state.get_game().options["special_tiles"]:
        slots = " ".join(
            "-" if kind is None else SPECIAL_KINDS[kind] for kind in state.display.slots
        )
        lines.append(f"Display: {slots} | stack {sum(state.display.stack)}")
    return lines


def render(state: State) -> str:
    lines = [
        _header(state),
        _wheel(state),
        "Stacks: " + " ".join(f"{TILE_SHORT[k]}={state.stacks[k]}" for k in range(len(TILE_KINDS))),
        f"Bag: {_counts(state.bag)} | drawn: {_counts(state.drawn)}",
    ]
    if state.pending is not None:
        pending = state.pending
        line = f"Pending: tile {TILE_SHORT[pending['tile']]}, viking {COLOURS[pending['viking']]}"
        if pending["cell"] is not None:
            line += ", cell r%dc%d" % tuple(pending["cell"])
        lines.append(line)
    lines += _advanced_lines(state)
    if state.trip is not None:
        entries = " ".join(f"{COLOUR_SHORT[colour]}×{k}" for colour, k in state.trip["queue"])
        lines.append(f"Trip: {entries} from c{state.trip['last_col']}")
    for p, board in enumerate(state.players):
        lines += _board_lines(board, p)
    return "\n".join(lines)
