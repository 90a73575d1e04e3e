"""The stored games of `vikinger serve` are opened as the files the server wrote, nothing else
(docs/security.md "Files read"): a FIFO, a link (to /dev/zero or to a good game), a folder or a
file over 1 MiB under a game's name is refused unread with its reason, and a stored game or a body
of a megabyte or 16 KiB of escaped quotes is refused as the JSON it is not, in one pass, while the
other games load."""

import json
import os

import pytest

from vikinger_fast.web import store
from web_server import Server

GOOD = {
    "format": "vikinger-web-game",
    "version": 1,
    "num_players": 2,
    "seat": 0,
    "seed": 3,
    "options": {},
    "human_turns": [],
    "history": [],
    "bots": {"1": "greedy"},
    "finished": False,
}


def _name(prefix):
    return prefix.ljust(16, "0")


def _folder(tmp_path):
    """A store folder: one good game ("b0...") and one of each hostile kind, with the words of
    its refusal."""
    games = tmp_path / "games"
    games.mkdir()
    good = games / f"{_name('b0')}.json"
    good.write_text(json.dumps(dict(GOOD, id=_name("b0"))))
    hostile = {
        "c1": ("fifo", "not a regular file (a FIFO)"),
        "c2": ("zero", "a symbolic link, refused"),
        "c3": ("link", "a symbolic link, refused"),
        "c4": ("folder", "not a regular file (a folder)"),
        "c5": ("huge", "is 2,000,000 bytes long; at most 1,048,576 are read"),
        "c6": ("quotes", "must be JSON: Unterminated string starting at"),
    }
    for prefix, (kind, _) in hostile.items():
        path = games / f"{_name(prefix)}.json"
        if kind == "fifo":
            os.mkfifo(path)  # no writer: a plain open() blocks for ever
        elif kind == "zero":
            path.symlink_to("/dev/zero")
        elif kind == "link":
            path.symlink_to(good)  # a good game, but not a file the server wrote there
        elif kind == "folder":
            path.mkdir()
        elif kind == "huge":
            with open(path, "wb") as sparse:
                sparse.truncate(2_000_000)
        else:  # what made `GET /api/games` take seconds a file, holding the games' lock
            path.write_text('{"format": "' + '\\"' * (store.MAX_FILE // 2 - 8))
    return games, {_name(prefix): words for prefix, (_, words) in hostile.items()}


def test_the_store_opens_only_the_regular_files_it_wrote(tmp_path):
    games, refused = _folder(tmp_path)
    folder = store.Store(str(games), bot_spec=lambda text: text)
    assert folder.load(_name("b0"))["bots"] == {"1": "greedy"}
    for game_id, words in refused.items():
        with pytest.raises(ValueError) as refusal:
            folder.load(game_id)
        message = str(refusal.value)
        assert message.startswith(f"stored game {game_id}") and words in message, message
        assert "\n" not in message
    with pytest.raises(KeyError):
        folder.load(_name("dd"))


def test_the_server_lists_them_as_refused_and_refuses_a_body_of_escaped_quotes(tmp_path):
    games, refused = _folder(tmp_path)
    running = Server(games)
    try:
        status, listing = running.request("GET", "/api/games")
        assert status == 200
        assert [g["id"] for g in listing["games"]] == [_name("b0")]
        reasons = {entry["id"]: entry["error"] for entry in listing["refused"]}
        assert set(reasons) == set(refused)
        for game_id, words in refused.items():
            assert words in reasons[game_id], reasons[game_id]
        # Just under the 16 KiB a body may have, a string of escaped quotes never closed.
        body = ('{"bots": ["' + '\\"' * 8000).encode()
        headers = {"Content-Type": "application/json"}
        status, answer = running.request("POST", "/api/games", raw=body, headers=headers)
        assert status == 400 and "the body must be JSON: Unterminated string" in answer["error"]
        status, view = running.request("GET", f"/api/games/{_name('b0')}")
        assert status == 200 and view["id"] == _name("b0")
    finally:
        running.stop()
