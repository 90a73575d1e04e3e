"""Round 6's trips by their counts (docs/search.md "Trips by counts"): the best tiles for an end
of a scorer's trips (trip_ends.best_total) against every placement of its Vikings, and the
solver's lists by counts against its lists tile by tile, at every module set (A4 boats, A5
tiles; boards with an A5 building placed keep the tile-by-tile lists). The engines' equal
results and node counts on these lists are checked in test_solver_last_scoring.py."""

import random
from itertools import combinations, product

import pytest

from conftest import load_engine
from search_positions import replay

FLAGS = [
    {},
    {"weak_boatsmen": True},
    {"special_tiles": True},
    {"weak_boatsmen": True, "special_tiles": True, "auction": True},
]
IDS = ["base", "A4", "A5", "A1+A4+A5"]


def random_decisions(ref, flags, seed, games, wanted, first=False):
    """The decisions where wanted(state) holds in random 2-player games (a copy of each; with
    `first`, only the first of each game)."""
    rng = random.Random(seed)
    for _ in range(games):
        state = ref.Game(2, **flags).new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_random_chance(rng.getrandbits(64))
                continue
            if wanted(state):
                yield state.clone()
                if first:
                    break
            state.apply_action(rng.choice(state.legal_actions()))


def last_scorings(ref, flags, seed, games):
    """(history, state) of every decision of round 6's large scoring in random 2-player games."""
    for state in random_decisions(ref, flags, seed, games, ref.solver.in_last_scoring):
        yield state.history(), state


def every_placement_best(ref, start, end, tiles):
    """The oracle: the best own total over every set of tiles for the Vikings each row gains."""
    from vikinger_ref.board import ROWS
    from vikinger_ref.scoring import final_scoring_alone, large_scoring

    moved = [len(start.free_tiles(row)) - len(end.free_tiles(row)) for row in ROWS]
    best = None
    for sets in product(*(combinations(tiles[row], k) for row, k in zip(ROWS, moved))):
        board = start.copy()
        board.mainland = list(end.mainland)
        board.specials = list(end.specials)
        for row, cols in zip(ROWS, sets):
            for col in cols:
                board.put_viking_on_tile(row, col)
        large_scoring(board)
        final_scoring_alone(board)
        total = 64 * board.fame + board.gold
        best = total if best is None else max(best, total)
    return best


def ends_of(ref, state):
    """The scorer's boards at the ends of its trips with the Vikings on their leftmost tiles."""
    player = state.current_player()
    ends = []
    stack = [state]
    while stack:
        node = stack.pop()
        actions = node.legal_actions()
        if node.phase == "trip_target":
            actions = actions[:1]
        for action in actions:
            child = node.clone()
            child.apply_action(action)
            if ref.solver.in_last_scoring(child) and child.scoring_index == node.scoring_index:
                stack.append(child)
            else:
                ends.append(child.players[player])
    return ends


@pytest.mark.parametrize("flags", FLAGS, ids=IDS)
def test_the_best_total_is_the_best_of_every_placement(flags):
    ref = load_engine("ref")
    trip_ends = ref.trip_ends
    checked = moved_off_leftmost = 0
    for _, state in last_scorings(ref, flags, 41 + len(flags), 12):
        start = state.players[state.current_player()]
        if not trip_ends.by_counts(start):
            continue
        tiles = trip_ends.candidates(start, state.trip)
        for end in ends_of(ref, state)[:6]:
            best = trip_ends.best_total(start, end, tiles)
            assert best == every_placement_best(ref, start, end, tiles)
            board = end.copy()  # the leftmost tiles, scored as the state machine did
            from vikinger_ref.scoring import final_scoring_alone

            final_scoring_alone(board)
            moved_off_leftmost += best != 64 * board.fame + board.gold
            checked += 1
    assert checked >= 100
    assert moved_off_leftmost >= 5  # the leftmost tiles are often not the best


def test_a_trip_begun_keeps_its_vikings_right_of_the_last():
    ref = load_engine("ref")
    for _, state in last_scorings(ref, {}, 47, 30):
        if state.phase != "trip_target" or state.trip["last_col"] == 0:
            continue
        board = state.players[state.current_player()]
        row = 5 - state.trip["queue"][0][0]
        if min(board.free_tiles(row)) < state.trip["last_col"]:  # a free tile left of it
            tiles = ref.trip_ends.candidates(board, state.trip)
            targets = [ref.actions.cell_of(a - ref.actions.TARGET) for a in state.legal_actions()]
            assert {r for r, _ in targets} == {row}
            assert {c for _, c in targets} <= set(tiles[row])
            assert tiles[row] == [c for c in board.free_tiles(row) if c > state.trip["last_col"]]
            return
    raise AssertionError("no trip begun among the games")


def compare_lists(ref, flags, seed, games, every, cap):
    """(positions compared, those listed by counts in fewer nodes): solver.best_ends against
    best_per_count of the tile-by-tile visit, at every `every`-th decision of the last scoring
    of random games whose visit stays within `cap` nodes."""
    solver = ref.solver
    from vikinger_ref.components import BOATSMAN
    from vikinger_ref.scoring import count_majorities

    compared = fewer = 0
    for k, (_, state) in enumerate(last_scorings(ref, flags, seed, games)):
        if k % every:
            continue
        counts = [list(count_majorities(board, BOATSMAN)) for board in state.players]
        tile_by_tile = solver._Solver(cap, 1 << 40)
        try:
            expected = solver.best_per_count(tile_by_tile.visit(state, counts))
        except solver._GiveUp:
            continue
        by_counts = solver._Solver(cap, 1 << 40)
        assert by_counts.best_ends(state, counts)[0] == expected[0]
        compared += 1
        fewer += by_counts.nodes < tile_by_tile.nodes
    return compared, fewer


@pytest.mark.parametrize("flags", FLAGS, ids=IDS)
def test_the_lists_by_counts_are_the_lists_tile_by_tile(flags):
    compared, fewer = compare_lists(load_engine("ref"), flags, 61 + len(flags), 8, 2, 2_000)
    assert compared >= 20
    assert fewer >= compared // 2


@pytest.mark.slow
@pytest.mark.parametrize("flags", FLAGS, ids=IDS)
def test_the_lists_by_counts_are_the_lists_tile_by_tile_at_length(flags):
    compared, _ = compare_lists(load_engine("ref"), flags, 81 + len(flags), 8, 1, 20_000)
    assert compared >= 60


def test_both_engines_solve_a_large_last_scoring_alike(engines):
    """A last scoring whose first scorer's trips take more than 30,000 nodes tile by tile: by
    counts both engines solve it within 20,000, with the same result and node count."""
    ref, fast = engines
    solver = ref.solver
    from vikinger_ref.components import BOATSMAN
    from vikinger_ref.scoring import count_majorities

    for history, state in last_scorings(ref, {}, 71, 20):
        if state.phase != "trip" or state.scoring_index != 0:
            continue
        counts = [list(count_majorities(board, BOATSMAN)) for board in state.players]
        try:
            solver._Solver(30_000, 1 << 40).visit(state, counts)
            continue
        except solver._GiveUp:
            pass
        solved = fast.solve_endgame(replay(fast, 2, {}, history), 20_000)
        assert solved is not None
        assert solved == ref.solve_endgame(replay(ref, 2, {}, history), 20_000)
        return
    raise AssertionError("no last scoring of the size sought")


def test_tiles_gives_the_same_solve_in_more_nodes_in_both_engines(engines):
    """trips="tiles" lists every placement (the solver the benchmark files were built with):
    the same margins and action, more nodes, equal between the engines."""
    ref, fast = engines
    for history, state in last_scorings(ref, {}, 73, 8):
        if state.phase != "trip" or state.scoring_index != 0:
            continue
        tiles = fast.solve_endgame(replay(fast, 2, {}, history), 20_000, trips="tiles")
        if tiles is None or tiles["nodes"] < 300:
            continue
        counts = fast.solve_endgame(replay(fast, 2, {}, history), 20_000)
        assert (counts["margins"], counts["action"]) == (tiles["margins"], tiles["action"])
        assert counts["nodes"] < tiles["nodes"]
        assert tiles == ref.solve_endgame(replay(ref, 2, {}, history), 20_000, trips="tiles")
        result = fast.solve_endgame_result(replay(fast, 2, {}, history), 20_000, trips="tiles")
        assert result == ref.solve_endgame_result(
            replay(ref, 2, {}, history), 20_000, trips="tiles"
        )
        return
    raise AssertionError("no last scoring of the size sought")


@pytest.mark.parametrize(
    "trips, error, message",
    [
        ("leftmost", ValueError, "trips must be 'counts' or 'tiles', not 'leftmost'"),
        (1, TypeError, "trips must be a str, not int"),
        (None, TypeError, "trips must be a str, not NoneType"),
    ],
)
def test_a_bad_trips_is_refused_alike(engines, trips, error, message):
    for engine in engines:
        for history, _ in last_scorings(load_engine("ref"), {}, 73, 1):
            state = replay(engine, 2, {}, history)
            for solve in (engine.solve_endgame, engine.solve_endgame_result):
                with pytest.raises(error, match=message):
                    solve(state, 100, trips=trips)
            break


def last_scoring_starts(ref, state, limit):
    """The positions below `state` (every line of play) where round 6's large scoring begins,
    at most `limit`: boards that differ in their tiles, many with the same counts."""
    starts, stack = [], [state]
    while stack and len(starts) < limit:
        node = stack.pop()
        for action in node.legal_actions():
            child = node.clone()
            child.apply_action(action)
            if ref.solver.in_last_scoring(child):
                starts.append(child)
            elif not child.is_terminal():
                stack.append(child)
    return starts


def round_six_purchases(ref, flags, seed, games):
    """The first decision of round 6 with at most two groups left on the wheel (a purchase or
    its placement) in each of `games` random games."""

    def wanted(state):
        return state.round == 6 and 0 < len(state.wheel.occupied()) <= 2

    return random_decisions(ref, flags, seed, games, wanted, first=True)


@pytest.mark.parametrize("flags", FLAGS, ids=IDS)
def test_ends_reused_by_counts_are_the_ends_visited(flags):
    """Below a purchase, many boards begin the last scoring with the same counts: one solver
    reuses their ends (first path left empty) and gives the lists a fresh solver's visit of each
    board gives (test_the_lists_by_counts_are_the_lists_tile_by_tile: the lists tile by tile),
    for the first scorer and for the second; first_end reaches the end the first path reaches."""
    ref = load_engine("ref")
    solver = ref.solver
    from vikinger_ref.components import BOATSMAN
    from vikinger_ref.scoring import count_majorities

    compared = reused = 0
    for purchase in round_six_purchases(ref, flags, 91 + len(flags), 6):
        shared = solver._Solver(1 << 40, 1 << 40)
        for start in last_scoring_starts(ref, purchase, 150):
            counts = [list(count_majorities(board, BOATSMAN)) for board in start.players]
            node = start
            while not node.is_terminal():  # the first scorer, then the second
                fresh = solver._Solver(1 << 40, 1 << 40).best_ends(node, counts)
                got = shared.best_ends(node, counts)
                assert got[0] == fresh[0]
                compared += 1
                end = node.clone()
                if got[1]:
                    assert got[1] == fresh[1]
                    for action in got[1]:
                        end.apply_action(action)
                else:
                    reused += 1
                    shared.first_end(end)
                expected = node.clone()
                for action in fresh[1]:
                    expected.apply_action(action)
                assert end.hash_key() == expected.hash_key()
                node = end
    assert compared >= 50
    assert reused >= compared // 3


def compare_purchases(engines, flags, seed, games, budget):
    """Solves from the purchases of round_six_purchases the fast engine finishes within `budget`:
    the same result and node count in both engines, exact and result alone, and the margins and
    action of trips="tiles" where that finishes within 5,000,000 nodes. Returns their number."""
    ref, fast = engines
    solved = 0
    for purchase in round_six_purchases(ref, flags, seed, games):
        history = purchase.history()
        exact = fast.solve_endgame(replay(fast, 2, flags, history), budget)
        if exact is None:
            continue
        assert exact == ref.solve_endgame(replay(ref, 2, flags, history), budget)
        result = fast.solve_endgame_result(replay(fast, 2, flags, history), budget)
        assert result == ref.solve_endgame_result(replay(ref, 2, flags, history), budget)
        tiles = fast.solve_endgame(replay(fast, 2, flags, history), 5_000_000, trips="tiles")
        if tiles is None:  # too large tile by tile for this test
            continue
        assert (exact["margins"], exact["action"]) == (tiles["margins"], tiles["action"])
        assert exact["nodes"] < tiles["nodes"]
        solved += 1
    return solved


@pytest.mark.parametrize("flags", FLAGS, ids=IDS)
def test_both_engines_solve_purchases_alike_with_the_values_tile_by_tile(engines, flags):
    """Solves from a purchase, where ends are reused by counts and the other scorer's list is
    taken from their board."""
    assert compare_purchases(engines, flags, 95 + len(flags), 4, 20_000) >= 2


@pytest.mark.slow
@pytest.mark.parametrize("flags", FLAGS, ids=IDS)
def test_both_engines_solve_purchases_alike_at_length(engines, flags):
    assert compare_purchases(engines, flags, 111 + len(flags), 16, 100_000) >= 6
