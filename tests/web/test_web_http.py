"""`vikinger serve` over HTTP (the real server on 127.0.0.1): games are made, played, undone,
kept on disk across a restart, and every bad request gets a 4xx JSON message and leaves the game
as it was (docs/web.md)."""

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys

import pytest

from vikinger_fast import cli, records
from web_server import Server

pytest.importorskip("starlette", reason="the web extra: pip install '.[web]'")
pytest.importorskip("uvicorn", reason="the web extra: pip install '.[web]'")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    running = Server(tmp_path_factory.mktemp("games"))
    yield running
    running.stop()


def new_game(server, **body):
    status, view = server.request("POST", "/api/games", dict({"bots": ["random"]}, **body))
    assert status == 201, view
    return server.wait_for_turn(view["id"])


def stored(server, game_id):
    with open(os.path.join(server.folder, f"{game_id}.json"), "rb") as source:
        return source.read()


def test_a_game_is_played_undone_and_recorded(server):
    view = new_game(server, seed=3)
    game_id = view["id"]
    assert view["your_turn"] and view["phase"] == "buy" and "Round 1 of 6" in view["sentence"]
    assert all(c["explain"] and c["kind"] == "buy" for c in view["choices"])
    first = view["choices"][-1]["string"]
    status, after = server.request("POST", f"/api/games/{game_id}/move", {"action": first})
    assert status == 200 and after["can_undo"]
    after = server.wait_for_turn(game_id)
    assert after["moves"] > view["moves"]
    assert after["last_decision"] == max((e["number"] for e in view["log"]), default=0)
    status, undone = server.request("POST", f"/api/games/{game_id}/undo", {})
    assert status == 200 and undone["last_decision"] == 0  # back before the first decision
    assert undone["svg"] == view["svg"] and undone["moves"] == view["moves"]
    status, hint = server.request("POST", f"/api/games/{game_id}/hint", {})
    assert status == 200 and hint["string"] in [c["string"] for c in view["choices"]]
    status, text = server.request("GET", f"/api/games/{game_id}/record")
    record = records.loads(text if isinstance(text, str) else json.dumps(text))
    assert record["players"][0] == {"name": "human", "params": {}}
    assert len(record["moves"]) == view["moves"]


def test_every_module_plays_to_the_end_over_http(server):
    options = dict.fromkeys(
        ("auction", "draw13", "offer_by_colour", "weak_boatsmen", "special_tiles"), True
    )
    view = new_game(server, players=3, seat=1, seed=5, bots=["random", "greedy"], options=options)
    kinds = set()
    while not view["terminal"]:
        kinds.update(c["kind"] for c in view["choices"])
        choice = view["choices"][view["moves"] % len(view["choices"])]
        status, _ = server.request(
            "POST", f"/api/games/{view['id']}/move", {"action": choice["string"]}
        )
        assert status == 200
        view = server.wait_for_turn(view["id"])
    assert {"buy", "auction", "offer"} <= kinds
    assert view["sentence"].startswith("Game over") and any(p["winner"] for p in view["players"])


@pytest.mark.parametrize(
    "body, status, words",
    [
        ({"action": "buy:99"}, 400, "not an action"),
        ({"action": "tile:r1c9"}, 422, "not legal now"),
        ({"action": True}, 400, "must be an action string"),
        ({"action": [1]}, 400, "must be an action string"),
        ({"action": 99999}, 400, "out of range"),
        ({"move": "buy:0"}, 400, "needs 'action'"),
    ],
)
def test_a_bad_move_is_refused_and_changes_nothing(server, body, status, words):
    view = new_game(server, seed=11)
    before = stored(server, view["id"])
    answer, error = server.request("POST", f"/api/games/{view['id']}/move", body)
    assert answer == status and words in error["error"]
    assert stored(server, view["id"]) == before
    assert server.request("GET", f"/api/games/{view['id']}")[1]["svg"] == view["svg"]


def test_an_illegal_move_says_which_rule_forbids_it(server):
    view = new_game(server, seed=11)
    legal = {c["string"] for c in view["choices"]}
    illegal = next(f"buy:{s}" for s in range(12) if f"buy:{s}" not in legal)
    status, error = server.request("POST", f"/api/games/{view['id']}/move", {"action": illegal})
    assert status == 422 and "(B" in error["error"]


def test_malformed_requests_get_a_json_4xx(server):
    view = new_game(server, seed=12)
    path = f"/api/games/{view['id']}/move"
    before = stored(server, view["id"])
    cases = [
        (
            server.request(
                "POST", path, raw=b'{"action": ', headers={"Content-Type": "application/json"}
            ),
            400,
            "must be JSON",
        ),
        (
            server.request(
                "POST", path, raw=b'["buy:0"]', headers={"Content-Type": "application/json"}
            ),
            400,
            "JSON object",
        ),
        (
            server.request(
                "POST", path, raw=b'{"action": "buy:0"}', headers={"Content-Type": "text/plain"}
            ),
            415,
            "Content-Type",
        ),
        (
            server.request(
                "POST",
                path,
                raw=b'{"action": "' + b"x" * 100_000 + b'"}',
                headers={"Content-Type": "application/json"},
            ),
            413,
            "larger than",
        ),
        (server.request("GET", "/api/games/0123456789abcdef"), 404, "no game"),
        (server.request("POST", "/api/games/../../etc/move", {"action": "buy:0"}), 404, ""),
        (server.request("GET", "/api/games/nothex"), 404, "no game"),
        (server.request("DELETE", path), 415, "Content-Type"),
        (server.request("DELETE", path, {}), 405, ""),
        (server.request("POST", "/api/games", {"players": 5}), 400, "'players'"),
        (server.request("POST", "/api/games", {"bots": ["os:system"]}), 400, "built-in"),
        (
            server.request("POST", "/api/games", {"bots": ["mcts:iterations=10000000"]}),
            400,
            "at most",
        ),
        (server.request("POST", "/api/games", {"options": {"nope": True}}), 400, "'options'"),
        (server.request("POST", "/api/games", {"seat": "0"}), 400, "integer"),
    ]
    for (status, answer), expected, words in cases:
        assert status == expected, answer
        assert isinstance(answer, dict) and words in answer["error"]
    assert stored(server, view["id"]) == before


def test_a_game_survives_a_server_restart(tmp_path):
    first = Server(tmp_path)
    try:
        view = new_game(first, seed=21, bots=["greedy"])
        first.request(
            "POST", f"/api/games/{view['id']}/move", {"action": view["choices"][0]["string"]}
        )
        view = first.wait_for_turn(view["id"])
    finally:
        first.stop()
    assert not [name for name in os.listdir(tmp_path) if name.endswith(".tmp")]
    second = Server(tmp_path)
    try:
        again = second.wait_for_turn(view["id"])
        assert again["svg"] == view["svg"] and again["moves"] == view["moves"]
        # the log as it was, the person's last decision (where the page pins scorings) too
        assert again["log"] == view["log"] and again["last_decision"] == view["last_decision"]
        status, listing = second.request("GET", "/api/games")
        assert status == 200 and view["id"] in [g["id"] for g in listing["games"]]
    finally:
        second.stop()


def test_a_port_in_use_is_a_one_line_error(tmp_path, capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        assert cli.main(["serve", "--port", str(port), "--dir", str(tmp_path)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and f"port {port}" in error and "in use" in error


@pytest.mark.parametrize("case", ["a file", "under a file", "read-only"])
def test_a_dir_where_games_cannot_be_kept_is_a_one_line_error(case, tmp_path):
    """A real `vikinger serve` process: one line, exit status 2, no port opened. Root may write
    into any folder, so the read-only case runs the command as root without that capability
    (util-linux's setpriv drops CAP_DAC_OVERRIDE)."""
    command = []
    if case == "a file":
        folder = tmp_path / "games.txt"
        folder.write_text("not a folder")
    elif case == "under a file":
        (tmp_path / "games.txt").write_text("not a folder")
        folder = tmp_path / "games.txt" / "games"
    else:
        folder = tmp_path / "games"
        folder.mkdir()
        folder.chmod(0o555)
        if os.geteuid() == 0:
            if not shutil.which("setpriv"):
                pytest.skip("as root, a folder is read-only only without CAP_DAC_OVERRIDE")
            command = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search", "--"]
    process = subprocess.Popen(
        [*command, sys.executable, "-m", "vikinger_fast.cli", "serve", "--port", "0"]
        + ["--dir", str(folder)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        out, error = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:  # it served: the folder was not refused
        process.kill()
        process.communicate()
        raise
    assert process.returncode == 2, (out, error)
    assert out == "" and error.count("\n") == 1 and "Traceback" not in error
    assert error.startswith("vikinger serve: --dir: ") and str(folder) in error
    assert ("is a file" if case == "a file" else "games cannot be kept in") in error


def test_the_page_asks_only_the_local_server(server):
    status, page = server.request("GET", "/")
    assert status == 200 and "Legend" in page and "hatching" in page
    # nor names a file of docs/, which an installed package has not: the rules are served
    assert "docs/" not in page and 'href="/rules' in page
    assert "<code>az</code> the learned player" in page  # the bots, their descriptions kept
    here = os.path.join(os.path.dirname(sys.modules["vikinger_fast"].__file__), "web", "static")
    for name in os.listdir(here):
        with open(os.path.join(here, name), encoding="utf-8") as source:
            text = source.read()
        assert "http://" not in text.replace("http://www.w3.org/2000/svg", "")
        assert "https://" not in text


def test_ctrl_c_stops_the_server_cleanly(tmp_path):
    """Ctrl-C ends `vikinger serve` as it ends every command (docs/security.md "Interrupts"):
    exit status 130, no traceback, the games kept."""
    running = Server(tmp_path)
    view = new_game(running, seed=31)
    running.process.send_signal(signal.SIGINT)
    assert running.process.wait(20) == 130
    assert "Traceback" not in running.process.stderr.read()
    running.stop()
    assert json.loads(stored(running, view["id"]))["history"]  # the game is kept


def test_the_log_holds_every_decision_forced_ones_included_and_every_scoring(server):
    """Over a whole game the log's entries, gathered after each of the person's moves, are
    numbered without a gap: nothing is left out (a large scoring's part is replaced by the entry
    that adds the next part, B7.2.1, and names it). Every forced decision is there (the twelve
    buys of each round count them), the bots' moves read in the third person, each scoring's
    items add up (B7.1, B7.2, B8), and each scoring is one entry with every player."""
    view = new_game(server, seed=11, bots=["greedy"])
    game_id = view["id"]
    entries, replaced, seen = {}, set(), 0
    while True:
        for entry in view["log"]:
            entries[entry["number"]] = entry
            replaced.update(entry.get("replaces", []))
        scorings = [(e["round"], e["scoring"]) for e in view["log"] if e["kind"] == "scoring"]
        assert len(scorings) == len(set(scorings))  # one entry per scoring
        # the entries logged before the person's last decision: those seen at it
        assert view["last_decision"] == seen
        if view["terminal"]:
            break
        choice = view["choices"][0]["string"]
        seen = max(entries, default=0)
        server.request("POST", f"/api/games/{game_id}/move", {"action": choice})
        view = server.wait_for_turn(game_id)
    assert replaced and not replaced & {e["number"] for e in view["log"]}
    assert sorted(set(entries) | replaced) == list(range(1, max(entries) + 1))
    whole = [
        (s["round"], s["scoring"], [r["player"] for r in s["players"]]) for s in view["scorings"]
    ]
    assert [(r, kind) for r, kind, _ in whole] == [
        (1, "small"),
        (2, "large"),
        (3, "small"),
        (4, "large"),
        (5, "small"),
        (6, "large"),
        (6, "final"),
    ]
    assert all(sorted(seats) == [0, 1] for _, _, seats in whole)
    decisions = [e for e in entries.values() if e["kind"] in ("move", "forced")]
    assert sum(e["string"].startswith("buy:") for e in decisions) == 6 * 12
    assert any(e["kind"] == "forced" for e in decisions)
    for entry in decisions:
        if entry["player"] == 0:
            assert entry["text"].startswith("you ")
        else:
            assert entry["text"].startswith("player 1 (greedy) ") and " your " not in entry["text"]
    scorings = [e for e in entries.values() if e["kind"] == "scoring"]
    assert [e["scoring"] for e in scorings].count("final") == 1
    for event in scorings:
        for row in event["players"]:
            assert row["fame"] - row["fame_before"] == sum(i["fame"] for i in row["items"])
    fame = [p["fame"] for p in view["players"]]
    assert [row["fame"] for row in view["totals"]] == fame
    status, listing = server.request("GET", "/api/games")
    assert {g["id"]: g["finished"] for g in listing["games"]}[game_id] is True


def test_the_rules_page_has_an_anchor_for_every_rule_the_page_cites(server):
    status, page = server.request("GET", "/rules")
    assert status == 200
    text = page if isinstance(page, str) else json.dumps(page)
    for rule in ("B5.5", "B6.4", "B7.1", "B7.2", "B7.2.1", "B7.2.3", "B8.1", "B8.6", "A5"):
        assert f'id="{rule}"' in text, rule
    assert (
        '<li id="B7.1">\n<strong>B7.1 Small scoring</strong>' in text
    )  # the anchor holds its rule
    assert text.count("<table>") == text.count("</table>") >= 2  # the rulings and the ids -> code
    # the rules' own links lead to anchors of the page
    for target in re.findall(r'href="#([^"]+)"', text):
        assert f'id="{target}"' in text, target
