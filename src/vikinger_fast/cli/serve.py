"""The `vikinger serve` command: the web app on a local port (docs/web.md). The networks the bots
may use and the Host names served are given here, at start: no request names a file."""

import argparse
import errno
import os
import re
import socket
import sys
from typing import Any, Dict, List

from .. import arena
from ..extras import install_hint
from ..web.bots import parse_networks
from ..web.store import game_folder
from . import common

DEFAULT_DIR = os.path.join("~", ".vikinger", "games")
# a DNS name, an IPv4 address, or an IPv6 address in brackets (as in a Host header)
HOST_NAME = re.compile(r"[A-Za-z0-9]([A-Za-z0-9.-]{0,252})|\[[0-9A-Fa-f:.]+\]")


def add_parser(commands: Any) -> None:
    parser = common.add_bots_command(
        commands,
        "serve",
        "play the bots in a browser (a local web app)",
        "Serve a web page on which a person plays one to three bots, with any module set. Games "
        "are kept in --dir and survive a restart.\n\nThe bots the page offers (chosen on the "
        "page, specs as in vikinger arena):\n",
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to listen on (default 127.0.0.1: this machine only)",
    )
    parser.add_argument("--port", type=int, default=8000, help="default 8000; 0 picks a free one")
    parser.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="also serve requests whose Host is NAME (repeatable; by default only the address "
        "of --host and localhost)",
    )
    parser.add_argument(
        "--dir",
        default=DEFAULT_DIR,
        metavar="FOLDER",
        help=f"where the games are kept (default {DEFAULT_DIR})",
    )
    common.add_engine(parser)
    parser.add_argument(
        "--model",
        action="append",
        default=[],
        metavar="NAME=PATH",
        help="a network file (a vikinger train export) the bots of the page may use as "
        "net=NAME, e.g. az:net=NAME (repeatable)",
    )
    parser.add_argument(
        "--hint-iterations",
        type=int,
        default=1000,
        metavar="N",
        help="MCTS iterations of a hint (1..100000, default 1000)",
    )
    parser.set_defaults(run=lambda args: run(args, parser))


def listening_socket(host: str, port: int) -> socket.socket:
    """The bound, listening socket (OSError when the port is taken or the address is bad)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def networks(values: List[str], parser: argparse.ArgumentParser) -> Dict[str, str]:
    """The --model NAME=PATH pairs, checked (parser.error, one line, otherwise)."""
    pairs: Dict[str, str] = {}
    for value in values:
        name, sep, path = value.partition("=")
        if not sep or not path:
            parser.error(f"--model takes NAME=PATH, not {value!r}")
        if name in pairs:
            parser.error(f"--model: the name {name!r} is given twice")
        pairs[name] = path
    try:
        return parse_networks(pairs)
    except ValueError as error:
        parser.error(f"--model: {error}")


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    if not 0 <= args.port <= 65535:
        parser.error(f"--port must be in 0..65535, not {args.port}")
    if not 1 <= args.hint_iterations <= 100_000:
        parser.error(f"--hint-iterations must be in 1..100000, not {args.hint_iterations}")
    for name in args.allow_host:
        if not HOST_NAME.fullmatch(name):
            parser.error(f"--allow-host takes a host name or address, not {name!r}")
    models = networks(args.model, parser)
    try:  # before the port is opened: a folder the games cannot be written to is one line
        folder = game_folder(os.path.expanduser(args.dir))
    except ValueError as error:
        print(f"vikinger serve: --dir: {error}", file=sys.stderr)
        return 2
    try:
        import uvicorn
        from threadpoolctl import threadpool_limits

        from ..web.app import build_app
        from ..web.guard import allowed_hosts
    except ImportError as error:
        print(
            f"vikinger serve: {install_hint(f'needs the web extra ({error})', 'web')}",
            file=sys.stderr,
        )
        return 3
    try:
        sock = listening_socket(args.host, args.port)
    except OSError as error:
        why = (
            "is in use"
            if error.errno == errno.EADDRINUSE
            else f"cannot be opened ({error.strerror or error})"
        )
        print(f"vikinger serve: port {args.port} on {args.host} {why}", file=sys.stderr)
        return 2
    # The bots think in threads of this process; numpy's BLAS threads would spin against each
    # other's and the games': measured on the busy 2-core machine, az:simulations=1000,playouts=64
    # took 24.7 s with the default threads and 2.4 s with one, which the caps of web/bots.py
    # assume (as the arena's workers, arena.one_blas_thread).
    threadpool_limits(1)
    host, port = sock.getsockname()[:2]
    app = build_app(
        folder,
        arena.engine_module(args.engine),
        args.hint_iterations,
        # the address as given (a name such as localhost) and as bound (its address)
        hosts=allowed_hosts(host, args.allow_host) + allowed_hosts(args.host),
        networks=models,
    )
    shown = f"[{host}]" if ":" in host else host
    print(
        f"vikinger serve: http://{shown}:{port}/ (games kept in {folder}; Ctrl-C stops)", flush=True
    )
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
    return 0
