"""The routes of games: what this server plays, with each game's options and renderer
(``Game.describe()``: the renderer is the module under ``sengoku/web/js/games/`` that draws it)."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from sengoku.core.registry import list_games, load_game
from sengoku.server import i18n, texts
from sengoku.server.errors import ApiError
from sengoku.server.i18n import N_

log = logging.getLogger("sengoku.server")


def router() -> APIRouter:
    """The game routes (they need no service)."""
    router = APIRouter()

    @router.get("/api/games")
    async def games() -> dict[str, Any]:
        """Every game this server plays, with its options."""
        out = []
        for name in list_games():
            try:
                out.append(load_game(name).describe())
            except Exception:  # a game that does not import is left out, not fatal
                log.exception("game %s failed to load", name)
        return {"games": out, "ai_levels": _ai_levels(), "clocks": _clock_kinds()}

    @router.get("/api/games/{name}")
    async def game(name: str, request: Request, lang: str | None = None) -> JSONResponse:
        """The game, its view's schema and its catalog, the catalog's words (card texts,
        piece, unit and tile names) in ``lang`` (else the cookie's or Accept-Language's
        language; English by default), through the ``texts`` domain (docs/i18n-texts.md)."""
        if lang is not None and lang not in i18n.LANGUAGES:
            raise ApiError(
                400,
                "unknown_language",
                N_("lang: unknown language %(lang)s; one of %(languages)s"),
                params={"lang": repr(lang), "languages": ", ".join(i18n.LANGUAGES)},
            )
        chosen = lang or i18n.choose(request.cookies, request.headers.get("accept-language"))
        if name not in list_games():
            raise ApiError(
                404,
                "unknown_game",
                N_("unknown game %(game)s; see /api/games"),
                params={"game": repr(name)},
            )
        game = load_game(name)
        # The view's JSON Schema and the catalog of the game's pieces, cards and tiles (names
        # and what they do, from its data files): what a client needs to draw any view.
        catalog = texts.translate_catalog(name, game.catalog(), chosen)
        body = {**game.describe(), "view_schema": game.view_schema(), "catalog": catalog}
        # the answer depends on the cookie and Accept-Language: caches must key on them
        return JSONResponse(
            body, headers={"Content-Language": chosen, "Vary": "Cookie, Accept-Language"}
        )

    return router


def _ai_levels() -> list[dict[str, Any]]:
    from sengoku.server.ai import AI_LEVELS

    return [{"level": lvl, "agent": agent} for lvl, agent in sorted(AI_LEVELS.items())]


def _clock_kinds() -> list[dict[str, Any]]:
    return [
        {"type": "fischer", "fields": ["initial", "increment"]},
        {"type": "byoyomi", "fields": ["main", "periods", "period"]},
        {"type": "sudden_death", "fields": ["initial"]},
        {"type": "tournament", "fields": []},
        {"type": "correspondence", "fields": ["days"]},
    ]
