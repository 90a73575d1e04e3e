"""The endgame solver in round 6's large scoring (docs/search.md "Solver", "The last scoring"):
two players' trips are listed apart and played against each other through the boatsmen's
majority (B8.3), with the value of a plain minimax over the whole trip tree, the same result and
node count in both engines, at every module set (A4 boat tiles, A5 horns, treasury, fish and
buildings change the totals the lists hold)."""

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


def endgame_cuts(ref, flags, seed, games):
    """(history, phase, scoring_index) of every round-6 decision node of random 2-player games."""
    rng = random.Random(seed)
    cuts = []
    for _ in range(games):
        state = ref.Game(2, **flags).new_initial_state()
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
        solved = fast.solve_endgame(replay(fast, 2, flags, history), BUDGET)
        if solved is not None and solved["nodes"] > 10:
            kinds[kind] = history
    return list(kinds.values())


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
    ref, fast = engines
    for history, phase, _ in endgame_cuts(ref, {}, 7, 12):
        if phase in ("trip", "trip_target"):
            continue
        solved = fast.solve_endgame(replay(fast, 2, {}, history), 20_000)
        if solved is None or solved["nodes"] < 500:
            continue
        table = {}
        memo_minimax(replay(fast, 2, {}, history), table)
        assert solved["nodes"] < len(table)
        return
    raise AssertionError("no position of the size sought")
