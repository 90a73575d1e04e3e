"""The words of explain.py (shared by `vikinger serve` and `vikinger play`): every legal decision
is described, every refused well-formed decision gets the rule that forbids it, on both
engines, in positions of seeded random games with every module."""

import random
import re

import pytest

from vikinger_fast import explain

RULE = re.compile(r"\((B\d|A\d|docs/actions\.md)")
FLAGS = ("auction", "draw13", "offer_by_colour", "weak_boatsmen", "special_tiles")


def positions(engine, n, flags, seed, every=7):
    state = engine.Game(num_players=n, **dict.fromkeys(flags, True)).new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_random_chance(rng.getrandbits(64))
            continue
        if rng.randrange(every) == 0:
            yield state
        state.apply_action(rng.choice(state.legal_actions()))
    yield state


@pytest.mark.parametrize("n, flags, seed", [(2, (), 1), (3, FLAGS, 2), (4, ("weak_boatsmen",), 3)])
def test_every_decision_is_described_and_every_refusal_cites_a_rule(engine, n, flags, seed):
    rng = random.Random(seed)
    kinds = set()
    for state in positions(engine, n, flags, seed):
        assert explain.situation(state, 0).startswith(("Round", "Game over"))
        for choice in explain.legal_choices(state):
            assert RULE.search(choice["explain"]), choice
            assert choice["string"] not in choice["explain"] or choice["kind"] == "auction"
        legal = set(state.legal_actions())
        # every kind of decision: buys, cells, trips, targets, bids, colours, specials
        candidates = (
            list(range(0, 20))
            + rng.sample(range(20, 340), 6)
            + list(range(340, 354))
            + rng.sample(range(354, 674), 6)
            + [674]
            + rng.sample(range(675, 1699), 3)
            + list(range(1699, 1716))
            + rng.sample(range(1716, 2036), 3)
        )
        for action in [a for a in candidates if a not in legal]:
            text = state.action_to_string(action)
            reason = explain.why_illegal(state, text)
            kinds.add(text.partition(":")[0])
            assert RULE.search(reason) or reason == "the game is over (B8.9)", (text, reason)
    assert {"buy", "tile", "trip"} <= kinds


def test_the_reasons_name_the_rule(engine):
    """Hand-picked refusals: the 0-space rule, a cell away from the island, mismatched edges."""
    for state in positions(engine, 2, (), 5, every=1):
        d = state.to_dict()
        legal = (
            {state.action_to_string(a) for a in state.legal_actions()}
            if not state.is_chance_node()
            else set()
        )
        if d["phase"] == "buy":
            occupied = [s for s, g in enumerate(d["wheel"]) if g]
            if f"buy:{occupied[0]}" not in legal:
                assert "(B5.2)" in explain.why_illegal(state, f"buy:{occupied[0]}")
                break
    else:
        pytest.fail("no position refused the price-0 group")
    for state in positions(engine, 2, (), 6, every=1):
        d = state.to_dict()
        if d["phase"] != "island_cell":
            continue
        player = d["players"][state.current_player()]
        far = f"tile:r{1 + (player['start_row'] + 1) % 5}c7"
        if any(len(row) >= 6 for row in player["rows"]):
            continue
        assert "(B6.2a)" in explain.why_illegal(state, far)
        if d["pending"]["tile"] != "left":
            start = f"tile:r{player['start_row']}c1"
            assert "already holds a tile" in explain.why_illegal(state, start)
        break
    else:
        pytest.fail("no tile to place")
