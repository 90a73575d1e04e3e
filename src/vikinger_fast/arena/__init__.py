"""Tournaments between bots in the duplicate format (`vikinger arena`, docs/arena.md).

A bot is given as a spec: `random`, `greedy`, `mcts:iterations=200,threads=2`, `mcts:time=0.1`,
or a user's class `package.module:ClassName[:key=value,...]`, built as
`ClassName(game, seed, **params)` and playing through `step(state) -> action`.

The schedule: every table (each set of `players` distinct entrants; one table when there are as
many entrants as seats) plays `deals` deals, and every deal is played once in every seating
permutation of its table. Deal d draws its chance outcomes from numpy's default_rng seeded with
`chance_seed(seed, d)`, one uniform per chance node in order, and entrant e's bot in deal d is
seeded with `bot_seed(seed, d, e)`, at every table and in every seating: so the permutations of a
deal differ only in who sits where. Each game is computed from its task alone, which is what makes
the results the same for any number of worker processes.
"""

import contextlib
import importlib
import inspect
import itertools
import math
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from types import ModuleType
from typing import Any, NoReturn, Optional, Union, cast

import numpy as np

from .. import module_sets, records
from ..bot_registry import BOTS, Bot, BotEntry
from ..progress import progress_bar
from ..safety import interrupts

ENGINES = {"fast": "vikinger_fast", "ref": "vikinger_ref"}
# Spec keys that are another name of a keyword.
ALIASES = {"time": "max_time"}


class _RegistryView(Mapping[str, str]):
    """The built-in bots by spec name, one field of their registry entries, read when asked (a
    bot registered later is in it)."""

    def __init__(self, field: Callable[[BotEntry], str]) -> None:
        self._field = field

    def __getitem__(self, name: str) -> str:
        return self._field(BOTS[name])

    def __iter__(self) -> Iterator[str]:
        return iter(BOTS)

    def __len__(self) -> int:
        return len(BOTS)


# The built-in bots, from the one registry (bot_registry.py; docs/contributing.md "Adding a
# bot"): spec name -> class name, and the one line on each for the --help texts, the ladder
# and the web page. A spec's keys are the class's keywords (`bot_keywords`) and their ALIASES.
BUILTIN: Mapping[str, str] = _RegistryView(lambda entry: entry.class_name)
DESCRIPTIONS: Mapping[str, str] = _RegistryView(lambda entry: entry.description)
SEED_MASK = (1 << 63) - 1

# A spec's key=value pairs: numbers converted, the rest text (records.number_or_text).
SpecParams = dict[str, Union[int, float, str]]
# A game of the schedule: (table, deal, seats), seats[s] the entrant in seat s.
Task = tuple[int, int, list[int]]
# What play_game plays: (engine name, spec texts, players, seed, task, module set).
Job = tuple[str, list[str], int, int, Task, module_sets.ModuleSet]


def bots_help() -> str:
    """The built-in bot specs with their descriptions, one per line, and what a name alone
    plays at (for --help texts)."""
    width = max(map(len, BOTS))
    lines = []
    for name, entry in BOTS.items():
        alone = f"; the name alone: {entry.default_spec()}" if entry.budget else ""
        lines.append(f"  {name:<{width}}  {entry.description}{alone}")
    lines.append(
        "A name alone, or a spec of it without a budget, plays at the budget shown (time: "
        "seconds a move)."
    )
    return "\n".join(lines)


class BotSpec:
    """A parsed bot spec: `text` as given, `name` (a built-in name or "module:Class") and
    `params` (the key=value pairs, numbers converted)."""

    def __init__(self, text: str, name: str, params: SpecParams) -> None:
        self.text, self.name, self.params = text, name, params

    def player_entry(self) -> dict[str, Any]:
        """The record's entry for this bot (docs/records.md)."""
        return {"name": self.name, "params": dict(self.params)}

    def __repr__(self) -> str:
        return f"BotSpec({self.text!r})"


def bot_keywords(name: str) -> list[str]:
    """The keywords of the built-in bot `name` after (game, seed), read from the signature of
    its reference class (the C++ classes take the same keywords, which the twin tests hold, but
    pybind11 gives them no signature to read). A `**options` that the class hands to its base
    adds the base's keywords (AZBot passes its options on to PuctBot)."""
    keywords: list[str] = []
    for cls in BOTS[name].reference_class().__mro__:
        if "__init__" not in vars(cls):
            continue
        parameters = list(inspect.signature(cls.__init__).parameters.values())[3:]
        for parameter in parameters:
            named = parameter.kind in (parameter.POSITIONAL_OR_KEYWORD, parameter.KEYWORD_ONLY)
            if named and parameter.name not in keywords:
                keywords.append(parameter.name)
        if not any(parameter.kind is parameter.VAR_KEYWORD for parameter in parameters):
            break
    return keywords


def spec_keys(name: str) -> list[str]:
    """The keys a spec of the built-in bot `name` may give: its keywords and their aliases."""
    keywords = bot_keywords(name)
    return keywords + [alias for alias, target in ALIASES.items() if target in keywords]


def _fail(text: str, problem: str) -> NoReturn:
    raise ValueError(f"bot spec {text!r}: {problem}")


def _parse_params(text: str, part: str) -> SpecParams:
    params: SpecParams = {}
    for item in filter(None, (piece.strip() for piece in part.split(","))):
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            _fail(text, f"{item!r} is not key=value")
        params[key.strip()] = records.number_or_text(value.strip())
    return params


def with_default_budget(name: str, params: SpecParams) -> SpecParams:
    """`params` of the built-in bot `name`, with its default budget (the registry's) added when
    they give none of its budget keys (`time` or `max_time`, `iterations`, `simulations`)."""
    entry = BOTS[name]
    given = {ALIASES.get(key, key) for key in params}
    if given & {ALIASES.get(key, key) for key in entry.budget_keys}:
        return params
    return {**params, **entry.budget}


def parse_spec(text: str) -> BotSpec:
    """The BotSpec of `text`, its syntax checked (ValueError naming the spec), a built-in bot's
    default budget added when it gives none. `check_spec` also builds the bot once, which
    checks the parameters."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"bot spec {text!r}: empty")
    parts = text.strip().split(":")
    if parts[0] in BOTS:
        if len(parts) > 2:
            _fail(text, "a built-in bot takes name:key=value,... (one colon)")
        params = _parse_params(text, parts[1] if len(parts) == 2 else "")
        allowed = spec_keys(parts[0])
        unknown = sorted(set(params) - set(allowed))
        if unknown:
            known = ", ".join(sorted(allowed)) or "none"
            _fail(text, f"unknown parameter {unknown[0]!r} for {parts[0]} (known: {known})")
        return BotSpec(text, parts[0], with_default_budget(parts[0], params))
    if len(parts) < 2 or not parts[0] or not parts[1] or len(parts) > 3:
        _fail(
            text,
            f"not a bot: use one of {', '.join(BOTS)} (with :key=value,...) or "
            "module.path:ClassName[:key=value,...]",
        )
    params = _parse_params(text, parts[2] if len(parts) == 3 else "")
    return BotSpec(text, f"{parts[0]}:{parts[1]}", params)


def _user_class(spec: BotSpec) -> Callable[..., Any]:
    module_name, class_name = spec.name.split(":")
    # Like `python -m`: a module in the current directory is found (also by worker processes,
    # which inherit sys.path).
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        _fail(spec.text, f"cannot import module {module_name!r}: {error}")
    cls = getattr(module, class_name, None)
    if cls is None or not callable(cls):
        _fail(spec.text, f"module {module_name!r} has no class {class_name!r}")
    return cls


def in_spec_words(spec: BotSpec, message: str) -> str:
    """A built-in bot's message in the words of `spec`: its spec name for the class names
    (`PuctBot needs ...` is `az needs ...` for an az spec) and the spec's keys for the keywords
    they alias (`time`, unless the spec says `max_time`)."""
    classes = {BOTS[spec.name].reference_class(), BOTS[spec.name].fast_class()}
    names = {cls.__name__ for bot in classes for cls in bot.__mro__ if cls is not object}
    for name in sorted(names, key=len, reverse=True):
        message = re.sub(rf"\b{name}\b", spec.name, message)
    for alias, keyword in ALIASES.items():
        if keyword not in spec.params:
            message = re.sub(rf"\b{keyword}\b", alias, message)
    return message


def make_bot(spec: BotSpec, engine: ModuleType, game: Any, seed: int) -> Bot:
    """The bot of `spec` for `game` in `engine` (a module), seeded with `seed`."""
    builtin = spec.name in BOTS
    if builtin:
        kwargs = {ALIASES.get(key, key): value for key, value in spec.params.items()}
        if len(kwargs) < len(spec.params):
            _fail(spec.text, "a parameter is given twice (time is max_time)")
        cls = BOTS[spec.name].engine_class(engine.__name__)
    else:
        cls, kwargs = _user_class(spec), dict(spec.params)
    try:
        bot = cls(game, seed, **kwargs)
    except (TypeError, ValueError) as error:
        _fail(spec.text, in_spec_words(spec, str(error)) if builtin else str(error))
    if not callable(getattr(bot, "step", None)):
        _fail(spec.text, f"{type(bot).__name__} has no step(state) method")
    return cast(Bot, bot)


def check_spec(
    text: str, engine: ModuleType, num_players: int = 2, modules: Iterable[str] = ()
) -> BotSpec:
    """parse_spec, then one bot built for a `num_players` game with `modules` on: any error is
    a ValueError naming the spec (and the table when the bot cannot sit at it, as a learned
    player without a network for the module set)."""
    spec = parse_spec(text)
    try:
        game = engine.Game(num_players=num_players, **module_sets.game_options(modules))
        make_bot(spec, engine, game, 0)
    except ValueError:
        raise
    except Exception as error:  # a user's module or class failing otherwise: still one line
        _fail(text, f"{type(error).__name__}: {error}")
    return spec


def engine_module(name: str) -> ModuleType:
    if name not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, not {name!r}")
    return importlib.import_module(ENGINES[name])


# --- the schedule ----------------------------------------------------------------------------


def _seed_from(*words: int) -> int:
    return (
        int(
            np.random.SeedSequence([w & ((1 << 64) - 1) for w in words]).generate_state(
                1, np.uint64
            )[0]
        )
        & SEED_MASK
    )


def chance_seed(seed: int, deal: int) -> int:
    """The seed of deal `deal`'s chance stream (numpy default_rng), the same for every seating
    and every table."""
    return _seed_from(seed, deal, 0)


def bot_seed(seed: int, deal: int, entrant: int) -> int:
    """The seed of entrant `entrant`'s bot in deal `deal`, whatever its seat or table."""
    return _seed_from(seed, deal, entrant + 1)


def labels(texts: Iterable[str]) -> list[str]:
    """Entrant names: the spec texts, a repeated one numbered (`random`, `random#2`)."""
    seen: dict[str, int] = {}
    names: list[str] = []
    for text in texts:
        seen[text] = seen.get(text, 0) + 1
        names.append(text if seen[text] == 1 else f"{text}#{seen[text]}")
    return names


def deals_for(games: int, players: int) -> int:
    """Deals per table for at least `games` games per table: whole sets of permutations."""
    return max(1, math.ceil(games / math.factorial(players)))


def schedule(entrants: int, players: int, deals: int) -> list[Task]:
    """The games in order: (table, deal, seats), seats[s] the entrant in seat s."""
    if not 2 <= players <= 4:
        raise ValueError(f"players must be 2, 3 or 4, not {players}")
    if entrants < players:
        raise ValueError(
            f"{players} players per game need at least {players} entrants, not {entrants}"
        )
    tasks: list[Task] = []
    for table, members in enumerate(itertools.combinations(range(entrants), players)):
        for deal in range(deals):
            for seats in itertools.permutations(members):
                tasks.append((table, deal, list(seats)))
    return tasks


def play_bots(state: Any, bots: Sequence[Any], rng: np.random.Generator) -> Any:
    """Plays `state` to the end in place, bots[p].step(state) at seat p's decisions and chance
    from the numpy Generator `rng` (apply_random_chance); returns the state."""
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_random_chance(rng)
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state


def identity(job: Job) -> dict[str, Any]:
    """What the record of `job`'s game says of the game itself: "game" (players, options),
    "players" (the seats' entries) and "seed" (the deal's chance seed); the arena's journal
    checks a record read back against it."""
    engine_name, texts, players, seed, (_table, deal, seats), modules = job
    options = module_sets.game_options(modules)
    return {
        "game": {"num_players": players, "options": dict(options)},
        "players": [parse_spec(texts[e]).player_entry() for e in seats],
        "seed": chance_seed(seed, deal),
    }


def summary(job: Job, record: dict[str, Any]) -> dict[str, Any]:
    """The summary of `job`'s game from its record, as play_game returns it."""
    table, deal, seats = job[4]
    return {
        "table": table,
        "deal": deal,
        "seats": list(seats),
        "chance_seed": record["seed"],
        "fame": record["result"]["fame"],
        "gold": record["result"]["gold"],
        "returns": record["result"]["returns"],
        "moves": len(record["moves"]),
        "record": record,
    }


def play_game(job: Job) -> dict[str, Any]:
    """One game of the schedule: job = (engine name, spec texts, players, seed, (table, deal,
    seats), module set). Returns its summary and its record."""
    engine_name, texts, players, seed, (table, deal, seats), modules = job
    engine = engine_module(engine_name)
    specs = [parse_spec(text) for text in texts]
    game = engine.Game(num_players=players, **module_sets.game_options(modules))
    bots = [make_bot(specs[e], engine, game, bot_seed(seed, deal, e)) for e in seats]
    stream = chance_seed(seed, deal)
    state = play_bots(game.new_initial_state(), bots, np.random.default_rng(stream))
    record = records.record_from_state(
        state, players=[specs[e].player_entry() for e in seats], seed=stream
    )
    return summary(job, record)


def _ignore_interrupts() -> None:
    # Ctrl-C reaches the whole process group: the main process alone answers it (it cancels the
    # games not started, and ends the workers: safety/interrupts.py).
    interrupts.ignore_in_worker()


# A worker plays on one core. numpy's BLAS would start a thread per core in every worker, and
# those threads spin against each other's: measured on 2 cores with two other busy processes, a
# network bot's search (batches of 16 leaves) fell from about 4,500 leaves in 0.3 s to 11.
BLAS_THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


@contextlib.contextmanager
def one_blas_thread() -> Iterator[None]:
    """While inside, processes started get 1 for each BLAS thread variable the user has not
    set (the spawned workers read them when they import numpy); restored on leaving."""
    added = [name for name in BLAS_THREAD_VARIABLES if name not in os.environ]
    for name in added:
        os.environ[name] = "1"
    try:
        yield
    finally:
        for name in added:
            os.environ.pop(name, None)


def worker_pool(jobs: int) -> ProcessPoolExecutor:
    """A pool of `jobs` spawned worker processes (fresh interpreters, so no thread of this
    process is forked half-way) that leave Ctrl-C to this process; use it inside
    one_blas_thread()."""
    return ProcessPoolExecutor(
        jobs, mp_context=interrupts.worker_context(), initializer=_ignore_interrupts
    )


class GameError(RuntimeError):
    """A game of the schedule failed (a bot raised): `number` (its place in the schedule),
    `what` (its table, deal and seats) and `cause`, in one line as distributed.ShardError."""

    def __init__(self, number: int, what: str, cause: BaseException) -> None:
        self.number, self.what, self.cause = number, what, cause
        super().__init__(f"game {number} ({what}) failed: {type(cause).__name__}: {cause}")


def _game_error(number: int, task: Job, error: BaseException) -> GameError:
    table, deal, seats = task[4]
    return GameError(
        number, f"table {table} deal {deal} seats {list(seats)}, seed {task[3]}", error
    )


def jobs_of(
    engine_name: str,
    texts: Sequence[str],
    players: int,
    seed: int,
    deals: int,
    modules: Iterable[str] = (),
) -> list[Job]:
    """The schedule's games as the Jobs play_game plays, in schedule order, every game with
    the module set `modules` (module_sets)."""
    modules = module_sets.checked(modules)
    return [
        (engine_name, list(texts), players, seed, task, modules)
        for task in schedule(len(texts), players, deals)
    ]


# Called with (game number, its summary) as each game ends, in the main process.
OnGame = Callable[[int, dict[str, Any]], None]


def run(
    engine_name: str,
    texts: Sequence[str],
    players: int,
    seed: int,
    deals: int,
    jobs: int = 1,
    progress: bool = False,
    *,
    done: Optional[Mapping[int, dict[str, Any]]] = None,
    on_game: Optional[OnGame] = None,
    modules: Iterable[str] = (),
) -> list[dict[str, Any]]:
    """Play the whole schedule; the games in schedule order, whatever `jobs` (processes). A
    game that raises (a user's bot) raises GameError naming it. `done`: games already played
    (number -> summary, a resumed run's journal), not played again; `on_game(number, game)`:
    called as each game ends (the journal's add); `modules`: the module set of every game."""
    tasks = jobs_of(engine_name, texts, players, seed, deals, modules)
    done = done or {}
    todo = [number for number in range(len(tasks)) if number not in done]
    played: dict[int, dict[str, Any]] = {}

    def finished(number: int, game: dict[str, Any]) -> None:
        played[number] = game
        if on_game:
            on_game(number, game)
        if bar:
            bar.update(1)

    bar = progress_bar(len(todo), progress)
    try:
        if jobs <= 1:
            for number in todo:
                try:
                    game = play_game(tasks[number])
                except Exception as error:
                    raise _game_error(number, tasks[number], error) from error
                finished(number, game)
        else:
            with one_blas_thread():
                pool = worker_pool(jobs)
                try:
                    results = pool.map(play_game, [tasks[n] for n in todo], chunksize=1)
                    for number in todo:
                        try:
                            result = next(results)
                        except Exception as error:
                            raise _game_error(number, tasks[number], error) from error
                        finished(number, result)
                except BaseException:
                    # Ctrl-C or a failed game: drop the games not started instead of waiting.
                    pool.shutdown(wait=False, cancel_futures=True)
                    raise
                pool.shutdown()
    finally:
        if bar:
            bar.close()
    return [done[n] if n in done else played[n] for n in range(len(tasks))]
