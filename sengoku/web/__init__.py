"""The browser client: static files (HTML, CSS, JS modules, a CJK font subset).

:func:`mount` adds the client's pages, the rules in our words (``GET /api/rules/{game}``), the
tutorials (``GET /api/tutorials/{game}``), the rules panel's phase reference
(``GET /api/phases/{game}``), all in the request's language, and the static
files at ``/`` to the game server's app. Of the server it imports only the plain modules that
choose a request's language and translate those texts (:mod:`sengoku.server.i18n`,
:mod:`sengoku.server.texts`): the replay the client's viewer steps through is the server's
(:mod:`sengoku.server.replay`).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from sengoku.server.i18n import N_

WEB_DIR = Path(__file__).resolve().parent
#: Paths the client's router handles (see js/app.js); each serves index.html.
PAGES = (
    "/play/{match_id}",
    "/replay/{match_id}",
    "/new/{game}",
    "/records",
    "/live",
    "/account",
    "/rules/{game}",
    "/player/{name}",
    "/ratings/{game}",
    "/board/{game}",
    "/puzzles",
    "/puzzles/{game}",
    "/puzzles/{game}/{puzzle_id}",
)
#: The rules in our own words, shipped in the package: a copy of docs/rules/*.md (the source;
#: ``make rules`` copies them, and a test checks the two agree).
RULES_DIR = WEB_DIR / "rules"
RULES_NAME = re.compile(r"[a-z][a-z-]{0,31}")


def _error(status: int, code: str, message: str, lang: str, params: dict[str, Any]) -> JSONResponse:
    """The error, its message (marked ``N_``) in ``lang``, its values filled in after."""
    from sengoku.server import i18n

    text = i18n.gettext_(lang, message) % params
    return JSONResponse({"error": {"code": code, "message": text}}, status_code=status)


def _language(request: Request, lang: str | None) -> str | JSONResponse:
    """The language asked for: ``?lang=`` if given, else the cookie or Accept-Language."""
    from sengoku.server import i18n

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


def mount(app: FastAPI) -> None:
    """Add the rules and tutorial routes, the client's pages, and its files at ``/`` (after the
    API routes)."""
    from sengoku.server import texts

    @app.get("/api/rules/{game}")
    async def rules(game: str, request: Request, lang: str | None = None) -> Any:
        """The game's full rules (docs/rules/<game>.md, Markdown) where this copy has them,
        in ``lang`` (else the cookie's or Accept-Language's language; English by default)."""
        chosen = _language(request, lang)
        if isinstance(chosen, JSONResponse):
            return chosen
        markdown = texts.rules(game, chosen) if RULES_NAME.fullmatch(game) else None
        if markdown is None:
            return _error(
                404,
                "no_rules",
                N_("no rules document for %(game)s on this server"),
                chosen,
                {"game": repr(game)},
            )
        return _in_language({"game": game, "lang": chosen, "markdown": markdown}, chosen)

    @app.get("/api/tutorials/{game}")
    async def tutorial(game: str, request: Request, lang: str | None = None) -> Any:
        """The game's first-game tutorial (sengoku/web/tutorials/<game>.json) with the coach's
        words in the language asked for, chosen as for the rules."""
        chosen = _language(request, lang)
        if isinstance(chosen, JSONResponse):
            return chosen
        data = texts.tutorial(game, chosen) if RULES_NAME.fullmatch(game) else None
        if data is None:
            return _error(
                404,
                "no_tutorial",
                N_("no tutorial for %(game)s on this server"),
                chosen,
                {"game": repr(game)},
            )
        return _in_language({**data, "lang": chosen}, chosen)

    @app.get("/api/phases/{game}")
    async def phases(game: str, request: Request, lang: str | None = None) -> Any:
        """The rules panel's "Now" reference of the game (sengoku/web/phases/<game>.json):
        each phase's title and lines in the language asked for, chosen as for the rules."""
        chosen = _language(request, lang)
        if isinstance(chosen, JSONResponse):
            return chosen
        data = texts.phases(game, chosen) if RULES_NAME.fullmatch(game) else None
        if data is None:
            return _error(
                404,
                "no_phases",
                N_("no phase reference for %(game)s on this server"),
                chosen,
                {"game": repr(game)},
            )
        return _in_language({**data, "lang": chosen}, chosen)

    index = WEB_DIR / "index.html"

    # The client's own pages are one HTML file; its router reads the path.
    async def page() -> FileResponse:
        return FileResponse(index, media_type="text/html")

    for path in PAGES:
        app.add_api_route(path, page, methods=["GET"], include_in_schema=False)
    app.mount("/", WebAssets(directory=WEB_DIR, html=True), name="web")


class WebAssets(StaticFiles):
    """The client's files only: web assets by suffix, never the package's Python source, its
    caches or hidden files (``GET /__init__.py`` is a 404)."""

    # .json: the client's data (tutorials/, phases/), public by nature.
    SUFFIXES = frozenset(
        {".html", ".css", ".js", ".json", ".svg", ".woff2", ".txt", ".png", ".ico", ".wav"}
    )

    async def get_response(self, path: str, scope: Any) -> Any:
        parts = [p for p in re.split(r"[/\\]", path) if p not in ("", ".")]
        name = parts[-1] if parts else ""
        hidden = any(p.startswith((".", "_")) for p in parts)
        suffix = Path(name).suffix.lower()
        try:
            if hidden or (suffix and suffix not in self.SUFFIXES):
                raise StarletteHTTPException(404, "Not Found")
            return await super().get_response(path, scope)
        except StarletteHTTPException as exc:
            if exc.status_code == 404 and wants_page(parts, scope):
                # A person who typed a wrong address gets the client's "not found" page
                # (its router draws it), still with the 404 status; programs get JSON.
                return FileResponse(WEB_DIR / "index.html", status_code=404, media_type="text/html")
            raise


def wants_page(parts: list[str], scope: Any) -> bool:
    """Whether a missing path is a browser's page request (not the API, not a program)."""
    if parts and parts[0] in {"api", "ws", "docs", "openapi.json"}:
        return False
    for key, value in scope.get("headers", []):
        if key == b"accept":
            return b"text/html" in value
    return False
