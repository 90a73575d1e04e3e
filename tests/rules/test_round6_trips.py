"""B7.2.1a: in the large scoring of round 6 every player moves as many Vikings as possible.

A trip is legal there only if the most Vikings the player's boatsmen (A4: with boat tiles) can
still move stays reachable after it (docs/rules.md). Hand-computed positions give the numbers in
their docstrings; random round-6 positions are checked against `most_by_search`, a brute force
over every sequence of trips written here from the rule text alone, and then played to the end
to see that the engine's trips really move that many.
"""

import functools
import random

import pytest

from positions import (
    BUY,
    COLOURS,
    LAST_SPACE,
    TRIP_ALL,
    TRIP_EACH,
    TRIP_STOP,
    player,
    scoring_table,
)

WEAK = {"weak_boatsmen": True, "special_tiles": True}  # A4 with A5 boat tiles
ROW_COLOURS = COLOURS[:5]  # the colours with an island row


def TRIP_ONE(colour):
    return 349 + COLOURS.index(colour)


def round6_trips(engine, p, **options):
    """The examined player `p` at its first trip decision of the round-6 large scoring."""
    table = scoring_table(engine, 6, [p], **({"options": options} if options else {})).finish()
    assert table.state.to_dict()["phase"] == "trip"
    assert table.state.current_player() == table.seats[0]
    return table


# --- hand-computed positions ---------------------------------------------------------------------


def test_b7_2_1a_one_boatsman_must_take_a_colour_of_three_not_one_of_each(engine):
    """1 boatsman; 3 nobles and 3 scouts on the mainland, 3 free tiles in each row. All nobles
    moves 3, all scouts 3, one of each 2 (a noble and a scout): the maximum is 3, so one of each
    is illegal (B7.2.1a) although it moves Vikings."""
    p = player(mainland="B1 S3 N3", rows={2: "L1R", 3: "L1R"})
    state = round6_trips(engine, p).state
    assert state.legal_actions() == [TRIP_ALL("scout"), TRIP_ALL("noble")]
    with pytest.raises(ValueError):
        state.apply_action(TRIP_EACH)
    state.apply_action(TRIP_ALL("noble"))  # 3 nobles onto the 3 free tiles: forced
    assert state.is_terminal()


def test_b7_2_1a_two_boatsmen_a_wasted_first_trip_is_illegal(engine):
    """2 boatsmen; mainland F1 S1 N3, free tiles: fisherman 1, scout 1, noble 3. Most: 5 (all
    nobles 3 then one of each 2, or one of each 3 then all nobles 2). All scouts first moves 1
    and leaves at most 3 (all nobles): 4 < 5, illegal; all fishermen likewise. Before the ruling
    all four trips were legal."""
    p = player(mainland="B2 F1 S1 N3", rows={2: "L1R", 3: "L", 5: "L"})
    table = round6_trips(engine, p)
    state = table.state
    assert state.legal_actions() == [TRIP_ALL("noble"), TRIP_EACH]
    state.apply_action(TRIP_EACH)  # fisherman, scout forced; noble: 3 tiles
    state.apply_action(state.legal_actions()[0])  # the noble onto r2c1
    # left: 1 boatsman, 2 nobles, 2 free tiles: all nobles (2) beats one of each (1): forced
    assert state.is_terminal()
    assert table.player(0)["vikings"][1] == [1, 2, 3]
    d = table.player(0)
    assert sum(d["mainland"][c] for c in ROW_COLOURS) == 0 and d["mainland"]["boatsman"] == 0


def test_b7_2_1a_among_the_maximal_choices_the_player_may_save_boatsmen(engine):
    """3 boatsmen, 2 nobles, 2 free noble tiles. All nobles moves 2 with one boatsman (2 left
    for B8.3); one of each moves 1 and one more trip moves the other: also 2. Both keep the
    maximum of 2, so both are legal."""
    p = player(mainland="B3 N2", rows={2: "L1"})
    table = round6_trips(engine, p)
    assert table.state.legal_actions() == [TRIP_ALL("noble"), TRIP_EACH]
    table.state.apply_action(TRIP_ALL("noble"))
    assert table.state.is_terminal()
    assert table.player(0)["mainland"]["boatsman"] == 2


def test_b7_2_1a_a4_the_boat_goes_to_the_biggest_colour(engine):
    """A4 + A5: 2 boatsmen, 1 boat tile; 3 nobles (3 free tiles), 2 scouts (2 free tiles). With
    the boat all nobles 3, then a weak trip 1: most 4. All scouts with the boat 2 + 1 = 3; one of
    each with the boat 2 + 1 = 3; one noble without it 1 + 2 (then all scouts or one of each) = 3;
    one scout without it 1 + 3 (then all nobles) = 4. Legal: all nobles, one scout."""
    p = player(mainland="B2 S2 N3", rows={2: "L1R", 3: "L1"}, specials={"boat": 1})
    state = round6_trips(engine, p, **WEAK).state
    assert state.legal_actions() == [TRIP_ALL("noble"), TRIP_ONE("scout")]
    table = round6_trips(engine, p, **WEAK)
    table.state.apply_action(TRIP_ONE("scout"))
    table.state.apply_action(table.state.legal_actions()[0])  # the scout's tile: r3c1
    # left: 1 boatsman, the boat, N3 S1: only all nobles moves 3 -- forced, targets forced
    assert table.state.is_terminal()
    assert table.player(0)["vikings"][1] == [1, 2, 3]
    assert table.player(0)["mainland"]["scout"] == 1


def test_b7_2_1a_rounds_2_and_4_keep_every_trip_and_the_stop(engine):
    """B7.2: the obligation is round 6's alone: the position of the first test in round 2
    offers stop, both colours and one of each."""
    p = player(mainland="B1 S3 N3", rows={2: "L1R", 3: "L1R"})
    table = scoring_table(engine, 2, [p]).finish()
    assert table.state.legal_actions() == [
        TRIP_STOP,
        TRIP_ALL("scout"),
        TRIP_ALL("noble"),
        TRIP_EACH,
    ]
    assert table.state.history() == [BUY(LAST_SPACE)]


# --- brute force over every sequence of trips ----------------------------------------------------


@functools.lru_cache(maxsize=None)
def most_by_search(mainland, free, boatsmen, boats, weak):
    """The most Vikings any sequence of trips moves, from counts per row colour: B7.2 step 1 and
    A4 read literally, every trip tried in every order."""
    best = 0
    for _, moved, after in trips_from(mainland, free, boatsmen, boats, weak):
        best = max(best, moved + most_by_search(*after, weak))
    return best


def trips_from(mainland, free, boatsmen, boats, weak):
    """(action, Vikings moved, (mainland, free, boatsmen, boats) after) for each possible trip."""
    if not boatsmen:
        return []
    movable = [c for c in range(5) if mainland[c] and free[c]]
    if not movable:
        return []

    def moving(counts, boat):
        after_m = tuple(m - k for m, k in zip(mainland, counts))
        after_f = tuple(f - k for f, k in zip(free, counts))
        return sum(counts), (after_m, after_f, boatsmen - 1, boats - boat)

    options = []
    if not weak or boats:  # A4: a full trip needs a boat tile
        boat = 1 if weak else 0
        for c in movable:
            counts = [0] * 5
            counts[c] = min(mainland[c], free[c])
            options.append((TRIP_ALL(COLOURS[c]), *moving(counts, boat)))
        options.append((TRIP_EACH, *moving([1 if c in movable else 0 for c in range(5)], boat)))
    if weak:
        for c in movable:
            options.append((TRIP_ONE(COLOURS[c]), *moving([int(c == d) for d in range(5)], 0)))
    return options


def counts_of(d, weak):
    """(mainland, free tiles) per row colour, boatsmen and boat tiles of a player's dict."""
    mainland = tuple(d["mainland"][c] for c in ROW_COLOURS)
    free = tuple(
        sum(ch != "." for ch in d["rows"][4 - c]) - len(d["vikings"][4 - c]) for c in range(5)
    )
    boats = d["specials"]["boat"] if weak else 0
    return mainland, free, d["mainland"]["boatsman"], boats


def random_row(rng):
    """A row from column 1: left piece, middles and right pieces in legal order (B6.2), with
    random Vikings; '' for an empty row."""
    cells = ""
    for _ in range(rng.randrange(0, 4)):  # islands side by side
        cells += "L" + "".join(rng.choice("1234") for _ in range(rng.randrange(0, 2)))
        cells += "R" if rng.random() < 0.7 else ""
        if not cells.endswith("R"):
            break
    return "".join(ch + ("*" if rng.random() < 0.3 else "") for ch in cells)


def random_player(rng, weak):
    rows = {r: random_row(rng) for r in range(1, 6)}
    if not any(rows.values()):
        rows[1] = "L"  # a start tile somewhere (B6.0)
    mainland = " ".join(f"{short}{rng.randrange(0, 5)}" for short in "FGSNW")
    mainland += f" B{rng.randrange(1, 6)}"
    specials = {"boat": rng.randrange(0, 4)} if weak else None
    return player(mainland=mainland, rows=rows, specials=specials)


@pytest.mark.parametrize("weak", [False, True], ids=["full trips", "A4 weak boatsmen"])
def test_b7_2_1a_legal_trips_are_those_of_the_brute_force(engine, weak):
    """On random round-6 positions: at every trip decision the legal trips are exactly those
    after which the brute force's maximum stays reachable, and the trips played (random among
    the legal ones, random targets) move the brute force's maximum in all."""
    rng = random.Random(16)
    checked = 0
    for _ in range(300):
        p = random_player(rng, weak)
        try:
            table = scoring_table(engine, 6, [p], **({"options": WEAK} if weak else {}))
        except ValueError:
            continue  # more tiles or Vikings than exist: skip
        start = counts_of(table.player(0), weak)
        most = most_by_search(*start, weak)
        state = table.finish().state  # forced trips are applied at once
        while state.to_dict()["phase"] in ("trip", "trip_target"):
            if state.to_dict()["phase"] == "trip":
                now = counts_of(table.player(0), weak)
                goal = most_by_search(*now, weak)
                expected = sorted(
                    action
                    for action, k, after in trips_from(*now, weak)
                    if k + most_by_search(*after, weak) == goal
                )
                assert state.legal_actions() == expected, (p, now)
            state.apply_action(rng.choice(state.legal_actions()))
        end = counts_of(table.player(0), weak)
        moved = sum(start[0]) - sum(end[0])
        assert moved == most, (p, start)
        checked += most > 0
    assert checked >= 120  # enough positions had Vikings to move


def test_b7_2_1a_forced_trips_are_applied_automatically(engine):
    """docs/actions.md: a trip decision left with one legal option by B7.2.1a is applied at
    once and is not in the history: 1 boatsman, 4 nobles (4 free tiles) and 1 scout (1 free
    tile): all nobles (4) beats all scouts (1) and one of each (2)."""
    p = player(mainland="B1 S1 N4", rows={2: "L11R", 3: "L"})
    table = scoring_table(engine, 6, [p]).finish()
    assert table.state.is_terminal()
    assert table.state.history() == [BUY(LAST_SPACE)]
    assert table.player(0)["vikings"][1] == [1, 2, 3, 4]
    assert table.player(0)["mainland"]["scout"] == 1


def test_b7_2_1a_table_of_the_cpp_engine_is_its_loop():
    """The C++ engine answers B7.2.1a (full trips) from a table made from its loop on first use
    (csrc/rules/trips.cc): the two agree on every input of the table, and beyond it, where the loop
    answers."""
    from vikinger_fast import _core

    assert _core._trip_table_mismatches() == 0


def test_b7_2_1a_table_made_by_two_threads_at_once():
    """The table is made on first use: in a fresh process whose first call plays round 6 on two
    threads, both threads ask for it at once, and the games are those played here."""
    import subprocess
    import sys

    import numpy as np

    import vikinger_fast as fast
    from vikinger_fast.benchmarks import midgame_state

    script = (
        "import vikinger_fast as vk, sys\n"
        "from vikinger_fast.benchmarks import midgame_state\n"
        "sys.stdout.buffer.write(vk.playouts(midgame_state(vk), 400, 5, threads=2)"
        "['scores'].tobytes())\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=120)
    assert out.returncode == 0, out.stderr.decode()
    here = fast.playouts(midgame_state(fast), 400, 5)["scores"]
    assert np.array_equal(np.frombuffer(out.stdout, dtype=here.dtype).reshape(here.shape), here)
