"""EndgameSolver (docs/search.md "A table kept across solves"): one solver table kept across the
solves of a game's round-6 positions gives solve_endgame's values, the same nodes and entries in
both engines call for call, fewer nodes where the positions meet, keeps its entries through a
solve that gives up, and refuses bad calls alike."""

import pytest

from conftest import load_engine
from search_positions import random_history, replay


def histories(num_players, seed, count):
    """The histories of the last `count` decision nodes of round 6 in a random game."""
    ref = load_engine("ref")
    history = random_history(ref, num_players, {}, seed, 10_000)
    state = ref.Game(num_players).new_initial_state()
    found = []
    for k, action in enumerate(history):
        if state.round == 6 and state.current_player() >= 0:
            found.append(history[:k])
        state.apply_action(action)
    return found[-count:]


def solve(solver, state, result_only, max_nodes):
    return (solver.solve_result if result_only else solver.solve)(state, max_nodes)


@pytest.mark.parametrize("num_players, seed", [(2, 41), (2, 42), (3, 43), (4, 44)])
def test_kept_table_solves_as_a_new_one_in_both_engines(engines, num_players, seed):
    ref, fast = engines
    kept = {engine: engine.EndgameSolver(engine.Game(num_players)) for engine in engines}
    modes = (True, False) if num_players == 2 else (False,)
    solved = 0
    for history in histories(num_players, seed, 14):
        for result_only in modes:
            answers = []
            for engine in engines:
                state = replay(engine, num_players, {}, history)
                answers.append(
                    (solve(kept[engine], state, result_only, 4_000), kept[engine].entries)
                )
            assert answers[0] == answers[1]
            answer = answers[0][0]
            state = replay(fast, num_players, {}, history)
            fresh = (fast.solve_endgame_result if result_only else fast.solve_endgame)(state, 10**6)
            if answer is None:
                continue
            solved += 1
            key = "results" if result_only else "margins"
            assert answer[key] == fresh[key]
            if not result_only:  # the first action of the best margin, as a new table's
                assert answer["action"] == fresh["action"]
    assert solved >= 6


def test_a_position_met_again_costs_a_few_nodes():
    # The root is searched again (its own entry is not taken), its children are entries.
    for engine in (load_engine("ref"), load_engine("fast")):
        history = histories(2, 45, 6)[0]
        state = replay(engine, 2, {}, history)
        solver = engine.EndgameSolver(state.get_game())
        first = solver.solve(state, 10**6)
        again = solver.solve(state, 10**6)
        assert first["nodes"] > 10 * again["nodes"]
        assert {**again, "nodes": 0} == {**first, "nodes": 0}
        assert again["nodes"] <= 1 + len(state.legal_actions())


def test_entries_stay_when_a_solve_gives_up_and_go_with_clear(engines):
    ref, fast = engines
    counts = []
    for engine in engines:
        state = replay(engine, 2, {}, histories(2, 41, 12)[0])
        solver = engine.EndgameSolver(state.get_game())
        full = engine.solve_endgame(state, 10**6)
        # Budgets that give up, each from what the last one stored, until one finishes. (Only
        # finished parts are stored: a budget below one scorer's trips listing adds nothing.)
        nodes = []
        for _ in range(12):
            answer = solver.solve(state, max(full["nodes"] // 4, 2))
            if answer is not None:
                break
            nodes.append(solver.entries)
        assert answer is not None, "the kept entries did not add up to a solve"
        assert nodes and nodes == sorted(nodes) and nodes[0] > 0
        assert answer["margins"] == full["margins"] and answer["action"] == full["action"]
        solver.clear()
        assert solver.entries == 0
        assert solver.solve(state, 10**6) == full
        counts.append(nodes)
    assert counts[0] == counts[1]


def test_memory_error_keeps_the_solver_usable(engines):
    messages = []
    for engine in engines:
        state = replay(engine, 3, {}, histories(3, 48, 12)[6])
        solver = engine.EndgameSolver(state.get_game(), max_memory=80 * 200)
        with pytest.raises(MemoryError) as caught:
            solver.solve(state, 10**6)
        messages.append(str(caught.value))
        assert 0 < solver.entries <= 200  # what was stored before it stays
        solver.clear()
        assert solver.entries == 0
    assert messages[0] == messages[1] and "max_memory (16000 bytes" in messages[0]


def test_bad_calls_are_refused_alike(engines):
    ref, fast = engines
    errors = []
    for engine in engines:
        two, three = engine.Game(2), engine.Game(3)
        state = replay(engine, 3, {}, histories(3, 43, 2)[0])
        solver = engine.EndgameSolver(three)
        got = []
        for call in (
            lambda: engine.EndgameSolver("Game(2)"),
            lambda: engine.EndgameSolver(two, max_memory=79),
            lambda: engine.EndgameSolver(two, max_memory=-1),
            lambda: engine.EndgameSolver(two, max_memory=1.5),
            lambda: engine.EndgameSolver(two, trips="rows"),
            lambda: engine.EndgameSolver(two, trips=1),
            lambda: engine.EndgameSolver(two).solve(state, 100),
            lambda: solver.solve(state, 0),
            lambda: solver.solve(state, -1),
            lambda: solver.solve(state, "100"),
            lambda: solver.solve("state", 100),
            lambda: solver.solve_result(state, 100),
            lambda: solver.solve(three.new_initial_state(), 100),
        ):
            with pytest.raises((TypeError, ValueError)) as caught:
                call()
            got.append((caught.type, str(caught.value)))
        assert solver.entries == 0  # nothing was solved
        errors.append(got)
    assert errors[0] == errors[1]
    messages = [message for _, message in errors[0]]
    assert "the solver plays Game(num_players=2)" in messages[6]
    assert messages[11] == (
        "EndgameSolver.solve_result is for two players (max^n has no window): use "
        "EndgameSolver.solve"
    )
    assert messages[12] == (
        "EndgameSolver.solve needs a decision node of round 6 with its offer on the wheel"
    )


def test_neither_engine_pickles_or_copies_a_solver(engines):
    import copy
    import pickle

    errors = []
    for engine in engines:
        solver = engine.EndgameSolver(engine.Game(2))
        for call in (pickle.dumps, copy.copy, copy.deepcopy):
            with pytest.raises(TypeError) as caught:
                call(solver)
            errors.append(str(caught.value))
    assert len(set(errors)) == 1 and "make a new one" in errors[0]
