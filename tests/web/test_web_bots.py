"""The bots of the web page (web/bots.py, docs/web.md): every built-in bot's name alone plays at
its registry default budget (`az` is `az:time=0.1`), on the real server on 127.0.0.1, and the
setup's choices list each bot with its line and its default."""

import json

import pytest

from vikinger_fast.bot_registry import BOTS
from web_server import Server

pytest.importorskip("starlette", reason="the web extra: pip install '.[web]'")
pytest.importorskip("uvicorn", reason="the web extra: pip install '.[web]'")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    running = Server(tmp_path_factory.mktemp("games"))
    yield running
    running.stop()


def test_the_choices_are_the_registry(server):
    status, choices = server.request("GET", "/api/bots")
    assert status == 200 and choices["bots"] == list(BOTS)
    assert choices["descriptions"] == {name: e.description for name, e in BOTS.items()}
    assert choices["defaults"] == {
        "random": "random",
        "greedy": "greedy",
        "mcts": "mcts:time=0.1",
        "puct": "puct:time=0.1",
        "az": "az:time=0.1",
        "azpolicy": "azpolicy",
    }


def test_a_name_alone_plays_at_its_default_budget(server):
    body = {"bots": ["az", "mcts", "puct"], "players": 4, "seat": 3, "seed": 2}
    status, view = server.request("POST", "/api/games", body)
    assert status == 201, view
    view = server.wait_for_turn(view["id"])
    assert view["error"] is None and view["your_turn"]
    moved = {e["player"] for e in view["log"] if e["kind"] == "move"}
    assert {0, 1, 2} <= moved
    status, text = server.request("GET", f"/api/games/{view['id']}/record")
    record = text if isinstance(text, dict) else json.loads(text)
    assert record["players"][:3] == [
        {"name": name, "params": {"time": 0.1}} for name in body["bots"]
    ]


@pytest.mark.parametrize(
    "spec, words",
    [
        # the spec's own words: its name and `time`, never PuctBot or max_time
        ("az:time=0", "bot spec 'az:time=0': time must be > 0, not 0"),
        ("mcts:time=1e-400", "bot spec 'mcts:time=1e-400': time must be > 0"),
    ],
)
def test_a_bad_budget_is_refused_in_the_specs_words(server, spec, words):
    status, answer = server.request("POST", "/api/games", {"bots": [spec]})
    assert status == 400 and words in answer["error"]
    assert "Bot" not in answer["error"] and "max_time" not in answer["error"]
