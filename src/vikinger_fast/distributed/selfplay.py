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
written last, lists the shards with their SHA-256 and is what makes a folder complete (the
format, its writer and its loader: vikinger_fast.selfplay_data).
"""

import os
from types import ModuleType
from typing import Any, Optional

import numpy as np

from vikinger_ref.arguments import is_integer

from .. import arena, distributed, selfplay_data
from ..progress import progress_bar

MCTS_KEYS = ("iterations", "uct_c", "leaf", "threads", "solver_nodes")


def play_game(
    engine: ModuleType,
    game: Any,
    seed: int,
    number: int,
    mcts: dict[str, Any],
    sample_moves: int,
    rows: selfplay_data.Rows,
) -> None:
    """Plays self-play game `number`, its samples and summary added to `rows`."""
    bot = engine.MCTSBot(game, arena.bot_seed(seed, number, 0), **mcts)
    chance_seed = arena.chance_seed(seed, number)
    chance = np.random.default_rng(chance_seed)
    moves = np.random.default_rng(arena.bot_seed(seed, number, 1))
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_random_chance(chance)
            continue
        result = bot.search(state)
        actions, visits = result["actions"], result["visits"]
        if decisions < sample_moves:
            x = int(moves.random() * sum(visits))
            running, choice = 0, len(actions) - 1
            for i, count in enumerate(visits):
                running += count
                if running > x:
                    choice = i
                    break
        else:
            choice = visits.index(max(visits))
        if len(actions) > 1:
            rows.add(state, number, selfplay_data.visit_shares(actions, visits), actions[choice])
        decisions += 1
        state.apply_action(actions[choice])
    rows.end_game(number, chance_seed, state)


def _selfplay_shard(
    payload: tuple[str, Any, int, int, int, dict[str, Any], int],
) -> tuple[bytes, int]:
    """A worker's part: the shard's games played, returned as the bytes of its .npz file."""
    engine_name, game, seed, first, count, mcts, sample_moves = payload
    engine = arena.engine_module(engine_name)
    rows = selfplay_data.Rows(game.num_players)
    for number in range(first, first + count):
        play_game(engine, game, seed, number, mcts, sample_moves, rows)
    return rows.shard()


def check_mcts(mcts: dict[str, Any]) -> dict[str, Any]:
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
    out: selfplay_data.Folder,
    games: int,
    seed: int = 0,
    *,
    players: int = 2,
    engine: str = "fast",
    mcts: Optional[dict[str, Any]] = None,
    sample_moves: int = 30,
    shard_size: int = distributed.ARENA_SHARD,
    executor: Optional[distributed.Executor] = None,
    progress: bool = False,
    options: Optional[dict[str, bool]] = None,
) -> dict[str, Any]:
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
    manifest_path = os.path.join(out, selfplay_data.MANIFEST)
    if os.path.exists(manifest_path):
        raise FileExistsError(
            f"{manifest_path} exists: that folder holds a finished run; choose another folder"
        )
    parts = distributed.ranges(games, shard_size)
    shards = [
        distributed.Shard(
            _selfplay_shard,
            (engine, game, seed, first, count, mcts, sample_moves),
            count,
            f"games {first}..{first + count - 1} of seed {seed}",
        )
        for first, count in parts
    ]
    executor = executor or distributed.LocalProcesses(1)
    bar = progress_bar(games, progress)
    try:
        entries = selfplay_data.write_shards(out, executor, shards, parts, bar)
    finally:
        if bar:
            bar.close()
    return selfplay_data.write_manifest(
        out,
        entries,
        engine=engine,
        game=game,
        bot={"name": "mcts", "params": mcts},
        run={"sample_moves": sample_moves},
        seed=seed,
        games=games,
        shard_size=int(shard_size),
    )
