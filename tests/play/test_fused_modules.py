"""The fused playout (csrc/play/playout.cc, csrc/play/playout_modules.h) with the advanced
modules A1-A5:
for every one of the 96 configurations (2, 3 and 4 players, each of the 32 module sets) it must
play exactly the games of the state machine, whichever way it finds the k-th legal action, and
take over from the state machine at any node it may enter (csrc/play/playout.h
`FusedPlayoutCanEnter`) without changing the game: the final positions are compared byte for
byte. The reference plays the same games (tests/play/test_rollouts.py for a sample of the
configurations; here for one game of each)."""

import random

import numpy as np
import pytest

from conftest import load_engine

MODULES = ("auction", "draw13", "offer_by_colour", "weak_boatsmen", "special_tiles")
CONFIGURATIONS = [(n, bits) for n in (2, 3, 4) for bits in range(1 << len(MODULES))]


def flags_of(bits):
    return {name: bool(bits >> i & 1) for i, name in enumerate(MODULES)}


def label(configuration):
    num_players, bits = configuration
    return f"{num_players}p-" + (
        "+".join(m for i, m in enumerate(MODULES) if bits >> i & 1) or "base"
    )


@pytest.fixture(scope="module")
def core():
    load_engine("fast")
    from vikinger_fast import _core

    return _core


@pytest.mark.parametrize(
    "num_players, bits", CONFIGURATIONS, ids=[label(c) for c in CONFIGURATIONS]
)
def test_fused_rollouts_end_where_the_state_machine_ends(core, num_players, bits):
    game = core.Game(num_players=num_players, **flags_of(bits))
    for seed in range(40):
        generic = core._rollout_position(game, seed, "random_generic")
        for bit_select in core._bit_select()["available"]:
            assert core._rollout_position(game, seed, "random", bit_select) == generic, (
                seed,
                bit_select,
            )
    fused = core.rollouts(game, 300, 10**6, policy="random")
    generic = core.rollouts(game, 300, 10**6, policy="random_generic")
    for key in fused:
        np.testing.assert_array_equal(fused[key], generic[key], err_msg=key)


@pytest.mark.parametrize(
    "num_players, bits", CONFIGURATIONS, ids=[label(c) for c in CONFIGURATIONS]
)
def test_fused_hand_over_at_every_node(core, num_players, bits):
    """Playouts from every node of a random game: the generic loop hands over to the fused
    playout at the first node it may enter (the round's preparation with modules: the display,
    the draws, the auction, the removal, the offer; any step of a purchase), and must end where
    the generic loop alone ends."""
    state = core.Game(num_players=num_players, **flags_of(bits)).new_initial_state()
    rng = random.Random(num_players * 100 + bits)
    step = 0
    while not state.is_terminal():
        assert core._playout_position(state, step, fused=True) == core._playout_position(
            state, step, fused=False
        ), (step, state.history())
        if state.is_chance_node():
            state.apply_random_chance(rng.getrandbits(64))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        step += 1


@pytest.mark.parametrize("bits", [0b11111, 0b00101, 0b11010])
def test_fused_module_rollouts_are_the_reference_games(engines, bits):
    ref, fast = engines
    for num_players in (2, 4):
        expected = ref.rollouts(ref.Game(num_players, **flags_of(bits)), 1, 7 + bits)
        got = fast.rollouts(fast.Game(num_players, **flags_of(bits)), 1, 7 + bits)
        for key in expected:
            np.testing.assert_array_equal(got[key], expected[key], err_msg=key)
