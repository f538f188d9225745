"""What every request and response passes through: JSON shape limits and security headers.

A request body that is JSON is checked before any route sees it, so that no route can fail
with a server error on it: nesting deeper than :data:`MAX_JSON_DEPTH`, a number longer than
:data:`MAX_NUMBER_CHARS` characters (Python refuses to convert integers of more than 4,300
digits, and converting long ones costs quadratic time), ``NaN``/``Infinity`` (not JSON) and a
NUL character or a lone surrogate anywhere (PostgreSQL refuses NUL in text; no database
stores an unpaired surrogate) are refused with a 4xx that names the problem. Bodies that are not JSON at all are left to the route (it answers 422).
"""

from __future__ import annotations

import json
from typing import Any

#: The deepest nesting of arrays and objects a request may hold (records nest 4 deep).
MAX_JSON_DEPTH = 32
#: The longest number literal, in characters (a 128-bit seed has 39 digits).
MAX_NUMBER_CHARS = 100

#: Sent with every HTTP response. The web client loads only its own files (no inline script
#: or style, no other origin) and may not be framed.
SECURITY_HEADERS: list[tuple[bytes, bytes]] = [
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        b"font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
        b"form-action 'self'; frame-ancestors 'none'",
    ),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
#: The interactive API pages (/docs, /redoc) load FastAPI's Swagger UI and ReDoc from their
#: CDN with an inline bootstrap script: they get this policy instead (still no framing).
DOCS_CSP = (
    b"default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    b"style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net https://fonts.googleapis.com; "
    b"font-src 'self' https://fonts.gstatic.com; img-src 'self' data: https:; "
    b"worker-src 'self' blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    b"frame-ancestors 'none'"
)
DOCS_PATHS = ("/docs", "/redoc")


class BadJson(ValueError):
    """A JSON text the server refuses to work with; the message says why."""


def _number(text: str) -> Any:
    if len(text) > MAX_NUMBER_CHARS:
        raise BadJson(f"numbers are limited to {MAX_NUMBER_CHARS} characters")
    return float(text) if any(c in text for c in ".eE") else int(text)


def _constant(text: str) -> Any:
    raise BadJson(f"{text} is not JSON")


def loads(text: str | bytes) -> Any:
    """``json.loads`` with the limits above; raises :class:`BadJson` for a refused shape and
    ``json.JSONDecodeError`` / ``UnicodeDecodeError`` for text that is not JSON."""
    try:
        value = json.loads(text, parse_int=_number, parse_float=_number, parse_constant=_constant)
    except RecursionError:
        raise BadJson(f"JSON may nest at most {MAX_JSON_DEPTH} levels deep") from None
    check_shape(value)
    return value


def text_problem(text: str) -> str | None:
    """Why a JSON string is refused (a NUL, or a lone surrogate: JSON may escape one,
    ``"\\ud800"``, but it is not Unicode text, and no database stores it), or None."""
    if "\x00" in text:
        return "NUL characters are not allowed"
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return "lone surrogates (an unpaired \\ud800-\\udfff) are not text"
    return None


def check_shape(value: Any) -> None:
    """Raise :class:`BadJson` if ``value`` nests too deep or holds a NUL character or a
    lone surrogate."""
    stack: list[tuple[Any, int, str]] = [(value, 0, "body")]
    while stack:
        item, depth, where = stack.pop()
        if isinstance(item, str):
            problem = text_problem(item)
            if problem is not None:
                raise BadJson(f"{where}: {problem}")
        elif isinstance(item, (dict, list)):
            if depth >= MAX_JSON_DEPTH:
                raise BadJson(f"JSON may nest at most {MAX_JSON_DEPTH} levels deep")
            if isinstance(item, dict):
                for key, sub in item.items():
                    problem = text_problem(key)
                    if problem is not None:
                        raise BadJson(f"{where}: {problem} in keys")
                    stack.append((sub, depth + 1, f"{where}.{key}"[:80]))
            else:
                for i, sub in enumerate(item):
                    stack.append((sub, depth + 1, f"{where}[{i}]"[:80]))


def body_problem(body: bytes) -> str | None:
    """Why a request body is refused, or None (also None for a body that is not JSON at all:
    the route says what it expected)."""
    try:
        loads(body)
    except BadJson as exc:
        return str(exc)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None
    except ValueError as exc:  # pragma: no cover - a conversion json itself refused
        return f"the body is not usable JSON ({type(exc).__name__})"
    return None


def target_problem(scope: dict[str, Any] | Any) -> str | None:
    """A request path or query that no route may see (a NUL character), or None."""
    path = scope.get("path", "")
    query = scope.get("query_string", b"")
    if "\x00" in path or b"%00" in query or b"\x00" in query:
        return "NUL characters are not allowed in a URL"
    return None


def response_headers(path: str) -> list[tuple[bytes, bytes]]:
    """The security headers for a response to ``path``."""
    if path.startswith(DOCS_PATHS):
        return [(b"content-security-policy", DOCS_CSP), *SECURITY_HEADERS[1:]]
    return SECURITY_HEADERS


#: The longest text an option value may hold (a Gunshi deck description is ~80 characters).
MAX_OPTION_TEXT = 1000
#: The largest options object, as JSON.
MAX_OPTIONS_JSON = 16_384


def options_problem(options: dict[str, Any]) -> str | None:
    """Why a match's options are refused before any game looks at them, or None: every
    game's options are short values, and parsing a long one would stall the event loop."""
    if len(json.dumps(options)) > MAX_OPTIONS_JSON:
        return f"options are limited to {MAX_OPTIONS_JSON} characters of JSON"
    stack: list[Any] = [options]
    while stack:
        item = stack.pop()
        if isinstance(item, str) and len(item) > MAX_OPTION_TEXT:
            return f"an option's text is limited to {MAX_OPTION_TEXT} characters"
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return None
