"""Self-play data, the one home of its format (docs/distributed.md "Self-play data"): the samples
of a shard's games as rows, then as arrays; a shard as one `.npz` file; a run's folder made
complete by its `manifest.json`, written last; the loader that checks both.

Two writers use it: `vikinger selfplay` (vikinger_fast.distributed.selfplay, MCTS games) and the
training loop (vikinger_fast.training.selfplay and .replay, games of the network search, with two
more per-sample arrays, `target` and `root_value`). Every file goes through
safety.outputs.write_atomic with a sync, so an interrupted run leaves no half-written file under
a final name and no manifest.
"""

import hashlib
import io
import os
import zipfile
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Optional, Protocol, Union

import numpy as np

from vikinger_ref.actions import NUM_DISTINCT_ACTIONS
from vikinger_ref.observation import observation_size

from .safety import files, json_limits, outputs

FORMAT = "vikinger-selfplay"
VERSION = 1
MANIFEST = "manifest.json"
# A shard is read whole: 4 GiB is about 200,000 games of MCTS self-play (about 19 KB a game).
MAX_SHARD_BYTES = 4 * 1024**3
# A run's folder, as a path text or a pathlib.Path.
Folder = Union[str, "os.PathLike[str]"]
# Per-sample arrays (one row per recorded decision) and per-game arrays (one row per game).
SAMPLE_ARRAYS = (
    "observation",
    "legal_mask",
    "policy",
    "player",
    "returns",
    "game",
    "ply",
    "action",
)
GAME_ARRAYS = ("game_number", "game_chance_seed", "game_returns", "game_fame", "game_length")


class _Executor(Protocol):
    """What vikinger_fast.distributed's executors offer: results by shard number."""

    def run(self, shards: Sequence[Any]) -> Iterator[tuple[int, tuple[bytes, int]]]: ...


def over_actions(actions: Sequence[int], values: Any) -> np.ndarray:
    """float32 over the whole action space: `values` at `actions`, 0 elsewhere."""
    spread = np.zeros(NUM_DISTINCT_ACTIONS, np.float32)
    spread[list(actions)] = values
    return spread


def visit_shares(actions: Sequence[int], visits: Sequence[int]) -> np.ndarray:
    """A root's visit distribution over the action space (visits / total)."""
    counts = np.asarray(visits, np.float64)
    return over_actions(actions, counts / counts.sum())


class Rows:
    """The samples and games of one shard as they are played, and then their arrays.

    `extra` names per-sample arrays beyond SAMPLE_ARRAYS: over the action space (training's
    `target`), or one column per player when the name is in `per_player` (training's
    `root_value`); they follow SAMPLE_ARRAYS in the file, so a shard's array order is the
    manifest's `sample_arrays` then `game_arrays`."""

    def __init__(
        self, players: int, extra: Sequence[str] = (), per_player: Sequence[str] = ()
    ) -> None:
        self.players = players
        self.extra = tuple(extra)
        unknown = sorted(set(per_player) - set(self.extra))
        if unknown:
            raise ValueError(f"per_player names {unknown[0]!r}, which is not an extra array")
        self.per_player = frozenset(per_player)
        self.samples: dict[str, list[Any]] = {
            key: [] for key in SAMPLE_ARRAYS + self.extra if key != "returns"
        }
        self.games: dict[str, list[Any]] = {key: [] for key in GAME_ARRAYS}

    def add(
        self, state: Any, game: int, policy: np.ndarray, action: int, **extra: np.ndarray
    ) -> None:
        """One decision of game number `game`, before `action` is applied to `state`."""
        player = state.current_player()
        self.samples["observation"].append(state.observation_tensor(player))
        self.samples["legal_mask"].append(state.legal_actions_mask())
        self.samples["policy"].append(policy)
        self.samples["player"].append(player)
        self.samples["game"].append(game)
        self.samples["ply"].append(len(state.history()))
        self.samples["action"].append(action)
        for key in self.extra:
            self.samples[key].append(extra[key])

    def end_game(self, number: int, chance_seed: int, state: Any) -> None:
        """Game `number` is over in `state`; its samples get its returns."""
        self.games["game_number"].append(number)
        self.games["game_chance_seed"].append(chance_seed)
        self.games["game_returns"].append(state.returns())
        self.games["game_fame"].append(state.scores())
        self.games["game_length"].append(len(state.history()))

    @property
    def count(self) -> int:
        return len(self.samples["player"])

    def arrays(self) -> dict[str, np.ndarray]:
        """Every array of the shard, in file order."""
        n, rows = self.players, self.samples
        by_game = dict(zip(self.games["game_number"], self.games["game_returns"]))
        arrays = {
            "observation": np.asarray(rows["observation"], np.float32).reshape(
                -1, observation_size(n)
            ),
            "legal_mask": np.asarray(rows["legal_mask"], bool).reshape(-1, NUM_DISTINCT_ACTIONS),
            "policy": np.asarray(rows["policy"], np.float32).reshape(-1, NUM_DISTINCT_ACTIONS),
            "player": np.asarray(rows["player"], np.int8),
            "returns": np.asarray([by_game[g] for g in rows["game"]], np.float32).reshape(-1, n),
            "game": np.asarray(rows["game"], np.int64),
            "ply": np.asarray(rows["ply"], np.int32),
            "action": np.asarray(rows["action"], np.int32),
        }
        for key in self.extra:
            width = n if key in self.per_player else NUM_DISTINCT_ACTIONS
            arrays[key] = np.asarray(rows[key], np.float32).reshape(-1, width)
        games = self.games
        arrays["game_number"] = np.asarray(games["game_number"], np.int64)
        arrays["game_chance_seed"] = np.asarray(games["game_chance_seed"], np.uint64)
        arrays["game_returns"] = np.asarray(games["game_returns"], np.float32).reshape(-1, n)
        arrays["game_fame"] = np.asarray(games["game_fame"], np.int32).reshape(-1, n)
        arrays["game_length"] = np.asarray(games["game_length"], np.int32)
        return arrays

    def shard(self) -> tuple[bytes, int]:
        """What a worker sends back: the shard file's bytes and its sample count (the driver
        writes every file, whichever machine played the games)."""
        return npz_bytes(self.arrays()), self.count


def npz_bytes(arrays: dict[str, np.ndarray]) -> bytes:
    """The arrays as a compressed .npz (what numpy.load reads), its members dated 1980-01-01 as
    the zip format allows, so the same arrays give the same bytes and the same SHA-256 (savez
    would stamp the time of writing)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, array in arrays.items():
            info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            with archive.open(info, "w", force_zip64=True) as member:
                np.lib.format.write_array(member, np.ascontiguousarray(array), allow_pickle=False)
    return buffer.getvalue()


def shard_name(number: int) -> str:
    return f"shard-{number:05d}.npz"


def write_shards(
    folder: Folder,
    executor: _Executor,
    shards: Sequence[Any],
    parts: Sequence[tuple[int, int]],
    bar: Any = None,
) -> list[dict[str, Any]]:
    """Runs `shards` (distributed.Shard, each returning Rows.shard()) on `executor` and writes
    each file as it arrives; returns the manifest's shard entries. `parts`: each shard's
    (first game, game count); `bar`: a progress bar advanced by games."""
    entries: list[dict[str, Any]] = [{} for _ in shards]
    for number, (data, samples) in executor.run(shards):
        outputs.write_atomic(os.path.join(folder, shard_name(number)), data, sync=True)
        first, count = parts[number]
        entries[number] = {
            "file": shard_name(number),
            "first_game": first,
            "games": count,
            "samples": samples,
            "sha256": hashlib.sha256(data).hexdigest(),
        }
        if bar:
            bar.update(count)
    return entries


def write_manifest(
    folder: Folder,
    entries: list[dict[str, Any]],
    *,
    engine: str,
    game: Any,
    bot: dict[str, Any],
    run: dict[str, Any],
    seed: int,
    games: int,
    shard_size: int,
    extra: Sequence[str] = (),
) -> dict[str, Any]:
    """Writes the manifest that makes `folder` complete, and returns it. `game`: the Game of
    the run; `bot`: {"name", "params"}; `run`: what else decides the data (self-play's
    `sample_moves`, training's `iteration`); `extra`: the per-sample arrays beyond
    SAMPLE_ARRAYS."""
    manifest = {
        "format": FORMAT,
        "version": VERSION,
        "engine": engine,
        "game": {"num_players": game.num_players, "options": game.options},
        "bot": bot,
        **run,
        "seed": seed,
        "games": games,
        "shard_size": shard_size,
        "samples": sum(entry["samples"] for entry in entries),
        "observation_size": game.observation_shape()[0],
        "num_distinct_actions": game.num_distinct_actions(),
        "sample_arrays": list(SAMPLE_ARRAYS + tuple(extra)),
        "game_arrays": list(GAME_ARRAYS),
        "shards": entries,
    }
    text = json_limits.dumps_strict(json_limits.non_finite_as_text(manifest), indent=1)
    outputs.write_atomic(os.path.join(folder, MANIFEST), text + "\n", sync=True)
    return manifest


def load_manifest(folder: Folder) -> dict[str, Any]:
    """The manifest of a finished run (safety.files.MissingFile, a FileNotFoundError, for an
    unfinished one; a ValueError naming it when it is not a regular file within
    json_limits.MAX_BYTES)."""
    path = os.path.join(folder, MANIFEST)
    manifest = json_limits.loads_limited(files.read_regular(path, json_limits.MAX_BYTES), path)
    if (
        not isinstance(manifest, dict)
        or manifest.get("format") != FORMAT
        or manifest.get("version") != VERSION
    ):
        raise ValueError(f"{folder}: not a {FORMAT} version {VERSION} manifest")
    shards = manifest.get("shards")
    # A manifest names its shard files: only this run's own names, so that a crafted one
    # cannot make load() read files outside the folder.
    if (
        not isinstance(shards, list)
        or not shards
        or not all(
            isinstance(entry, dict)
            and entry.get("file") == shard_name(number)
            and isinstance(entry.get("sha256"), str)
            for number, entry in enumerate(shards)
        )
    ):
        raise ValueError(
            f"{path}: 'shards' must list shard-00000.npz, shard-00001.npz, ... "
            "in order, each with its sha256"
        )
    return manifest


def load(
    folder: Folder, keys: Optional[Iterable[str]] = None, check: bool = True
) -> dict[str, np.ndarray]:
    """The `keys` arrays (default: all) of a finished run, the shards concatenated in order.
    With `check`, each file's SHA-256 is compared with the manifest (ValueError naming the
    file). Each shard is opened by safety.files: a regular file (a link to one is followed) of
    at most MAX_SHARD_BYTES; a FIFO, a device, a folder or a missing shard is a ValueError
    naming it, and nothing blocks."""
    manifest = load_manifest(folder)
    wanted = None if keys is None else tuple(keys)
    parts = []
    for entry in manifest["shards"]:
        path = os.path.join(folder, entry["file"])
        data = files.read_regular(path, MAX_SHARD_BYTES)
        if check and hashlib.sha256(data).hexdigest() != entry["sha256"]:
            raise ValueError(f"{path}: its SHA-256 is not the manifest's (changed or damaged)")
        # Never allow_pickle: an object array in a file a user is handed would run code.
        with np.load(io.BytesIO(data), allow_pickle=False) as arrays:
            parts.append({key: arrays[key] for key in (wanted or arrays.files)})
    return {key: np.concatenate([part[key] for part in parts]) for key in parts[0]}
