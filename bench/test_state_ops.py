"""One operation on one state, on both engines: legal island cells, threat mask, large scoring,
clone and apply_action. The positions are those of conftest.py (the same on both engines)."""

import pytest


@pytest.mark.benchmark(group="legal island cells")
def test_legal_island_cells(benchmark, island_cell_state):
    legal = benchmark(island_cell_state.legal_actions)
    assert len(legal) >= 2 and all(20 <= a < 340 for a in legal)  # TILE ids, B6.2


@pytest.mark.benchmark(group="threat mask")
def test_threat_mask(benchmark, round6_buy_state):
    player = round6_buy_state.current_player()
    mask = benchmark(round6_buy_state.threatened_mask, player)
    assert mask.shape == (5, 64) and mask.any()  # B7.0, ships on the board


@pytest.mark.benchmark(group="large scoring")
def test_large_scoring(benchmark, round6_buy_state):
    gains = benchmark(round6_buy_state.large_scoring_gains)
    assert len(gains) == 2 and any(fame or gold for fame, gold in gains)  # B7.2 steps 2-6


@pytest.mark.benchmark(group="clone")
def test_clone(benchmark, round6_buy_state):
    copy = benchmark(round6_buy_state.clone)
    assert copy == round6_buy_state


@pytest.mark.benchmark(group="apply_action")
def test_apply_action(benchmark, engine, finished_game):
    """Replays a whole game from its history: every kind of action, checked and applied (the
    mean divided by `actions` is the cost of one apply_action)."""
    game, history = finished_game.get_game(), finished_game.history()
    benchmark.extra_info["actions"] = len(history)

    def replay():
        state = game.new_initial_state()
        for action in history:
            state.apply_action(action)
        return state

    assert benchmark(replay) == finished_game
