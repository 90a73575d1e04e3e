"""The endgame solver (docs/search.md "Solver"): the same result and node count in both
engines, the value of a plain minimax without pruning or table, MCTSBot deciding by it, errors."""

import pytest

from conftest import load_engine
from positions import build_state, group, player
from search_positions import random_history, replay


def endgames(num_players, count, max_back=8):
    """(history) of round-6 decision nodes a few decisions before the end of random games."""
    ref = load_engine("ref")
    found = []
    for seed in range(200):
        history = random_history(ref, num_players, {}, seed, 10_000)
        state = ref.Game(num_players).new_initial_state()
        decisions = []
        for k, action in enumerate(history):
            if state.round == 6 and state.current_player() >= 0:
                decisions.append(k)
            state.apply_action(action)
        back = 2 + seed % max_back
        if len(decisions) >= back:
            found.append(history[: decisions[-back]])
        if len(found) == count:
            return found
    raise AssertionError("too few endgames")


def margins(state):
    totals = [64 * fame + gold for fame, gold in zip(state.scores(), state.gold())]
    return [t - max(o for j, o in enumerate(totals) if j != i) for i, t in enumerate(totals)]


def minimax(state):
    """Every player maximizes its own margin, first action on a tie (no pruning, no table)."""
    if state.is_terminal():
        return margins(state)
    best = None
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        value = minimax(child)
        if best is None or value[state.current_player()] > best[state.current_player()]:
            best = value
    return best


@pytest.mark.parametrize("num_players", [2, 3])
def test_solver_equal_between_engines_and_to_minimax(engines, num_players):
    ref, fast = engines
    solved = 0
    for history in endgames(num_players, 6, max_back=4):
        a = ref.solve_endgame(replay(ref, num_players, {}, history), 3000)
        b = fast.solve_endgame(replay(fast, num_players, {}, history), 3000)
        assert a == b
        if a is not None:
            solved += 1
            value = minimax(replay(fast, num_players, {}, history))
            if num_players == 2:  # alpha-beta keeps the value; max^n the whole vector
                assert a["margins"][0] == value[0]
            else:
                assert a["margins"] == value
    assert solved >= 3


def test_solver_gives_up_past_its_budget(engine):
    history = endgames(2, 1, max_back=1)[0]
    state = replay(engine, 2, {}, history)
    full = engine.solve_endgame(state, 10**6)
    assert full is not None and full["nodes"] > 1
    assert engine.solve_endgame(state, full["nodes"] - 1) is None
    assert engine.solve_endgame(state, full["nodes"]) == full


def test_mcts_decides_by_the_solver(engine):
    history = endgames(2, 1, max_back=3)[0]
    state = replay(engine, 2, {}, history)
    solved = engine.solve_endgame(state, 10**6)
    bot = engine.MCTSBot(state.get_game(), 1, iterations=5, solver_nodes=10**6)
    result = bot.search(state)
    assert result["solved"] and result["iterations"] == 0
    assert bot.step(state) == solved["action"]


def test_solver_errors(engine):
    state = engine.Game(2).new_initial_state()
    with pytest.raises(ValueError, match="solve_endgame needs a decision node of round 6"):
        engine.solve_endgame(state, 10)
    with pytest.raises(ValueError, match="max_nodes must be > 0, not 0"):
        engine.solve_endgame(state, 0)
    with pytest.raises(TypeError, match="max_nodes must be an int, not str"):
        engine.solve_endgame(state, "10")


def wide_endgame(engine, warriors_row, num_players, purchases_left):
    """Round 6, 1-3 purchases left: player 0's warrior row is `warriors_row` (positions.py's row
    text, `*` a Viking), with two warriors on the mainland to send there in the last scoring."""
    groups = {9: group("L", "N"), 10: group("L", "W"), 11: group("R", "W")}
    wheel = {s: g for s, g in groups.items() if s >= 12 - purchases_left}
    players = [
        player(
            gold=3,
            fame=20,
            ships="ryg",
            rows={1: warriors_row, 2: "L*1R", 5: "L2*R"},
            mainland="F2 W2 N1 S1 G1 B2",
        ),
        player(
            gold=5,
            fame=22,
            ships="rgb",
            rows={1: "L*R", 3: "L*1*R", 4: "LR"},
            mainland="F1 W3 N2 S1 G1 B1",
        ),
        player(gold=4, fame=21, ships="ry", rows={2: "LR", 5: "L*R"}, mainland="W1 N1"),
    ][:num_players]
    return build_state(engine, players, round=6, wheel=wheel, start_player=0)


WIDE = "L*RLRLRLRLRLRLRLRL*RL*R"  # 20 columns, Vikings in 1, 17 and 19, free tiles past 16


# (players, trips, purchases left): a few hundred to a thousand nodes each
WIDE_CASES = [(2, "counts", 3), (2, "tiles", 1), (3, "counts", 2)]


@pytest.mark.parametrize("num_players, trips, left", WIDE_CASES)
def test_solver_keys_rows_past_sixteen_columns_as_the_reference(engines, num_players, trips, left):
    """B2.2: a row has no printed length (the engines cap it at 64 columns). The fast solver keys
    a board's rows one word each while every row is within 16 columns, four words each past that
    (PositionKeyBytes, docs/search.md "The table and its keys"): with Vikings sent past column
    16 in the last scoring, both engines meet the same transpositions (the same nodes) and
    values, and the columns past 16 change the value."""
    ref, fast = engines
    got = [
        e.solve_endgame(wide_endgame(e, WIDE, num_players, left), 5000, trips=trips)
        for e in engines
    ]
    assert got[0] is not None and got[0] == got[1]
    assert wide_endgame(fast, WIDE, num_players, left).to_dict()["players"][0]["rows"][0][16:]
    narrow = fast.solve_endgame(wide_endgame(fast, WIDE[:15], num_players, left), 5000, trips=trips)
    assert narrow is not None and narrow["margins"] != got[1]["margins"]
