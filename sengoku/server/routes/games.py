"""The routes of games: what this server plays, with each game's options and renderer."""

from __future__ import annotations

import importlib.util
import logging
from pathlib import Path
from typing import Any

from fastapi import APIRouter

from sengoku.core.game import Game
from sengoku.core.registry import list_games, load_game
from sengoku.server.errors import ApiError

log = logging.getLogger("sengoku.server")


def _web_renderers() -> Path | None:
    """The folder of the browser client's game renderers, if the client is installed."""
    spec = importlib.util.find_spec("sengoku.web")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0]) / "js" / "games"


def describe(game: Game) -> dict[str, Any]:
    """``game.describe()`` with its ``renderer``: the module under ``sengoku/web/js/games/``
    that draws it. The contract's ``describe()`` gives it (``Game.renderer``); for a game
    whose ``describe()`` does not yet, the game's own name when the client has a module of
    that name, else ``generic``."""
    out = game.describe()
    named = out.get("renderer")
    if not isinstance(named, str) or not named:
        folder = _web_renderers()
        own = folder is not None and (folder / f"{game.name}.js").is_file()
        out["renderer"] = game.name if own else "generic"
    return out


def router() -> APIRouter:
    """The game routes (they need no service)."""
    router = APIRouter()

    @router.get("/api/games")
    async def games() -> dict[str, Any]:
        """Every game this server plays, with its options."""
        out = []
        for name in list_games():
            try:
                out.append(describe(load_game(name)))
            except Exception:  # a game that does not import is left out, not fatal
                log.exception("game %s failed to load", name)
        return {"games": out, "ai_levels": _ai_levels(), "clocks": _clock_kinds()}

    @router.get("/api/games/{name}")
    async def game(name: str) -> dict[str, Any]:
        if name not in list_games():
            raise ApiError(404, "unknown_game", f"unknown game {name!r}; see /api/games")
        return describe(load_game(name))

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
    ]
