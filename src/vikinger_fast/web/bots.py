"""The bots `vikinger serve` may build (docs/web.md "What a request may name"): the arena's
built-in specs only, with budgets capped, and networks by name.

A request, or a stored game, is data from outside: it never names a file or a module. So a bot
spec here is a built-in name (those of bot_registry.py: `random`, `greedy`, `mcts`, `puct`, `az`,
`azpolicy`) with its keys, `model=PATH` is refused, and a network is chosen with `net=NAME`, NAME
one of those the person gave at start (`vikinger serve --model NAME=PATH`). Every budget that
bounds a search has a cap (CAPS), so no spec makes a bot think for more than about a minute, and
no spec asks for a search without end (`time=inf` is over the cap; a spec with no budget plays
at the registry's default budget, `az` as `az:time=0.1`).
"""

import os
import re
from typing import Any, Dict, Mapping

from .. import arena, module_sets
from ..bot_registry import BOTS, SHIPPED_NETWORK, shipped_network_covers

# Per key, the most a spec may ask for, so that one bot move stays within about a minute.
# Measured on the shared 2-core machine under a load of about 11, with one BLAS thread (as
# `vikinger serve` runs): az:simulations=10000,playouts=64, the slowest capped spec, 24 s;
# mcts:iterations=200000,threads=4, 8 s; a timed search stops at 30 s.
CAPS: Dict[str, int] = {
    "iterations": 200_000,
    "simulations": 10_000,
    "time": 30,
    "max_time": 30,
    "threads": 4,
    "solver_nodes": 5_000_000,
    "playouts": 64,
    "batch_size": 256,
}
NET = "net"  # the key that names a network given at start
NET_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_.-]{0,39}")


def _with_model() -> str:
    return ", ".join(name for name, entry in BOTS.items() if entry.takes_model)


def parse_networks(pairs: Mapping[str, str]) -> Dict[str, str]:
    """The networks of `--model NAME=PATH`: names checked, paths made absolute and checked to
    be regular files (ValueError naming the problem). Nothing is read yet: a network is loaded
    when a game of its bot starts, which checks its shapes for that game."""
    networks = {}
    for name, path in pairs.items():
        if not NET_NAME.fullmatch(name):
            raise ValueError(
                f"network name {name!r}: use a letter, then letters, digits, '_', '.', '-' "
                "(at most 40)"
            )
        full = os.path.abspath(os.path.expanduser(path))
        if not os.path.isfile(full):
            raise ValueError(f"network {name!r}: {path!r} is not a file")
        networks[name] = full
    return networks


class Bots:
    """The bots of one server: `engine` builds them, `networks` maps the names of
    `--model NAME=PATH` to their absolute paths."""

    def __init__(self, engine: Any, networks: Mapping[str, str]) -> None:
        self.engine = engine
        self.networks = dict(networks)

    def resolve(self, text: Any) -> arena.BotSpec:
        """The arena spec of a web spec: `net=NAME` becomes `model=` the network's path.
        ValueError naming the spec when it is not a built-in bot, names `model=` or an unknown
        network, or asks for more than a cap. Nothing is built, imported or read."""
        if not isinstance(text, str) or not text.strip():
            raise ValueError(f"bot spec {text!r}: empty")
        name, _, keys = text.strip().partition(":")
        if name not in BOTS:
            raise ValueError(
                f"bot spec {text!r}: the web app plays the built-in bots ({', '.join(BOTS)}) only"
            )
        items = [item.strip() for item in keys.split(",") if item.strip()]
        nets = [item for item in items if item.partition("=")[0].strip() == NET]
        rest = [item for item in items if item not in nets]
        # arena's parser, which knows no net=, checks the rest; its messages quote `text`
        spec = arena.parse_spec(text if not nets else f"{name}:{','.join(rest)}")
        if "model" in spec.params:
            raise ValueError(
                f"bot spec {text!r}: the web app names no file; choose a network with "
                f"net=NAME ({self._known()})"
            )
        params = dict(spec.params)
        for key, value in params.items():
            self._check_cap(text, key, value)
        if nets:
            if len(nets) > 1 or not BOTS[name].takes_model:
                raise ValueError(f"bot spec {text!r}: net= names one network of {_with_model()}")
            chosen = nets[0].partition("=")[2].strip()
            if chosen not in self.networks:
                raise ValueError(f"bot spec {text!r}: no network {chosen!r} ({self._known()})")
            params["model"] = self.networks[chosen]
        return arena.BotSpec(text, name, params)

    def check(self, text: Any, game: Any) -> arena.BotSpec:
        """resolve(text), then one bot built for `game`, which checks the values (and loads a
        network): ValueError naming the spec otherwise."""
        spec = self.resolve(text)
        arena.make_bot(spec, self.engine, game, 0)
        return spec

    def _check_cap(self, text: str, key: str, value: Any) -> None:
        cap = CAPS.get(key)
        if cap is None:
            return
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(f"bot spec {text!r}: {key} must be a number, not {value!r}")
        # written so that NaN is refused too (and an int beyond a float's range compares exactly)
        if not value <= cap:
            raise ValueError(f"bot spec {text!r}: {key} at most {cap:,} here")

    def _known(self) -> str:
        if not self.networks:
            return "none was given: vikinger serve --model NAME=PATH"
        return "given: " + ", ".join(sorted(self.networks))

    def choices(self) -> Dict[str, Any]:
        """What the setup may ask for: the built-in bots (their names; per name its one line and
        the spec the name alone stands for), the network names, the caps, and per player count
        the module sets a shipped network covers (where `az` and `azpolicy` play without net=)."""
        return {
            "bots": list(BOTS),
            "descriptions": {name: entry.description for name, entry in BOTS.items()},
            "defaults": {name: entry.default_spec() for name, entry in BOTS.items()},
            "networks": sorted(self.networks),
            "caps": CAPS,
            "shipped_bots": list(SHIPPED_NETWORK),
            "shipped": {
                str(players): [
                    module_sets.name(modules)
                    for modules in module_sets.every_set()
                    if shipped_network_covers(players, modules)
                ]
                for players in (2, 3, 4)
            },
        }
