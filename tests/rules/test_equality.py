"""same_position (vikinger_ref/equality.py, csrc/rules/equality.h): two states are the same
position exactly when their bytes (docs/state.md) are equal, whatever their histories. The C++
SamePosition is seen through PuctSearch.advance (tests/search/test_puct_search.py)."""

import numpy as np
import vikinger_ref as ref
from vikinger_ref.equality import same_position
from vikinger_ref.serialization import _position_bytes


def _positions():
    out = []
    for players, options in ((2, {}), (3, {"auction": True, "special_tiles": True})):
        state = ref.Game(num_players=players, **options).new_initial_state()
        rng = np.random.default_rng(players)
        while not state.is_terminal() and len(out) < 40 * (players - 1):
            if state.is_chance_node():
                state.apply_random_chance(rng)
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.integers(len(legal)))])
            out.append(state.clone())
    return out


def test_same_position_is_equal_bytes():
    positions = _positions()
    equal = 0
    for a in positions[::3]:
        copy = a.get_game().deserialize_state(a.serialize())
        assert same_position(a, copy) and same_position(a, a.clone())
        for b in positions:
            same = same_position(a, b)
            assert same == (_position_bytes(a) == _position_bytes(b))
            equal += same
    assert equal < len(positions[::3]) * 3  # not everything is equal
