"""The Starlette application of `vikinger serve`: the page (static files, no build step) and the
JSON routes that hold the games (docs/web.md).

Routes: GET / (the page), GET /static/* , GET /api/games (stored games), GET /api/bots (what a
bot spec may name), POST /api/games (a new game), GET /api/games/{id} (the view),
POST /api/games/{id}/move {"action": "buy:3"}, POST /api/games/{id}/undo {},
POST /api/games/{id}/hint {}, GET /api/games/{id}/record (the record of docs/records.md, as a
download), GET /rules (docs/rules.md as a page, every rule id an anchor). Every refusal is a 4xx
JSON {"error": message} and leaves the game as it was. Before any route, guard.py refuses foreign
hosts and origins and bodies that are not JSON; bots.py holds what a bot spec may ask for.
"""

import html
import os
import re
import threading
from typing import Any, Dict, Iterable, Mapping, Optional

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from vikinger_ref import OPTION_NAMES

from .. import arena
from ..pictures.legend import legend_html
from ..safety.json_limits import loads_limited
from . import guard
from .bots import Bots
from .rules_page import rules_html
from .session import BadRequest, WebGame, load_game
from .store import Store, valid_id

STATIC = os.path.join(os.path.dirname(__file__), "static")
SETTLE_SECONDS = 0.25  # a move's answer waits this long for quick bots
MAX_BODY = 16 * 1024  # a move or a new game is a few hundred bytes
MAX_DEPTH = 8  # a new game's body nests 2 levels ({"options": {...}})
LISTED = 50  # the newest stored games listed
# "(docs/learning.md)" in a bot's description: the page names no file of docs/, which an
# installed package does not have (docs/web.md "The page"); the rules are served at /rules
DOCS_FILE = re.compile(r" ?\(docs/[^)]*\)")


class Games:
    """The store and the games in memory (loaded from the store on first use)."""

    def __init__(self, folder: str, bots: Bots, hint_iterations: int) -> None:
        self.bots = bots
        self.store = Store(folder, bots.resolve)
        self.engine = bots.engine
        self.hint_iterations = hint_iterations
        self.loaded: Dict[str, WebGame] = {}
        self.lock = threading.Lock()

    def get(self, game_id: str) -> WebGame:
        with self.lock:
            game = self.loaded.get(game_id)
            if game is None:
                if not valid_id(game_id):
                    raise BadRequest(f"no game {game_id!r}", 404)
                try:
                    game = load_game(self.store, self.engine, game_id)
                except KeyError:
                    raise BadRequest(f"no game {game_id!r}", 404) from None
                except ValueError as error:  # damaged, or naming a bot not served here
                    raise BadRequest(str(error), 409) from None
                self.loaded[game_id] = game
        game.start_bots()  # a game stored while the bots were moving goes on
        return game

    def create(self, body: Dict[str, Any]) -> WebGame:
        players = _int(body.get("players", 2), "players")
        if not 2 <= players <= 4:
            raise BadRequest(f"'players' must be 2, 3 or 4, not {players}")
        seat = _int(body.get("seat", 0), "seat")
        if not 0 <= seat < players:
            raise BadRequest(f"'seat' must be in 0..{players - 1}, not {seat}")
        seed = _int(body.get("seed", 0), "seed")
        if not 0 <= seed < 2**63:
            raise BadRequest("'seed' must be in 0..2**63-1")
        bots = body.get("bots", ["greedy"])
        if isinstance(bots, str):
            bots = [bots]
        if (
            not isinstance(bots, list)
            or not all(isinstance(b, str) for b in bots)
            or len(bots) not in (1, players - 1)
        ):
            raise BadRequest(f"'bots' must be a list of 1 or {players - 1} bot specs")
        if len(bots) == 1:
            bots = bots * (players - 1)
        options = body.get("options", {})
        if (
            not isinstance(options, dict)
            or set(options) - set(OPTION_NAMES)
            or not all(isinstance(v, bool) for v in options.values())
        ):
            raise BadRequest(
                f"'options' must map some of {', '.join(OPTION_NAMES)} to true or false"
            )
        options = {name: bool(options.get(name, False)) for name in OPTION_NAMES}
        rules = self.engine.Game(num_players=players, **options)
        for text in bots:
            try:  # built once for this game: its values, and a network's shapes, are checked
                self.bots.check(text, rules)
            except ValueError as error:
                raise BadRequest(str(error)) from None
        game = WebGame.create(
            self.store, self.engine, players, seat, [b.strip() for b in bots], seed, options
        )
        with self.lock:
            self.loaded[game.id] = game
        game.start_bots()
        return game

    def listing(self) -> Dict[str, Any]:
        """The newest stored games that load, and those refused with the reason."""
        games, refused = [], []
        for game_id in list(self.store.ids())[:LISTED]:
            try:
                document = self.store.load(game_id)
            except KeyError:  # removed meanwhile
                continue
            except ValueError as error:
                refused.append({"id": game_id, "error": str(error)})
                continue
            games.append(
                {
                    "id": game_id,
                    "num_players": document["num_players"],
                    "bots": sorted(set(document["bots"].values())),
                    "moves": len(document["history"]),
                    "finished": document.get("finished") is True,
                    "options": [k for k, on in document["options"].items() if on],
                }
            )
        return {"games": games, "refused": refused}


def _int(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadRequest(f"'{name}' must be an integer, not {value!r}")
    return value


async def _json_body(request: Request) -> Dict[str, Any]:
    """The request's JSON object, read up to MAX_BODY bytes (413 beyond) and MAX_DEPTH levels
    (400 beyond). guard.py has already checked its Content-Type and declared length."""
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise BadRequest(f"the body is larger than {MAX_BODY} bytes", 413)
    try:
        value = loads_limited(
            bytes(body) or b"{}", "the body", max_depth=MAX_DEPTH, max_bytes=MAX_BODY
        )
    except ValueError as error:
        raise BadRequest(str(error)) from None
    if not isinstance(value, dict):
        raise BadRequest("the body must be a JSON object")
    return value


def build_app(
    folder: str,
    engine: Any,
    hint_iterations: int = 1000,
    hosts: Iterable[str] = ("127.0.0.1", "localhost"),
    networks: Optional[Mapping[str, str]] = None,
) -> Starlette:
    """The app for games kept in `folder`, played by `engine`, served under the Host names
    `hosts` (guard.allowed_hosts), with the networks `networks` (name -> absolute path,
    bots.parse_networks)."""
    bots = Bots(engine, networks or {})
    games = Games(folder, bots, hint_iterations)

    with open(os.path.join(STATIC, "index.html"), encoding="utf-8") as source:
        page = source.read().replace("<!--LEGEND-->", legend_html())
    page = page.replace("<!--BOTS-->", bots_html())
    rules = rules_html()

    async def index(request: Request) -> Response:
        return HTMLResponse(page, headers={"Cache-Control": "no-store"})

    async def rules_page(request: Request) -> Response:
        return HTMLResponse(rules)

    async def list_games(request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(games.listing))

    async def bot_choices(request: Request) -> Response:
        return JSONResponse(bots.choices())

    async def new_game(request: Request) -> Response:
        body = await _json_body(request)
        game = await run_in_threadpool(games.create, body)
        return JSONResponse(await run_in_threadpool(game.view), status_code=201)

    async def show(request: Request) -> Response:
        game = await run_in_threadpool(games.get, request.path_params["game_id"])
        return JSONResponse(await run_in_threadpool(game.view))

    async def move(request: Request) -> Response:
        game = await run_in_threadpool(games.get, request.path_params["game_id"])
        body = await _json_body(request)
        if "action" not in body:
            raise BadRequest('the body needs \'action\', e.g. {"action": "buy:3"}')
        await run_in_threadpool(game.play, body["action"])
        await run_in_threadpool(game.settle, SETTLE_SECONDS)
        return JSONResponse(await run_in_threadpool(game.view))

    async def undo(request: Request) -> Response:
        game = await run_in_threadpool(games.get, request.path_params["game_id"])
        await _json_body(request)  # {}: a JSON body, so that no form can post it
        await run_in_threadpool(game.undo)
        return JSONResponse(await run_in_threadpool(game.view))

    async def hint(request: Request) -> Response:
        game = await run_in_threadpool(games.get, request.path_params["game_id"])
        await _json_body(request)
        return JSONResponse(await run_in_threadpool(game.hint, games.hint_iterations))

    async def record(request: Request) -> Response:
        game = await run_in_threadpool(games.get, request.path_params["game_id"])
        text = await run_in_threadpool(game.record_text)
        return Response(
            text,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="vikinger-{game.id}.json"'},
        )

    async def refused(request: Request, error: Exception) -> Response:
        assert isinstance(error, BadRequest)
        return JSONResponse({"error": str(error)}, status_code=error.status)

    async def http_error(request: Request, error: Exception) -> Response:
        assert isinstance(error, HTTPException)
        return JSONResponse({"error": error.detail}, status_code=error.status_code)

    routes = [
        Route("/", index),
        Route("/rules", rules_page),
        Route("/api/games", list_games, methods=["GET"]),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/bots", bot_choices, methods=["GET"]),
        Route("/api/games/{game_id}", show, methods=["GET"]),
        Route("/api/games/{game_id}/move", move, methods=["POST"]),
        Route("/api/games/{game_id}/undo", undo, methods=["POST"]),
        Route("/api/games/{game_id}/hint", hint, methods=["POST"]),
        Route("/api/games/{game_id}/record", record, methods=["GET"]),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={BadRequest: refused, HTTPException: http_error},
        middleware=guard.middleware(hosts, MAX_BODY),
    )
    app.state.games = games
    return app


def bots_html() -> str:
    """The built-in bot specs with their one-line descriptions, for the setup form (without the
    files of docs/ they cite)."""
    return "".join(
        f"<li><code>{html.escape(name)}</code> {html.escape(DOCS_FILE.sub('', words))}</li>"
        for name, words in arena.DESCRIPTIONS.items()
    )


def loaded_game(app: Starlette, game_id: str) -> Optional[WebGame]:
    """For tests and tools: the game in memory, if loaded."""
    return app.state.games.loaded.get(game_id)
