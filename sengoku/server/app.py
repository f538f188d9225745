"""The HTTP and WebSocket API (FastAPI). See docs/api.md for the whole protocol.

Seats act with their token as a bearer token (``Authorization: Bearer ...``) or, on the
WebSocket, in the first message: tokens never travel in a URL, so no access log holds one.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from typing import Any, Literal

from fastapi import FastAPI, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from sengoku.core.registry import list_games, load_game
from sengoku.server import housekeeping, security
from sengoku.server.db import Store, make_engine, migrate
from sengoku.server.guard import GuardMiddleware
from sengoku.server.limits import ClientLimits
from sengoku.server.service import (
    DONE_STATUSES,
    LIVE_STATUSES,
    ApiError,
    Live,
    MatchService,
    Settings,
)

log = logging.getLogger("sengoku.server")

MATCH_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{10,100}$")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


# -- request bodies --------------------------------------------------------------------
class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SeatSpec(Strict):
    kind: Literal["local", "invite", "open", "ai"] = "local"
    name: str | None = Field(default=None, max_length=64)
    level: int | None = Field(default=None, ge=0, le=100)
    agent: str | None = Field(default=None, max_length=32)


class CreateMatch(Strict):
    game: str = Field(max_length=64)
    options: dict[str, Any] = Field(default_factory=dict)
    seed: int | None = Field(default=None, ge=0, lt=2**128)
    seats: list[SeatSpec] = Field(min_length=1, max_length=16)
    clock: dict[str, Any] | None = None


class JoinMatch(Strict):
    invite: str | None = Field(default=None, max_length=100)
    name: str | None = Field(default=None, max_length=64)


class PlayAction(Strict):
    action: str = Field(min_length=1, max_length=500)
    ply: int | None = Field(default=None, ge=0)
    #: The client's own key for this action: a retry with the same id is not applied again.
    id: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_.:-]{1,64}$")


class TakebackAnswer(Strict):
    accept: bool = True


# -- the application ---------------------------------------------------------------------
def bearer(authorization: str | None) -> str | None:
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not TOKEN_RE.match(token):
        raise ApiError(401, "bad_token", "Authorization must be 'Bearer <seat token>'")
    return token


def create_app(settings: Settings) -> FastAPI:
    """The web application for ``settings`` (a fresh service and database connection)."""
    engine = make_engine(
        settings.db_url,
        synchronous=settings.sqlite_synchronous,
        lock_timeout=settings.db_lock_timeout,
        pool_size=settings.db_workers + settings.db_list_workers + 2,
    )
    store = Store(engine)
    holder: dict[str, MatchService] = {}
    limits = ClientLimits(settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await asyncio.get_running_loop().run_in_executor(None, migrate, engine)
        service = MatchService(settings, store)
        holder["service"] = service
        app.state.service = service
        await service.start()
        expiry = (
            asyncio.get_running_loop().create_task(housekeeping.expire_loop(service))
            if settings.timers
            else None
        )
        try:
            yield
        finally:
            if expiry is not None:
                expiry.cancel()
            await service.close()
            engine.dispose()

    app = FastAPI(
        title="Sengoku game server",
        version="1",
        description="Play Gungi, Gunshi, Gunkimono and Sashimono online. See docs/api.md.",
        lifespan=lifespan,
    )
    app.add_middleware(GuardMiddleware, settings=settings, limits=limits)
    app.state.limits = limits

    def svc() -> MatchService:
        return holder["service"]

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError) -> JSONResponse:
        body = exc.to_json()
        # an error may quote what the client sent: never echo more than a line of it
        body["error"]["message"] = housekeeping.clip(exc.message)
        return JSONResponse(body, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = []
        for err in exc.errors()[:5]:
            where = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "body"
            problems.append(f"{where}: {err.get('msg', 'invalid')}")
        return JSONResponse(
            {"error": {"code": "bad_request", "message": "; ".join(problems)}}, status_code=422
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return JSONResponse(
            {"error": {"code": code, "message": str(exc.detail)}}, status_code=exc.status_code
        )

    async def find(match_id: str) -> Live:
        if not MATCH_ID.match(match_id):
            raise ApiError(404, "no_such_match", "match ids are 1-32 letters, digits, - or _")
        return await svc().require(match_id)

    @app.get("/healthz")
    async def healthz() -> dict[str, Any]:
        return {"ok": True, "matches_in_memory": len(svc().live)}

    @app.get("/api/games")
    async def games() -> dict[str, Any]:
        """Every game this server plays, with its options."""
        out = []
        for name in list_games():
            try:
                out.append(load_game(name).describe())
            except Exception:  # a game that does not import is left out, not fatal
                log.exception("game %s failed to load", name)
        return {"games": out, "ai_levels": _ai_levels(), "clocks": _clock_kinds()}

    @app.get("/api/games/{name}")
    async def game(name: str) -> dict[str, Any]:
        if name not in list_games():
            raise ApiError(404, "unknown_game", f"unknown game {name!r}; see /api/games")
        return load_game(name).describe()

    @app.post("/api/matches", status_code=201)
    async def create_match(body: CreateMatch) -> dict[str, Any]:
        """Create a match. Local seats' tokens come back once; keep them."""
        problem = security.options_problem(body.options)
        if problem is not None:
            raise ApiError(422, "bad_option", problem)
        live, secrets_out = await svc().create(
            body.game,
            body.options,
            [s.model_dump() for s in body.seats],
            body.seed,
            body.clock,
        )
        first = min((int(k) for k in secrets_out["tokens"]), default=None)
        out = {
            "id": live.id,
            "tokens": secrets_out["tokens"],
            "invites": secrets_out["invites"],
            "match": svc().snapshot(live, first),
        }
        if "owner" in secrets_out:  # a match no human plays: its owner may stop it
            out["owner"] = secrets_out["owner"]
        return out

    @app.get("/api/matches")
    async def list_matches(
        status: Literal["waiting", "active", "live"] = "live",
        game: str | None = Query(default=None, max_length=64),
        limit: int = Query(default=50, ge=1, le=200),
        offset: int = Query(default=0, ge=0),
    ) -> dict[str, Any]:
        """The lobby: matches waiting for players or in play (public facts only)."""
        statuses = LIVE_STATUSES if status == "live" else [status]
        rows = await svc().run_list(svc().store.list_matches, statuses, game, limit, offset)
        return {"matches": [_summary(r) for r in rows]}

    @app.get("/api/matches/{match_id}")
    async def get_match(
        match_id: str,
        short: bool = Query(default=True, description="each legal action's short form too"),
        authorization: str | None = Header(default=None),
    ) -> dict[str, Any]:
        """What the bearer's seat may see (without a token: the spectators' view)."""
        live = await find(match_id)
        seat = svc().seat_of(live, bearer(authorization))
        svc().touch(live)
        if live.status == "active" and live.clocks is not None:
            async with live.lock:
                await svc().check_flag(live)
            svc().after_change(live)
        snap = svc().snapshot(live, seat, short)
        svc().forget_if_done(live)
        return snap

    @app.get("/api/matches/{match_id}/events")
    async def get_events(
        match_id: str,
        after: int = Query(default=0, ge=0),
        authorization: str | None = Header(default=None),
    ) -> dict[str, Any]:
        """The numbered events after ``after`` that the bearer's seat may see."""
        live = await find(match_id)
        seat = svc().seat_of(live, bearer(authorization))
        svc().touch(live)
        out = {"events": svc().events_for(live, seat, after), "last_event": len(live.events)}
        svc().forget_if_done(live)
        return out

    @app.post("/api/matches/{match_id}/join")
    async def join(match_id: str, body: JoinMatch | None = None) -> dict[str, Any]:
        """Take a seat with an invitation (from the link's fragment) or an open seat."""
        live = await find(match_id)
        body = body or JoinMatch()
        out = await svc().join(live, body.invite, body.name)
        return {**out, "match": svc().snapshot(live, out["seat"])}

    @app.post("/api/matches/{match_id}/actions")
    async def play(
        match_id: str, body: PlayAction, authorization: str | None = Header(default=None)
    ) -> dict[str, Any]:
        """Play an action in canonical or short notation. ``ply`` (the number of actions seen)
        or ``id`` (the client's key for this action) is required: a retry is never applied
        twice."""
        live = await find(match_id)
        seat = svc().player_seat(live, bearer(authorization))
        return await svc().act(live, seat, body.action, body.ply, client_id=body.id)

    @app.post("/api/matches/{match_id}/resign")
    async def resign(
        match_id: str, authorization: str | None = Header(default=None)
    ) -> dict[str, Any]:
        live = await find(match_id)
        return await svc().resign(live, svc().player_seat(live, bearer(authorization)))

    @app.post("/api/matches/{match_id}/abort")
    async def abort(
        match_id: str, authorization: str | None = Header(default=None)
    ) -> dict[str, Any]:
        live = await find(match_id)
        return await svc().abort(live, svc().player_seat(live, bearer(authorization)))

    @app.post("/api/matches/{match_id}/stop")
    async def stop(
        match_id: str, authorization: str | None = Header(default=None)
    ) -> dict[str, Any]:
        """Stop a match no human plays, with the owner token its creation returned."""
        live = await find(match_id)
        return await svc().stop(live, bearer(authorization))

    @app.post("/api/matches/{match_id}/claim")
    async def claim(
        match_id: str, authorization: str | None = Header(default=None)
    ) -> dict[str, Any]:
        """Claim the win when every opponent has been gone for the set time."""
        live = await find(match_id)
        return await svc().claim(live, svc().player_seat(live, bearer(authorization)))

    @app.post("/api/matches/{match_id}/takeback")
    async def takeback(
        match_id: str,
        body: TakebackAnswer | None = None,
        authorization: str | None = Header(default=None),
    ) -> dict[str, Any]:
        """Ask to take back your last move, or answer the offer (``accept``: false declines)."""
        live = await find(match_id)
        seat = svc().player_seat(live, bearer(authorization))
        return await svc().takeback(live, seat, (body or TakebackAnswer()).accept)

    @app.post("/api/matches/{match_id}/rematch")
    async def rematch(
        match_id: str, authorization: str | None = Header(default=None)
    ) -> dict[str, Any]:
        """Offer (or accept) a rematch; your token holds the next seat round in it."""
        live = await find(match_id)
        return await svc().rematch(live, svc().player_seat(live, bearer(authorization)))

    @app.get("/api/records")
    async def records(
        game: str | None = Query(default=None, max_length=64),
        limit: int = Query(default=50, ge=1, le=200),
        offset: int = Query(default=0, ge=0),
    ) -> dict[str, Any]:
        """Finished (and imported) games, newest first."""
        rows = await svc().run_list(
            svc().store.list_matches, DONE_STATUSES, game, limit, offset, LIVE_STATUSES
        )
        return {"records": [_summary(r) for r in rows]}

    @app.get("/api/records/{match_id}")
    async def record(match_id: str) -> dict[str, Any]:
        """The full record of a match that has ended (seed and every action)."""
        return await svc().record_of(await find(match_id))

    @app.post("/api/records", status_code=201)
    async def import_record(request: Request) -> dict[str, Any]:
        """Import a record (the JSON of ``sengoku play --save``); it must replay exactly."""
        try:
            data = json.loads(await request.body())
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise ApiError(422, "bad_record", "the body must be a JSON record") from None
        live = await svc().import_record(data)
        return {"id": live.id, "status": live.status, "record": await svc().record_of(live)}

    @app.websocket("/ws/matches/{match_id}")
    async def ws_match(websocket: WebSocket, match_id: str) -> None:
        await websocket_session(svc(), settings, websocket, match_id)

    # The browser client (sengoku/web): its replay route and static files, mounted last.
    if importlib.util.find_spec("sengoku.web") is not None:
        from sengoku.web import mount as mount_web

        mount_web(app)
    else:

        @app.get("/", include_in_schema=False)
        async def root() -> dict[str, Any]:
            return {"api": "/api/games", "docs": "/docs", "openapi": "/openapi.json"}

    return app


def _summary(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": row["id"],
        "game": row["game"],
        "version": row["version"],
        "options": json.loads(row["options"]),
        "status": row["status"],
        "result": json.loads(row["result"]) if row["result"] else None,
        "created_at": row["created_at"],
        "updated_at": row["updated_at"],
        "seats": [
            {"seat": s["seat"], "kind": s["kind"], "name": s["name"], "level": s["level"]}
            for s in row.get("seats", [])
        ],
    }


def _ai_levels() -> list[dict[str, Any]]:
    from sengoku.server.ai import AI_LEVELS

    return [{"level": lvl, "agent": agent} for lvl, agent in sorted(AI_LEVELS.items())]


def _clock_kinds() -> list[dict[str, Any]]:
    return [
        {"type": "fischer", "fields": ["initial", "increment"]},
        {"type": "byoyomi", "fields": ["main", "periods", "period"]},
        {"type": "sudden_death", "fields": ["initial"]},
        {"type": "tournament", "fields": []},
    ]


# -- the WebSocket protocol --------------------------------------------------------------
async def websocket_session(
    service: MatchService, settings: Settings, ws: WebSocket, match_id: str
) -> None:
    """One connection: ``hello`` (token, last event seen), then actions in, events out."""
    await ws.accept()

    async def fail(code: str, message: str, close: int = 4400) -> None:
        await ws.send_json({"type": "error", "code": code, "message": message})
        await ws.close(code=close)

    if not MATCH_ID.match(match_id):
        await fail("no_such_match", "match ids are 1-32 letters, digits, - or _", 4404)
        return
    live = await service.get(match_id)
    if live is None:
        await fail("no_such_match", f"there is no match {match_id!r}", 4404)
        return
    try:
        first = await asyncio.wait_for(ws.receive_text(), timeout=15)
    except (TimeoutError, WebSocketDisconnect, KeyError, RuntimeError):
        await fail("no_hello", "the first message must be a hello")
        return
    hello = _parse_message(first, settings.max_ws_message)
    if isinstance(hello, str) or hello.get("type") != "hello":
        await fail("no_hello", hello if isinstance(hello, str) else "send a hello first")
        return
    token = hello.get("token")
    after = hello.get("after", 0)
    if ws.headers.get("authorization") and token is None:
        try:
            token = bearer(ws.headers.get("authorization"))
        except ApiError as exc:
            await fail(exc.code, exc.message, 4401)
            return
    if token is not None and not isinstance(token, str):
        await fail("bad_token", "token must be a string", 4401)
        return
    if not isinstance(after, int) or isinstance(after, bool) or after < 0:
        await fail("bad_message", "'after' must be the last event number seen (0 for none)")
        return
    try:
        seat = service.seat_of(live, token)
    except ApiError as exc:
        await fail(exc.code, exc.message, 4401)
        return
    short = hello.get("short", True) is not False
    if seat is None:
        watching = sum(1 for sub in live.subscribers if sub.seat is None)
        if watching >= settings.max_spectators:
            await fail(
                "too_many_spectators",
                f"this match has {settings.max_spectators} spectators already; "
                f"follow it with GET /api/matches/{match_id} instead",
                4429,
            )
            return
    async with live.lock:
        sub = service.subscribe(live, seat, after, short)
    await ws.send_json({"type": "welcome", "seat": seat, "last_event": len(live.events)})

    async def writer() -> None:
        while True:
            msg = await sub.queue.get()
            if msg is None:
                await ws.close()
                return
            await ws.send_json(msg)

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
            if limits.take("ws", client) is not None:
                sub.queue.put_nowait(
                    {"type": "refused", "code": "rate_limited", "reason": "too many messages"}
                )
                continue
            msg = (
                _parse_message(text, settings.max_ws_message)
                if isinstance(text, str)
                else "messages must be JSON text, not binary frames"
            )
            if isinstance(msg, str):
                sub.queue.put_nowait({"type": "refused", "code": "bad_message", "reason": msg})
                continue
            if msg["type"] == "action" and limits.take("action", client) is not None:
                sub.queue.put_nowait(
                    {
                        "type": "refused",
                        "code": "rate_limited",
                        "reason": "too many actions from your address",
                        "id": msg.get("id"),
                    }
                )
                continue
            await _handle(service, live, sub, seat, msg)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        writer_task.cancel()
        service.unsubscribe(live, sub)


def _parse_message(text: str, limit: int) -> dict[str, Any] | str:
    if len(text) > limit:
        return f"messages are limited to {limit} characters"
    try:
        msg = security.loads(text)
    except security.BadJson as exc:
        return str(exc)
    except ValueError:
        return "messages must be JSON objects"
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        return "messages must be JSON objects with a 'type'"
    return msg


async def _handle(
    service: MatchService, live: Live, sub: Any, seat: int | None, msg: dict[str, Any]
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
                "reason": f"unknown message type {kind!r}; send action, resign or ping",
                "id": ref,
            }
        )
        return
    if seat is None:
        sub.queue.put_nowait(
            {
                "type": "refused",
                "code": "spectator",
                "reason": "spectators cannot act",
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
            raise ApiError(422, "bad_message", "'action' must be the action's notation")
        if ply is not None and (not isinstance(ply, int) or isinstance(ply, bool)):
            raise ApiError(422, "bad_message", "'ply' must be an integer")
        await service.act(live, seat, action, ply)
        sub.queue.put_nowait({"type": "ack", "id": ref, "ply": live.ply})
    except ApiError as exc:
        sub.queue.put_nowait(
            {"type": "refused", "code": exc.code, "reason": exc.message, "id": ref}
        )
