"""The one registry of bots (src/vikinger_fast/bot_registry.py, docs/contributing.md "Adding a
bot"): every list of bots is built from it, a name alone plays at its default budget, and a bot
added by the documented two steps plays in the arena and on the web page."""

import dataclasses
import http.client
import json
import subprocess
import sys
import threading
import time

import pytest
import vikinger_ref

import vikinger_fast
from vikinger_fast import arena, bot_registry
from vikinger_fast.bot_registry import BOTS, BotEntry
from vikinger_fast.cli import main
from vikinger_fast.web.bots import Bots

# Step 2 of "Adding a bot" for the toy of tests/helpers/toy_bot.py (step 1).
TOY = BotEntry(
    "toy",
    "toy_bot:ToyBot",
    "toy_bot:FastToyBot",
    "a toy: the best-looking of the first legal actions",
    budget={"looks": 3},
    budget_keys=("looks",),
)


@pytest.fixture
def toy():
    entry = bot_registry.register(TOY)
    yield entry
    del BOTS[entry.name]


def test_the_package_exports_every_registered_bot():
    names = [entry.class_name for entry in BOTS.values()]
    assert names == ["RandomBot", "GreedyBot", "MCTSBot", "PuctBot", "AZBot", "PolicyNetBot"]
    assert set(names) <= set(vikinger_fast.__all__)
    for entry in BOTS.values():
        assert getattr(vikinger_fast, entry.class_name) is entry.fast_class()
        assert getattr(vikinger_ref, entry.class_name) is entry.reference_class()
    with pytest.raises(AttributeError, match="has no attribute 'NoBot'"):
        vikinger_fast.NoBot


def test_importing_the_package_loads_no_reference_engine():
    """The registry names the classes; they are imported when asked for."""
    code = "import sys, vikinger_fast; print('vikinger_ref' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_every_list_of_bots_is_the_registry():
    assert list(arena.BUILTIN) == list(BOTS) == list(arena.DESCRIPTIONS)
    assert dict(arena.DESCRIPTIONS) == {name: e.description for name, e in BOTS.items()}
    choices = Bots(vikinger_ref, {}).choices()
    assert choices["bots"] == list(BOTS)
    assert choices["defaults"]["az"] == "az:time=0.1" and choices["defaults"]["random"] == "random"
    for name, entry in BOTS.items():
        keywords = arena.bot_keywords(name)
        assert entry.takes_model == ("model" in keywords), name
        assert set(entry.budget_keys) <= set(arena.spec_keys(name)), name
        for cls in (entry.reference_class(), entry.fast_class()):  # the Bot protocol
            assert all(callable(getattr(cls, m, None)) for m in ("step", "policy", "restart"))


def test_the_registry_refuses_a_clash():
    with pytest.raises(ValueError, match="'mcts' is registered already"):
        bot_registry.register(dataclasses.replace(TOY, name="mcts"))
    with pytest.raises(ValueError, match="class 'MCTSBot' is registered already"):
        bot_registry.register(dataclasses.replace(TOY, fast="vikinger_fast._core:MCTSBot"))
    with pytest.raises(ValueError, match="a plain word"):
        bot_registry.register(dataclasses.replace(TOY, name="my:toy"))
    with pytest.raises(ValueError, match="not in budget_keys"):
        bot_registry.register(dataclasses.replace(TOY, budget={"time": 1}))
    assert "toy" not in BOTS


@pytest.mark.parametrize("engine_name", ["fast", "ref"])
def test_a_name_alone_plays_at_its_default_budget(engine_name):
    engine = arena.engine_module(engine_name)
    for name, entry in BOTS.items():
        spec = arena.check_spec(name, engine)
        assert spec.params == dict(entry.budget), name
        assert entry.default_spec() == (name if not entry.budget else f"{name}:time=0.1")
    # the default is added when no budget key is given, under any of the budget's names
    assert arena.parse_spec("mcts:threads=2").params == {"threads": 2, "time": 0.1}
    assert arena.parse_spec("mcts:iterations=9").params == {"iterations": 9}
    assert arena.parse_spec("az:max_time=0.5").params == {"max_time": 0.5}
    assert arena.parse_spec("puct:simulations=8,c_init=2").params == {"simulations": 8, "c_init": 2}
    bot = arena.make_bot(arena.parse_spec("az"), engine, engine.Game(num_players=2), 0)
    assert bot._max_time == 0.1 and bot._simulations is None


def test_a_default_budget_is_in_the_help(capsys):
    with pytest.raises(SystemExit):
        main(["arena", "--help"])
    text = capsys.readouterr().out
    for name in ("mcts", "puct", "az"):
        assert f"the name alone: {name}:time=0.1" in text
    assert "plays at the budget shown" in text


def _request(port, method, path, body=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    data = None if body is None else json.dumps(body).encode()
    headers = {} if body is None else {"Content-Type": "application/json"}
    connection.request(method, path, body=data, headers=headers)
    response = connection.getresponse()
    text = response.read().decode()
    connection.close()
    if response.getheader("Content-Type", "").startswith("application/json"):
        return response.status, json.loads(text)
    return response.status, text


def _serve(folder):
    """The web app on a real server on 127.0.0.1 in this process (which knows the toy): the
    uvicorn server, its thread and its port."""
    uvicorn = pytest.importorskip("uvicorn", reason="the web extra: pip install '.[web]'")
    from vikinger_fast.cli.serve import listening_socket
    from vikinger_fast.web.app import build_app

    sock = listening_socket("127.0.0.1", 0)
    app = build_app(str(folder), vikinger_fast, hint_iterations=50)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.02)
    return server, thread, sock.getsockname()[1]


def test_a_bot_added_by_the_documented_steps_plays_in_the_arena(toy, tmp_path):
    """Step 1 wrote ToyBot in both engines (tests/helpers/toy_bot.py), step 2 is the `toy`
    fixture's one entry: its name alone is a spec, with the same games in both engines."""
    games = {name: arena.run(name, ["toy", "random"], 2, seed=5, deals=1) for name in arena.ENGINES}
    assert games["fast"] == games["ref"]
    assert [g["record"]["players"][g["seats"].index(0)] for g in games["fast"]] == [
        {"name": "toy", "params": {"looks": 3}}
    ] * 2
    assert arena.check_spec("toy:looks=1", vikinger_fast).params == {"looks": 1}
    with pytest.raises(ValueError, match=r"^bot spec 'toy:looks=0': toy looks at one action"):
        arena.check_spec("toy:looks=0", vikinger_ref)
    with pytest.raises(ValueError, match=r"unknown parameter 'depth' for toy \(known: looks\)"):
        arena.parse_spec("toy:depth=2")
    assert vikinger_fast.FastToyBot is toy.fast_class()
    assert "  toy " in arena.bots_help() and "the name alone: toy:looks=3" in arena.bots_help()
    out = tmp_path / "arena"
    assert main(["arena", "toy", "greedy", "--games", "2", "--out", str(out), "--no-progress"]) == 0
    results = json.loads((out / "results.json").read_text())
    assert results["entrants"] == ["toy", "greedy"] and results["games"] == 2


def test_a_bot_added_by_the_documented_steps_plays_on_the_page(toy, tmp_path):
    server, thread, port = _serve(tmp_path)
    try:
        status, choices = _request(port, "GET", "/api/bots")
        assert status == 200 and "toy" in choices["bots"]
        assert choices["descriptions"]["toy"] == toy.description
        assert choices["defaults"]["toy"] == "toy:looks=3"
        status, view = _request(port, "POST", "/api/games", {"bots": ["toy"], "seat": 1})
        assert status == 201, view
        deadline = time.monotonic() + 60
        while view["thinking"] or not view["your_turn"]:
            assert time.monotonic() < deadline, "the toy did not move"
            time.sleep(0.05)
            status, view = _request(port, "GET", f"/api/games/{view['id']}")
        assert [e for e in view["log"] if e["kind"] == "move" and e["player"] == 0]
        status, text = _request(port, "GET", f"/api/games/{view['id']}/record")
        record = text if isinstance(text, dict) else json.loads(text)
        assert record["players"][0] == {"name": "toy", "params": {"looks": 3}}
        status, refused = _request(port, "POST", "/api/games", {"bots": ["toy:looks=0"]})
        assert status == 400 and "toy looks at one action at least" in json.dumps(refused)
    finally:
        server.should_exit = True
        thread.join(30)
