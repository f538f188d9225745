"""The routes of a match's post-game analysis (issue 38; sengoku/server/analyses.py).

Only under ``/api/matches/{id}/analysis``: an analysis of a match that is over (finished,
aborted, closed, or an imported record), never of one in play.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter

from sengoku.server.routes.common import ServiceRef, StrictBody, find

Kind = Literal["mover", "hindsight"]


class AskAnalysis(StrictBody):
    #: "mover": each ply from what its mover could see; "hindsight": from the true
    #: position, hidden parts included (finished games only).
    kind: Kind = "mover"


def router(svc: ServiceRef) -> APIRouter:
    """The analysis routes, on the service ``svc()`` returns."""
    router = APIRouter()

    @router.post("/api/matches/{match_id}/analysis")
    async def ask_analysis(match_id: str, body: AskAnalysis | None = None) -> dict[str, Any]:
        """Queue the analysis of a match that is over (the stored one if it is done)."""
        live = await find(svc(), match_id)
        return await svc().analyses.ask(live, (body or AskAnalysis()).kind)

    @router.get("/api/matches/{match_id}/analysis")
    async def look_analysis(match_id: str, kind: Kind = "mover") -> dict[str, Any]:
        """The analysis's status, progress and (once done) result."""
        live = await find(svc(), match_id)
        return await svc().analyses.look(live, kind)

    return router
