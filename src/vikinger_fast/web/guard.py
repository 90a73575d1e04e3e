"""What `vikinger serve` answers at all (docs/web.md "Only its own page"): a local web app must
assume that any page open in the same browser sends it requests.

- The `Host` header must name the address the server is bound to (bound to every address: the
  loopback names), `localhost`, or a name given with `--allow-host` (Starlette's
  TrustedHostMiddleware, `allowed_hosts`): a foreign site whose name resolves to 127.0.0.1 (DNS
  rebinding) is answered 400 and never sees a game. The port is not checked: a tunnel
  (`ssh -L 9000:127.0.0.1:8000`) changes it, and the name is what a rebinding page cannot forge.
- Every request that is not GET or HEAD (SameOriginJson below) must come from the page itself:
  its `Origin` is the server's own (`http://` + the request's checked `Host`), or, without
  `Origin`, its `Sec-Fetch-Site` is `same-origin`; anything else is 403. A request with neither
  header (curl, scripts; no browser of the last years posts without `Origin`) is let through: it
  still has to be JSON, which a page of another origin cannot send without a CORS preflight that
  this server never grants.
- It carries `Content-Type: application/json` (415 otherwise): a plain HTML form cannot, so a
  cross-origin form post reaches no route, not even undo and hint, which read no body.
- A declared body larger than `max_body` is 413 before it is read (the routes bound the bytes
  they stream as well, and the JSON's depth).
- Every response, refusals included, forbids framing (`X-Frame-Options: DENY` and
  `Content-Security-Policy: frame-ancestors 'none'`, NoFraming below): no other page can show the
  app in a frame and trick a click onto its buttons (clickjacking).

Every refusal here is a JSON {"error": ...} (TrustedHostMiddleware's is its plain text) and
happens before any route runs, so no game changes.
"""

from typing import Iterable, List, Optional, Tuple

from starlette.datastructures import Headers
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

READ_ONLY = ("GET", "HEAD")
NO_FRAMING = [
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy", b"frame-ancestors 'none'"),
]
WILDCARD = ("0.0.0.0", "::", "")


def allowed_hosts(bound: str, extra: Iterable[str] = ()) -> List[str]:
    """The Host names served for a server bound to `bound`: that address (IPv6 in brackets, as
    in a Host header) and `localhost`; bound to every address (0.0.0.0, ::), the loopback names.
    `extra`: the names of `--allow-host`."""
    if bound in WILDCARD:
        names = ["localhost", "127.0.0.1", "[::1]"]
    else:
        names = [f"[{bound}]" if ":" in bound else bound, "localhost"]
    return list(dict.fromkeys(name.lower() for name in [*names, *extra]))


def refusal(method: str, scheme: str, headers: Headers, max_body: int) -> Optional[Tuple[int, str]]:
    """(status, message) when a request may not reach the routes, else None."""
    if method in READ_ONLY:
        return None
    origin = headers.get("origin")
    own = f"{scheme}://{headers.get('host', '')}".lower()
    if origin is not None:
        if origin.lower() != own:
            return 403, f"a request from {origin} may not change anything here; use {own}/"
    else:
        site = headers.get("sec-fetch-site")
        if site is not None and site.lower() != "same-origin":
            return 403, f"a {site} request may not change anything here; use {own}/"
    kind = headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        return 415, "send the body as JSON (Content-Type: application/json)"
    declared = headers.get("content-length", "")
    if declared.isdigit() and int(declared) > max_body:
        return 413, f"the body is larger than {max_body} bytes"
    return None


class SameOriginJson:
    """The ASGI middleware of `refusal`: requests that may change something come from the
    server's own page and carry bounded JSON (see the module docstring)."""

    def __init__(self, app: ASGIApp, max_body: int) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            refused = refusal(scope["method"], scope["scheme"], Headers(scope=scope), self.max_body)
            if refused is not None:
                status, message = refused
                await JSONResponse({"error": message}, status_code=status)(scope, receive, send)
                return
        await self.app(scope, receive, send)


class NoFraming:
    """The ASGI middleware that adds NO_FRAMING to the headers of every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_unframed(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {name.lower() for name, _ in NO_FRAMING}
                kept = [(k, v) for k, v in message.get("headers", []) if k.lower() not in names]
                message = dict(message, headers=kept + NO_FRAMING)
            await send(message)

        await self.app(scope, receive, send_unframed)


def middleware(hosts: Iterable[str], max_body: int) -> List[Middleware]:
    """The app's middleware, outermost first: the anti-framing headers (on every response, the
    refusals of the next two included), the Host check, then the origin and JSON rule."""
    return [
        Middleware(NoFraming),
        Middleware(TrustedHostMiddleware, allowed_hosts=list(hosts), www_redirect=False),
        Middleware(SameOriginJson, max_body=max_body),
    ]
