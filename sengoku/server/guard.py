"""The HTTP and WebSocket guard (pure ASGI): limits per client, body size and shape, headers.

Every HTTP request is counted against its client's buckets (sengoku/server/limits.py),
refused if its URL holds a NUL, or if its body is too large or a JSON shape no route should
see (sengoku/server/security.py); every response carries the security headers. Every
WebSocket connection is counted against its client's open connections and connection rate.

A body is held to its route's cap (:func:`body_cap`: what the route can need, from 4 KiB for
an action to 2 MB for a record) before a byte of it is parsed: a ``Content-Length`` over
the cap is refused without reading the body, and a chunked body is counted as it arrives and
refused as soon as it passes the cap (``413 too_large`` naming the cap). Its bytes are then
taken from the client's byte budget (``bytes``), so that many large bodies are refused
(``429``) before they cost the server their parsing.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from typing import Any

from starlette.requests import HTTPConnection

from sengoku.server import i18n, security
from sengoku.server.errors import ApiError
from sengoku.server.i18n import N_
from sengoku.server.limits import ClientLimits

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

ACTION_PATH = re.compile(r"^/api/matches/[^/]+/actions/?$")
CHAT_PATH = re.compile(r"^/api/matches/[^/]+/chat/?$")
SEEK_ACCEPT_PATH = re.compile(r"^/api/seeks/[^/]+/accept/?$")
#: Asking for a match's analysis: the engine works through the whole record, as for an import.
ANALYSIS_PATH = re.compile(r"^/api/matches/[^/]+/analysis/?$")
#: Bodies at least this long are checked on a worker thread, not on the event loop.
THREADED_CHECK = 64 * 1024


class _TooLarge(Exception):
    pass


def _route_name(path: str) -> str:
    """``path`` as its route is written (a match's id as ``{id}``), clipped: the 413 names
    the route without echoing much of the client's URL."""
    parts = path.split("/")
    if len(parts) > 3 and parts[1:3] == ["api", "matches"]:
        parts[3] = "{id}"
    return "/".join(parts)[:80]


#: A rate limit's refusal, per budget: each a whole sentence, so that it is translated whole.
TOO_MANY: dict[str, str] = {
    "requests": N_("too many requests from your address; try again in %(seconds)s s"),
    "bytes": N_("too many bytes from your address; try again in %(seconds)s s"),
    "new matches": N_("too many new matches from your address; try again in %(seconds)s s"),
    "imports and analyses": N_(
        "too many imports and analyses from your address; try again in %(seconds)s s"
    ),
    "replays": N_("too many replays from your address; try again in %(seconds)s s"),
    "board positions": N_("too many board positions from your address; try again in %(seconds)s s"),
    "engine evaluations": N_(
        "too many engine evaluations from your address; try again in %(seconds)s s"
    ),
    "actions": N_("too many actions from your address; try again in %(seconds)s s"),
}


def language(scope: Scope) -> str:
    """The request's language: its ``sengoku_lang`` cookie, else Accept-Language."""
    conn = HTTPConnection(scope)
    return i18n.choose(conn.cookies, conn.headers.get("accept-language"))


def say(lang: str, message: str, params: Mapping[str, Any] | None = None) -> str:
    """``message`` in ``lang``, its values filled in after; one the catalog does not hold (a
    reader's own words) stays as it is."""
    return ApiError(400, "", message, params).localized(lambda text: i18n.gettext_(lang, text))


def error_body(code: str, message: str) -> bytes:
    return json.dumps({"error": {"code": code, "message": message}}).encode()


def body_cap(settings: Any, method: str, path: str) -> int:
    """The most bytes a request body to ``path`` may hold (Settings' ``max_*body``): a record
    (import, replay), an analysis board's request, a new match, a chat message, or anything else (an action, a join, an
    answer to an offer; a request whose route takes no body)."""
    if method == "POST":
        route = path.rstrip("/")
        if route in ("/api/records", "/api/replay"):
            return int(settings.max_body)
        if route in ("/api/matches", "/api/seeks"):  # a seek holds a match's options
            return int(settings.max_create_body)
        if route in ("/api/board/position", "/api/board/evaluate"):
            return int(settings.max_board_body)
        if CHAT_PATH.match(path):
            return int(settings.max_chat_body)
    return int(settings.max_small_body)


def _kind_of(method: str, path: str) -> str | None:
    """The per-client budget a request draws on besides ``http``, if any."""
    if method != "POST":
        return None
    if path.rstrip("/") in ("/api/matches", "/api/seeks") or SEEK_ACCEPT_PATH.match(path):
        return "create"  # a seek's making and its accept (which creates the match)
    if path.rstrip("/") == "/api/records" or ANALYSIS_PATH.match(path):
        return "import"
    if path.rstrip("/") == "/api/replay":
        return "replay"
    if path.rstrip("/") == "/api/board/position":
        return "board"
    if path.rstrip("/") == "/api/board/evaluate":
        return "evaluate"
    if ACTION_PATH.match(path):
        return "action"
    return None


class GuardMiddleware:
    def __init__(self, app: Any, settings: Any, limits: ClientLimits) -> None:
        self.app = app
        self.settings = settings
        self.limits = limits

    async def _reply(
        self,
        scope: Scope,
        send: Send,
        status: int,
        code: str,
        message: str,
        extra: list[tuple[bytes, bytes]] | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> None:
        """The error, its message (marked ``N_``, values in ``params``) in the request's
        language (docs/i18n.md)."""
        body = error_body(code, say(language(scope), message, params))
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            *security.SECURITY_HEADERS,
            *(extra or []),
        ]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    async def _limited(self, scope: Scope, send: Send, wait: float, what: str) -> None:
        seconds = max(1, round(wait))
        await self._reply(
            scope,
            send,
            429,
            "rate_limited",
            TOO_MANY.get(what, TOO_MANY["actions"]),
            [(b"retry-after", str(seconds).encode())],
            {"seconds": seconds},
        )

    async def _too_large(
        self, scope: Scope, send: Send, method: str, path: str, limit: int
    ) -> None:
        await self._reply(
            scope,
            send,
            413,
            "too_large",
            N_("request bodies to %(route)s are limited to %(limit)s bytes"),
            params={"route": f"{method} {_route_name(path)}", "limit": limit},
        )

    async def _bytes_allowed(self, scope: Scope, send: Send, client: str, size: int) -> bool:
        """Take ``size`` bytes from the client's byte budget; False (answered) if it lacks
        them."""
        wait = await self.limits.check("bytes", client, float(size))
        if wait is None:
            return True
        await self._limited(scope, send, wait, "bytes")
        return False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            await self._websocket(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        client = self.limits.client_of(scope)
        scope.setdefault("state", {})["client"] = client
        method = str(scope.get("method", "GET"))
        path = str(scope.get("path", ""))
        if not await self._admitted(scope, send, client, method, path):
            return
        limit = body_cap(self.settings, method, path)
        lengths = _declared_lengths(scope)
        if any(not 0 <= n <= limit for n in lengths):
            await self._too_large(scope, send, method, path, limit)
            return
        declared = lengths[-1] if lengths else None
        if declared and not await self._bytes_allowed(scope, send, client, declared):
            return
        headers = security.response_headers(path)

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = dict(message)
                present = {k.lower() for k, _v in message.get("headers", [])}
                message["headers"] = [
                    *message.get("headers", []),
                    *((k, v) for k, v in headers if k not in present),
                ]
            await send(message)

        if method in {"POST", "PUT", "PATCH"}:
            await self._with_body(scope, receive, with_headers, client, declared, limit)
            return
        await self.app(scope, receive, with_headers)

    async def _admitted(
        self, scope: Scope, send: Send, client: str, method: str, path: str
    ) -> bool:
        """Whether the request may go on (else it is answered): a readable target, within
        the client's request rate and the rate of its kind (new matches, imports, replays,
        actions)."""
        problem = security.target_problem(scope)
        if problem is not None:
            await self._reply(scope, send, 400, "bad_request", problem)
            return False
        wait = await self.limits.check("http", client)
        if wait is not None:
            await self._limited(scope, send, wait, "requests")
            return False
        kind = _kind_of(method, path)
        if kind is not None:
            wait = await self.limits.check(kind, client)
            if wait is not None:
                what = {
                    "create": "new matches",
                    "import": "imports and analyses",
                    "replay": "replays",
                    "board": "board positions",
                    "evaluate": "engine evaluations",
                }
                await self._limited(scope, send, wait, what.get(kind, "actions"))
                return False
        return True

    async def _with_body(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        client: str,
        declared: int | None,
        limit: int,
    ) -> None:
        """Read a body of at most ``limit`` bytes, count it, check it is JSON that may be
        parsed, then hand the request on with the body replayed (``send`` adds the headers)."""
        method = str(scope.get("method", "GET"))
        path = str(scope.get("path", ""))
        try:
            body = await self._read_body(receive, limit)
        except _TooLarge:
            await self._too_large(scope, send, method, path, limit)
            return
        if body is None:  # the client went away
            return
        # A chunked body declares no length: its bytes are counted once read (never
        # more than the cap), before it is parsed.
        if (
            declared is None
            and body
            and not await self._bytes_allowed(scope, send, client, len(body))
        ):
            return
        if len(body) >= THREADED_CHECK:
            problem = await asyncio.to_thread(security.body_problem, body)
        else:
            problem = security.body_problem(body) if body else None
        if problem is not None:
            await self._reply(scope, send, 422, "bad_json", problem)
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    @staticmethod
    async def _read_body(receive: Receive, limit: int) -> bytes | None:
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > limit:
                raise _TooLarge
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = self.limits.client_of(scope)
        scope.setdefault("state", {})["client"] = client
        refusal = security.target_problem(scope)
        code = "bad_request"
        ticket = None
        if refusal is None:
            wait = await self.limits.check("connect", client)
            if wait is not None:
                code = "rate_limited"
                refusal = say(
                    language(scope),
                    N_("too many connections opened from your address; try again in %(seconds)s s"),
                    {"seconds": max(1, round(wait))},
                )
            elif (ticket := await self.limits.open_ws(client)) is None:
                code = "too_many_connections"
                refusal = say(
                    language(scope),
                    N_("your address holds %(n)s open connections already; close one first"),
                    {"n": self.settings.ws_per_client},
                )
        if refusal is not None:
            # Accept, say why, close: a browser shows a refused handshake only as an error.
            message = await receive()
            if message["type"] != "websocket.connect":
                return
            await send({"type": "websocket.accept"})
            text = json.dumps({"type": "error", "code": code, "message": refusal})
            await send({"type": "websocket.send", "text": text})
            await send({"type": "websocket.close", "code": 4429})
            return
        try:
            await self.app(scope, receive, send)
        finally:
            if ticket is not None:
                await self.limits.close_ws(client, ticket)


def _declared_lengths(scope: Scope) -> list[int]:
    """Every Content-Length the request declares, in order (-1 for one that is no number):
    any outside the route's cap refuses the request."""
    lengths: list[int] = []
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            try:
                lengths.append(int(value))
            except ValueError:
                lengths.append(-1)
    return lengths
