"""The endgame solver in round 6's large scoring (docs/search.md "Solver", "The last scoring"):
the players' trips are listed apart and played against each other through the boatsmen's
majority (B8.3), with the value of a plain minimax (two players) or max^n (three and four, the
first action on a tie) over the whole trip tree, the same result and node count in both engines,
at every module set (A4 boat tiles, A5 horns, treasury, fish and buildings change the totals the
lists hold)."""

import random

import pytest

from search_positions import replay
from test_solver import margins

BUDGET = 3000  # small positions: the reference's solver and the oracle below are slow


def memo_minimax(state, table):
    """u_0 of the whole tree, both players' trips multiplied out (a table, no pruning, no
    split): the test's oracle."""
    if state.is_terminal():
        return margins(state)[0]
    key = state.hash_key()
    if key not in table:
        values = []
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            values.append(memo_minimax(child, table))
        table[key] = max(values) if state.current_player() == 0 else min(values)
    return table[key]


class TooLarge(Exception):
    pass


def memo_max_n(state, table, cap):
    """The margins of the whole tree under max^n, the first action on a tie (a table, no split),
    and that action: the oracle of three and four players. TooLarge past `cap` positions."""
    if state.is_terminal():
        return margins(state), None
    key = state.hash_key()
    if key in table:
        return table[key], None
    if len(table) >= cap:
        raise TooLarge
    best, best_action = None, None
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        value, _ = memo_max_n(child, table, cap)
        if best is None or value[state.current_player()] > best[state.current_player()]:
            best, best_action = value, action
    table[key] = best
    return best, best_action


def endgame_cuts(ref, flags, seed, games, players=2):
    """(history, phase, scoring_index) of every round-6 decision node of random games."""
    rng = random.Random(seed)
    cuts = []
    for _ in range(games):
        state = ref.Game(players, **flags).new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_random_chance(rng.getrandbits(64))
                continue
            if state.round == 6:
                cuts.append((state.history(), state.phase, state.scoring_index))
            state.apply_action(rng.choice(state.legal_actions()))
    return cuts


def small_endgames(engines, flags, seed):
    """Histories of positions the fast solver finishes within BUDGET nodes: one with both
    scorers to come, one with the second alone, one before the last purchase (where they
    exist among 24 games)."""
    ref, fast = engines
    kinds = {}
    for history, phase, index in endgame_cuts(ref, flags, seed, 24):
        kind = (phase in ("trip", "trip_target"), index)
        if kind in kinds:
            continue
        # Chosen by the tile-by-tile node count: positions the oracle below walks quickly.
        solved = fast.solve_endgame(replay(fast, 2, flags, history), BUDGET, trips="tiles")
        if solved is not None and solved["nodes"] > 10:
            kinds[kind] = history
    return list(kinds.values())


def sizable_purchases(engines, players, seed):
    """(history, fast solve) of the round-6 purchases and placements of 12 random base games
    that the fast solver finishes within 20,000 nodes, using at least 500 (the last scoring's
    trips listed tile by tile: the whole tree stays small enough for the oracles)."""
    ref, fast = engines
    for history, phase, _ in endgame_cuts(ref, {}, seed, 12, players):
        if phase in ("trip", "trip_target"):
            continue
        solved = fast.solve_endgame(replay(fast, players, {}, history), 20_000, trips="tiles")
        if solved is not None and solved["nodes"] >= 500:
            yield history, solved


@pytest.mark.parametrize(
    "flags",
    [
        {},
        {"weak_boatsmen": True},
        {"special_tiles": True},
        {"weak_boatsmen": True, "special_tiles": True, "auction": True},
    ],
    ids=["base", "A4", "A5", "A1+A4+A5"],
)
def test_split_scoring_has_the_plain_value_in_both_engines(engines, flags):
    ref, fast = engines
    histories = small_endgames(engines, flags, seed=len(flags))
    assert len(histories) >= 3
    for history in histories:
        a = ref.solve_endgame(replay(ref, 2, flags, history), BUDGET)
        assert a == fast.solve_endgame(replay(fast, 2, flags, history), BUDGET)
        r = ref.solve_endgame_result(replay(ref, 2, flags, history), BUDGET)
        assert r == fast.solve_endgame_result(replay(fast, 2, flags, history), BUDGET)
        value = memo_minimax(replay(fast, 2, flags, history), {})
        assert a["margins"][0] == value
        assert r["results"][0] == (value > 0) - (value < 0)


def test_a_board_met_again_is_listed_once(engines):
    """Before the last purchase the second scorer's board recurs below many first choices: the
    split enters fewer nodes than the whole tree has positions."""
    fast = engines[1]
    for history, solved in sizable_purchases(engines, 2, 7):
        table = {}
        memo_minimax(replay(fast, 2, {}, history), table)
        assert solved["nodes"] < len(table)
        return
    raise AssertionError("no position of the size sought")


@pytest.mark.parametrize(
    "players, flags",
    [(3, {}), (4, {}), (3, {"weak_boatsmen": True, "special_tiles": True, "auction": True})],
    ids=["3p", "4p", "3p-A1+A4+A5"],
)
def test_split_scoring_of_more_players_has_the_max_n_value_in_both_engines(engines, players, flags):
    """More players: every distinct (count, total) pair is kept in the order of its first end
    (a later scorer's answer can hang on an earlier scorer's total), so the margins and the
    first best action are the whole tree's, before the last purchase and at every scorer."""
    ref, fast = engines
    kinds = {}
    for history, phase, index in endgame_cuts(ref, flags, players, 24, players):
        kind = (phase in ("trip", "trip_target"), index)
        if kind in kinds:
            continue
        solved = fast.solve_endgame(replay(fast, players, flags, history), BUDGET)
        if solved is None or solved["nodes"] <= 10:
            continue
        try:
            oracle = memo_max_n(replay(fast, players, flags, history), {}, 20_000)
        except TooLarge:
            continue
        kinds[kind] = (history, solved, oracle)
    assert (False, 0) in kinds and len(kinds) >= 3  # a purchase, and scorers to come
    for history, solved, (value, action) in kinds.values():
        assert solved == ref.solve_endgame(replay(ref, players, flags, history), BUDGET)
        assert (solved["margins"], solved["action"]) == (value, action)


def test_the_split_of_more_players_enters_fewer_nodes(engines):
    """Three players at a purchase: each scorer's trips are visited once, not below every answer
    of the scorers before, so the solver enters fewer nodes than the whole tree has positions."""
    fast = engines[1]
    for history, solved in sizable_purchases(engines, 3, 5):
        table = {}
        try:
            memo_max_n(replay(fast, 3, {}, history), table, 200_000)
        except TooLarge:
            continue
        assert solved["nodes"] < len(table) / 2
        return
    raise AssertionError("no position of the size sought")
