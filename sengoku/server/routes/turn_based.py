"""Turn-based play for a signed-in player (docs/api.md "Turn-based play"): the account's
games in play, those whose move it is first (``GET /api/account/games``), and the optional
e-mail address for "it is your turn" mails (``GET``/``POST /api/account/email``).

The session cookie authenticates these routes (``/api/account/...``): CSRF is checked by
:class:`sengoku.server.accounts.CsrfMiddleware` before a change runs.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

from fastapi import APIRouter, Query, Request
from pydantic import Field

from sengoku.server.accounts import Accounts
from sengoku.server.routes.common import StrictBody
from sengoku.server.turn_based import MAX_EMAIL, account_games, check_email

if TYPE_CHECKING:
    from sengoku.server.service import MatchService


class Email(StrictBody):
    #: checked in full by ``check_email`` (the length here only stops a huge string early)
    email: str | None = Field(max_length=MAX_EMAIL + 100)


def router(accounts: Accounts, svc: Callable[[], MatchService]) -> APIRouter:
    router = APIRouter()

    @router.get("/api/account/games")
    async def games(
        request: Request, turn: Literal["mine", "all"] = Query(default="all")
    ) -> dict[str, Any]:
        """The account's games in play: those whose move it is first, the least time left
        first (``turn=mine``: only those)."""
        account = await accounts.require(request)
        service = svc()
        found = await account_games(service, service.turn_based, account, turn == "mine")
        return {
            "games": found,
            "your_turn": sum(1 for g in found if g["your_turn"]),
            "now": service.now(),
        }

    @router.get("/api/account/email")
    async def email(request: Request) -> dict[str, Any]:
        """The account's address for "your turn" mails (null: none), and whether this server
        sends such mails at all."""
        account = await accounts.require(request)
        service = svc()
        address = await asyncio.to_thread(service.turn_based.email, account.id)
        return {"email": address, "mails_sent_here": service.mail.enabled}

    @router.post("/api/account/email")
    async def set_email(body: Email, request: Request) -> dict[str, Any]:
        """Set (or, with null or "", remove) the address for "your turn" mails."""
        account = await accounts.require(request)
        address = check_email(body.email)
        service = svc()
        await asyncio.to_thread(service.turn_based.set_email, account.id, address)
        return {"email": address, "mails_sent_here": service.mail.enabled}

    return router
