"""The replay route: ``POST /api/replay`` (:mod:`sengoku.server.replay`)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from sengoku.server.errors import ApiError
from sengoku.server.housekeeping import seed_in_play
from sengoku.server.i18n import N_
from sengoku.server.replay import game_and_seed, replay_json
from sengoku.server.routes.common import ServiceRef


def router(svc: ServiceRef) -> APIRouter:
    """The replay route, on the service ``svc()`` returns."""
    router = APIRouter()

    @router.post("/api/replay")
    async def replay(request: Request, seat: int | None = Query(default=None, ge=0)) -> Any:
        """The view of every ply of a record (the JSON of GET /api/records/{id}).

        The replay runs in the server's worker pool, bounded in time, never on the event
        loop (a long record took seconds and stalled every game)."""
        body = await request.body()
        service = svc()
        game, seed = await asyncio.to_thread(game_and_seed, body)
        if seed is not None and await seed_in_play(service, game, seed):
            # the seed of a match in play is its secret: no view is computed from it
            raise ApiError(
                409,
                "in_progress",
                N_("a match with this seed is still in play; its replay opens when it ends"),
            )
        status, payload = await service.heavy(replay_json, body, seat)
        return Response(payload, status_code=status, media_type="application/json")

    return router
