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

from positions import used_tiles, used_vikings


def count_vikings(d):
    """{colour: Vikings of that colour found anywhere}: those outside the bag, and the bag."""
    counts = used_vikings(d)
    for colour, k in d["bag"].items():
        counts[colour] += k
    return counts


def count_tiles(d):
    """({kind: stack tiles of that kind found outside the stacks' discards}, start tiles on the
    boards). The kinds' total plus `discarded_tiles` is 72 in every state."""
    counts = used_tiles(d)
    for kind, k in d["stacks"].items():
        counts[kind] += k
    start_tiles = 0
    for p in d["players"]:
        buildings = {tuple(cell) for cell in p["buildings"] if cell is not None}
        row = p["start_row"]  # None before the start tile is placed
        if row is not None and p["rows"][row - 1][0] != "." and (row, 1) not in buildings:
            start_tiles += 1
    return counts, start_tiles
