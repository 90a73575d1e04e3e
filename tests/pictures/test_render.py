"""`vikinger render` (render.py): a position given as a record step, a to_dict() JSON file,
serialize() bytes or base64 text, drawn as SVG, or as PNG through the optional cairosvg."""

import base64
import json
import random
import sys

import pytest

from conftest import load_engine
from vikinger_fast import cli, records
from vikinger_fast.pictures import render
from vikinger_ref import svg


@pytest.fixture(scope="module")
def state():
    fast = load_engine("fast")
    state = fast.Game(num_players=3, special_tiles=True, auction=True).new_initial_state()
    rng = random.Random(8)
    while len(state.history()) < 150:
        if state.is_chance_node():
            state.apply_random_chance(rng.getrandbits(64))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("form", ["json", "bytes", "base64"])
@pytest.mark.parametrize("which", ["ref", "fast"])
def test_every_form_of_a_state_renders_its_picture(state, tmp_path, capsys, form, which):
    path = tmp_path / "position"
    if form == "json":
        path.write_text(json.dumps(state.to_dict()))
    elif form == "bytes":
        path.write_bytes(state.serialize())
    else:
        path.write_text(base64.b64encode(state.serialize()).decode() + "\n")
    out = tmp_path / "board.svg"
    assert cli.main(["render", str(path), "-o", str(out), "--engine", which]) == 0
    assert out.read_text() == svg.state_svg(state)
    assert render.read_position(path, load_engine(which)).to_dict() == state.to_dict()
    assert "wrote" in capsys.readouterr().out


def test_a_record_step_renders_that_step(state, tmp_path, capsys):
    path = tmp_path / "game.json"
    records.save(path, state)
    assert cli.main(["render", str(path), "--step", "40", "-o", "-"]) == 0
    expected = records.replay(records.load(path), load_engine("ref"), step=40)
    assert capsys.readouterr().out == svg.state_svg(expected) + "\n"


def test_bad_inputs_give_a_message_and_exit_2(state, tmp_path, capsys):
    path = tmp_path / "position.json"
    path.write_text(json.dumps(state.to_dict()))
    assert cli.main(["render", str(path), "--step", "3", "-o", "-"]) == 2
    assert "--step needs a game record" in capsys.readouterr().err
    path.write_text("not a position at all")
    assert cli.main(["render", str(path), "-o", "-"]) == 2
    assert "neither state bytes, base64 nor JSON" in capsys.readouterr().err
    broken = state.to_dict()
    broken["round"] = 9
    path.write_text(json.dumps(broken))
    assert cli.main(["render", str(path), "-o", "-"]) == 2
    assert "round" in capsys.readouterr().err
    path.write_bytes(state.serialize()[:-3])
    assert cli.main(["render", str(path), "-o", "-"]) == 2
    assert capsys.readouterr().err.startswith("vikinger render: ")


def test_png_without_the_converter_says_how_to_get_it(state, tmp_path, capsys, monkeypatch):
    path = tmp_path / "position"
    path.write_bytes(state.serialize())
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # import fails as if not installed
    assert cli.main(["render", str(path), "-o", str(tmp_path / "board.png")]) == 3
    err = capsys.readouterr().err
    assert 'pip install "vikinger-fast[png]"' in err and 'pip install ".[png]"' in err
    assert not (tmp_path / "board.png").exists()


def test_png_through_the_converter(state, tmp_path):
    pytest.importorskip("cairosvg", reason="the png extra is not installed")
    path = tmp_path / "position"
    path.write_bytes(state.serialize())
    out = tmp_path / "board.png"
    assert cli.main(["render", str(path), "-o", str(out), "--scale", "0.5"]) == 0
    data = out.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    width = int.from_bytes(data[16:20], "big")
    full = int(svg.ET.fromstring(svg.state_svg(state)).get("width"))
    assert width == full // 2
