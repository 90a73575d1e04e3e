"""The SVG picture (vikinger_ref/svg.py): valid XML, and what it marks (tiles, Vikings, ships,
threats, wheel groups, numbers) equals the state, on both engines, over random positions."""

import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter

import pytest

from conftest import load_engine
from positions import FLAGS
from tools.random_games import random_game_states
from vikinger_ref import svg
from vikinger_ref.components import COLOURS
from vikinger_ref.svg_pieces import CELL

CONFIGS = [
    (2, ()),
    (3, ("special_tiles",)),
    (4, FLAGS),
    (2, ("auction", "draw13")),
    (3, ("offer_by_colour", "weak_boatsmen")),
]
NS = "{http://www.w3.org/2000/svg}"


def sampled_states(engine, n, flags, seed, every=23):
    """Positions of one seeded random game: every `every`-th step and the end."""
    return random_game_states(engine, n, flags, seed, every=every)


def marks(root, cls):
    return [node for node in root.iter() if node.get("class") == cls]


def board_of(root, p):
    return next(node for node in marks(root, "board") if node.get("data-player") == str(p))


def cells(nodes):
    return {(int(node.get("data-row")), int(node.get("data-col"))) for node in nodes}


def check_picture(state):
    d = state.to_dict()
    text = svg.state_svg(state)
    root = ET.fromstring(text)  # valid XML, or this raises
    assert root.tag == NS + "svg"
    header = {cls: marks(root, cls)[0].get("data-value") for cls in ("round", "phase")}
    assert header == {"round": str(d["round"]), "phase": d["phase"]}
    to_move = state.current_player()
    movers = [node for p in range(d["num_players"]) for node in marks(board_of(root, p), "to-move")]
    assert len(movers) == (1 if to_move >= 0 else 0)
    for p, player in enumerate(d["players"]):
        board = board_of(root, p)
        tiles = marks(board, "tile")
        expected_tiles = {
            (r, c): short
            for r, row in enumerate(player["rows"], start=1)
            for c, short in enumerate(row, start=1)
            if short != "."
        }
        assert {
            (int(t.get("data-row")), int(t.get("data-col"))): t.get("data-kind") for t in tiles
        } == expected_tiles
        assert len(tiles) == len(expected_tiles)
        vikings = marks(board, "viking")
        assert cells(vikings) == {
            (r, c) for r, cols in enumerate(player["vikings"], start=1) for c in cols
        }
        assert len(vikings) == sum(map(len, player["vikings"]))
        mask = state.threatened_mask(p)
        for node in vikings:
            row, col = int(node.get("data-row")), int(node.get("data-col"))
            assert node.get("data-threatened") == str(int(mask[row - 1, col - 1]))
            assert node.get("data-colour") == COLOURS[5 - row]
        assert cells(marks(board, "threat")) == {(r + 1, c + 1) for r, c in zip(*mask.nonzero())}
        waiting = Counter(node.get("data-colour") for node in marks(board, "mainland-viking"))
        assert waiting == Counter({c: k for c, k in player["mainland"].items() if k})
        ships = marks(board, "ship")
        assert [(int(s.get("data-col")), s.get("data-sail")) for s in ships] == [
            (c, sail) for c, sail in enumerate(player["ships"], start=1) if sail != "."
        ]
        warriors = set(player["vikings"][0])
        for ship in ships:
            repelled = int(ship.get("data-col")) in warriors
            assert ship.get("data-repelled") == str(int(repelled))
        assert len(marks(board, "repelled")) == sum(s.get("data-repelled") == "1" for s in ships)
        assert marks(board, "gold")[0].get("data-value") == str(player["gold"])
        assert marks(board, "fame")[0].get("data-value") == str(player["fame"])
        held = {
            node.get("data-kind"): int(node.get("data-count"))
            for node in marks(board, "held-special")
        }
        assert held == (
            {k: v for k, v in player["specials"].items() if v}
            if d["options"]["special_tiles"]
            else {}
        )
        placed = {int(b.get("data-building")) for b in marks(board, "building")}
        assert placed == {b + 1 for b, cell in enumerate(player["buildings"]) if cell}
    occupied = [s for s, group in enumerate(d["wheel"]) if group]
    groups = marks(root, "group")
    assert [
        (int(g.get("data-space")), int(g.get("data-price")), g.get("data-tile")) for g in groups
    ] == [(s, s - occupied[0], d["wheel"][s]["tile"]) for s in occupied]
    placed_kinds = ("tile", "target", "building", "start", "ship", "buy")
    legal = [state.action_to_string(a) for a in state.legal_actions()] if to_move >= 0 else []
    drawn = [node.get("data-action") for node in marks(root, "legal") + marks(root, "legal-buy")]
    assert sorted(drawn) == sorted(a for a in legal if a.split(":")[0] in placed_kinds)
    for node in marks(root, "legal"):
        row, col = int(node.get("data-row")), int(node.get("data-col"))
        assert node.get("data-action") in (
            f"tile:r{row}c{col}",
            f"target:r{row}c{col}",
            f"building:r{row}c{col}",
            f"start:r{row}",
            f"ship:c{col}",
        )
        assert node in list(board_of(root, to_move).iter())
    vikings = sorted(node.get("data-action") for node in marks(root, "legal-viking"))
    assert vikings == sorted(a for a in legal if a.startswith("viking:"))
    for node in marks(root, "legal-buy"):
        assert node.get("data-action") == f"buy:{node.get('data-space')}"
    offer = [int(node.get("data-space")) for node in marks(root, "special-offer")]
    assert len(offer) <= (1 if d["phase"] == "buy" else 0)
    if d["phase"] == "buy" and occupied[-1] in state.legal_actions():  # BUY s has id s
        bought = state.clone()
        bought.apply_action(occupied[-1])
        # A5: the marked group is the one whose purchase offers a special tile.
        assert (bought.to_dict()["phase"] == "take_special") == (offer == [occupied[-1]])
    winners = [p for p in range(d["num_players"]) if marks(board_of(root, p), "winner")]
    assert winners == (
        [p for p, r in enumerate(state.returns()) if r > 0] if state.is_terminal() else []
    )
    shown = [node.get("data-kind") for node in marks(root, "special")]
    assert shown == ([k for k in d["display"] if k] if d["options"]["special_tiles"] else [])
    stacks = {node.get("data-kind"): int(node.text) for node in marks(root, "stack")}
    assert stacks == d["stacks"]
    return text


@pytest.mark.parametrize("n, flags", CONFIGS)
def test_the_picture_marks_what_the_state_holds(engine, n, flags):
    seen = 0
    for state in sampled_states(engine, n, flags, seed=n * 10 + len(flags)):
        check_picture(state)
        seen += 1
    assert seen > 8


def test_both_engines_draw_the_same_picture():
    ref, fast = load_engine("ref"), load_engine("fast")
    for state in sampled_states(fast, 3, FLAGS, seed=5, every=37):
        twin = ref.Game(num_players=3, **dict.fromkeys(FLAGS, True)).deserialize_state(
            state.serialize()
        )
        assert twin._repr_svg_() == state._repr_svg_() == svg.state_svg(state)


def test_the_fast_engine_loads_the_drawing_only_when_asked():
    load_engine("fast")
    code = (
        "import sys, vikinger_fast as vk; assert 'vikinger_ref' not in sys.modules; "
        "svg = vk.Game().new_initial_state()._repr_svg_(); "
        "assert svg.startswith('<svg') and 'vikinger_ref.svg' in sys.modules; "
        "from vikinger_fast import pictures; from vikinger_ref import svg as drawing; "
        "assert pictures.state_svg is drawing.state_svg"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_every_kind_of_placed_decision_is_outlined(engine):
    """Over a game, every decision that acts on a place has been seen outlined."""
    seen = set()
    for state in sampled_states(engine, 2, ("special_tiles",), seed=1, every=1):
        root = ET.fromstring(svg.state_svg(state))
        seen |= {
            node.get("data-action").split(":")[0]
            for node in marks(root, "legal") + marks(root, "legal-buy")
        }
    assert seen >= {"tile", "target", "start", "ship", "buy"}
    plain = ET.fromstring(svg.state_svg(state, show_legal=False))
    assert not marks(plain, "legal") and not marks(plain, "legal-buy")


def test_a_picture_keeps_its_size_with_min_columns(engine):
    state = engine.Game(num_players=2).new_initial_state()
    narrow = ET.fromstring(svg.state_svg(state, min_columns=8))
    wide = ET.fromstring(svg.state_svg(state, min_columns=14))
    assert int(wide.get("width")) - int(narrow.get("width")) == 6 * CELL


def test_fields_it_does_not_know_are_left_out_and_what_it_knows_is_drawn(engine):
    """Other versions of the dict may carry more (e.g. Vikings set beside the wheel before the
    tiles, A0): the picture draws the fields it knows and passes over the rest."""
    state = next(
        s for s in sampled_states(engine, 2, (), seed=3, every=1) if s.to_dict()["phase"] == "buy"
    )
    d = state.to_dict()
    d["offer_vikings"] = {"fisherman": 2}
    d["players"][1]["notes"] = "anything"
    space = next(s for s, group in enumerate(d["wheel"]) if group)
    d["wheel"][space] = {"tile": None, "viking": "scout"}
    root = ET.fromstring(svg.board_svg(d, to_move=0))
    group = next(g for g in marks(root, "group") if g.get("data-space") == str(space))
    assert group.get("data-tile") == "" and group.get("data-viking") == "scout"
    assert len(marks(root, "group")) == sum(1 for g in d["wheel"] if g)
    assert len(marks(root, "to-move")) == 1


def test_write_svg_writes_the_picture(engine, tmp_path):
    state = sampled_states(engine, 2, (), seed=1, every=1)[0]
    path = tmp_path / "board.svg"
    svg.write_svg(state, path)
    assert path.read_text() == svg.state_svg(state)
