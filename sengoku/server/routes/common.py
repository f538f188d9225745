"""What the route modules share: ids, bearer tokens, finding a match, a match's summary."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

from sengoku.server.errors import ApiError
from sengoku.server.i18n import N_

if TYPE_CHECKING:
    from sengoku.server.live import Live
    from sengoku.server.service import MatchService

#: The running service (set by the application's lifespan).
ServiceRef = Callable[[], "MatchService"]

MATCH_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{10,100}$")
#: The deepest page of a list (lobby, records): past it the database would scan that many
#: rows for one request (and past 2**63 its driver overflowed: a 500). Filters go further.
MAX_OFFSET = 100_000


class StrictBody(BaseModel):
    """A request body: no field the route does not know, and no value of another JSON type
    read as the field's (pydantic's strict mode: ``"yes"`` is not ``true``, ``true`` and
    ``1.0`` are not ``1``, ``1`` is not ``"1"``). A wrong one is ``422 bad_request`` naming
    the field (routes/errors.py), and the route does nothing."""

    model_config = ConfigDict(extra="forbid", strict=True)


def bearer(authorization: str | None) -> str | None:
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not TOKEN_RE.match(token):
        raise ApiError(401, "bad_token", N_("Authorization must be 'Bearer <seat token>'"))
    return token


async def find(service: MatchService, match_id: str) -> Live:
    """The match ``match_id`` (404 for an id of the wrong shape or one that does not exist)."""
    if not MATCH_ID.match(match_id):
        raise ApiError(404, "no_such_match", N_("match ids are 1-32 letters, digits, - or _"))
    return await service.require(match_id)


def summary(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": row["id"],
        "game": row["game"],
        "version": row["version"],
        "options": json.loads(row["options"]),
        "status": row["status"],
        "rated": bool(row.get("rated")),
        "result": json.loads(row["result"]) if row["result"] else None,
        "created_at": row["created_at"],
        "updated_at": row["updated_at"],
        "seats": [
            {"seat": s["seat"], "kind": s["kind"], "name": s["name"], "level": s["level"]}
            for s in row.get("seats", [])
        ],
    }
