"""The routes of records: finished games, one record, importing a record."""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Query, Request

from sengoku.server.errors import ApiError
from sengoku.server.live import DONE_STATUSES, LIVE_STATUSES
from sengoku.server.routes.common import MAX_OFFSET, ServiceRef, find, summary


def router(svc: ServiceRef) -> APIRouter:
    """The record routes, on the service ``svc()`` returns."""
    router = APIRouter()

    @router.get("/api/records")
    async def records(
        game: str | None = Query(default=None, max_length=64),
        limit: int = Query(default=50, ge=1, le=200),
        offset: int = Query(default=0, ge=0, le=MAX_OFFSET),
    ) -> dict[str, Any]:
        """Finished (and imported) games, newest first."""
        rows = await svc().run_list(
            svc().store.list_matches, DONE_STATUSES, game, limit, offset, LIVE_STATUSES
        )
        return {"records": [summary(r) for r in rows]}

    @router.get("/api/records/{match_id}")
    async def record(match_id: str) -> dict[str, Any]:
        """The full record of a match that has ended (seed and every action)."""
        return await svc().record_of(await find(svc(), match_id))

    @router.post("/api/records", status_code=201)
    async def import_record(request: Request) -> dict[str, Any]:
        """Import a record (the JSON of ``sengoku play --save``); it must replay exactly."""
        try:
            data = json.loads(await request.body())
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise ApiError(422, "bad_record", "the body must be a JSON record") from None
        live = await svc().import_record(data)
        return {"id": live.id, "status": live.status, "record": await svc().record_of(live)}

    return router
