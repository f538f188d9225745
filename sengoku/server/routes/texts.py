"""The web client's long texts in a request's language (docs/i18n-texts.md): the rules in our
words (``GET /api/rules/{game}``), the first-game tutorials (``GET /api/tutorials/{game}``) and
the rules panel's phase reference (``GET /api/phases/{game}``), read from the client's files
(sengoku/web/rules, tutorials, phases) and translated through the ``texts`` catalogs."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from sengoku.server import i18n, texts
from sengoku.server.i18n import N_

#: A rules document's or tutorial's name: a game's, or a part of one (``sashimono-cards``).
RULES_NAME = re.compile(r"[a-z][a-z-]{0,31}")


def _error(status: int, code: str, message: str, lang: str, params: dict[str, Any]) -> JSONResponse:
    """The error, its message (marked ``N_``) in ``lang``, its values filled in after."""
    text = i18n.gettext_(lang, message) % params
    return JSONResponse({"error": {"code": code, "message": text}}, status_code=status)


def _language(request: Request, lang: str | None) -> str | JSONResponse:
    """The language asked for: ``?lang=`` if given, else the cookie or Accept-Language."""
    chosen = i18n.choose(request.cookies, request.headers.get("accept-language"))
    if lang is None:
        return chosen
    if lang not in i18n.LANGUAGES:
        return _error(
            400,
            "unknown_language",
            N_("lang: unknown language %(lang)s; one of %(languages)s"),
            chosen,
            {"lang": repr(lang), "languages": ", ".join(i18n.LANGUAGES)},
        )
    return lang


def _in_language(body: dict[str, Any], lang: str) -> JSONResponse:
    # The answer depends on the cookie and Accept-Language: caches must key on them.
    return JSONResponse(body, headers={"Content-Language": lang, "Vary": "Cookie, Accept-Language"})


def router() -> APIRouter:
    router = APIRouter()

    def answer(
        game: str,
        request: Request,
        lang: str | None,
        load: Callable[[str, str], dict[str, Any] | None],
        code: str,
        missing: str,
    ) -> Any:
        """``load(game, language)`` in the language asked for (``?lang=``, else the cookie's
        or Accept-Language's; English by default), or the error ``code`` naming the game."""
        chosen = _language(request, lang)
        if isinstance(chosen, JSONResponse):
            return chosen
        data = load(game, chosen) if RULES_NAME.fullmatch(game) else None
        if data is None:
            return _error(404, code, missing, chosen, {"game": repr(game)})
        return _in_language({**data, "lang": chosen}, chosen)

    def rules_document(game: str, lang: str) -> dict[str, Any] | None:
        markdown = texts.rules(game, lang)
        return None if markdown is None else {"game": game, "markdown": markdown}

    @router.get("/api/rules/{game}")
    async def rules(game: str, request: Request, lang: str | None = None) -> Any:
        """The game's full rules (docs/rules/<game>.md, Markdown) where this copy has them."""
        return answer(
            game,
            request,
            lang,
            rules_document,
            "no_rules",
            N_("no rules document for %(game)s on this server"),
        )

    @router.get("/api/tutorials/{game}")
    async def tutorial(game: str, request: Request, lang: str | None = None) -> Any:
        """The game's first-game tutorial (sengoku/web/tutorials/<game>.json), the coach's
        words translated."""
        return answer(
            game,
            request,
            lang,
            texts.tutorial,
            "no_tutorial",
            N_("no tutorial for %(game)s on this server"),
        )

    @router.get("/api/phases/{game}")
    async def phases(game: str, request: Request, lang: str | None = None) -> Any:
        """The rules panel's "Now" reference of the game (sengoku/web/phases/<game>.json):
        each phase's title and lines translated."""
        return answer(
            game,
            request,
            lang,
            texts.phases,
            "no_phases",
            N_("no phase reference for %(game)s on this server"),
        )

    return router
