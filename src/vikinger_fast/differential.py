"""The engine-comparison layer: one seeded game through two engines, and the first difference.

docs/api.md asks the two engines for "same everything": same legal lists, strings, dicts, bytes,
tensors, scores and errors. `play` drives both through the same game action by action and, after
every action, compares what the API shows; it returns the first `Difference` or None.

It is the only comparison of the two engines: `vikinger soak` runs it, and the tests
(tests/api/test_differential.py, the state machine, the random games) and the fuzzers
(fuzz/oracles.py) compare through `outcome`, `first_difference` and `compare_fields`. It ships
in the package, not with the tooling, because `vikinger soak` is a product command: a user
checks a build of the C++ engine on their machine against the reference with it. The engines are
passed in as modules (`vikinger_ref`, `vikinger_fast`, or anything with the same API); only the
flag names come from the reference, which states the rules.

Game `seed` of a configuration: a `random.Random(seed)` stream gives, at a chance node, a 64-bit
int seed that both engines' `apply_random_chance` turn into the same outcome, and at a decision
node a `choice` over `legal_actions()`. Probes of illegal calls use a second stream, so they never
change which game is played.
"""

import importlib
import io
import multiprocessing
import pickle
import random
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

import numpy as np

from vikinger_ref import OPTION_NAMES

from .safety import interrupts

PLAYER_COUNTS = (2, 3, 4)
# The sets of advanced flags (A1-A5: auction, draw13, offer_by_colour, weak_boatsmen,
# special_tiles) that the differential games and the soak are played with: all 32 combinations,
# base game first (tools/playthrough.py records a few of them).
FLAG_SETS = tuple(
    tuple(name for i, name in enumerate(OPTION_NAMES) if mask >> i & 1)
    for mask in range(1 << len(OPTION_NAMES))
)
MAX_STEPS = 5000  # far above any game (about 300 actions); reaching it is itself a difference

# Illegal arguments tried at every step (docs/api.md, "Errors").
OUT_OF_RANGE_IDS = (-1, 2036, 1 << 31, -(1 << 63))
WRONG_TYPES = (1.0, "0", None, True, np.float64(2.0), [0])
BAD_ACTION_STRINGS = ("", "buy:12", "tile:r0c1", "reveal:ship_purple", "BUY:0")


@dataclass(frozen=True)
class Config:
    """A game configuration: the number of players and the advanced flags switched on."""

    num_players: int
    flags: tuple = ()

    @property
    def name(self):
        """'2p', or e.g. '3p-auction-draw13'; also the playthrough file name."""
        return "-".join([f"{self.num_players}p", *self.flags])

    def game(self, engine):
        return engine.Game(num_players=self.num_players, **dict.fromkeys(self.flags, True))

    def __str__(self):
        return self.name


CONFIGURATIONS = tuple(Config(n, flags) for flags in FLAG_SETS for n in PLAYER_COUNTS)


@dataclass(frozen=True)
class Raised:
    """An exception in place of a value: its built-in type and its message. Two are equal when
    both are (docs/api.md: the engines raise the same errors with the same messages)."""

    error: str
    message: str

    def __str__(self):
        return f"{self.error}: {self.message}"


def builtin_error_name(exc):
    """The built-in exception class an error is (pybind11 and subclasses map onto these)."""
    return next(cls.__name__ for cls in type(exc).__mro__ if cls.__module__ == "builtins")


def outcome(call, *args):
    """call(*args), or `Raised` with the error's built-in type."""
    try:
        return call(*args)
    except Exception as exc:  # noqa: BLE001 - which error is raised is what gets compared
        return Raised(builtin_error_name(exc), str(exc))


def first_difference(a, b, path=""):
    """(path, a part, b part) where two values first differ, or None.

    Types count (a tuple is not a list, numpy int64 not int), dict key order counts (docs/state.md
    fixes it), floats must be bit-identical, arrays must agree in dtype, shape and every element.
    Equal pickles (which encode all of that) settle most comparisons at C speed.
    """
    try:
        same = _pickled(a) == _pickled(b)
    except Exception:  # noqa: BLE001 - not picklable: walk the values instead
        same = False
    return None if same else _walk(a, b, path)


def _pickled(value):
    """Pickle bytes that depend on the value only: without the memo, shared objects (such as the
    reference's reused name strings) are written out each time like distinct equal ones."""
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.fast = True
    pickler.dump(value)
    return buffer.getvalue()


def _walk(a, b, path):
    if type(a) is not type(b):
        return f"{path} (type)", type(a).__name__, type(b).__name__
    if isinstance(a, np.ndarray):
        if (a.dtype, a.shape) != (b.dtype, b.shape):
            return f"{path} (dtype, shape)", (str(a.dtype), a.shape), (str(b.dtype), b.shape)
        unequal = np.flatnonzero(a.ravel() != b.ravel())
        return (
            None
            if not unequal.size
            else (f"{path}[{unequal[0]}]", a.ravel()[unequal[0]], b.ravel()[unequal[0]])
        )
    if isinstance(a, dict):
        if list(a) != list(b):
            return f"{path} (keys)", list(a), list(b)
        return next(filter(None, (_walk(a[k], b[k], f"{path}.{k}") for k in a)), None)
    if isinstance(a, (list, tuple)):
        found = next(
            filter(None, (_walk(x, y, f"{path}[{i}]") for i, (x, y) in enumerate(zip(a, b)))), None
        )
        return found or (None if len(a) == len(b) else (f"{path} (length)", len(a), len(b)))
    if isinstance(a, float):
        return None if a.hex() == b.hex() else (path, a, b)
    if isinstance(a, str) and a != b and "\n" in a + b:
        return _walk(a.split("\n"), b.split("\n"), f"{path} lines")
    if isinstance(a, bytes) and a != b:
        offset = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        where = f"{path} byte {offset} of {len(a)}/{len(b)}"
        return where, a[offset : offset + 8], b[offset : offset + 8]
    return None if a == b else (path, a, b)


# --- what is compared ----------------------------------------------------------------------


def _observations(state):
    return [outcome(state.observation_tensor, p) for p in range(state.get_game().num_players)]


CHEAP_FIELDS = (
    ("current_player", lambda s: s.current_player()),
    ("legal_actions", lambda s: s.legal_actions()),
    ("chance_outcomes", lambda s: s.chance_outcomes()),
    ("serialize", lambda s: s.serialize()),
)
FULL_FIELDS = CHEAP_FIELDS[:3] + (
    ("is_chance_node", lambda s: s.is_chance_node()),
    ("is_terminal", lambda s: s.is_terminal()),
    ("to_dict", lambda s: s.to_dict()),
    ("serialize", lambda s: s.serialize()),
    ("hash_key", lambda s: s.hash_key()),
    ("history", lambda s: s.history()),
    ("scores", lambda s: s.scores()),
    ("gold", lambda s: s.gold()),
    ("returns", lambda s: s.returns()),
    ("str", str),
    ("legal_actions_mask", lambda s: s.legal_actions_mask()),
    ("observation_tensor", _observations),
)


def compare_fields(a, b, fields, kept=None):
    """(field, a value, b value) of the first field that differs, or None. The values compared
    are stored in `kept` by field name when it is given."""
    for name, getter in fields:
        values = outcome(getter, a), outcome(getter, b)
        if kept is not None:
            kept[name] = values
        found = first_difference(*values, name)
        if found:
            if name == "serialize":  # name the field of the state, not a byte offset
                found = first_difference(outcome(a.to_dict), outcome(b.to_dict), "to_dict") or found
            return found
    return None


def compare_action_strings(a, b):
    """Every legal action's string is the same in both engines and reads back to the action."""
    for action in a.legal_actions():
        name = f"action_to_string({action})"
        text_a, text_b = outcome(a.action_to_string, action), outcome(b.action_to_string, action)
        found = first_difference(text_a, text_b, name)
        if found:
            return found
        back = (outcome(a.string_to_action, text_a), outcome(b.string_to_action, text_b))
        if back != (action, action):
            return f"string_to_action({text_a!r}) (should be {action})", back[0], back[1]
    return None


def _same_error(name, call_a, call_b, arg, expected):
    """Both calls must raise `expected` with the same message (docs/api.md, "Errors")."""
    got_a, got_b = outcome(call_a, arg), outcome(call_b, arg)
    if not all(isinstance(got, Raised) and got.error == expected for got in (got_a, got_b)):
        return f"{name}({arg!r}) should raise {expected}", got_a, got_b
    if got_a != got_b:
        return f"{name}({arg!r}) raises {expected} with another message", got_a, got_b
    return None


def probe_illegal_calls(a, b, rng, every_kind=True):
    """Illegal actions and arguments raise the same error type in both engines: ids that are not
    legal now, ids outside the id space, arguments of wrong types. With `every_kind` False, one
    probe of a random kind (the reference pays for each illegal action with a legal list)."""
    legal = set(a.legal_actions())
    unused = next(
        (
            x
            for x in (rng.randrange(a.get_game().num_distinct_actions()) for _ in range(4))
            if x not in legal
        ),
        -1,
    )
    if a.is_chance_node():
        rng_probe = (
            a.apply_random_chance,
            b.apply_random_chance,
            "apply_random_chance",
            rng.choice(("seed", 0.5, None)),
            "TypeError",
        )
    else:
        rng_probe = (
            a.apply_random_chance,
            b.apply_random_chance,
            "apply_random_chance",
            rng.getrandbits(64),
            "ValueError",
        )
    probes = [
        (a.apply_action, b.apply_action, "apply_action", unused, "ValueError"),
        (
            a.apply_action,
            b.apply_action,
            "apply_action",
            rng.choice(OUT_OF_RANGE_IDS),
            "ValueError",
        ),
        (a.apply_action, b.apply_action, "apply_action", rng.choice(WRONG_TYPES), "TypeError"),
        rng_probe,
    ]
    for call_a, call_b, name, arg, expected in probes if every_kind else [rng.choice(probes)]:
        found = _same_error(name, call_a, call_b, arg, expected)
        if found:
            return found
    return None


def probe_illegal_queries(a, b, rng):
    """Queries with bad arguments: observation players, ids outside the space, bad strings."""
    n = a.get_game().num_players
    space = (
        a.get_game().max_chance_outcomes()
        if a.is_chance_node()
        else a.get_game().num_distinct_actions()
    )
    probes = [
        (
            "observation_tensor",
            a.observation_tensor,
            b.observation_tensor,
            rng.choice((-1, n)),
            "ValueError",
        ),
        (
            "observation_tensor",
            a.observation_tensor,
            b.observation_tensor,
            rng.choice(("0", 0.0, None)),
            "TypeError",
        ),
        (
            "action_to_string",
            a.action_to_string,
            b.action_to_string,
            rng.choice((-1, space, space + 1000)),
            "ValueError",
        ),
        (
            "string_to_action",
            a.string_to_action,
            b.string_to_action,
            rng.choice(BAD_ACTION_STRINGS),
            "ValueError",
        ),
        (
            "string_to_action",
            a.string_to_action,
            b.string_to_action,
            rng.choice((0, None, b"buy:0")),
            "TypeError",
        ),
    ]
    for name, call_a, call_b, arg, expected in probes:
        found = _same_error(name, call_a, call_b, arg, expected)
        if found:
            return found
    return None


def check_step(a, b, rng, full):
    """Compare two states: `full` checks every field, action string and bad query; cheap mode
    the fields of CHEAP_FIELDS. Illegal calls are tried in both modes; full mode also checks that
    neither state changed (cheap mode sees a change as a serialize difference)."""
    if not full:
        return probe_illegal_calls(a, b, rng, every_kind=False) or compare_fields(
            a, b, CHEAP_FIELDS
        )
    kept = {}
    found = (
        compare_fields(a, b, FULL_FIELDS, kept)
        or compare_action_strings(a, b)
        or probe_illegal_queries(a, b, rng)
    )
    if found:
        return found
    before = kept["serialize"]
    found = probe_illegal_calls(a, b, rng)
    after = a.serialize(), b.serialize()
    if not found and after != before:
        found = (
            "state changed by an illegal call",
            *("unchanged" if new == old else "changed" for new, old in zip(after, before)),
        )
    return found


# --- one game ------------------------------------------------------------------------------


@dataclass
class Difference:
    """Where two engines first disagree in a game."""

    config: Config
    seed: int
    step: int  # actions applied when it was seen (the history's length)
    last_action: str  # the last action applied, as a string, or "" at the start
    field: str
    value_a: object
    value_b: object
    engines: tuple

    def __str__(self):
        after = f"after {self.last_action}" if self.last_action else "at the initial state"
        return (
            f"{self.config} seed {self.seed}, step {self.step} ({after}): "
            f"{self.field} differs\n"
            f"  {self.engines[0]}: {_show(self.value_a)}\n"
            f"  {self.engines[1]}: {_show(self.value_b)}"
        )


def _show(value, limit=400):
    text = str(value) if isinstance(value, Raised) else repr(value)
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} chars)"


def play(engine_a, engine_b, config, seed, full=True):
    """Play game `seed` of `config` through both engines; the first `Difference`, or None.

    The final state is always compared in full; `full` compares every state in full.
    """
    names = tuple(getattr(engine, "__name__", repr(engine)) for engine in (engine_a, engine_b))
    games = outcome(config.game, engine_a), outcome(config.game, engine_b)
    if any(isinstance(game, Raised) for game in games):  # e.g. a flag one engine lacks
        return Difference(config, seed, 0, "", "Game(...)", *games, names)
    a, b = (game.new_initial_state() for game in games)
    moves, probes = random.Random(seed), random.Random(f"probes/{seed}")
    step, last = 0, ""
    while True:
        terminal = a.is_terminal()
        found = check_step(a, b, probes, full or terminal)
        if found is None and terminal:
            return None
        if found is None and step == MAX_STEPS:
            found = f"still playing after {MAX_STEPS} actions", step, step
        elif found is None:
            last, found = _apply_one(a, b, moves)
            step += 1
        if found is not None:
            return Difference(config, seed, step, last, *found, names)


def _apply_one(a, b, moves):
    """Apply the game's next action to both; (a label of it, the difference or None)."""
    if a.is_chance_node():
        seed = moves.getrandbits(64)
        call = f"apply_random_chance({seed})"
        got = outcome(a.apply_random_chance, seed), outcome(b.apply_random_chance, seed)
        label = f"chance outcome {got[0]}"
    else:
        action = moves.choice(a.legal_actions())
        call = f"apply_action({action})"
        label = f"action {action} ({outcome(a.action_to_string, action)})"
        got = outcome(a.apply_action, action), outcome(b.apply_action, action)
    found = first_difference(got[0], got[1], call)
    if found is None and isinstance(got[0], Raised):
        found = f"{call} raised in both", got[0], got[1]
    return label, found


# --- many games ----------------------------------------------------------------------------


def schedule(configs, first_seed, count, full_every=0):
    """`count` games as (config, seed, full): game i is `configs[i % len(configs)]` with seed
    `first_seed + i`, compared in full when `full_every` divides the seed (never when it is 0)."""
    return [
        (
            configs[i % len(configs)],
            first_seed + i,
            bool(full_every) and (first_seed + i) % full_every == 0,
        )
        for i in range(count)
    ]


def _engine(engine):
    return importlib.import_module(engine) if isinstance(engine, str) else engine


def play_all(engines, games):
    """Play `games` in order; (games played, the first Difference or None)."""
    engine_a, engine_b = map(_engine, engines)
    for played, (config, seed, full) in enumerate(games, start=1):
        found = play(engine_a, engine_b, config, seed, full)
        if found:
            return played, found
    return len(games), None


class WorkerCrash(RuntimeError):
    """A worker process died (an engine crashed) while playing one of `seeds`."""

    def __init__(self, seeds):
        super().__init__(f"a worker process died while playing one of the seeds {seeds}")
        self.seeds = seeds


def run(engines, games, jobs=1, chunk_size=8):
    """Play `games` in chunks; yield (games played, Difference or None) as each chunk finishes.

    With jobs > 1 the chunks go to `jobs` worker processes, at most one chunk each at a time, so
    `engines` must be module names. The workers start from a fresh interpreter (forkserver), never
    from a copy of a threaded one. A worker that dies raises `WorkerCrash` naming the seeds that
    were being played. Closing the generator stops giving out chunks.
    """
    chunks = iter([games[i : i + chunk_size] for i in range(0, len(games), chunk_size)])
    if jobs <= 1:
        for chunk in chunks:
            yield play_all(engines, chunk)
        return
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    # Ctrl-C to the process group is the main process's to answer (safety/interrupts.py).
    pool = ProcessPoolExecutor(jobs, mp_context=context, initializer=interrupts.ignore_in_worker)
    running = {}

    def submit_next():
        chunk = next(chunks, None)
        if chunk:
            running[pool.submit(play_all, engines, chunk)] = chunk

    try:
        for _ in range(jobs):
            submit_next()
        while running:
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                chunk = running.pop(future)
                try:
                    result = future.result()
                except BrokenProcessPool as error:
                    raise WorkerCrash(
                        sorted(
                            seed for games_ in (chunk, *running.values()) for _, seed, _ in games_
                        )
                    ) from error
                submit_next()
                yield result
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
