"""The arena's journal, `games.jsonl` in the output folder (`vikinger arena --resume`,
docs/arena.md "Long runs"): a header line naming the run, then one line per finished game, its
number in the schedule and its record, appended and flushed to disk as the game ends.

Every game depends on its task alone (arena.py), so a run stopped at any point (Ctrl-C, SIGTERM,
the end of a working session) and resumed plays only the games its journal lacks, and ends with
the files an unbroken run writes. A resumed journal is checked line by line before any game is
played: the header must name the same run (engine, entrants, players, module set, seed, deals),
every game line must be a game of the schedule whose record replays to its recorded result with
the entrants of its seats, the module set and the deal's chance seed. A last line cut short by the
stop is dropped (its game is played again); any other bad line is a ValueError naming it, and
nothing is written.
"""

import os
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import IO, Any

from .. import module_sets, records
from ..safety import json_limits
from . import Job, identity, summary

NAME = "games.jsonl"
FORMAT = "vikinger arena journal 1"
# The fields of the results' config that make two runs the same schedule (arena's cli.run).
RUN_KEYS = ("engine", "entrants", "players", "modules", "seed", "deals")
# What a header written before a field existed means by its absence: a journal without
# "modules" is of the base game.
ABSENT = {"modules": module_sets.NONE}


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


def start(folder: str, config: Mapping[str, Any]) -> Journal:
    """A new journal in `folder` (created if absent), replacing an earlier one (--force)."""
    os.makedirs(folder, exist_ok=True)
    path = path_in(folder)
    handle = open(path, "w", encoding="utf-8")
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
    if not os.path.isfile(path):
        raise ValueError(f"--resume: {folder} has no {NAME}: there is no run to resume there")
    lines, keep = _read_lines(path)
    if not lines:
        raise ValueError(f"--resume: {path} is empty")
    _check_header(path, lines[0], config)
    done: dict[int, dict[str, Any]] = {}
    for index, line in enumerate(lines[1:], start=2):
        number, game = _game_line(line, tasks, engine, f"--resume: {path} line {index}")
        if number in done:
            raise ValueError(f"--resume: {path} line {index}: game {number} is there twice")
        done[number] = game
    handle = open(path, "r+", encoding="utf-8")
    handle.truncate(keep)  # a line cut short by the stop goes; its game is played again
    handle.seek(keep)
    return Journal(path, handle, done)


def _read_lines(path: str) -> tuple[list[str], int]:
    """The complete lines of the file and their length in bytes (a last line without its
    newline is cut short: not counted)."""
    lines: list[str] = []
    keep = 0
    with open(path, "rb") as source:
        while True:
            raw = source.readline(json_limits.MAX_BYTES + 1)
            if not raw.endswith(b"\n"):
                if len(raw) > json_limits.MAX_BYTES:
                    raise ValueError(f"--resume: {path} line {len(lines) + 1} is too long")
                return lines, keep
            try:
                lines.append(raw.decode("utf-8"))
            except UnicodeDecodeError as error:
                raise ValueError(f"--resume: {path} line {len(lines) + 1}: {error}") from None
            keep += len(raw)


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
        final = records.replay(record, engine)  # every move legal, the result the moves' result
    except ValueError as error:
        raise ValueError(f"{where} (game {number}): {error}") from None
    if not final.is_terminal():
        raise ValueError(f"{where} (game {number}): the game is not over")
    for key, value in identity(tasks[number]).items():
        if record[key] != value:
            raise ValueError(
                f"{where} (game {number}): its record's {key} is {record[key]!r}, the "
                f"schedule's {value!r}"
            )
    return number, summary(tasks[number], record)
