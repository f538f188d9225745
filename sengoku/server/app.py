"""The HTTP and WebSocket API (FastAPI). See docs/api.md for the whole protocol.

``create_app`` wires the pieces: the database, the service, the guard middleware, the error
handlers, and the routes of each resource (``sengoku/server/routes/``), then the browser
client (``sengoku.web``) last.
"""

from __future__ import annotations

import asyncio
import importlib.util
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI
from fastapi.responses import JSONResponse, Response

from sengoku.server import housekeeping
from sengoku.server.accounts import Accounts, CsrfMiddleware
from sengoku.server.chat import Chat, ChatStore
from sengoku.server.db import Store, make_engine, migrate
from sengoku.server.guard import GuardMiddleware
from sengoku.server.hot import HotRoutes
from sengoku.server.limits import ClientLimits
from sengoku.server.metrics import CONTENT_TYPE_LATEST
from sengoku.server.routes import accounts as account_routes
from sengoku.server.routes import analysis as analysis_routes
from sengoku.server.routes import board as board_routes
from sengoku.server.routes import chat as chat_routes
from sengoku.server.routes import games, matches, records, replay, table, ws
from sengoku.server.routes import i18n as i18n_routes
from sengoku.server.routes import puzzles as puzzle_routes
from sengoku.server.routes import ratings as rating_routes
from sengoku.server.routes import seeks as seek_routes
from sengoku.server.routes import texts as text_routes
from sengoku.server.routes import turn_based as turn_based_routes
from sengoku.server.routes.errors import add_error_handlers
from sengoku.server.routing import this_worker
from sengoku.server.seeks import Seeks
from sengoku.server.service import MatchService
from sengoku.server.settings import Settings

log = logging.getLogger("sengoku.server")

#: Seconds ``GET /health`` waits for the database before answering 503.
HEALTH_TIMEOUT = 3.0


def create_app(settings: Settings) -> FastAPI:
    """The web application for ``settings`` (a fresh service and database connection)."""
    if settings.test_clock_file:  # tests only (sengoku/server/testing_clock.py)
        from sengoku.server.testing_clock import FileClock

        settings.now = FileClock(settings.test_clock_file)
    engine = make_engine(
        settings.db_url,
        synchronous=settings.sqlite_synchronous,
        lock_timeout=settings.db_lock_timeout,
        pool_size=settings.db_workers + settings.db_list_workers + 2,
        pg_synchronous_commit=settings.pg_synchronous_commit,
    )
    store = Store(engine)
    holder: dict[str, MatchService] = {}
    limits = ClientLimits(settings)
    accounts = Accounts(settings, engine, limits, lambda: holder["service"])

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if settings.test_clock_file:
            from sengoku.server.testing_clock import warn

            warn(settings.test_clock_file)
        await asyncio.get_running_loop().run_in_executor(None, migrate, engine)
        await accounts.start()
        service = MatchService(settings, store)
        if limits.shared is not None:  # several processes: seats' connections in Redis
            service.turns.presence = limits.seat_presence
        holder["service"] = service
        app.state.service = service
        await service.start()
        loops = (
            [
                asyncio.get_running_loop().create_task(housekeeping.expire_loop(service)),
                asyncio.get_running_loop().create_task(housekeeping.flag_loop(service)),
            ]
            if settings.timers
            else []
        )
        try:
            yield
        finally:
            for task in loops:
                task.cancel()
            await service.close()
            await limits.aclose()
            engine.dispose()

    app = FastAPI(
        title="Sengoku game server",
        version="1",
        description="Play the registered games online (GET /api/games). See docs/api.md.",
        lifespan=lifespan,
    )

    def svc() -> MatchService:
        return holder["service"]

    # The guard runs first (limits, body checks, headers), then the move's two requests are
    # answered without FastAPI's routing (sengoku/server/hot.py).
    app.add_middleware(HotRoutes, svc=svc)
    # Cross-site requests that a session cookie would authenticate stop here (accounts.py).
    app.add_middleware(CsrfMiddleware, accounts=accounts)
    app.add_middleware(GuardMiddleware, settings=settings, limits=limits)
    app.state.limits = limits
    app.state.accounts = accounts
    app.state.chat = Chat(ChatStore(engine))  # the table's chat (sengoku/server/chat.py)
    # matchmaking in the lobby (sengoku/server/seeks.py)
    app.state.seeks = Seeks(settings, engine, svc)

    add_error_handlers(app)

    # Under a front (``--processes N``) the answer names the worker, "i/N": which process a
    # connection reached is then visible to an operator and to the tests.
    worker = this_worker()

    @app.get("/healthz")
    async def healthz() -> dict[str, Any]:
        answer: dict[str, Any] = {"ok": True, "matches_in_memory": len(svc().live)}
        if worker is not None:
            answer["worker"] = str(worker)
        return answer

    @app.get("/health")
    async def health() -> Response:
        """For a balancer's health check: 200 while this process serves and its database
        answers within HEALTH_TIMEOUT seconds, else 503 (a process whose database is gone
        gets no new connections). It says nothing else, so it may face the network."""
        service = svc()
        try:
            await asyncio.wait_for(service.db.run_list(service.store.ping), HEALTH_TIMEOUT)
        except Exception as exc:  # the database is unreachable, slow or refusing
            log.warning("health: the database did not answer (%s)", type(exc).__name__)
            return JSONResponse({"ok": False, "database": "unreachable"}, status_code=503)
        return JSONResponse({"ok": True})

    @app.get("/metrics", include_in_schema=False)
    async def metrics() -> Response:
        """This process's metrics in Prometheus' text format (sengoku/server/metrics.py)."""
        return Response(svc().metrics.text(), media_type=CONTENT_TYPE_LATEST)

    app.include_router(games.router())
    app.include_router(i18n_routes.router())
    app.include_router(text_routes.router())
    app.include_router(matches.router(svc))
    app.include_router(records.router(svc))
    app.include_router(analysis_routes.router(svc))
    app.include_router(replay.router(svc))
    app.include_router(ws.router(svc, settings))
    app.include_router(chat_routes.router(svc, app.state.chat))
    app.include_router(table.router(svc))
    app.include_router(rating_routes.router(svc))
    app.include_router(board_routes.router(svc, settings))
    account_routes.install(app, accounts)
    app.include_router(turn_based_routes.router(accounts, svc))
    app.include_router(seek_routes.router(app.state.seeks))
    app.include_router(puzzle_routes.router(accounts))

    # The browser client (sengoku/web): its pages and static files, mounted last.
    if importlib.util.find_spec("sengoku.web") is not None:
        from sengoku.web import mount as mount_web

        mount_web(app)
    else:

        @app.get("/", include_in_schema=False)
        async def root() -> dict[str, Any]:
            return {"api": "/api/games", "docs": "/docs", "openapi": "/openapi.json"}

    return app
