"""The routes of matches: create, list, look, join, act, and the endings and offers.

Seats act with their token as a bearer token (``Authorization: Bearer ...``): tokens never
travel in a URL, so no access log holds one.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import Response
from pydantic import Field

from sengoku.server import security
from sengoku.server.errors import ApiError
from sengoku.server.i18n import N_
from sengoku.server.live import LIVE_STATUSES
from sengoku.server.positions import position
from sengoku.server.routes.common import (
    MAX_OFFSET,
    ServiceRef,
    StrictBody,
    bearer,
    find,
    summary,
)
from sengoku.server.tokens import hash_token, new_token
from sengoku.server.wire import JsonText


class SeatSpec(StrictBody):
    kind: Literal["local", "invite", "open", "ai"] = "local"
    name: str | None = Field(default=None, max_length=64)
    level: int | None = Field(default=None, ge=0, le=100)
    agent: str | None = Field(default=None, max_length=32)


class CreateMatch(StrictBody):
    game: str = Field(max_length=64)
    options: dict[str, Any] = Field(default_factory=dict)
    seed: int | None = Field(default=None, ge=0, lt=2**128)
    seats: list[SeatSpec] = Field(min_length=1, max_length=16)
    clock: dict[str, Any] | None = None
    #: Rated (its end changes its players' ratings) or casual (docs/ratings.md).
    rated: bool = False
    #: The AI level that takes the seat of a player who leaves a game of 3+ players.
    replacement_level: int | None = Field(default=None, ge=1, le=5)


class ReturnToSeat(StrictBody):
    #: Which of the account's seats (needed only when the account owns several the
    #: computer took in this match).
    seat: int | None = Field(default=None, ge=0, le=63)


class JoinMatch(StrictBody):
    invite: str | None = Field(default=None, max_length=100)
    name: str | None = Field(default=None, max_length=64)


class PlayAction(StrictBody):
    action: str = Field(min_length=1, max_length=500)
    ply: int | None = Field(default=None, ge=0)
    #: The client's own key for this action: a retry with the same id is not applied again.
    id: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_.:-]{1,64}$")


class TakebackAnswer(StrictBody):
    accept: bool = True


def router(svc: ServiceRef) -> APIRouter:
    """The match routes, on the service ``svc()`` returns: matches and their positions and
    events, the seats' moves and departures, and the offers (takeback, rematch)."""
    router = APIRouter()
    _match_routes(router, svc)
    _seat_routes(router, svc)
    _offer_routes(router, svc)
    return router


def _match_routes(router: APIRouter, svc: ServiceRef) -> None:
    """Create and list matches; a match, its position at a ply, its events."""

    @router.post("/api/matches", status_code=201)
    async def create_match(body: CreateMatch, request: Request) -> dict[str, Any]:
        """Create a match. Local seats' tokens come back once; keep them."""
        problem = security.options_problem(body.options)
        if problem is not None:
            raise ApiError(422, "bad_option", problem)
        account = await request.app.state.accounts.current(request) if body.rated else None
        live, secrets_out = await svc().create(
            body.game,
            body.options,
            [s.model_dump() for s in body.seats],
            body.seed,
            body.clock,
            body.rated,
            None if account is None else (account.id, account.name),
            body.replacement_level,
        )
        # signed in: the seats this browser holds are the account's (accounts.py)
        await request.app.state.accounts.own_new_seats(
            request, live.id, [int(k) for k in secrets_out["tokens"]]
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

    @router.get("/api/matches")
    async def list_matches(
        status: Literal["waiting", "active", "live"] = "live",
        game: str | None = Query(default=None, max_length=64),
        limit: int = Query(default=50, ge=1, le=200),
        offset: int = Query(default=0, ge=0, le=MAX_OFFSET),
    ) -> dict[str, Any]:
        """The lobby: matches waiting for players or in play (public facts only)."""
        statuses = LIVE_STATUSES if status == "live" else [status]
        rows = await svc().run_list(svc().store.list_matches, statuses, game, limit, offset)
        live = svc().live

        def watching(match_id: str) -> int:
            # Spectators connected to this process (a match nobody holds open has none).
            m = live.get(match_id)
            return 0 if m is None else sum(1 for sub in m.subscribers if sub.seat is None)

        return {"matches": [{**summary(r), "spectators": watching(r["id"])} for r in rows]}

    @router.get("/api/matches/{match_id}")
    async def get_match(
        match_id: str,
        short: bool = Query(default=True, description="each legal action's short form too"),
        authorization: str | None = Header(default=None),
    ) -> dict[str, Any]:
        """What the bearer's seat may see (without a token: the spectators' view)."""
        live = await find(svc(), match_id)
        seat = svc().seat_of(live, bearer(authorization))
        svc().touch(live)
        if live.status == "active" and live.clocks is not None:
            async with live.lock:
                await svc().check_flag(live)
            svc().after_change(live)
        snap = svc().snapshot(live, seat, short)
        svc().forget_if_done(live)
        return snap

    @router.get("/api/matches/{match_id}/position")
    async def get_position(
        match_id: str,
        ply: int = Query(ge=0, description="0: the start; k: after the k-th action"),
        authorization: str | None = Header(default=None),
    ) -> dict[str, Any]:
        """An earlier position of the match as the bearer's seat saw it then (without a
        token: as the spectators did), for browsing the moves during a game. It is the seat's
        ``view`` of the replayed position: nothing the seat could not see at that ply."""
        live = await find(svc(), match_id)
        seat = svc().seat_of(live, bearer(authorization))
        if ply > live.ply:
            raise ApiError(
                422,
                "bad_ply",
                N_("ply %(ply)s is past the match's last action (%(last)s)"),
                params={"ply": ply, "last": live.ply},
            )
        return position(live, ply, seat)

    @router.get("/api/matches/{match_id}/events")
    async def get_events(
        match_id: str,
        after: int = Query(default=0, ge=0),
        authorization: str | None = Header(default=None),
    ) -> dict[str, Any]:
        """The numbered events after ``after`` that the bearer's seat may see."""
        live = await find(svc(), match_id)
        seat = svc().seat_of(live, bearer(authorization))
        svc().touch(live)
        out = {"events": svc().events_for(live, seat, after), "last_event": len(live.events)}
        svc().forget_if_done(live)
        return out


def _seat_routes(router: APIRouter, svc: ServiceRef) -> None:
    """A seat's requests: join, play, resign, abort, stop, claim a seat, return to it."""

    @router.post("/api/matches/{match_id}/join")
    async def join(
        match_id: str, request: Request, body: JoinMatch | None = None
    ) -> dict[str, Any]:
        """Take a seat with an invitation (from the link's fragment) or an open seat."""
        live = await find(svc(), match_id)
        body = body or JoinMatch()
        account = await request.app.state.accounts.current(request) if live.rated else None
        out = await svc().join(
            live, body.invite, body.name, None if account is None else (account.id, account.name)
        )
        await request.app.state.accounts.own_new_seats(request, live.id, [out["seat"]])
        return {**out, "match": svc().snapshot(live, out["seat"])}

    @router.post("/api/matches/{match_id}/actions")
    async def play(
        match_id: str, body: PlayAction, authorization: str | None = Header(default=None)
    ) -> Any:
        """Play an action in canonical or short notation. ``ply`` (the number of actions seen)
        or ``id`` (the client's key for this action) is required: a retry is never applied
        twice. The answer is the match as the seat now sees it (``GET /api/matches/{id}``)."""
        live = await find(svc(), match_id)
        seat = svc().player_seat(live, bearer(authorization))
        out = await svc().act(live, seat, body.action, body.ply, client_id=body.id)
        if isinstance(out, JsonText):
            return Response(out.encode(), media_type="application/json")
        return out

    @router.post("/api/matches/{match_id}/resign")
    async def resign(
        match_id: str, authorization: str | None = Header(default=None)
    ) -> dict[str, Any]:
        live = await find(svc(), match_id)
        return await svc().resign(live, svc().player_seat(live, bearer(authorization)))

    @router.post("/api/matches/{match_id}/abort")
    async def abort(
        match_id: str, authorization: str | None = Header(default=None)
    ) -> dict[str, Any]:
        live = await find(svc(), match_id)
        return await svc().abort(live, svc().player_seat(live, bearer(authorization)))

    @router.post("/api/matches/{match_id}/stop")
    async def stop(
        match_id: str, authorization: str | None = Header(default=None)
    ) -> dict[str, Any]:
        """Stop a match no human plays, with the owner token its creation returned."""
        live = await find(svc(), match_id)
        return await svc().stop(live, bearer(authorization))

    @router.post("/api/matches/{match_id}/claim")
    async def claim(
        match_id: str, authorization: str | None = Header(default=None)
    ) -> dict[str, Any]:
        """Claim the win when every opponent has been gone for the set time."""
        live = await find(svc(), match_id)
        return await svc().claim(live, svc().player_seat(live, bearer(authorization)))

    @router.post("/api/matches/{match_id}/return")
    async def return_to_seat(
        match_id: str,
        request: Request,
        body: ReturnToSeat | None = None,
        authorization: str | None = Header(default=None),
    ) -> dict[str, Any]:
        """Come back to the seat the computer took when you left (a game of 3+ players):
        with the seat's token, or signed in to the account that owns the seat (then the
        answer holds a new token for the seat, and the old one no longer acts for it)."""
        live = await find(svc(), match_id)
        wanted = (body or ReturnToSeat()).seat
        token = bearer(authorization)
        if token is not None:
            seat = svc().player_seat(live, token)
            if wanted is not None and wanted != seat:
                raise ApiError(
                    403,
                    "not_your_seat",
                    N_("this token holds seat %(seat)s, not seat %(wanted)s"),
                    params={"seat": seat, "wanted": wanted},
                )
            return {"seat": seat, "match": await svc().come_back(live, seat)}
        accounts = request.app.state.accounts
        account = await accounts.current(request)
        if account is None:
            raise ApiError(
                401,
                "no_token",
                N_(
                    "coming back needs the seat's token (Authorization: Bearer <token>) or a "
                    "signed-in account that owns the seat"
                ),
            )
        owned = await accounts.seats_in(account, live.id)
        if wanted is not None:
            if wanted not in owned:
                raise ApiError(
                    403,
                    "not_your_seat",
                    N_("your account does not own seat %(wanted)s of this match"),
                    params={"wanted": wanted},
                )
            seat = wanted
        else:
            gone = [s for s in owned if live.replaced(s) is not None]
            if not owned:
                raise ApiError(403, "not_your_seat", N_("your account owns no seat of this match"))
            if len(gone) > 1:
                raise ApiError(
                    422,
                    "bad_request",
                    N_(
                        "your account owns seats %(seats)s that the computer plays: name one as 'seat'"
                    ),
                    {"seats": gone},
                )
            seat = gone[0] if gone else owned[0]
        new = new_token()
        snap = await svc().come_back(live, seat, hash_token(new))
        return {"seat": seat, "token": new, "match": snap}


def _offer_routes(router: APIRouter, svc: ServiceRef) -> None:
    """Takeback and rematch offers."""

    @router.post("/api/matches/{match_id}/takeback")
    async def takeback(
        match_id: str,
        body: TakebackAnswer | None = None,
        authorization: str | None = Header(default=None),
    ) -> dict[str, Any]:
        """Ask to take back your last move, or answer the offer (``accept``: false declines)."""
        live = await find(svc(), match_id)
        seat = svc().player_seat(live, bearer(authorization))
        return await svc().takeback(live, seat, (body or TakebackAnswer()).accept)

    @router.post("/api/matches/{match_id}/rematch")
    async def rematch(
        match_id: str, authorization: str | None = Header(default=None)
    ) -> dict[str, Any]:
        """Offer (or accept) a rematch; your token holds the next seat round in it."""
        live = await find(svc(), match_id)
        return await svc().rematch(live, svc().player_seat(live, bearer(authorization)))
