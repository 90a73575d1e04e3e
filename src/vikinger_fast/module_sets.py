"""Module sets (docs/advanced.md "Module sets"): which of the advanced modules A1-A5 a game is
played with, named as the Game keywords name them (OPTION_NAMES: auction, draw13,
offer_by_colour, weak_boatsmen, special_tiles). Every command's `--modules`, the arena's results
and journal, the ladder's pages and the sharded work spell a set in one way: the names on,
comma-separated in OPTION_NAMES order, or "none"; "all" is every module.

>>> parse("special_tiles, auction")
('auction', 'special_tiles')
>>> name(parse("all"))
'auction,draw13,offer_by_colour,weak_boatsmen,special_tiles'
>>> name(())
'none'
>>> game_options(("draw13",))["draw13"]
True
>>> len(every_set()), name(every_set()[0]), name(every_set()[3])
(32, 'none', 'auction,draw13')
>>> parse("auction,dragons")  # doctest: +ELLIPSIS
Traceback (most recent call last):
ValueError: unknown module 'dragons' (valid: auction, draw13, offer_by_colour, ...)
"""

from collections.abc import Iterable, Mapping
from typing import Any

from vikinger_ref import OPTION_NAMES

ALL = "all"
NONE = "none"
VALID = ", ".join((*OPTION_NAMES, ALL, NONE))

ModuleSet = tuple[str, ...]


def parse(text: str) -> ModuleSet:
    """The module set of `text`: module names separated by commas, or "all", or "none"; the
    names in OPTION_NAMES order. ValueError naming the bad word and listing the valid ones."""
    if not isinstance(text, str):
        raise TypeError(f"a module set is a str, not {type(text).__name__}")
    words = [word.strip() for word in text.split(",")]
    if words == [ALL]:
        return OPTION_NAMES
    if words == [NONE]:
        return ()
    for word in words:
        if word in (ALL, NONE):
            raise ValueError(f"{word!r} stands alone, not in a list of modules (valid: {VALID})")
    return checked(words)


def checked(modules: Iterable[str]) -> ModuleSet:
    """The set of the module names `modules` (any order; a str is parsed), in OPTION_NAMES
    order: what the functions taking a set from Python (arena.run, distributed.arena) use.
    ValueError for an unknown or repeated name."""
    if isinstance(modules, str):
        return parse(modules)
    names = list(modules)
    for word in names:
        if word not in OPTION_NAMES:
            raise ValueError(f"unknown module {word!r} (valid: {VALID})")
        if names.count(word) > 1:
            raise ValueError(f"module {word!r} is named twice")
    return tuple(module for module in OPTION_NAMES if module in names)


def name(modules: Iterable[str]) -> str:
    """The one spelling of a set: "auction,special_tiles", or "none"."""
    on = set(modules)
    return ",".join(module for module in OPTION_NAMES if module in on) or NONE


def game_options(modules: Iterable[str]) -> dict[str, bool]:
    """The Game keywords of the set: every module name mapped to on or off."""
    on = set(modules)
    return {module: module in on for module in OPTION_NAMES}


def of_options(options: Mapping[str, Any]) -> ModuleSet:
    """The set of a Game's `options` (or a record's game.options): the modules on."""
    return tuple(module for module in OPTION_NAMES if options.get(module))


def of_game(game: Any) -> ModuleSet:
    """The set a Game (either engine) is played with."""
    return of_options(game.options)


def every_set() -> list[ModuleSet]:
    """The 32 module sets, the base game first: set k holds module i when bit i of k is set
    (OPTION_NAMES order), so the order is the same wherever the sets are listed."""
    return [
        tuple(module for i, module in enumerate(OPTION_NAMES) if bits >> i & 1)
        for bits in range(1 << len(OPTION_NAMES))
    ]
