"""The games of `vikinger serve` on disk: one JSON file per game in the store folder, rewritten
atomically (a temporary file in the same folder, flushed, fsynced, then renamed over the old one)
after every move, so a reload or a server restart finds every game as it was, and a crash in the
middle of a write leaves the previous version whole.

A game file holds what rebuilds the game exactly: the options, the seats, the seed and the
history of actions (chance included); the state is the replay of that history (docs/web.md).

A stored file is data, never code: it is read only if it is a regular file of at most 1 MiB
nesting at most 4 levels, every field is checked (a field the server does not write is refused),
and its bots must be specs the server may build (`bot_spec`, web/bots.py): built-in bots within
the caps, networks by the names given at start. A file that names a user's `module:Class`, a
`model=` path or anything else is refused on load with a ValueError saying why; the other games
of the folder load as before.
"""

import json
import os
import re
import secrets
import tempfile
from typing import Any, Callable, Dict, Iterator

from vikinger_ref import OPTION_NAMES

from ..safety import files, outputs
from ..safety.json_limits import loads_limited

FORMAT = "vikinger-web-game"
VERSION = 1
GAME_ID = re.compile(r"[0-9a-f]{16}")
MAX_FILE = 1024 * 1024  # a whole 4-player game with every module is about 3 KB
MAX_DEPTH = 4  # the document, its bots, options and lists
# every field WebGame writes (session.py), and the format's own two; any other is refused
FIELDS = {"format", "version", "id", "num_players", "seat", "seed", "options", "bots"}
FIELDS |= {"human_turns", "history", "finished"}


def new_id() -> str:
    return secrets.token_hex(8)


def valid_id(game_id: str) -> bool:
    """Only ids of our own making name a file: nothing else reaches the file system."""
    return isinstance(game_id, str) and GAME_ID.fullmatch(game_id) is not None


def game_folder(folder: str) -> str:
    """`folder` as an absolute path, created if missing, after a real write in it (a temporary
    file, removed at once: permissions alone do not tell a read-only file system, nor what root
    may do); ValueError saying why when the games cannot be kept there."""
    path = os.path.abspath(folder)
    if os.path.exists(path) and not os.path.isdir(path):
        raise ValueError(f"{folder} is a file, not a folder")
    try:
        os.makedirs(path, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path, prefix=".write-check-"):
            pass
    except OSError as error:
        raise ValueError(f"games cannot be kept in {folder}: {error.strerror or error}") from None
    return path


class Store:
    """The folder of game files. `bot_spec(text)` gives the arena spec of a bot a stored game may
    name (ValueError for any other)."""

    def __init__(self, folder: str, bot_spec: Callable[[str], Any]) -> None:
        self.folder = game_folder(folder)
        self.bot_spec = bot_spec

    def path(self, game_id: str) -> str:
        if not valid_id(game_id):
            raise KeyError(game_id)
        return os.path.join(self.folder, f"{game_id}.json")

    def save(self, game_id: str, document: Dict[str, Any]) -> None:
        """Write atomically: readers see the old file or the new one, never half of one."""
        text = json.dumps(dict(document, format=FORMAT, version=VERSION), indent=1)
        outputs.write_atomic(self.path(game_id), text, sync=True)

    def load(self, game_id: str) -> Dict[str, Any]:
        """The stored document, checked; KeyError when there is none, ValueError saying why
        when it is damaged or names a bot this server does not build."""
        what = f"stored game {game_id}"
        try:
            # A regular file the server wrote: a FIFO, a device or a symbolic link put in the
            # folder under a game's name is refused without blocking or being read.
            data = files.read_regular(self.path(game_id), MAX_FILE, what, follow_symlinks=False)
        except files.MissingFile:
            raise KeyError(game_id) from None
        document = loads_limited(data, what, max_depth=MAX_DEPTH, max_bytes=MAX_FILE)
        if (
            not isinstance(document, dict)
            or document.get("format") != FORMAT
            or document.get("version") != VERSION
        ):
            raise ValueError(f"{what} is not a {FORMAT} version {VERSION} file")
        _check_fields(document, game_id)
        for text in document["bots"].values():
            try:
                self.bot_spec(text)
            except ValueError as error:
                raise ValueError(f"{what} is refused: {error}") from None
        return document

    def ids(self) -> Iterator[str]:
        """The stored games, newest first."""
        names = [
            name[:-5]
            for name in os.listdir(self.folder)
            if name.endswith(".json") and valid_id(name[:-5])
        ]
        names.sort(key=self._modified, reverse=True)
        return iter(names)

    def _modified(self, game_id: str) -> float:
        try:
            return os.path.getmtime(self.path(game_id))
        except OSError:  # removed since the folder was listed: loading it says so
            return 0.0


def _check_fields(document: Dict[str, Any], game_id: str) -> None:
    """ValueError naming the first field of a stored game that is not as WebGame writes it."""

    def bad(field: str, wanted: str) -> ValueError:
        return ValueError(f"stored game {game_id}: {field!r} must be {wanted}")

    unknown = sorted(set(document) - FIELDS)
    if unknown:
        raise ValueError(
            f"stored game {game_id}: unknown field {unknown[0]!r} (a game file holds only "
            f"{', '.join(sorted(FIELDS))})"
        )
    if document.get("id") != game_id:
        raise bad("id", f"{game_id!r}, the name of its file")
    players = document.get("num_players")
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
        raise bad("num_players", "2, 3 or 4")
    seat = document.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise bad("seat", f"a seat in 0..{players - 1}")
    seed = document.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise bad("seed", "an integer in 0..2**63-1")
    options = document.get("options")
    if (
        not isinstance(options, dict)
        or set(options) - set(OPTION_NAMES)
        or not all(isinstance(on, bool) for on in options.values())
    ):
        raise bad("options", f"a map of some of {', '.join(OPTION_NAMES)} to true or false")
    bots = document.get("bots")
    seats = {str(p) for p in range(players) if p != seat}
    if (
        not isinstance(bots, dict)
        or set(bots) != seats
        or not all(isinstance(text, str) for text in bots.values())
    ):
        raise bad("bots", f"a bot spec for each of the seats {', '.join(sorted(seats))}")
    for field in ("history", "human_turns"):
        values = document.get(field)
        if not isinstance(values, list) or not all(type(v) is int and v >= 0 for v in values):
            raise bad(field, "a list of integers >= 0")
    if not isinstance(document.get("finished", False), bool):
        raise bad("finished", "true or false")
