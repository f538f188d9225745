"""How errors leave the server: one JSON shape, ``{"error": {"code", "message"}}``."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from sengoku.server import housekeeping, i18n
from sengoku.server.errors import ApiError
from sengoku.server.i18n import N_

#: Starlette's words for its own errors (an unknown path, a method a route does not take),
#: marked so that the catalogs translate them.
HTTP_WORDS = (N_("Not Found"), N_("Method Not Allowed"))


def request_language(request: Request) -> str:
    """The language of the request's answer: its cookie or Accept-Language (docs/i18n.md)."""
    return i18n.choose(request.cookies, request.headers.get("accept-language"))


def api_error_response(exc: ApiError, lang: str = i18n.DEFAULT) -> JSONResponse:
    """The answer to ``exc`` (also written by the hot routes, sengoku/server/hot.py), its
    message in ``lang`` where the catalog has it."""
    body = exc.to_json()
    message = exc.localized(
        lambda text: i18n.gettext_(lang, text), lambda say: i18n.sentence_(lang, say)
    )
    # an error may quote what the client sent: never echo more than a line of it
    body["error"]["message"] = housekeeping.clip(message)
    return JSONResponse(body, status_code=exc.status)


def validation_message(errors: Iterable[Any]) -> str:
    """pydantic's errors as one line naming each field (the first five)."""
    problems = []
    for err in list(errors)[:5]:
        where = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "body"
        problems.append(f"{where}: {err.get('msg', 'invalid')}")
    return "; ".join(problems)


def add_error_handlers(app: FastAPI) -> None:
    """Answer every error with the API's JSON shape."""

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> JSONResponse:
        return api_error_response(exc, request_language(request))

    @app.exception_handler(RequestValidationError)
    async def _validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse(
            {"error": {"code": "bad_request", "message": validation_message(exc.errors())}},
            status_code=422,
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        # Starlette's own words (HTTP_WORDS) in the request's language
        message = i18n.gettext_(request_language(request), str(exc.detail))
        return JSONResponse(
            {"error": {"code": code, "message": message}}, status_code=exc.status_code
        )
