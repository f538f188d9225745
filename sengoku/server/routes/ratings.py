"""The routes of ratings: a game's leaderboard and a player's public profile
(docs/ratings.md, docs/api.md)."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Query

from sengoku.ratings import RATED
from sengoku.server.errors import ApiError
from sengoku.server.i18n import N_
from sengoku.server.leaderboard import default_system, leaderboard, profile
from sengoku.server.routes.common import MAX_OFFSET, ServiceRef


def router(svc: ServiceRef) -> APIRouter:
    router = APIRouter()

    @router.get("/api/ratings/{game}")
    async def ratings_of(
        game: str,
        system: Literal["glicko2", "plackett_luce"] | None = None,
        limit: int = Query(default=50, ge=1, le=200),
    ) -> dict[str, Any]:
        """A game's leaderboard: the top ``limit`` players by the rating shown, provisional
        ratings flagged (``system``: Gunkimono's 3-5 player pool is ``plackett_luce``)."""
        if game not in RATED:
            raise ApiError(
                404,
                "not_rated",
                N_("%(game)s is not rated; rated games: %(rated)s"),
                params={"game": repr(game), "rated": ", ".join(sorted(RATED))},
            )
        pool = system or default_system(game)
        if pool not in RATED[game]:
            raise ApiError(
                422,
                "bad_system",
                N_("%(game)s is rated with %(systems)s, not %(pool)s"),
                params={"game": game, "systems": ", ".join(RATED[game]), "pool": pool},
            )
        rows = await svc().run_list(leaderboard, svc().store.engine, game, pool, limit)
        return {"game": game, "system": pool, "players": rows}

    @router.get("/api/players/{name}")
    async def player(
        name: str,
        game: str | None = Query(default=None, max_length=64),
        result: Literal["win", "loss", "draw"] | None = None,
        opponent: str | None = Query(default=None, max_length=64),
        limit: int = Query(default=50, ge=1, le=200),
        offset: int = Query(default=0, ge=0, le=MAX_OFFSET),
    ) -> dict[str, Any]:
        """A player's public profile: ratings per game with their history, win/loss/draw
        counts, and the finished games (filtered by ``game``, ``result``, ``opponent``)."""
        if len(name) > 64:
            raise ApiError(404, "no_such_player", N_("no player has this name"))
        out = await svc().run_list(
            profile, svc().store.engine, name, game, result, opponent, limit, offset
        )
        if out is None:
            raise ApiError(404, "no_such_player", N_("no player has this name"))
        return dict(out)

    return router
