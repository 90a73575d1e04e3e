"""Final edges in the PUCT search (docs/neural.md "Final edges"): an action that ends the game
is tried once whatever its prior, then taken or left by its exact value, in both engines."""

import pytest

from vikinger_fast.benchmarks import endgame

# The loop file's two-player critical position 41 (a trip of the last scorer), then two trip
# moves: two final actions are left, 482 loses by 1 Fame and 487 wins by 2, and the shipped
# network's prior puts 0.988 on the loss.
LOOP_INDEX, PLAYED, LOSS, WIN = 41, (485, 615), 482, 487


def _critical(engine):
    data = endgame.load_positions(endgame.DATA.parent / "endgame-loop-v1.json.gz")
    critical = [p for p in endgame.by_players(data, 2, None) if endgame.critical(p["margins"])]
    return endgame.state_of(engine, critical[LOOP_INDEX])


def _position(engine):
    state = _critical(engine)
    for action in PLAYED:
        state.apply_action(action)
    return state


def test_the_position_is_what_the_test_says(engine):
    state = _position(engine)
    assert sorted(state.legal_actions()) == [LOSS, WIN]
    results = {}
    for action in (LOSS, WIN):
        child = state.clone()
        child.apply_action(action)
        assert child.is_terminal()
        results[action] = child.returns()[state.current_player()]
    assert results == {LOSS: 0.0, WIN: 1.0}


@pytest.mark.parametrize("simulations", [3, 8, 50])
def test_a_low_prior_win_is_found_in_both_engines(engines, simulations):
    found = []
    for engine in engines:
        state = _position(engine)
        bot = engine.AZBot(state.get_game(), 3, simulations=simulations, solver_nodes=0)
        result = bot.search(state)
        visits = dict(zip(result["actions"], result["visits"]))
        # Both final actions once, then every visit on the win's exact value.
        assert visits == {LOSS: 1, WIN: simulations - 1}
        assert result["priors"][result["actions"].index(LOSS)] > 0.9
        assert bot.step(state) == WIN
        found.append(result)
    assert found[0] == found[1]


def test_one_level_up_the_winning_branch_is_chosen(engine):
    """The trip move before: one branch keeps the win below it, the other has only losses (the
    prior 0.754 on the losing one; at 24 simulations the winning branch has the most visits,
    at 16 not yet: the losing branch's exploration still leads)."""
    state = _critical(engine)
    state.apply_action(PLAYED[0])
    bot = engine.AZBot(state.get_game(), 3, simulations=24, solver_nodes=0)
    assert bot.step(state) == PLAYED[1]
