"""The two requests of every move, answered without FastAPI's routing (pure ASGI).

A browser's move is ``POST /api/matches/{id}/actions`` then ``GET /api/matches/{id}/events``.
FastAPI's route matching over every route, its dependency solving, the body's pydantic model
and the response's validation cost about as much CPU as the move itself
(benchmarks/server_load.py, docs/server.md). ``HotRoutes`` sits inside the guard (so the
limits, the body checks and the security headers apply as before) and answers these two
requests itself when they are plainly well formed: a JSON body of the ``PlayAction`` shape
with values of exactly the right types, or an ``after=N`` query. It calls the same service
methods as the routes in ``routes/matches.py`` and writes the same JSON. Anything else
(another shape, another type, a query with more in it) goes on to the FastAPI route, so that
every refusal is worded as before; errors the service raises are answered by the same
handler as the routes' (``routes/errors.py``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from sengoku.server import i18n
from sengoku.server.errors import ApiError
from sengoku.server.routes.common import ServiceRef, bearer, find
from sengoku.server.routes.errors import api_error_response
from sengoku.server.wire import JsonText, encode

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

_ACTIONS = re.compile(r"^/api/matches/([A-Za-z0-9_-]{1,32})/actions$")
_EVENTS = re.compile(r"^/api/matches/([A-Za-z0-9_-]{1,32})/events$")
_AFTER = re.compile(rb"^after=([0-9]{1,15})$")
#: ``PlayAction.id``'s pattern (routes/matches.py).
_CLIENT_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")
_PLAY_KEYS = frozenset({"action", "ply", "id"})


def _language(scope: Scope) -> str:
    """The language of an error's answer: the request's cookie or Accept-Language."""
    request = Request(scope)
    return i18n.choose(request.cookies, request.headers.get("accept-language"))


def _header(scope: Scope, name: bytes) -> str | None:
    """The first header ``name`` (lower case), as Starlette's ``Headers.get`` finds it."""
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


def _play_body(body: bytes) -> tuple[str, int | None, str | None] | None:
    """(action, ply, id) of a body ``PlayAction`` takes as it is, or None (the route then
    judges it: a missing field, a string for a number, an extra key...)."""
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return None
    if type(data) is not dict or not data.keys() <= _PLAY_KEYS:
        return None
    action = data.get("action")
    ply = data.get("ply")
    ref = data.get("id")
    if type(action) is not str or not 1 <= len(action) <= 500 or not _utf8(action):
        return None
    if ply is not None and (type(ply) is not int or not 0 <= ply < 2**63):
        return None
    if ref is not None and (type(ref) is not str or not _CLIENT_ID.match(ref)):
        return None
    return action, ply, ref


def _utf8(text: str) -> bool:
    """Whether ``text`` is valid Unicode (JSON's ``\\ud800`` escapes can make a lone
    surrogate, which pydantic refuses: such a body goes to the route)."""
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class HotRoutes:
    """Answers the well-formed action and events requests; passes on everything else."""

    #: Off: every request goes through FastAPI (the tests compare both ways).
    enabled = True

    def __init__(self, app: Any, svc: ServiceRef) -> None:
        self.app = app
        self.svc = svc

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not self.enabled:
            await self.app(scope, receive, send)
            return
        method = scope.get("method")
        path = scope.get("path", "")
        if method == "POST" and (found := _ACTIONS.match(path)) is not None:
            await self._play(found.group(1), scope, receive, send)
            return
        if method == "GET" and (found := _EVENTS.match(path)) is not None:
            query = _AFTER.match(scope.get("query_string", b"") or b"after=0")
            if query is not None:
                await self._events(found.group(1), int(query.group(1)), scope, receive, send)
                return
        await self.app(scope, receive, send)

    async def _play(self, match_id: str, scope: Scope, receive: Receive, send: Send) -> None:
        chunks = []
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        content_type = _header(scope, b"content-type")
        parsed = _play_body(body) if content_type == "application/json" else None
        if parsed is None:
            sent = False

            async def replay() -> Message:
                nonlocal sent
                if not sent:
                    sent = True
                    return {"type": "http.request", "body": body, "more_body": False}
                return await receive()

            await self.app(scope, replay, send)
            return
        action, ply, ref = parsed
        svc = self.svc()
        try:
            live = await find(svc, match_id)
            seat = svc.player_seat(live, bearer(_header(scope, b"authorization")))
            out = await svc.act(live, seat, action, ply, client_id=ref)
        except ApiError as exc:
            await api_error_response(exc, _language(scope))(scope, receive, send)
            return
        await _json(out)(scope, receive, send)

    async def _events(
        self, match_id: str, after: int, scope: Scope, receive: Receive, send: Send
    ) -> None:
        svc = self.svc()
        try:
            live = await find(svc, match_id)
            seat = svc.seat_of(live, bearer(_header(scope, b"authorization")))
        except ApiError as exc:
            await api_error_response(exc, _language(scope))(scope, receive, send)
            return
        svc.touch(live)
        out = {"events": svc.events_for(live, seat, after), "last_event": len(live.events)}
        svc.forget_if_done(live)
        await _json(out)(scope, receive, send)


def _json(value: Any) -> Response:
    """A 200 answer holding ``value``, as FastAPI writes a route's ``dict`` result (JSON
    text already made is sent as it is)."""
    text = value if isinstance(value, JsonText) else encode(value)
    return Response(text.encode(), media_type="application/json")
