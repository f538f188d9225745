"""How errors leave the server: one JSON shape, ``{"error": {"code", "message"}}``."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
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


#: pydantic's words for a request body that does not validate, by the error's ``type``
#: (pydantic_core's error types), marked so that the catalogs translate them; the places are
#: the error's ``ctx``. English keeps pydantic's own message (its plurals included): these
#: templates are what the other languages translate. A type not listed stays in English.
PYDANTIC_WORDS = {
    "missing": N_("Field required"),
    "extra_forbidden": N_("Extra inputs are not permitted"),
    "int_parsing": N_("Input should be a valid integer, unable to parse string as an integer"),
    "int_type": N_("Input should be a valid integer"),
    "int_from_float": N_("Input should be a valid integer, got a number with a fractional part"),
    "int_parsing_size": N_("Unable to parse input string as an integer, exceeded maximum size"),
    "float_parsing": N_("Input should be a valid number, unable to parse string as a number"),
    "float_type": N_("Input should be a valid number"),
    "finite_number": N_("Input should be a finite number"),
    "bool_parsing": N_("Input should be a valid boolean, unable to interpret input"),
    "bool_type": N_("Input should be a valid boolean"),
    "string_type": N_("Input should be a valid string"),
    "string_too_short": N_("String should have at least %(min_length)s characters"),
    "string_too_long": N_("String should have at most %(max_length)s characters"),
    "string_pattern_mismatch": N_("String should match pattern '%(pattern)s'"),
    "too_short": N_(
        "%(field_type)s should have at least %(min_length)s items after validation, "
        "not %(actual_length)s"
    ),
    "too_long": N_(
        "%(field_type)s should have at most %(max_length)s items after validation, "
        "not %(actual_length)s"
    ),
    "greater_than": N_("Input should be greater than %(gt)s"),
    "greater_than_equal": N_("Input should be greater than or equal to %(ge)s"),
    "less_than": N_("Input should be less than %(lt)s"),
    "less_than_equal": N_("Input should be less than or equal to %(le)s"),
    "multiple_of": N_("Input should be a multiple of %(multiple_of)s"),
    "literal_error": N_("Input should be %(expected)s"),
    "enum": N_("Input should be %(expected)s"),
    "none_required": N_("Input should be None"),
    "dict_type": N_("Input should be a valid dictionary"),
    "list_type": N_("Input should be a valid list"),
    "model_type": N_("Input should be a valid dictionary or instance of %(class_name)s"),
    "model_attributes_type": N_(
        "Input should be a valid dictionary or object to extract fields from"
    ),
    "json_invalid": N_("Invalid JSON: %(error)s"),
    "json_type": N_("JSON input should be string, bytes or bytearray"),
    # our own validators' words (the error) are passed on as they are
    "value_error": N_("Value error, %(error)s"),
}


def pydantic_words(err: Mapping[str, Any], lang: str = i18n.DEFAULT) -> str:
    """One pydantic error's message in ``lang``: its type's template translated and filled
    with its context; pydantic's own English where the language is English, the type is not
    listed or the translation does not fill."""
    english = str(err.get("msg", "invalid"))
    template = PYDANTIC_WORDS.get(str(err.get("type")))
    if lang == i18n.DEFAULT or template is None:
        return english
    ctx = {key: str(value) for key, value in (err.get("ctx") or {}).items()}
    try:
        return i18n.gettext_(lang, template) % ctx
    except (KeyError, ValueError, TypeError):  # a context this template does not expect
        return english


def validation_message(errors: Iterable[Any], lang: str = i18n.DEFAULT) -> str:
    """pydantic's errors as one line naming each field (the first five), the field names as
    the API spells them, pydantic's words in ``lang``."""
    problems = []
    for err in list(errors)[:5]:
        where = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "body"
        problems.append(f"{where}: {pydantic_words(err, lang)}")
    return "; ".join(problems)


def add_error_handlers(app: FastAPI) -> None:
    """Answer every error with the API's JSON shape."""

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> JSONResponse:
        return api_error_response(exc, request_language(request))

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        message = validation_message(exc.errors(), request_language(request))
        return JSONResponse(
            {"error": {"code": "bad_request", "message": message}},
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
