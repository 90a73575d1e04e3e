"""The arena's journal, `games.jsonl` in the output folder (`vikinger arena --resume`,
docs/arena.md "Long runs"): a header line naming the run, then one line per finished game, its
number in the schedule and its record, appended and flushed to disk as the game ends.

Every game depends on its task alone (arena.py), so a run stopped at any point (Ctrl-C, SIGTERM,
the end of a working session) and resumed plays only the games its journal lacks, and ends with
the files an unbroken run writes. A resumed journal is checked line by line before any game is
played: the header must name the same run (engine, entrants, players, module set, seed, deals),
every game line must be a game of the schedule whose record replays to its recorded result with
the entrants of its seats, the module set and the deal's chance seed, every chance outcome the one
that seed deals (another legal game under the same seed is refused). A last line cut short by the
stop is dropped (its game is played again); any other bad line is a ValueError naming it, and
nothing is written. The journal is read as it is checked, a line at a time: a line over MAX_LINE
bytes, or a file over MAX_LINE per game of the schedule, is refused unread; a journal that is a
symbolic link, a FIFO or a device is refused (safety.files), never followed or read.
"""

import os
import stat
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import IO, Any

import numpy as np

from .. import module_sets, records
from ..safety import files, json_limits
from . import Job, identity, summary

NAME = "games.jsonl"
FORMAT = "vikinger arena journal 1"
# The fields of the results' config that make two runs the same schedule (arena's cli.run).
RUN_KEYS = ("engine", "entrants", "players", "modules", "seed", "deals")
# What a header written before a field existed means by its absence: a journal without
# "modules" is of the base game.
ABSENT = {"modules": module_sets.NONE}
# A game's line is about 20 KB (a 4-player game with every module, 320 moves).
MAX_LINE = 1024 * 1024
# What a run writes in its folder (report.write_outputs): none may be a symbolic link.
RUN_FILES = (NAME, "results.json", "results.csv", "games.csv")
RUN_FOLDERS = ("records",)


def path_in(folder: str) -> str:
    return os.path.join(folder, NAME)


def _header(config: Mapping[str, Any]) -> str:
    run = {key: config[key] for key in RUN_KEYS}
    return json_limits.dumps_strict({"format": FORMAT, "run": run}) + "\n"


class Journal:
    """An open journal: `done` maps game numbers to their summaries (arena.summary) read back
    on resuming; `add(number, game)` appends a finished game."""

    def __init__(self, path: str, handle: IO[str], done: dict[int, dict[str, Any]]) -> None:
        self.path, self._handle, self.done = path, handle, done

    def add(self, number: int, game: Mapping[str, Any]) -> None:
        line = json_limits.dumps_strict({"game": number, "record": game["record"]})
        self._handle.write(line + "\n")
        self._handle.flush()
        os.fsync(self._handle.fileno())  # a game takes seconds; losing none is worth a sync

    def close(self) -> None:
        self._handle.close()

    def __enter__(self) -> "Journal":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _open_for_writing(path: str, flags: int, where: str) -> IO[str]:
    """`path` opened to write (never through a symbolic link, never blocking on a FIFO), a
    regular file; ValueError naming it otherwise."""
    try:
        fd = os.open(path, flags | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, 0o666)
    except OSError as error:
        if os.path.islink(path):
            raise ValueError(f"{where}: {path} is a symbolic link, refused") from None
        raise ValueError(f"{where}: cannot write {path}: {error.strerror}") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise ValueError(f"{where}: {path} is not a regular file")
    os.set_blocking(fd, True)
    return os.fdopen(fd, "r+", encoding="utf-8")


def start(folder: str, config: Mapping[str, Any]) -> Journal:
    """A new journal in `folder` (created if absent), replacing an earlier one (--force)."""
    os.makedirs(folder, exist_ok=True)
    path = path_in(folder)
    handle = _open_for_writing(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, "--out")
    handle.write(_header(config))
    handle.flush()
    return Journal(path, handle, {})


def resume(
    folder: str, config: Mapping[str, Any], tasks: Sequence[Job], engine: ModuleType
) -> Journal:
    """The journal of an earlier run in `folder`, checked against this run's `config` and its
    schedule `tasks` (arena.jobs_of), every record replayed in `engine`. Raises ValueError
    naming the problem, before anything is written."""
    path = path_in(folder)
    where = f"--resume: {path}"
    try:
        source = files.open_regular(path, (len(tasks) + 1) * MAX_LINE, where, follow_symlinks=False)
    except files.MissingFile:
        raise ValueError(
            f"--resume: {folder} has no {NAME}: there is no run to resume there"
        ) from None
    done: dict[int, dict[str, Any]] = {}
    keep = 0  # the bytes of the complete lines
    with source:
        read = os.fstat(source.fileno())
        for index, raw in enumerate(files.bounded_lines(source, MAX_LINE, where), start=1):
            if not raw.endswith(b"\n"):
                break  # a line cut short by the stop: dropped, its game played again
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as error:
                raise ValueError(f"{where} line {index}: {error}") from None
            if index == 1:
                _check_header(path, line, config)
            else:
                number, game = _game_line(line, tasks, engine, f"{where} line {index}")
                if number in done:
                    raise ValueError(f"{where} line {index}: game {number} is there twice")
                done[number] = game
            keep += len(raw)
    if not keep:
        raise ValueError(f"--resume: {path} is empty")
    handle = _open_for_writing(path, os.O_RDWR, "--resume")
    now = os.fstat(handle.fileno())
    if (now.st_dev, now.st_ino) != (read.st_dev, read.st_ino):
        handle.close()
        raise ValueError(f"{where}: replaced while it was read")
    handle.truncate(keep)  # a line cut short by the stop goes; its game is played again
    handle.seek(keep)
    return Journal(path, handle, done)


def _check_header(path: str, line: str, config: Mapping[str, Any]) -> None:
    where = f"--resume: {path} line 1"
    header = json_limits.loads_limited(line, "a journal header")
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ValueError(f"{where}: not a journal of vikinger arena ({FORMAT!r})")
    run = header.get("run")
    if not isinstance(run, dict):
        raise ValueError(f"{where}: no run")
    for key in RUN_KEYS:
        if run.get(key, ABSENT.get(key)) != config[key]:
            raise ValueError(
                f"--resume: {path} is another run's: its {key} is "
                f"{run.get(key, ABSENT.get(key))!r}, this run's {config[key]!r} (resume with the "
                "same bots, --players, --modules, --seed, --games and --engine)"
            )


def _game_line(
    line: str, tasks: Sequence[Job], engine: ModuleType, where: str
) -> tuple[int, dict[str, Any]]:
    try:
        entry = json_limits.loads_limited(line, "a journal line")
    except ValueError as error:
        raise ValueError(f"{where}: {error}") from None
    if not isinstance(entry, dict) or set(entry) != {"game", "record"}:
        raise ValueError(f"{where}: not a game line ({{'game': number, 'record': ...}})")
    number = entry["game"]
    if not isinstance(number, int) or isinstance(number, bool) or not 0 <= number < len(tasks):
        raise ValueError(f"{where}: game {number!r} is not in the schedule (0..{len(tasks) - 1})")
    record = entry["record"]
    try:
        records.check_structure(record)
    except ValueError as error:
        raise ValueError(f"{where} (game {number}): {error}") from None
    for key, value in identity(tasks[number]).items():
        if record[key] != value:
            raise ValueError(
                f"{where} (game {number}): its record's {key} is {record[key]!r}, the "
                f"schedule's {value!r}"
            )
    try:
        final = _replay_dealt(record, engine)
    except ValueError as error:
        raise ValueError(f"{where} (game {number}): {error}") from None
    if not final.is_terminal():
        raise ValueError(f"{where} (game {number}): the game is not over")
    return number, summary(tasks[number], record)


def _replay_dealt(record: dict[str, Any], engine: ModuleType) -> Any:
    """The record replayed in `engine` (every move legal, the result the moves' result), each
    chance outcome checked against the one its seed deals: the arena draws a deal's outcomes
    from numpy's default_rng(seed), one uniform per chance node in order
    (arena.play_bots, State.apply_random_chance), so the record of a game of the deal has
    exactly those outcomes. Returns the final state; ValueError naming the first move that
    differs."""
    moves = record["moves"]
    rng = np.random.default_rng(record["seed"])
    final = None
    for index, state in enumerate(records.states(record, engine)):
        final = state
        if index < len(moves) and state.is_chance_node():
            dealt = state.apply_random_chance(rng)  # `state` is the generator's copy
            if moves[index]["action"] != dealt:
                raise ValueError(
                    f"move {index} ({moves[index]['string']!r}): chance outcome "
                    f"{moves[index]['action']} recorded, but seed {record['seed']} deals "
                    f"{dealt} ({state.action_to_string(dealt)!r}) there"
                )
    return final
