"""The games of `vikinger serve` on disk: one JSON file per game in the store folder, rewritten
atomically (a temporary file in the same folder, flushed, fsynced, then renamed over the old one)
after every move, so a reload or a server restart finds every game as it was, and a crash in the
middle of a write leaves the previous version whole.

A game file holds what rebuilds the game exactly: the options, the seats, the seed and the
history of actions (chance included); the state is the replay of that history (docs/web.md).
"""

import json
import os
import re
import secrets
from typing import Any, Dict, Iterator

from ..safety import outputs

FORMAT = "vikinger-web-game"
VERSION = 1
GAME_ID = re.compile(r"[0-9a-f]{16}")


def new_id() -> str:
    return secrets.token_hex(8)


def valid_id(game_id: str) -> bool:
    """Only ids of our own making name a file: nothing else reaches the file system."""
    return isinstance(game_id, str) and GAME_ID.fullmatch(game_id) is not None


class Store:
    """The folder of game files."""

    def __init__(self, folder: str) -> None:
        self.folder = os.path.abspath(folder)
        os.makedirs(self.folder, exist_ok=True)

    def path(self, game_id: str) -> str:
        if not valid_id(game_id):
            raise KeyError(game_id)
        return os.path.join(self.folder, f"{game_id}.json")

    def save(self, game_id: str, document: Dict[str, Any]) -> None:
        """Write atomically: readers see the old file or the new one, never half of one."""
        text = json.dumps(dict(document, format=FORMAT, version=VERSION), indent=1)
        outputs.write_atomic(self.path(game_id), text, sync=True)

    def load(self, game_id: str) -> Dict[str, Any]:
        """The stored document; KeyError when there is none, ValueError when it is damaged."""
        path = self.path(game_id)
        try:
            with open(path, encoding="utf-8") as source:
                document = json.load(source)
        except FileNotFoundError:
            raise KeyError(game_id) from None
        except json.JSONDecodeError as error:
            raise ValueError(f"stored game {game_id} is not JSON: {error}") from None
        if (
            not isinstance(document, dict)
            or document.get("format") != FORMAT
            or document.get("version") != VERSION
        ):
            raise ValueError(f"stored game {game_id} is not a {FORMAT} version {VERSION} file")
        return document

    def ids(self) -> Iterator[str]:
        """The stored games, newest first."""
        names = [
            name[:-5]
            for name in os.listdir(self.folder)
            if name.endswith(".json") and valid_id(name[:-5])
        ]
        names.sort(key=lambda g: os.path.getmtime(self.path(g)), reverse=True)
        return iter(names)
