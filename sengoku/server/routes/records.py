"""The routes of records: finished games, one record, importing a record."""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from pydantic import Field, ValidationError, field_validator

from sengoku.core.record import MAX_CONCESSIONS, MAX_SEED
from sengoku.server import i18n, security
from sengoku.server.errors import ApiError
from sengoku.server.i18n import N_
from sengoku.server.live import DONE_STATUSES, LIVE_STATUSES
from sengoku.server.routes.common import MAX_OFFSET, ServiceRef, StrictBody, find, summary
from sengoku.server.routes.errors import pydantic_words, request_language

#: A player's name, as a seat's at match creation (``SeatSpec.name``).
PlayerName = Annotated[str, Field(max_length=64)]
#: An action's notation, as ``POST .../actions`` takes it (``PlayAction.action``).
ActionText = Annotated[str, Field(min_length=1, max_length=500)]


class ConcessionIn(StrictBody):
    ply: int = Field(ge=0)
    seat: int = Field(ge=0)
    reason: str = Field(default="resignation", max_length=64)


class RecordImport(StrictBody):
    """A record as ``POST /api/records`` takes it: the JSON of ``sengoku play --save``, or of
    ``GET /api/records/{id}`` (which adds the match's ``id``, ``status`` and ``left``: they
    are read and set aside, the import gets its own). Held to the rules of match creation: no unknown
    field, no value of another type, no name cut short."""

    game: str = Field(max_length=64)
    version: int
    options: dict[str, Any]
    #: A whole number from 0 below 2**256, or its decimal digits (records write seeds past
    #: 2**53 as text, for JavaScript readers).
    seed: Any = 0
    players: list[PlayerName] = Field(default_factory=list, max_length=MAX_CONCESSIONS)
    actions: list[ActionText]
    concessions: list[ConcessionIn] = Field(default_factory=list, max_length=MAX_CONCESSIONS)
    result: dict[str, Any] | None = None
    id: str | None = Field(default=None, max_length=64)
    status: str | None = Field(default=None, max_length=32)
    #: Who left the match the record comes from (``GET /api/records/{id}``): set aside.
    left: list[dict[str, Any]] | None = Field(default=None, max_length=MAX_CONCESSIONS)

    @field_validator("seed")
    @classmethod
    def _seed(cls, value: Any) -> Any:
        if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 78:
            number = int(value)
        elif isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            raise ValueError("a seed is a whole number (or its decimal digits)")
        if not 0 <= number < MAX_SEED:
            raise ValueError("a seed is from 0 to 2**256 - 1")
        return value


def record_problem(data: Any, lang: str = i18n.DEFAULT) -> str | None:
    """Why ``data`` is not a record the server imports (naming the field), or None; in
    ``lang`` (pydantic's words by their type, routes/errors.py), the field names as they are."""
    try:
        record = RecordImport.model_validate(data)
    except ValidationError as exc:
        if not isinstance(data, dict):
            return i18n.gettext_(lang, N_("a record is a JSON object"))
        problems = []
        for err in exc.errors()[:5]:
            where = ".".join(str(p) for p in err.get("loc", ()))
            message = pydantic_words(err, lang)
            field = i18n.gettext_(lang, N_("record field %(field)s: %(problem)s"))
            problems.append(
                field % {"field": repr(where), "problem": message} if where else message
            )
        return "; ".join(problems)
    problem = security.options_problem(record.options)
    if problem is None:
        return None
    # the URL and JSON checks' own words (security.py), passed on
    return i18n.gettext_(lang, N_("record field 'options': %(problem)s")) % {"problem": problem}


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
            raise ApiError(422, "bad_record", N_("the body must be a JSON record")) from None
        problem = record_problem(data, request_language(request))
        if problem is not None:
            raise ApiError(422, "bad_record", problem)
        live = await svc().import_record(data)
        return {"id": live.id, "status": live.status, "record": await svc().record_of(live)}

    return router
