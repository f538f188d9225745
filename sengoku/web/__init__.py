"""The browser client: static files (HTML, CSS, JS modules, a CJK font subset).

:func:`mount` adds the client's pages and the static files at ``/`` to the game server's app.
It imports nothing of the server: the server serves the texts of these files in a request's
language (``GET /api/rules|tutorials|phases/{game}``, :mod:`sengoku.server.routes.texts`) and
the replay the client's viewer steps through (:mod:`sengoku.server.replay`).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

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


def mount(app: FastAPI) -> None:
    """Add the client's pages, and its files at ``/`` (after the API routes)."""
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
