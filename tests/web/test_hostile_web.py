"""Hostile requests to `vikinger serve` (docs/security.md, docs/web.md "Only its own page"): a
foreign Host (DNS rebinding), a foreign Origin, a form post to undo or hint, a large body, deep
JSON, a file or a module named in a bot spec, budgets over the caps, and stored game files that
name what the server does not build. Every refusal is a 4xx and leaves every game file as it
was. The real server runs on 127.0.0.1; at the end, Chromium (tests/helpers/browser.py) opens a
page of another origin that tries to change a game, and the app under a foreign name (DNS
rebinding)."""

import http.client
import http.server
import json
import os
import threading

import pytest

from browser import chromium
from cli_runs import exit_code
from vikinger_fast.web.bots import CAPS, Bots
from web_server import Server

pytest.importorskip("starlette", reason="the web extra: pip install '.[web]'")
pytest.importorskip("uvicorn", reason="the web extra: pip install '.[web]'")

import vikinger_ref  # noqa: E402  (the shipped network, given by path as a person would)

SHIPPED = os.path.join(os.path.dirname(vikinger_ref.__file__), "models", "az-2p.npz")
DOCS = os.path.join(os.path.dirname(__file__), "..", "..", "docs")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    running = Server(
        tmp_path_factory.mktemp("games"),
        options=("--model", f"strong={SHIPPED}", "--allow-host", "vikinger.test"),
    )
    yield running
    running.stop()


def snapshot(server):
    """Every game file of the folder and its bytes."""
    found = {}
    for name in sorted(os.listdir(server.folder)):
        path = os.path.join(server.folder, name)
        if not os.path.isfile(path):  # the FIFO of a refused game is no game
            continue
        with open(path, "rb") as source:
            found[name] = source.read()
    return found


@pytest.fixture
def game(server):
    """A game in which the person has moved once (so an undo would change it)."""
    status, view = server.request("POST", "/api/games", {"bots": ["random"], "seed": 4})
    assert status == 201, view
    view = server.wait_for_turn(view["id"])
    move = {"action": view["choices"][0]["string"]}
    assert server.request("POST", f"/api/games/{view['id']}/move", move)[0] == 200
    server.wait_for_turn(view["id"])
    return view["id"]


def changes(game_id):
    """(method, path, body) of every request that would change something, or make work."""
    return [
        ("POST", "/api/games", {"bots": ["random"]}),
        ("POST", f"/api/games/{game_id}/undo", {}),
        ("POST", f"/api/games/{game_id}/hint", {}),
        ("POST", f"/api/games/{game_id}/move", {"action": "buy:0"}),
    ]


def assert_refused(server, game, status, words, **options):
    """Every request of changes(game), sent with `options` (headers=; raw=, a body that replaces
    the request's own), is answered `status` with `words` in its error, and no game file
    changes."""
    before = snapshot(server)
    for method, path, body in changes(game):
        answer_status, answer = server.request(
            method, path, None if "raw" in options else body, **options
        )
        assert answer_status == status and words in answer["error"], path
    assert snapshot(server) == before


@pytest.mark.parametrize(
    "host",
    [
        "evil.example:{port}",
        "evil.example",
        "127.0.0.1.nip.io:{port}",
        "localhost.evil.example:{port}",
        "vikinger.test.evil.example:{port}",
        "[::1]:{port}",
        "127.0.0.2:{port}",
        "",
    ],
)
def test_a_foreign_host_is_refused_dns_rebinding(server, game, host):
    before = snapshot(server)
    requests = [
        ("GET", "/", None),
        ("GET", "/api/games", None),
        ("GET", f"/api/games/{game}", None),
    ]
    for method, path, body in requests + changes(game):
        headers = {"Host": host.format(port=server.port)}
        status, answer = server.request(method, path, body, headers=headers)
        assert status == 400 and "Invalid host header" in answer, (method, path)
    assert snapshot(server) == before


def test_every_response_forbids_framing_clickjacking(server, game):
    """The page, its files, the rules, the JSON and every refusal (foreign Host, foreign Origin,
    a form post, an unknown game or file) carry both anti-framing headers."""
    own = f"http://127.0.0.1:{server.port}"
    requests = [
        ("GET", "/", {}, None),
        ("GET", "/static/app.js", {}, None),
        ("GET", "/static/none.js", {}, None),
        ("GET", "/rules", {}, None),
        ("GET", "/api/games", {}, None),
        ("GET", f"/api/games/{game}/record", {}, None),
        ("GET", "/api/games/" + "0" * 16, {}, None),
        ("GET", "/", {"Host": "evil.example"}, None),
        ("POST", f"/api/games/{game}/undo", {"Origin": "http://evil.example"}, b"{}"),
        ("POST", f"/api/games/{game}/undo", {"Origin": own}, b"x=1"),
    ]
    for method, path, headers, body in requests:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        response.read()
        connection.close()
        assert response.getheader("X-Frame-Options") == "DENY", (path, response.status)
        policy = response.getheader("Content-Security-Policy")
        assert policy == "frame-ancestors 'none'", (path, response.status)


@pytest.mark.parametrize(
    "host", ["127.0.0.1:{port}", "localhost:{port}", "LOCALHOST:{port}", "vikinger.test:{port}"]
)
def test_its_own_host_names_are_served(server, host):
    headers = {"Host": host.format(port=server.port)}
    status, listing = server.request("GET", "/api/games", headers=headers)
    assert status == 200 and "games" in listing


def test_a_server_bound_by_name_serves_the_name_and_its_address(tmp_path):
    running = Server(tmp_path, options=("--host", "localhost"))
    try:
        for host, status in [("localhost", 200), ("127.0.0.1", 200), ("evil.example", 400)]:
            headers = {"Host": f"{host}:{running.port}"}
            assert running.request("GET", "/api/games", headers=headers)[0] == status, host
    finally:
        running.stop()


@pytest.mark.parametrize(
    "origin",
    [
        "http://127.0.0.1:1",
        "http://evil.example",
        "null",
        "https://127.0.0.1:{port}",
        "http://localhost:{port}",
        "http://127.0.0.1:{port}.evil.example",
        "http://127.0.0.1:{port}/",
    ],
)
def test_a_foreign_origin_changes_nothing(server, game, origin):
    headers = {"Origin": origin.format(port=server.port)}
    assert_refused(server, game, 403, "may not change anything", headers=headers)


@pytest.mark.parametrize("site", ["cross-site", "same-site", "none"])
def test_without_origin_only_a_same_origin_fetch_changes_anything(server, game, site):
    assert_refused(server, game, 403, site, headers={"Sec-Fetch-Site": site})


def test_the_own_origin_and_a_same_origin_fetch_are_served(server, game):
    before = snapshot(server)
    own = {"Origin": f"http://127.0.0.1:{server.port}"}
    status, view = server.request("POST", f"/api/games/{game}/undo", {}, headers=own)
    assert status == 200 and not view["can_undo"]
    status, _ = server.request(
        "POST", f"/api/games/{game}/hint", {}, headers={"Sec-Fetch-Site": "same-origin"}
    )
    assert status == 200
    assert snapshot(server) != before  # the undo was taken


@pytest.mark.parametrize(
    "kind",
    [
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "text/plain",
        "application/jsonx",
        None,
    ],
)
def test_a_form_post_reaches_no_route(server, game, kind):
    headers = {} if kind is None else {"Content-Type": kind}
    assert_refused(server, game, 415, "application/json", raw=b"action=buy%3A0", headers=headers)


def test_a_large_body_is_refused_declared_or_streamed(server, game):
    before = snapshot(server)
    big = b'{"action": "' + b"x" * 100_000 + b'"}'
    json_type = {"Content-Type": "application/json"}
    for method, path, _ in changes(game):
        status, answer = server.request(method, path, raw=big, headers=json_type)
        assert status == 413 and "larger than" in answer["error"]
        # chunked: no Content-Length to refuse up front, the route stops reading at the bound
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        chunks = (big[i : i + 4096] for i in range(0, 24 * 1024, 4096))
        connection.request(method, path, body=chunks, headers=json_type, encode_chunked=True)
        response = connection.getresponse()
        assert response.status == 413 and b"larger than" in response.read()
        connection.close()
    assert snapshot(server) == before


@pytest.mark.parametrize("depth", [9, 100, 5000])
def test_deep_json_is_a_400_not_a_500(server, game, depth):
    raw = ('{"action": ' + "[" * depth + "]" * depth + "}").encode()
    json_type = {"Content-Type": "application/json"}
    assert_refused(server, game, 400, "levels deep", raw=raw, headers=json_type)


@pytest.mark.parametrize(
    "spec, words",
    [
        ("az:model=/dev/zero", "names no file"),
        ("puct:simulations=10,model=/etc/passwd", "names no file"),
        ("azpolicy:model=strong", "names no file"),
        ("az:net=/dev/zero", "no network"),
        ("az:net=weak,simulations=10", "no network"),
        ("mcts:iterations=10,net=strong", "net= names one network"),
        ("az:net=strong,net=strong,simulations=10", "net= names one network"),
        ("os:system", "built-in"),
        ("vikinger_fast.arena:BotSpec", "built-in"),
        ("webcanary:Bot:x=1", "built-in"),
    ],
)
def test_a_request_names_no_file_and_no_module(server, spec, words):
    before = snapshot(server)
    status, answer = server.request("POST", "/api/games", {"bots": [spec]})
    assert status == 400 and words in answer["error"]
    assert snapshot(server) == before


def test_a_network_given_at_start_is_chosen_by_name(server):
    status, view = server.request("POST", "/api/games", {"bots": ["az:net=strong,simulations=8"]})
    assert status == 201 and view["players"][1]["name"] == "az:net=strong,simulations=8"
    view = server.wait_for_turn(view["id"])
    for _ in range(20):  # until the bot of seat 1 has played with the network
        move = {"action": view["choices"][0]["string"]}
        assert server.request("POST", f"/api/games/{view['id']}/move", move)[0] == 200
        view = server.wait_for_turn(view["id"])
        assert view["error"] is None
        bot_moves = [e for e in view["log"] if e["kind"] == "move" and e["player"] == 1]
        if bot_moves:
            break
    assert bot_moves
    status, choices = server.request("GET", "/api/bots")
    assert status == 200 and choices["networks"] == ["strong"] and choices["caps"] == CAPS


OVER_CAPS = [
    ("mcts:iterations=200001", "at most 200,000"),
    ("mcts:time=30.5", "at most 30"),
    ("mcts:max_time=1e9", "at most 30"),
    ("mcts:time=inf", "must be a number"),
    ("mcts:time=nan", "must be a number"),
    ("mcts:iterations=1e400", "must be a number"),
    ("mcts:iterations=1" + "0" * 400, "at most 200,000"),
    ("mcts:iterations=10,threads=5", "at most 4"),
    ("mcts:iterations=10,solver_nodes=5000001", "at most 5,000,000"),
    ("puct:simulations=10001", "at most 10,000"),
    ("az:time=31", "at most 30"),
    ("az:simulations=10,playouts=65", "at most 64"),
    ("puct:simulations=10,batch_size=257", "at most 256"),
]


@pytest.mark.parametrize("spec, words", OVER_CAPS)
def test_a_budget_over_its_cap_is_refused(server, spec, words):
    before = snapshot(server)
    status, answer = server.request("POST", "/api/games", {"bots": ["random", spec], "players": 3})
    assert status == 400 and words in answer["error"]
    assert snapshot(server) == before


# The bot whose keys each cap bounds.
CAPPED = {
    "iterations": "mcts:{}",
    "time": "mcts:{}",
    "max_time": "mcts:{}",
    "threads": "mcts:iterations=10,{}",
    "solver_nodes": "mcts:iterations=10,{}",
    "simulations": "puct:{}",
    "playouts": "puct:simulations=10,{}",
    "batch_size": "puct:simulations=10,{}",
}


@pytest.mark.parametrize("key", sorted(CAPS))
def test_each_cap_is_the_documented_bound(key):
    bots = Bots(vikinger_ref, {})
    cap = CAPS[key]
    assert bots.resolve(CAPPED[key].format(f"{key}={cap}")).params[key] == cap
    for over in (cap + 1, cap + 0.001):
        with pytest.raises(ValueError, match=f"{key} at most {cap:,} here"):
            bots.resolve(CAPPED[key].format(f"{key}={over}"))
    with open(os.path.join(DOCS, "web.md"), encoding="utf-8") as source:
        assert f"| `{key}` | {cap:,} |" in source.read()  # the caps' table of docs/web.md


def stored_document(**changes):
    document = {
        "format": "vikinger-web-game",
        "version": 1,
        "id": "",
        "num_players": 2,
        "seat": 1,
        "seed": 3,
        "options": {},
        "human_turns": [],
        "history": [],
        "bots": {"0": "greedy"},
    }
    document.update(changes)
    return document


# (file name's hex, document or raw text, words of the refusal). Seat 1 is the person's: the bot
# of seat 0 moves first, so a game that loaded would build its bot at once.
STORED = [
    ("a1", stored_document(bots={"0": "webcanary:Bot"}), "built-in"),
    ("a2", stored_document(bots={"0": "mcts:iterations=1000000000"}), "at most"),
    ("a3", stored_document(bots={"0": "az:model=/dev/zero"}), "names no file"),
    ("a4", stored_document(bots={"0": "az:net=missing,simulations=5"}), "no network"),
    ("a5", stored_document(seat="0"), "'seat'"),
    ("a6", stored_document(bots={"1": "greedy"}), "'bots'"),
    ("a7", stored_document(history=[True]), "'history'"),
    ("a8", stored_document(options={"auction": 1}), "'options'"),
    ("a9", stored_document(extra=[[[[[[]]]]]]), "levels deep"),
    ("aa", "{not json", "must be JSON"),
    ("ab", stored_document(version=2), "version 1"),
    ("ac", stored_document(extra=1), "unknown field 'extra'"),
    ("ad", stored_document(finished="yes"), "'finished'"),
]


def test_a_stored_game_naming_a_module_or_a_file_is_refused_on_load(tmp_path):
    games = tmp_path / "games"
    games.mkdir()
    # importing this module (the server's folder is on its path, as for `vikinger arena`)
    # would leave a mark: the test sees whether a stored game made the server import it
    (tmp_path / "webcanary.py").write_text(
        "import pathlib\npathlib.Path(__file__).with_name('imported').write_text('yes')\n"
        "class Bot:\n    def __init__(self, game, seed):\n        pass\n"
        "    def step(self, state):\n        return state.legal_actions()[0]\n"
    )
    refused = {}
    for prefix, content, words in STORED:
        game_id = prefix.ljust(16, "0")
        if isinstance(content, dict):
            content = json.dumps(dict(content, id=game_id))
        (games / f"{game_id}.json").write_text(content)
        refused[game_id] = words
    os.mkfifo(games / f"{'ff'.ljust(16, '0')}.json")  # would block a plain open
    refused["ff".ljust(16, "0")] = "not a regular file"
    running = Server(games, cwd=tmp_path)
    try:
        status, view = running.request("POST", "/api/games", {"bots": ["greedy"], "seed": 9})
        assert status == 201
        good = view["id"]
        running.wait_for_turn(good)
        before = snapshot(running)
        status, listing = running.request("GET", "/api/games")
        assert status == 200 and [g["id"] for g in listing["games"]] == [good]
        assert {r["id"] for r in listing["refused"]} == set(refused)
        for entry in listing["refused"]:
            assert refused[entry["id"]] in entry["error"] and entry["id"] in entry["error"]
        for game_id, words in refused.items():
            status, answer = running.request("GET", f"/api/games/{game_id}")
            assert status == 409 and words in answer["error"], game_id
            move = {"action": "buy:0"}
            status, _ = running.request("POST", f"/api/games/{game_id}/move", move)
            assert status == 409
        assert running.wait_for_turn(good)["your_turn"]  # the rest of the folder still loads
        assert snapshot(running) == before
    finally:
        running.stop()
    assert not (tmp_path / "imported").exists()


@pytest.mark.parametrize(
    "flags, words",
    [
        (["--model", "strong"], "NAME=PATH"),
        (["--model", "strong="], "NAME=PATH"),
        (["--model", f"1st={SHIPPED}"], "network name '1st'"),
        (["--model", f"a,b={SHIPPED}"], "network name 'a,b'"),
        (["--model", "strong=/nonexistent/w.npz"], "is not a file"),
        (["--model", "strong=/dev/zero"], "is not a file"),
        (["--model", "strong=."], "is not a file"),
        (["--model", f"a={SHIPPED}", "--model", f"a={SHIPPED}"], "given twice"),
        (["--allow-host", "evil host"], "--allow-host"),
        (["--allow-host", "*"], "--allow-host"),
    ],
)
def test_bad_serve_flags_are_one_line_before_anything_starts(flags, words, tmp_path, capsys):
    assert exit_code(["serve", "--port", "1", "--dir", str(tmp_path / "g"), *flags]) == 2
    error = capsys.readouterr().err
    assert words in error and "Traceback" not in error
    assert not (tmp_path / "g").exists()


# A page of another site, served from another port of 127.0.0.1: it tries to create a game (a
# JSON fetch, which needs a CORS preflight), to move and undo with fetches that need none
# (no-cors), to read the game list, and to undo with a plain form post into a frame.
ATTACK = """<!doctype html><title>another site</title>
<iframe name="sink"></iframe><iframe id="app-frame" src="APP/"></iframe>
<form id="form" method="post" action="APP/api/games/GAME/undo" target="sink">
<input name="x" value="1"></form>
<script>
async function attempt(name, run) {
  try { document.body.dataset[name] = String(await run()); }
  catch (error) { document.body.dataset[name] = 'blocked'; }
}
(async () => {
  const json = {'Content-Type': 'application/json'};
  await attempt('create', async () => (await fetch('APP/api/games',
    {method: 'POST', headers: json, body: JSON.stringify({bots: ['random']})})).status);
  await attempt('move', async () => (await fetch('APP/api/games/GAME/move',
    {method: 'POST', mode: 'no-cors', headers: {'Content-Type': 'text/plain'},
     body: JSON.stringify({action: 'ACTION'})})).type);
  await attempt('undo', async () => (await fetch('APP/api/games/GAME/undo',
    {method: 'POST', mode: 'no-cors'})).type);
  await attempt('list', async () => (await fetch('APP/api/games')).text());
  const sink = document.querySelector('iframe');
  await new Promise((done) => { sink.onload = done; document.getElementById('form').submit(); });
  document.body.dataset.done = 'yes';
})();
</script>"""


def serve_page(html):
    """A tiny HTTP server on 127.0.0.1 (a free port) answering every GET with `html`."""

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = html.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    site = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=site.serve_forever, daemon=True).start()
    return site


def test_in_a_browser_another_origin_changes_nothing_and_the_own_page_plays(server, game):
    from selenium.webdriver.support.ui import WebDriverWait

    # rebind.test resolves to 127.0.0.1 in this browser only: a rebinding site, no network
    driver = chromium(1200, 900, flags=["--host-resolver-rules=MAP rebind.test 127.0.0.1"])
    app = f"http://127.0.0.1:{server.port}"
    view = server.request("GET", f"/api/games/{game}")[1]
    assert view["can_undo"]
    before = snapshot(server)
    page = ATTACK.replace("APP", app).replace("GAME", game)
    site = serve_page(page.replace("ACTION", view["choices"][0]["string"]))
    try:
        driver.get(f"http://127.0.0.1:{site.server_address[1]}/")
        WebDriverWait(driver, 30, poll_frequency=0.05).until(
            lambda d: d.execute_script("return document.body.dataset.done") == "yes"
        )
        tried = driver.execute_script("return {...document.body.dataset}")
        assert tried["create"] == "blocked" and tried["list"] == "blocked"
        # the app in a frame of that page (clickjacking): the browser refuses to show it
        driver.switch_to.frame(driver.find_element("id", "app-frame"))
        assert not driver.find_elements("id", "new-game")
        driver.switch_to.default_content()
        assert tried["move"] == tried["undo"] == "opaque"  # sent, and refused by the server
        assert snapshot(server) == before

        # the app itself under a foreign name: nothing is shown, nothing can be played
        driver.get(f"http://rebind.test:{server.port}/")
        assert "Invalid host header" in driver.find_element("tag name", "body").text
        status = driver.execute_async_script(
            "const done = arguments[0];"
            f"fetch('/api/games/{game}/undo', {{method: 'POST', headers: "
            "{'Content-Type': 'application/json'}, body: '{}'}).then((r) => done(r.status));"
        )
        assert status == 400 and snapshot(server) == before

        # the app's own page still plays: undo, then a move
        driver.get_log("browser")  # the refusals above, logged by the browser: forgotten
        driver.get(f"{app}/#game={game}")
        body = driver.find_element("tag name", "body")
        WebDriverWait(driver, 30).until(lambda d: body.get_attribute("data-state") == "your-turn")
        moves = int(body.get_attribute("data-moves"))
        driver.find_element("id", "undo").click()
        WebDriverWait(driver, 30).until(lambda d: int(body.get_attribute("data-moves")) < moves)
        WebDriverWait(driver, 30).until(lambda d: body.get_attribute("data-state") == "your-turn")
        assert snapshot(server) != before  # the undo was taken
        undone = int(body.get_attribute("data-moves"))
        driver.find_elements("css selector", "button.choice")[-1].click()
        WebDriverWait(driver, 30).until(lambda d: int(body.get_attribute("data-moves")) > undone)
        assert server.wait_for_turn(game)["can_undo"]
        # The refused page's own favicon request (to rebind.test, refused with 400) may be
        # logged after the log was read above, so only the app's own page is judged here.
        errors = [
            e
            for e in driver.get_log("browser")
            if e["level"] == "SEVERE" and "rebind.test" not in e["message"]
        ]
        assert not errors, errors

        # the setup lists a stored game naming a module as refused, the good ones as before
        refused = os.path.join(server.folder, "b" * 16 + ".json")
        with open(refused, "w", encoding="utf-8") as out:
            json.dump(stored_document(id="b" * 16, bots={"0": "os:system"}), out)
        try:
            driver.get(f"{app}/")
            WebDriverWait(driver, 30).until(lambda d: d.find_elements("css selector", ".refused"))
            notes = [p.text for p in driver.find_elements("css selector", "#stored .refused")]
            assert len(notes) == 1 and notes[0].startswith(f"Not loaded: stored game {'b' * 16}")
            assert "built-in" in notes[0]
            links = driver.find_elements("css selector", "#stored a")
            assert any(game in link.get_attribute("href") for link in links)
        finally:
            os.unlink(refused)
    finally:
        site.shutdown()
        site.server_close()
        driver.quit()
