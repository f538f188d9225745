"""The routes of seeks: matchmaking in the lobby (sengoku/server/seeks.py, docs/api.md
"Seeks"). A signed-in player is known by the session cookie (these routes' changes are
CSRF-checked like every cookie-authenticated one: accounts.py ``COOKIE_PATHS``); a guest's
seek is its own by the token its making answered (``Authorization: Bearer <token>``)."""

from __future__ import annotations

import re
from typing import Any

from fastapi import APIRouter, Header, Query, Request
from pydantic import Field

from sengoku.server import security
from sengoku.server.accounts import SESSION_COOKIE, Account, hash_session
from sengoku.server.errors import ApiError
from sengoku.server.i18n import N_
from sengoku.server.routes.common import StrictBody, bearer
from sengoku.server.seeks import Seeks

SEEK_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
#: The ratings a range may name (the display scale: docs/ratings.md).
RATING_BOUND = 4000


class CreateSeek(StrictBody):
    game: str = Field(max_length=64)
    options: dict[str, Any] = Field(default_factory=dict)
    clock: dict[str, Any] | None = None
    #: Rated (needs an account) or casual.
    rated: bool = False
    #: The ratings (in the seek's game) an opponent may have, both ends included.
    rating_min: int | None = Field(default=None, ge=0, le=RATING_BOUND)
    rating_max: int | None = Field(default=None, ge=0, le=RATING_BOUND)
    #: A guest's name (a signed-in player plays under the account's).
    name: str | None = Field(default=None, max_length=64)


class AcceptSeek(StrictBody):
    #: A guest's name (a signed-in player plays under the account's).
    name: str | None = Field(default=None, max_length=64)


def _seek_id(seek_id: str) -> str:
    if not SEEK_ID.match(seek_id):
        raise ApiError(404, "no_such_seek", N_("seek ids are 1-32 letters, digits, - or _"))
    return seek_id


def router(seeks: Seeks) -> APIRouter:
    router = APIRouter()

    async def who(request: Request) -> Account | None:
        account: Account | None = await request.app.state.accounts.current(request)
        return account

    @router.post("/api/seeks", status_code=201)
    async def create_seek(body: CreateSeek, request: Request) -> dict[str, Any]:
        """Offer a game in the lobby. The answer's ``token`` is the seat's you will hold in
        the match once someone accepts: it is shown once; keep it."""
        problem = security.options_problem(body.options)
        if problem is not None:
            raise ApiError(422, "bad_option", problem)
        account = await who(request)
        session = request.cookies.get(SESSION_COOKIE)
        seek, token = await seeks.create(
            body.model_dump(),
            account,
            hash_session(session) if account is not None and session else None,
            request.app.state.limits.client_of(request.scope),
            body.name,
        )
        return {"seek": seek, "token": token}

    @router.get("/api/seeks")
    async def lobby(
        request: Request, game: str | None = Query(default=None, max_length=64)
    ) -> dict[str, Any]:
        """The seeks you may accept (not your own; rated ones and ones with a rating range
        only when signed in, and only those whose range holds your rating)."""
        return {"seeks": await seeks.lobby(await who(request), game), "now": seeks.now()}

    @router.get("/api/seeks/mine")
    async def mine(
        request: Request, authorization: str | None = Header(default=None)
    ) -> dict[str, Any]:
        """Your seeks (the session's account's, and the one the bearer token was made for):
        each open one, and those accepted, withdrawn or lapsed lately; an accepted one
        names its match and your seat. Asking keeps your open seeks standing."""
        token = bearer(authorization)
        account = await who(request)
        if account is None and token is None:
            raise ApiError(
                401,
                "no_token",
                N_(
                    "sign in, or send the token your seek's making answered "
                    "(Authorization: Bearer <token>)"
                ),
            )
        return {"seeks": await seeks.mine(account, token)}

    @router.delete("/api/seeks/{seek_id}")
    async def cancel(
        seek_id: str, request: Request, authorization: str | None = Header(default=None)
    ) -> dict[str, Any]:
        """Withdraw your seek."""
        token = bearer(authorization)
        return {"seek": await seeks.cancel(_seek_id(seek_id), await who(request), token)}

    @router.post("/api/seeks/{seek_id}/accept", status_code=201)
    async def accept(
        seek_id: str, request: Request, body: AcceptSeek | None = None
    ) -> dict[str, Any]:
        """Accept a seek: the match is created at once, both seats held; the answer holds
        your seat's token (shown once) and the match as your seat sees it."""
        name = (body or AcceptSeek()).name
        return await seeks.accept(_seek_id(seek_id), await who(request), name)

    return router
