"""MCTS self-play games as training data: shards of `.npz` arrays and a JSON manifest
(`vikinger selfplay`, docs/distributed.md "Self-play data").

Game g of a run with seed S draws its chance outcomes from numpy's default_rng seeded with
`arena.chance_seed(S, g)` (one uniform per chance node, as arena deal g does), and one MCTSBot
seeded `arena.bot_seed(S, g, 0)` searches for every seat. At each decision node with two or more
legal actions a sample is kept: the mover's observation, the legal mask, the root visit shares
over the whole action space, the mover, and (once the game is over) every seat's return. The move
played is, for the first `sample_moves` decisions of the game, drawn in proportion to the visits
(x = floor(u * total visits), the first action whose running count exceeds x, u from
default_rng(`arena.bot_seed(S, g, 1)`)), later the most visited one (the lowest id on a tie).
So a game depends on S, g and the parameters alone: any sharding and either engine give the
same arrays (tested).

A shard (games first..first+count-1) is one `shard-NNNNN.npz`; the manifest `manifest.json`,
written last, lists the shards with their SHA-256 and is what makes a folder complete.
"""

import hashlib
import io
import os
import zipfile

import numpy as np

from vikinger_ref.arguments import is_integer

from .. import arena, distributed
from ..safety import json_limits

FORMAT = "vikinger-selfplay"
VERSION = 1
MANIFEST = "manifest.json"
MCTS_KEYS = ("iterations", "uct_c", "leaf", "threads", "solver_nodes")
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


def play_game(engine, game, seed, number, mcts, sample_moves):
    """The samples (dict of lists) and the summary of self-play game `number`."""
    bot = engine.MCTSBot(game, arena.bot_seed(seed, number, 0), **mcts)
    chance_seed = arena.chance_seed(seed, number)
    chance = np.random.default_rng(chance_seed)
    moves = np.random.default_rng(arena.bot_seed(seed, number, 1))
    samples = {
        key: [] for key in ("observation", "legal_mask", "policy", "player", "ply", "action")
    }
    policy_size = game.num_distinct_actions()
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_random_chance(chance)
            continue
        result = bot.search(state)
        actions, visits = result["actions"], result["visits"]
        total = sum(visits)
        if decisions < sample_moves:
            x = int(moves.random() * total)
            running, choice = 0, len(actions) - 1
            for i, count in enumerate(visits):
                running += count
                if running > x:
                    choice = i
                    break
        else:
            choice = visits.index(max(visits))
        if len(actions) > 1:
            player = state.current_player()
            policy = np.zeros(policy_size, np.float32)
            policy[actions] = np.asarray(visits, np.float64) / total
            samples["observation"].append(state.observation_tensor(player))
            samples["legal_mask"].append(state.legal_actions_mask())
            samples["policy"].append(policy)
            samples["player"].append(player)
            samples["ply"].append(len(state.history()))
            samples["action"].append(actions[choice])
        decisions += 1
        state.apply_action(actions[choice])
    summary = {
        "number": number,
        "chance_seed": chance_seed,
        "returns": state.returns(),
        "fame": state.scores(),
        "length": len(state.history()),
    }
    return samples, summary


def _shard_arrays(engine, game, seed, first, count, mcts, sample_moves):
    n = game.num_players
    rows = {key: [] for key in SAMPLE_ARRAYS}
    games = {key: [] for key in GAME_ARRAYS}
    for number in range(first, first + count):
        samples, summary = play_game(engine, game, seed, number, mcts, sample_moves)
        for key, values in samples.items():
            rows[key].extend(values)
        taken = len(samples["player"])
        rows["returns"].extend([summary["returns"]] * taken)
        rows["game"].extend([number] * taken)
        games["game_number"].append(number)
        games["game_chance_seed"].append(summary["chance_seed"])
        games["game_returns"].append(summary["returns"])
        games["game_fame"].append(summary["fame"])
        games["game_length"].append(summary["length"])
    obs, actions = game.observation_shape()[0], game.num_distinct_actions()
    return {
        "observation": np.asarray(rows["observation"], np.float32).reshape(-1, obs),
        "legal_mask": np.asarray(rows["legal_mask"], bool).reshape(-1, actions),
        "policy": np.asarray(rows["policy"], np.float32).reshape(-1, actions),
        "player": np.asarray(rows["player"], np.int8),
        "returns": np.asarray(rows["returns"], np.float32).reshape(-1, n),
        "game": np.asarray(rows["game"], np.int64),
        "ply": np.asarray(rows["ply"], np.int32),
        "action": np.asarray(rows["action"], np.int32),
        "game_number": np.asarray(games["game_number"], np.int64),
        "game_chance_seed": np.asarray(games["game_chance_seed"], np.uint64),
        "game_returns": np.asarray(games["game_returns"], np.float32).reshape(-1, n),
        "game_fame": np.asarray(games["game_fame"], np.int32).reshape(-1, n),
        "game_length": np.asarray(games["game_length"], np.int32),
    }


def _selfplay_shard(payload):
    """A worker's part: the shard's games played, returned as the bytes of its .npz file (so the
    driver writes every file, whichever machine played them)."""
    engine_name, game, seed, first, count, mcts, sample_moves = payload
    engine = arena.engine_module(engine_name)
    arrays = _shard_arrays(engine, game, seed, first, count, mcts, sample_moves)
    return npz_bytes(arrays), int(arrays["player"].shape[0])


def npz_bytes(arrays):
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


def shard_name(number):
    return f"shard-{number:05d}.npz"


def _write_atomically(path, data):
    # A temporary name in the same folder, then a rename: a reader never sees a half-written
    # file under the final name.
    temporary = f"{path}.tmp-{os.getpid()}"
    with open(temporary, "wb") as out:
        out.write(data)
        out.flush()
        os.fsync(out.fileno())
    os.replace(temporary, path)


def check_mcts(mcts):
    """The MCTSBot keywords of a self-play run: an iteration budget and no time budget."""
    if mcts.get("iterations") is None or "max_time" in mcts:
        raise ValueError(
            "self-play needs an iteration budget and no max_time (a time budget "
            "would make the data depend on the machine)"
        )
    unknown = sorted(set(mcts) - set(MCTS_KEYS))
    if unknown:
        raise ValueError(f"unknown MCTS parameter {unknown[0]!r} (known: {', '.join(MCTS_KEYS)})")
    return dict(mcts)


def generate(
    out,
    games,
    seed=0,
    *,
    players=2,
    engine="fast",
    mcts=None,
    sample_moves=30,
    shard_size=distributed.ARENA_SHARD,
    executor=None,
    progress=False,
    options=None,
):
    """Play `games` self-play games into the folder `out` (created); returns the manifest.

    `mcts`: MCTSBot keywords (`iterations` required; default {"iterations": 200}). `options`:
    the Game's module flags. A folder that already holds a manifest is refused; shard files are
    written as they arrive, each under a temporary name first, and the manifest last."""
    mcts = check_mcts({"iterations": 200} if mcts is None else mcts)
    if not is_integer(sample_moves) or sample_moves < 0:
        raise ValueError(f"sample_moves must be an int >= 0, not {sample_moves!r}")
    if not is_integer(games) or games < 1:
        raise ValueError(f"games must be an int >= 1, not {games!r}")
    if not is_integer(seed):
        raise TypeError(f"seed must be an int, not {type(seed).__name__}")
    games, sample_moves, seed = int(games), int(sample_moves), int(seed)  # numpy ints too
    module = arena.engine_module(engine)
    game = module.Game(num_players=players, **(options or {}))
    module.MCTSBot(game, 0, **mcts)  # the parameters checked here, not in every shard
    os.makedirs(out, exist_ok=True)
    manifest_path = os.path.join(out, MANIFEST)
    if os.path.exists(manifest_path):
        raise FileExistsError(
            f"{manifest_path} exists: that folder holds a finished run; choose another folder"
        )
    parts = distributed.ranges(games, shard_size)
    shard_size = int(shard_size)
    shards = [
        distributed.Shard(
            _selfplay_shard,
            (engine, game, seed, first, count, mcts, sample_moves),
            count,
            f"games {first}..{first + count - 1} of seed {seed}",
        )
        for first, count in parts
    ]
    entries = [None] * len(shards)
    executor = executor or distributed.LocalProcesses(1)
    bar = arena._progress(games, progress)
    try:
        for number, (data, samples) in executor.run(shards):
            _write_atomically(os.path.join(out, shard_name(number)), data)
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
    finally:
        if bar:
            bar.close()
    manifest = {
        "format": FORMAT,
        "version": VERSION,
        "engine": engine,
        "game": {"num_players": players, "options": game.options},
        "bot": {"name": "mcts", "params": mcts},
        "sample_moves": sample_moves,
        "seed": seed,
        "games": games,
        "shard_size": shard_size,
        "samples": sum(e["samples"] for e in entries),
        "observation_size": game.observation_shape()[0],
        "num_distinct_actions": game.num_distinct_actions(),
        "sample_arrays": list(SAMPLE_ARRAYS),
        "game_arrays": list(GAME_ARRAYS),
        "shards": entries,
    }
    _write_atomically(
        manifest_path,
        (
            json_limits.dumps_strict(json_limits.non_finite_as_text(manifest), indent=1) + "\n"
        ).encode(),
    )
    return manifest


def load_manifest(folder):
    """The manifest of a finished run (FileNotFoundError for an unfinished one)."""
    path = os.path.join(folder, MANIFEST)
    with open(path, "rb") as source:
        manifest = json_limits.loads_limited(source.read(json_limits.MAX_BYTES + 1), path)
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


def load(folder, check=True):
    """Every array of a finished run, the shards concatenated in order. With `check`, each
    file's SHA-256 is compared with the manifest (ValueError naming the file)."""
    manifest = load_manifest(folder)
    parts = []
    for entry in manifest["shards"]:
        path = os.path.join(folder, entry["file"])
        with open(path, "rb") as source:
            data = source.read()
        if check and hashlib.sha256(data).hexdigest() != entry["sha256"]:
            raise ValueError(f"{path}: its SHA-256 is not the manifest's (changed or damaged)")
        # Never allow_pickle: an object array in a file a user is handed would run code.
        with np.load(io.BytesIO(data), allow_pickle=False) as arrays:
            parts.append({key: arrays[key] for key in arrays.files})
    return {key: np.concatenate([part[key] for part in parts]) for key in parts[0]}
