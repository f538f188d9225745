"""The WebSocket protocol: ``hello`` (token, last event seen), then actions in, events out.

See docs/api.md. A seat's token travels in the first message (or the Authorization header),
never in the URL.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic_core import from_json

from sengoku.server import i18n, security
from sengoku.server.chat import Chat
from sengoku.server.errors import ApiError
from sengoku.server.i18n import N_
from sengoku.server.limits import ClientLimits
from sengoku.server.live import Live
from sengoku.server.routes.common import MATCH_ID, ServiceRef, bearer
from sengoku.server.service import MatchService
from sengoku.server.settings import Settings
from sengoku.server.wire import encode


def router(svc: ServiceRef, settings: Settings) -> APIRouter:
    """The WebSocket route, on the service ``svc()`` returns."""
    router = APIRouter()

    @router.websocket("/ws/matches/{match_id}")
    async def ws_match(websocket: WebSocket, match_id: str) -> None:
        service = svc()
        open_sockets = service.metrics.websockets
        open_sockets.inc()
        try:
            await websocket_session(service, settings, websocket, match_id)
        finally:
            open_sockets.dec()

    return router


def say(lang: str, message: str, params: Mapping[str, Any] | None = None) -> str:
    """``message`` (marked ``N_``) in ``lang``, its values filled in after, as an HTTP error's
    (docs/i18n.md); a message the catalog does not hold stays as it is."""
    return ApiError(400, "", message, params).localized(lambda text: i18n.gettext_(lang, text))


def said(lang: str, exc: ApiError) -> str:
    """An ``ApiError``'s message in ``lang``."""
    return exc.localized(
        lambda text: i18n.gettext_(lang, text), lambda say: i18n.sentence_(lang, say)
    )


async def websocket_session(
    service: MatchService, settings: Settings, ws: WebSocket, match_id: str
) -> None:
    """One connection: ``hello`` (token, last event seen), then actions in, events out.
    Its ``error`` and ``refused`` messages are in the language of the handshake's
    ``sengoku_lang`` cookie or ``Accept-Language`` (a browser sends both)."""
    await ws.accept()
    lang = i18n.choose(ws.cookies, ws.headers.get("accept-language"))

    async def fail(
        code: str, message: str, close: int = 4400, params: Mapping[str, Any] | None = None
    ) -> None:
        text = say(lang, message, params)
        await ws.send_json({"type": "error", "code": code, "message": text})
        await ws.close(code=close)

    if not MATCH_ID.match(match_id):
        await fail("no_such_match", N_("match ids are 1-32 letters, digits, - or _"), 4404)
        return
    live = await service.get(match_id)
    if live is None:
        await fail(
            "no_such_match", N_("there is no match %(match)s"), 4404, {"match": repr(match_id)}
        )
        return
    try:
        first = await asyncio.wait_for(ws.receive_text(), timeout=15)
    except (TimeoutError, WebSocketDisconnect, KeyError, RuntimeError):
        await fail("no_hello", N_("the first message must be a hello"))
        return
    hello = _parse_message(first, settings.max_ws_message)
    if isinstance(hello, ApiError):
        await fail("no_hello", said(lang, hello))
        return
    if hello.get("type") != "hello":
        await fail("no_hello", N_("send a hello first"))
        return
    token = hello.get("token")
    after = hello.get("after", 0)
    if ws.headers.get("authorization") and token is None:
        try:
            token = bearer(ws.headers.get("authorization"))
        except ApiError as exc:
            await fail(exc.code, said(lang, exc), 4401)
            return
    if token is not None and not isinstance(token, str):
        await fail("bad_token", N_("token must be a string"), 4401)
        return
    if not isinstance(after, int) or isinstance(after, bool) or after < 0:
        await fail("bad_message", N_("'after' must be the last event number seen (0 for none)"))
        return
    try:
        seat = service.seat_of(live, token)
    except ApiError as exc:
        await fail(exc.code, said(lang, exc), 4401)
        return
    short = hello.get("short", True) is not False
    limits: ClientLimits = ws.app.state.limits
    spectator = None
    if seat is None:
        # counted over every server process when they share Redis
        watching = sum(1 for sub in live.subscribers if sub.seat is None)
        spectator = await limits.open_spectator(live.id, watching)
        if spectator is None:
            await fail(
                "too_many_spectators",
                N_(
                    "this match has %(n)s spectators already; "
                    "follow it with GET /api/matches/%(match)s instead"
                ),
                4429,
                {"n": settings.max_spectators, "match": match_id},
            )
            return
    # a seat's connections count over every process (a claim asks whether it is connected)
    counted = seat is not None and await limits.seat_connected(live.id, seat)
    try:
        await _session(service, settings, ws, live, seat, after, short, lang)
    finally:
        await limits.close_spectator(live.id, spectator)
        if seat is not None:
            await limits.seat_left(live.id, seat, counted, service.now())


async def _session(
    service: MatchService,
    settings: Settings,
    ws: WebSocket,
    live: Live,
    seat: int | None,
    after: int,
    short: bool,
    lang: str = i18n.DEFAULT,
) -> None:
    """The connection once admitted: what it missed, then messages both ways (a refusal's
    reason in ``lang``)."""
    async with live.lock:
        sub = service.subscribe(live, seat, after, short)
    await ws.send_json({"type": "welcome", "seat": seat, "last_event": len(live.events)})

    async def writer() -> None:
        while True:
            msg = await sub.queue.get()
            if msg is None:
                await ws.close()
                return
            await ws.send_text(msg if isinstance(msg, str) else encode(msg))

    writer_task = asyncio.get_running_loop().create_task(writer())
    # Budgets per client address, shared by all its connections (sengoku/server/limits.py).
    limits: ClientLimits = ws.app.state.limits
    client = str(ws.scope.get("state", {}).get("client") or limits.client_of(ws.scope))
    try:
        while True:
            frame = await ws.receive()
            if frame["type"] == "websocket.disconnect":
                break
            text = frame.get("text")
            # The message's bytes count in the client's byte budget, as a request body's do.
            size = len(text.encode()) if isinstance(text, str) else len(frame.get("bytes") or b"")
            wait = await limits.check("ws", client)
            what = "messages"
            if wait is None:
                wait = await limits.check("bytes", client, float(size))
                what = "bytes"
            if wait is not None:
                template = (
                    N_("too many messages from your address; try again in %(seconds)s s")
                    if what == "messages"
                    else N_("too many bytes from your address; try again in %(seconds)s s")
                )
                sub.queue.put_nowait(
                    {
                        "type": "refused",
                        "code": "rate_limited",
                        "reason": say(lang, template, {"seconds": max(1, round(wait))}),
                        "id": _message_id(text, settings.max_ws_message),
                    }
                )
                continue
            msg = (
                _parse_message(text, settings.max_ws_message)
                if isinstance(text, str)
                else ApiError(
                    400, "bad_message", N_("messages must be JSON text, not binary frames")
                )
            )
            if isinstance(msg, ApiError):
                reason = said(lang, msg)
                sub.queue.put_nowait({"type": "refused", "code": "bad_message", "reason": reason})
                continue
            if msg["type"] == "action" and await limits.check("action", client) is not None:
                sub.queue.put_nowait(
                    {
                        "type": "refused",
                        "code": "rate_limited",
                        "reason": say(lang, N_("too many actions from your address")),
                        "id": msg.get("id"),
                    }
                )
                continue
            if msg["type"] == "chat":
                await _chat(service, ws.app.state.chat, live, sub, seat, msg, client, lang)
                continue
            await _handle(service, live, sub, seat, msg, lang)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        writer_task.cancel()
        service.unsubscribe(live, sub)


def _parse_message(text: str, limit: int) -> dict[str, Any] | ApiError:
    """The message, or why it cannot be read (an error to say in the connection's language)."""

    def bad(message: str, params: Mapping[str, Any] | None = None) -> ApiError:
        return ApiError(400, "bad_message", message, params)

    if len(text) > limit:
        return bad(N_("messages are limited to %(limit)s characters"), {"limit": limit})
    try:
        msg = security.loads(text)
    except security.BadJson as exc:
        return bad(str(exc))  # the JSON reader's own words: English
    except ValueError:
        return bad(N_("messages must be JSON objects"))
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        return bad(N_("messages must be JSON objects with a 'type'"))
    return msg


def _message_id(text: Any, limit: int) -> Any:
    """The ``id`` of a message refused before it is read (rate limited), so that the client
    can tell which message was refused; None if there is none.

    pydantic-core's JSON parser (Rust) finds it at a small fraction of the cost of reading
    the message (``security.loads``): a flood of refused messages must stay cheap. The id
    is echoed only if it passes the same shape checks as any message's.
    """
    if not isinstance(text, str) or len(text) > limit:
        return None
    try:
        msg = from_json(text, allow_inf_nan=False)
    except ValueError:
        return None
    if not isinstance(msg, dict):
        return None
    ref = msg.get("id")
    try:
        security.check_shape(ref)
    except security.BadJson:
        return None
    return ref


async def _chat(
    service: MatchService,
    chat: Chat,
    live: Live,
    sub: Any,
    seat: int | None,
    msg: dict[str, Any],
    client: str,
    lang: str = i18n.DEFAULT,
) -> None:
    """A chat message: the connection's seat writes (a spectator, to the spectators)."""
    ref = msg.get("id")
    try:
        await chat.post(service, live, seat, msg.get("text"), msg.get("name"), client)
        sub.queue.put_nowait({"type": "ack", "id": ref, "ply": live.ply})
    except ApiError as exc:
        sub.queue.put_nowait(
            {"type": "refused", "code": exc.code, "reason": said(lang, exc), "id": ref}
        )


async def _handle(
    service: MatchService,
    live: Live,
    sub: Any,
    seat: int | None,
    msg: dict[str, Any],
    lang: str = i18n.DEFAULT,
) -> None:
    kind = msg["type"]
    ref = msg.get("id")
    if kind == "ping":
        sub.queue.put_nowait({"type": "pong", "id": ref})
        return
    if kind not in {"action", "resign"}:
        sub.queue.put_nowait(
            {
                "type": "refused",
                "code": "bad_message",
                "reason": say(
                    lang,
                    N_("unknown message type %(kind)s; send action, resign, chat or ping"),
                    {"kind": repr(kind)},
                ),
                "id": ref,
            }
        )
        return
    if seat is None:
        sub.queue.put_nowait(
            {
                "type": "refused",
                "code": "spectator",
                "reason": say(lang, N_("spectators cannot act")),
                "id": ref,
            }
        )
        return
    try:
        if kind == "resign":
            await service.resign(live, seat)
            sub.queue.put_nowait({"type": "ack", "id": ref, "ply": live.ply})
            return
        action = msg.get("action")
        ply = msg.get("ply")
        if not isinstance(action, str) or not 0 < len(action) <= 500:
            raise ApiError(422, "bad_message", N_("'action' must be the action's notation"))
        if ply is not None and (not isinstance(ply, int) or isinstance(ply, bool)):
            raise ApiError(422, "bad_message", N_("'ply' must be an integer"))
        await service.act(live, seat, action, ply)
        sub.queue.put_nowait({"type": "ack", "id": ref, "ply": live.ply})
    except ApiError as exc:
        sub.queue.put_nowait(
            {"type": "refused", "code": exc.code, "reason": said(lang, exc), "id": ref}
        )
