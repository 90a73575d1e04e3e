"""Board questions of docs/api.md: `threatened_mask` (B7.0) and `large_scoring_gains` (B7.2
steps 2-6), on constructed positions, equal in both engines and equal to the real scoring."""

import random

import numpy as np
import pytest

from positions import build_state, group, player, scoring_table
from test_rulebook_examples import NESSI

OFFER = {3: group("L", "F"), 11: group("r", "B")}


def position(engine, first, second=None):
    """`first` in seat 0, to buy one of two groups in round 1."""
    return build_state(engine, [first, second or player(rows={2: "L"})], round=1, wheel=OFFER)


def expected_mask(threatened):
    """{column: deepest threatened row} as the (5, 64) mask of docs/api.md."""
    mask = np.zeros((5, 64), dtype=bool)
    for col, reach in threatened.items():
        mask[:reach, col - 1] = True
    return mask


@pytest.mark.parametrize(
    "ships, row1, threatened",
    [
        ("", "L", {}),  # no ship, no threat
        ("rgyb", "L", {1: 2, 2: 3, 3: 4, 4: 5}),  # B1.3 each sail reaches its row
        ("byy", "L*", {2: 4, 3: 4}),  # warrior r1c1 repels the blue ship
        ("byy", "L*1R*", {2: 4}),  # warriors r1c1, r1c3
        (".g", "L1", {2: 3}),  # a tile without a warrior repels nothing
    ],
)
def test_b7_0_threatened_mask(engine, ships, row1, threatened):
    state = position(engine, player(ships=ships, mainland="W2", rows={1: row1}))
    mask = state.threatened_mask(0)
    assert mask.dtype == np.bool_ and mask.shape == (5, 64)
    assert np.array_equal(mask, expected_mask(threatened))
    assert not state.threatened_mask(1).any()  # the other player has no ship


def test_threatened_mask_is_per_player_and_numpy_ints_are_players(engine):
    state = position(engine, player(rows={1: "L"}), player(ships="b", rows={2: "L"}))
    assert not state.threatened_mask(np.int64(0)).any()
    assert np.array_equal(state.threatened_mask(1), expected_mask({1: 5}))


@pytest.mark.parametrize(
    "bad, error",
    [
        (2, ValueError),
        (-1, ValueError),
        (1.0, TypeError),
        (True, TypeError),
        ("0", TypeError),
        (None, TypeError),
    ],
)
def test_threatened_mask_argument_errors(engine, bad, error):
    state = position(engine, player(rows={1: "L"}))
    with pytest.raises(error):
        state.threatened_mask(bad)


def test_b9_1_large_scoring_gains_of_nessi(engine):
    """The rulebook's large scoring: +16 Fame, +15 gold (see test_rulebook_examples.py)."""
    table = scoring_table(engine, 4, [NESSI])
    assert table.state.large_scoring_gains()[table.seats[0]] == (3 + 4 + 4 + 3 + 2, 3 + 12)


@pytest.mark.parametrize(
    "spec",
    [
        NESSI,
        player(ships="rgyb", rows={1: "L*1*2*R*", 2: "L*1*", 3: "L*1*", 4: "L*1*2*"}),
        player(ships="bb", rows={1: "L", 3: "L*1*R*", 4: "L*.1*", 5: "L*"}),
        player(rows={5: "L*1*2*"}),
    ],
)
def test_large_scoring_gains_are_what_the_large_scoring_pays(engine, spec):
    """Without trips the gains are exactly the changes of the round-4 large scoring, and asking
    changes nothing."""
    table = scoring_table(engine, 4, [spec])
    before = table.state.to_dict()
    gains = table.state.large_scoring_gains()
    assert table.state.to_dict() == before
    fame, gold = table.fame(), table.gold()
    table.finish()
    seat = table.seats[0]
    assert gains[seat] == (table.fame()[0] - fame[0], table.gold()[0] - gold[0])
    assert all(isinstance(x, int) for pair in gains for x in pair)


def test_board_questions_agree_between_engines_in_random_games(engines):
    """Both engines answer the same along a seeded random game (2 and 4 players)."""
    for num_players in (2, 4):
        states = [vk.Game(num_players=num_players).new_initial_state() for vk in engines]
        rng = random.Random(num_players)
        while not states[0].is_terminal():
            masks = [[s.threatened_mask(p) for p in range(num_players)] for s in states]
            assert all(np.array_equal(a, b) for a, b in zip(*masks))
            assert states[0].large_scoring_gains() == states[1].large_scoring_gains()
            if states[0].is_chance_node():
                seed = rng.getrandbits(64)
                for s in states:
                    s.apply_random_chance(seed)
            else:
                action = rng.choice(states[0].legal_actions())
                for s in states:
                    s.apply_action(action)
