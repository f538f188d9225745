"""GET /api/i18n/<lang>.json: the web client's messages in one language (sengoku/server/i18n.py)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from sengoku.server import i18n
from sengoku.server.errors import ApiError
from sengoku.server.i18n import N_


def router() -> APIRouter:
    router = APIRouter()

    @router.get("/api/i18n/{lang}.json")
    async def messages(lang: str) -> dict[str, Any]:
        """The catalog's translated messages and its plural table (docs/api.md)."""
        if lang not in i18n.LANGUAGES:
            raise ApiError(
                404,
                "unknown_language",
                N_("unknown language %(lang)s; one of %(languages)s"),
                params={"lang": repr(lang), "languages": ", ".join(i18n.LANGUAGES)},
            )
        return i18n.client_catalog(lang)

    return router
