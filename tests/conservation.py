"""Where every Viking and every tile of the box is, counted from a `to_dict()` (docs/state.md).

The conservation laws the engines must keep at every step, checked by the random games
(test_random_games.py) and the twin-engine state machine (test_state_machine.py):

* B1.1 all 78 Vikings, 13 of each colour, are in the bag, drawn, removed (A2), on the wheel, in
  the pending purchase, on a mainland or on an island row (row r holds colour 5 - r, B2.1);
* B1.2-B1.4 the 72 stack tiles are in the stacks, discarded, on the wheel, in the pending purchase
  (in phase `viking` it already lies on the board) or on a board, where each player's start tile
  is extra (B1.2) and an A5 building stands where a middle tile stood (that tile counts as
  discarded, docs/advanced.md).
"""

from positions import COLOURS, ROW_CHARS, SHIP_CHARS


def count_vikings(d):
    """{colour: Vikings of that colour found anywhere}."""
    counts = dict.fromkeys(COLOURS, 0)
    for name in ("bag", "drawn", "removed"):
        for colour, k in d[name].items():
            counts[colour] += k
    for group in [g for g in d["wheel"] if g] + ([d["pending"]] if d["pending"] else []):
        if group["viking"] is not None:
            counts[group["viking"]] += 1
    for p in d["players"]:
        for colour, k in p["mainland"].items():
            counts[colour] += k
        for r, columns in enumerate(p["vikings"], start=1):
            counts[COLOURS[5 - r]] += len(columns)
    return counts


def count_tiles(d):
    """({kind: stack tiles of that kind found outside the stacks' discards}, start tiles on the
    boards). The kinds' total plus `discarded_tiles` is 72 in every state."""
    counts = dict(d["stacks"])
    start_tiles = 0
    for group in d["wheel"]:
        if group is not None:
            counts[group["tile"]] += 1
    if d["pending"] is not None and d["pending"]["cell"] is None:
        counts[d["pending"]["tile"]] += 1
    for p in d["players"]:
        buildings = {tuple(cell) for cell in p["buildings"] if cell is not None}
        for r, cells in enumerate(p["rows"], start=1):
            for c, ch in enumerate(cells, start=1):
                if ch == "." or (r, c) in buildings:
                    continue
                if r == p["start_row"] and c == 1:
                    start_tiles += 1
                else:
                    counts[ROW_CHARS[ch]] += 1
        for ch in p["ships"]:
            if ch != ".":
                counts[SHIP_CHARS[ch]] += 1
    return counts, start_tiles
