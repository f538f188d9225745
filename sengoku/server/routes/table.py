"""The table around a match: who is there (online seats, spectators), draw offers.

``GET /api/matches/{id}/table`` holds only public facts: which seats are connected, how many
spectators watch (on this server process), whether a draw may be offered and who offered it,
and the seconds after which an absent opponent's win may be claimed.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Header

from sengoku.server.draws import draw_info
from sengoku.server.live import Live
from sengoku.server.routes.common import ServiceRef, StrictBody, bearer, find
from sengoku.server.service import MatchService


class DrawAnswer(StrictBody):
    accept: bool = True


def spectators(live: Live) -> int:
    """Spectators connected to this process (one per open WebSocket without a seat)."""
    return sum(1 for sub in live.subscribers if sub.seat is None)


def table_info(service: MatchService, live: Live) -> dict[str, Any]:
    now = service.now()
    return {
        "spectators": spectators(live),
        "seats": [
            {
                "seat": s.seat,
                "kind": s.kind,
                "online": s.kind == "ai" or s.connections > 0,
                # Seconds since the seat was last seen (0 while it is connected).
                "away_for": 0.0
                if s.kind == "ai" or s.connections > 0
                else max(0.0, now - s.last_seen),
            }
            for s in live.seats
        ],
        "claim_after": service.settings.claim_after,
        "draw": draw_info(live),
    }


def router(svc: ServiceRef) -> APIRouter:
    router = APIRouter()

    @router.get("/api/matches/{match_id}/table")
    async def table(match_id: str) -> dict[str, Any]:
        """Who is at the table and the draw offers: public, no token needed."""
        live = await find(svc(), match_id)
        return table_info(svc(), live)

    @router.post("/api/matches/{match_id}/draw")
    async def draw(
        match_id: str,
        body: DrawAnswer | None = None,
        authorization: str | None = Header(default=None),
    ) -> dict[str, Any]:
        """Offer a draw or accept the one offered; ``accept``: false declines it."""
        service = svc()
        live = await find(service, match_id)
        seat = service.player_seat(live, bearer(authorization))
        snap = await service.draws.answer(live, seat, (body or DrawAnswer()).accept)
        return {**snap, "table": table_info(service, live)}

    return router
