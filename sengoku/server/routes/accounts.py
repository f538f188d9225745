"""The routes of player accounts (``/api/account...``): sign up, sign in, sign out, who am
I, change the password, delete the account, export its games, claim seats by their tokens.

The session cookie authenticates these routes; :class:`sengoku.server.accounts.CsrfMiddleware`
has already refused a cross-site request before any of them runs.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from sengoku.server.accounts import MAX_CLAIM, MAX_PASSWORD, Accounts, RateLimited
from sengoku.server.routes.errors import api_error_response, request_language


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Credentials(Strict):
    name: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=MAX_PASSWORD)


class NewPassword(Strict):
    old_password: str = Field(min_length=1, max_length=MAX_PASSWORD)
    new_password: str = Field(min_length=1, max_length=MAX_PASSWORD)


class Password(Strict):
    password: str = Field(min_length=1, max_length=MAX_PASSWORD)


#: A seat token's shape (routes/common.py's ``TOKEN_RE``).
SeatToken = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{10,100}$")]


class Claim(Strict):
    tokens: list[SeatToken] = Field(max_length=MAX_CLAIM)


def _signed_in(accounts: Accounts, request: Request, answer: dict[str, Any], sid: str) -> Response:
    response = JSONResponse(answer)
    response.set_cookie(**accounts.session_cookie(request, sid))
    return response


def router(accounts: Accounts) -> APIRouter:
    router = APIRouter()

    @router.post("/api/account/signup", status_code=201)
    async def sign_up(body: Credentials, request: Request) -> Response:
        """Make an account and sign in to it."""
        account, sid = await accounts.sign_up(request, body.name, body.password)
        response = _signed_in(accounts, request, {"account": account.to_json()}, sid)
        response.status_code = 201
        return response

    @router.post("/api/account/signin")
    async def sign_in(body: Credentials, request: Request) -> Response:
        """Sign in: a new session cookie (an unknown name and a wrong password answer alike)."""
        account, sid = await accounts.sign_in(request, body.name, body.password)
        return _signed_in(accounts, request, {"account": account.to_json()}, sid)

    @router.post("/api/account/signout")
    async def sign_out(request: Request) -> Response:
        await accounts.sign_out(request)
        response = JSONResponse({"account": None})
        response.set_cookie(**accounts.session_cookie(request, None))
        return response

    @router.get("/api/account/me")
    async def me(request: Request) -> dict[str, Any]:
        """The signed-in account, or null."""
        account = await accounts.current(request)
        return {"account": None if account is None else account.to_json()}

    @router.post("/api/account/password")
    async def change_password(body: NewPassword, request: Request) -> dict[str, Any]:
        """A new password (the old one is needed); every other session ends."""
        account = await accounts.require(request)
        await accounts.change_password(request, account, body.old_password, body.new_password)
        return {"account": account.to_json()}

    @router.post("/api/account/delete")
    async def delete_account(body: Password, request: Request) -> Response:
        """Delete the account (the password is needed): its games stay, their seats show
        "deleted player", and every session of it ends."""
        account = await accounts.require(request)
        seats = await accounts.delete(request, account, body.password)
        response = JSONResponse({"deleted": True, "seats_anonymised": seats})
        response.set_cookie(**accounts.session_cookie(request, None))
        return response

    @router.post("/api/account/claim")
    async def claim(body: Claim, request: Request) -> dict[str, Any]:
        """Own the seats these tokens hold (tokens from the browser's storage)."""
        account = await accounts.require(request)
        return await accounts.claim(account, body.tokens)

    @router.get("/api/account/seats")
    async def owned(request: Request) -> dict[str, Any]:
        """The seats the account owns."""
        account = await accounts.require(request)
        pairs = await accounts.owned(account)
        return {"seats": [{"match_id": m, "seat": s} for m, s in pairs]}

    @router.get("/api/account/export")
    async def export(request: Request) -> Response:
        """A zip: each finished game's record (as ``GET /api/records/{id}``) and a list."""
        account = await accounts.require(request)
        data = await accounts.export(account)
        return Response(
            data,
            media_type="application/zip",
            headers={"content-disposition": 'attachment; filename="sengoku-games.zip"'},
        )

    return router


def install(app: FastAPI, accounts: Accounts) -> None:
    """The routes, and 429s that say when to come back."""

    async def _rate_limited(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RateLimited)
        response = api_error_response(exc, request_language(request))
        response.headers["retry-after"] = str(exc.retry_after)
        return response

    app.add_exception_handler(RateLimited, _rate_limited)
    app.include_router(router(accounts))
