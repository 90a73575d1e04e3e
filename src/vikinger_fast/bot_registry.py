"""The one registry of the built-in bots (docs/contributing.md "Adding a bot").

One entry per bot: its spec name, where its class lives in each engine, one line on what it is,
the budget a spec without one plays at, and whether it loads a network (`model=`). Everything
that lists or builds the built-in bots reads it: the package's exports (`vikinger_fast.AZBot`),
the arena's specs and the `--help` texts, the ladder, and the web app's choices.

It imports nothing of either engine until a class is asked for, so that `import vikinger_fast`
stays as light as the C++ module.
"""

import importlib
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Protocol, Tuple, Union

# The engines by module name: which of an entry's two classes each plays.
REFERENCE_ENGINE, FAST_ENGINE = "vikinger_ref", "vikinger_fast"

Budget = Mapping[str, Union[int, float]]


class Bot(Protocol):
    """What a bot of either engine answers (docs/search.md "Bots"). The arena and the web app
    call `step` alone, so a user's class (`module:Class` specs) needs only that one."""

    def step(self, state: Any, /) -> int:
        """The action to play at the decision node `state`."""

    def policy(self, state: Any, /) -> List[Tuple[int, float]]:
        """(action, probability) for every legal action of `state`."""

    def restart(self) -> None:
        """Back to the bot's state just after construction (its seed's first search)."""


def _load(path: str) -> Any:
    """The object at `path`, "package.module:Name"."""
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


@dataclass(frozen=True)
class BotEntry:
    """A built-in bot.

    name: its spec name (`mcts`); reference, fast: "module:Class" of its class in the reference
    and in vikinger_fast (the same keywords, the same moves for the same seed: the twin tests);
    description: one line for the help texts, the ladder and the web page; budget: the budget
    a spec of it plays at when it gives none of `budget_keys` (spec keys, e.g. {"time": 0.1});
    takes_model: whether it loads a weights file (`model=`, the web app's `net=`)."""

    name: str
    reference: str
    fast: str
    description: str
    budget: Budget = field(default_factory=dict)
    budget_keys: Tuple[str, ...] = ()
    takes_model: bool = False

    @property
    def class_name(self) -> str:
        """The class's name in vikinger_fast (`vikinger_fast.MCTSBot`)."""
        return self.fast.partition(":")[2]

    def reference_class(self) -> Any:
        return _load(self.reference)

    def fast_class(self) -> Any:
        return _load(self.fast)

    def engine_class(self, engine: str) -> Any:
        """The class of the engine named `engine` (a module name, vikinger_fast or
        vikinger_ref)."""
        if engine == REFERENCE_ENGINE:
            return self.reference_class()
        if engine == FAST_ENGINE:
            return self.fast_class()
        raise ValueError(f"engine must be {FAST_ENGINE} or {REFERENCE_ENGINE}, not {engine!r}")

    def default_spec(self) -> str:
        """The spec its name alone stands for: `mcts:time=0.1`, `random`."""
        keys = ",".join(f"{key}={value}" for key, value in self.budget.items())
        return f"{self.name}:{keys}" if keys else self.name


# Spec name -> entry, in the order the help texts and the web page list them.
BOTS: Dict[str, BotEntry] = {}


def register(entry: BotEntry) -> BotEntry:
    """Adds `entry` (ValueError if its name or class name is taken or the name is not a plain
    word, which a spec could not tell from `module:Class`)."""
    if not entry.name.isidentifier():
        raise ValueError(f"a bot's name is a plain word, not {entry.name!r}")
    if entry.name in BOTS:
        raise ValueError(f"a bot named {entry.name!r} is registered already")
    if by_class_name(entry.class_name) is not None:
        raise ValueError(f"a bot of class {entry.class_name!r} is registered already")
    if entry.budget and not set(entry.budget) <= set(entry.budget_keys):
        raise ValueError(f"bot {entry.name!r}: its default budget uses keys not in budget_keys")
    BOTS[entry.name] = entry
    return entry


def by_class_name(class_name: str) -> Optional[BotEntry]:
    """The entry whose vikinger_fast class is named `class_name`, or None."""
    return next((e for e in BOTS.values() if e.class_name == class_name), None)


# The default budgets are time budgets, so a name alone is a move in about a tenth of a second on
# any machine (iterations or simulations, given explicitly, make games independent of speed).
register(
    BotEntry(
        "random",
        "vikinger_ref:RandomBot",
        "vikinger_fast._core:RandomBot",
        "a legal move drawn at random (the baseline)",
    )
)
register(
    BotEntry(
        "greedy",
        "vikinger_ref:GreedyBot",
        "vikinger_fast._core:GreedyBot",
        "one ply on the evaluation: the move whose next position looks best (instant)",
    )
)
register(
    BotEntry(
        "mcts",
        "vikinger_ref:MCTSBot",
        "vikinger_fast._core:MCTSBot",
        "Monte Carlo tree search with random playouts (docs/search.md)",
        budget={"time": 0.1},
        budget_keys=("iterations", "time"),
    )
)
register(
    BotEntry(
        "puct",
        "vikinger_ref:PuctBot",
        "vikinger_fast.neural.bot:PuctBot",
        "PUCT search on the heuristic evaluation, or on a network with model=FILE (docs/neural.md)",
        budget={"time": 0.1},
        budget_keys=("simulations", "time"),
        takes_model=True,
    )
)
register(
    BotEntry(
        "az",
        "vikinger_ref:AZBot",
        "vikinger_fast.neural.az_bot:AZBot",
        "the learned player: the shipped network with PUCT search (docs/learning.md)",
        budget={"time": 0.1},
        budget_keys=("simulations", "time"),
        takes_model=True,
    )
)
register(
    BotEntry(
        "azpolicy",
        "vikinger_ref:PolicyNetBot",
        "vikinger_fast.neural.az_bot:PolicyNetBot",
        "the learned network's policy alone, no search (instant)",
        takes_model=True,
    )
)

# The bots that play a shipped network when no model= is given (vikinger_ref.az_bot.SHIPPED).
SHIPPED_NETWORK = ("az", "azpolicy")


def shipped_network_covers(players: int, modules: Any) -> bool:
    """Whether a shipped network covers the table of `players` and the module names `modules`
    (vikinger_ref.az_bot.shipped_model finds one): where `az` and `azpolicy` play without
    model=."""
    from vikinger_ref import Game
    from vikinger_ref.az_bot import shipped_model

    try:
        shipped_model(Game(num_players=players, **{name: True for name in modules}))
    except ValueError:
        return False
    return True
