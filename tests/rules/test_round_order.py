"""A0: the order of a round with the auction (A1) or the draw of 13 (A2), docs/rules.md.

(1) A5 fills the display; (2) the round's Vikings are drawn (13 with A2) and wait beside the
wheel, visible to all; (3) A1 auction; (4) A2 the start player removes one; (5) the 12 tiles are
revealed; (6) the Vikings go onto the wheel (A3 by colour, else sorted, B4.2). Without A1 and A2
the base order stands: tiles (B4.1), then Vikings (B4.2). Phases, dict and observation fields
are those of docs/actions.md, docs/advanced.md and docs/state.md.
"""

import itertools
import random

import numpy as np
import pytest

from positions import COLOURS, DRAW, FLAGS, PHASES, REVEAL, build_state, player
from tools.random_games import step_random

ALL_OPTIONS = [dict(zip(FLAGS, bits)) for bits in itertools.product((False, True), repeat=5)]
DRAWN = 263  # docs/state.md: the observation's drawn counts (6)
STACKS = 247  # stacks counts (10)
WHEEL = 31  # 12 wheel entries of 18
PHASE = 6  # phase one-hot (16)


def collapse(phases):
    """Runs of one phase as one entry: [a, a, b] -> [a, b]."""
    return [phase for phase, _ in itertools.groupby(phases)]


PURCHASE_PHASES = (
    "buy",
    "start_row",
    "ship_column",
    "island_cell",
    "viking",
    "take_special",
    "building_replace",
)


def round_start_phases(state, rng):
    """The phases a round passes through up to its first purchase, from `state` on (a purchase
    can start with a forced BUY when the auction took a player's last gold and Fame)."""
    seen = []
    while state.to_dict()["phase"] not in PURCHASE_PHASES:
        seen.append(state.to_dict()["phase"])
        step_random(state, rng)
    return seen


def expected_order(options):
    """The phase order of docs/advanced.md for a round whose display needs filling."""
    order = ["special_fill"] if options["special_tiles"] else []
    if options["auction"] or options["draw13"]:  # A0
        order += ["draw_viking"] + (["auction"] if options["auction"] else [])
        order += (["remove_viking"] if options["draw13"] else []) + ["reveal_tile"]
    else:  # B4.1 then B4.2
        order += ["reveal_tile", "draw_viking"]
    return order + (["offer_colour"] if options["offer_by_colour"] else [])


@pytest.mark.parametrize(
    "options", ALL_OPTIONS, ids=["-".join(f for f in FLAGS if o[f]) or "base" for o in ALL_OPTIONS]
)
def test_a0_phase_order_of_the_first_round_in_every_configuration(engine, options):
    """All 32 module combinations: the phases of round 1 before the first purchase come in the
    order of A0 (or B4 without A1 and A2). A3's offer can be a single forced decision, which is
    applied at once; the sequence then skips it."""
    state = engine.Game(num_players=3, **options).new_initial_state()
    seen = collapse(round_start_phases(state, random.Random(7)))
    wanted = expected_order(options)
    if "offer_colour" in wanted and "offer_colour" not in seen:
        wanted.remove("offer_colour")
    assert seen == wanted


@pytest.mark.parametrize(
    "options",
    [{"auction": True}, {"draw13": True}, {"auction": True, "draw13": True, "special_tiles": True}],
)
def test_a0_the_order_holds_in_later_rounds_too(engine, options):
    """A0 every round: each of rounds 2..6 starts with its Vikings, never with a tile."""
    state = engine.Game(num_players=2, **options).new_initial_state()
    rng = random.Random(3)
    starts = []
    last_round = 0
    while not state.is_terminal():
        d = state.to_dict()
        if d["round"] != last_round and d["phase"] not in ("trip", "trip_target", "special_fill"):
            starts.append(d["phase"])
            last_round = d["round"]
        step_random(state, rng)
    assert starts == ["draw_viking"] * 6


def drawn_vector(state):
    return [state.to_dict()["drawn"][c] for c in COLOURS]


def test_a0_bidders_see_the_vikings_and_no_tile(engine):
    """A0 (2)-(3): at the auction the 12 drawn Vikings are in `drawn` (dict, bytes, observation
    of every player) and the text; the wheel is empty and all 72 tiles are still in the stacks."""
    game = engine.Game(num_players=3, auction=True)
    state = game.new_initial_state()
    for colour in ["fisherman"] * 3 + ["scout"] * 4 + ["warrior"] * 2 + ["boatsman"] * 3:
        state.apply_action(DRAW(colour))
    d = state.to_dict()
    assert d["phase"] == "auction"
    assert drawn_vector(state) == [3, 0, 4, 0, 2, 3]
    assert all(entry is None for entry in d["wheel"]) and sum(d["stacks"].values()) == 72
    for p in range(3):
        obs = state.observation_tensor(p)
        assert obs[DRAWN : DRAWN + 6].tolist() == [3, 0, 4, 0, 2, 3]
        assert obs[STACKS : STACKS + 10].sum() == 72 and not obs[WHEEL : WHEEL + 12 * 18].any()
        assert obs[PHASE + PHASES.index("auction")] == 1
    again = game.deserialize_state(state.serialize())
    assert again == state and drawn_vector(again) == [3, 0, 4, 0, 2, 3]
    assert "drawn: F=3 G=0 S=4 N=0 W=2 B=3" in str(state)


def test_a0_the_auction_winner_removes_before_any_tile_is_revealed(engine):
    """A0 (3)-(5) with A1 and A2: p1 outbids the start player p0 and so removes one of the 13
    Vikings (A2: the start player, now p1); the wheel is still empty then; the tiles follow, and
    after the 12th tile the 12 Vikings are laid out sorted (B4.2)."""
    state = engine.Game(num_players=2, auction=True, draw13=True).new_initial_state()
    for colour in ["goldsmith"] * 5 + ["noble"] * 4 + ["boatsman"] * 4:
        state.apply_action(DRAW(colour))
    assert state.to_dict()["phase"] == "auction" and state.current_player() == 0
    state.apply_action(675 + 1)  # p0 opens with 1
    state.apply_action(675 + 2)  # p1 raises to 2
    state.apply_action(674)  # p0 passes: p1 wins, pays 2, starts
    d = state.to_dict()
    assert d["phase"] == "remove_viking" and d["start_player"] == 1
    assert state.current_player() == 1
    assert state.legal_actions() == [
        1699 + COLOURS.index(c) for c in ("goldsmith", "noble", "boatsman")
    ]
    assert all(entry is None for entry in d["wheel"]) and sum(d["stacks"].values()) == 72
    state.apply_action(1699 + COLOURS.index("boatsman"))
    d = state.to_dict()
    assert d["phase"] == "reveal_tile" and d["removed"]["boatsman"] == 1
    assert drawn_vector(state) == [0, 5, 0, 4, 0, 3]
    for s in range(12):
        assert state.to_dict()["phase"] == "reveal_tile"
        state.apply_action(REVEAL("left" if s < 6 else "right" if s < 10 else "ship_blue"))
    d = state.to_dict()
    assert d["phase"] == "buy" and state.current_player() == 1
    assert [w["viking"] for w in d["wheel"]] == ["goldsmith"] * 5 + ["noble"] * 4 + ["boatsman"] * 3
    assert [w["tile"] for w in d["wheel"]] == ["left"] * 6 + [None] * 0 + ["right"] * 4 + [
        "ship_blue"
    ] * 2
    assert drawn_vector(state) == [0] * 6


def test_a0_without_auction_and_draw13_the_tiles_come_first(engine):
    """B4.1 then B4.2 (A3 on, A1 and A2 off): the first node reveals a tile; the Vikings are
    drawn only once the 12 tiles lie on the wheel."""
    state = engine.Game(num_players=2, offer_by_colour=True).new_initial_state()
    assert state.to_dict()["phase"] == "reveal_tile"
    for _ in range(12):
        state.apply_action(REVEAL("left"))
    d = state.to_dict()
    assert d["phase"] == "draw_viking" and all(w is not None for w in d["wheel"])


# --- reading positions back (docs/state.md consistency) ------------------------------------------

P = player(rows={1: "L"})


def auction_start(drawn):
    """The fields of an A1 auction before its first bid, with `drawn` on the table."""
    return dict(
        phase="auction",
        drawn=drawn,
        options={"auction": True},
        auction={"high": None, "leader": 0, "passed": [False, False], "turn": 0},
    )


@pytest.mark.parametrize(
    "fields",
    [
        auction_start("F2 G2 S2 N2 W2 B1"),
        dict(phase="remove_viking", drawn="F2 G2 S2 N2 W2 B2", options={"draw13": True}),
        dict(phase="reveal_tile", drawn="F2 G2 S2 N2 W2 B1", options={"draw13": True}),
        dict(phase="reveal_tile", drawn="", options={"auction": True}),
    ],
    ids=[
        "auction with 11 drawn",
        "removal with 12 of 13",
        "tiles after the removal of 2",
        "tiles before the Vikings under A1",
    ],
)
def test_a0_states_out_of_the_order_are_refused(engine, fields):
    """A0: `drawn` holds the round's 12 (13) Vikings from the auction to the removal, and 12 while
    the tiles are revealed; anything else is not a position of the game: ValueError."""
    with pytest.raises(ValueError):
        build_state(engine, [P, P], round=1, purchases=0, **fields)


def test_a0_positions_in_the_order_are_accepted_and_agree(engines):
    """The same A0 positions load on both engines, with equal dicts and observations."""
    ref, fast = engines
    cases = [
        auction_start("F2 G2 S2 N2 W2 B2"),
        dict(phase="draw_viking", drawn="F2 G2", options={"auction": True}),
        dict(phase="remove_viking", drawn="F2 G2 S2 N2 W3 B2", options={"draw13": True}),
        dict(
            phase="reveal_tile",
            drawn="F2 G2 S2 N2 W2 B2",
            options={"draw13": True},
            wheel={0: {"tile": "left", "viking": None}},
        ),
    ]
    for fields in cases:
        a = build_state(ref, [P, P], round=1, purchases=0, **fields)
        b = build_state(fast, [P, P], round=1, purchases=0, **fields)
        assert a.to_dict() == b.to_dict()
        assert np.array_equal(a.observation_tensor(0), b.observation_tensor(0))
        assert a.legal_actions() == b.legal_actions()


def test_format_version_1_is_refused_with_its_reason(engines):
    """docs/state.md: version 2 is the format since A0; version 1 bytes and dicts are refused by
    both engines with the same message, which names the reason."""
    messages = []
    for engine in engines:
        game = engine.Game(num_players=2, auction=True)
        data = game.new_initial_state().serialize()
        assert data[:5] == b"VKNG\x02"
        old = data[:4] + b"\x01" + data[5:]
        with pytest.raises(ValueError, match="A0") as from_bytes:
            game.deserialize_state(old)
        d = game.new_initial_state().to_dict()
        d["version"] = 1
        with pytest.raises(ValueError, match="A0") as from_dict:
            game.state_from_dict(d)
        messages.append((str(from_bytes.value), str(from_dict.value)))
    assert messages[0] == messages[1]
