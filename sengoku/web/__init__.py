"""The browser client: static files (HTML, CSS, JS modules, a CJK font subset) and replays.

:func:`mount` adds two things to the game server's app: ``POST /api/replay``, which turns a
record into the view of every ply for one seat (the client's replay viewer steps through
them), and the static files at ``/``. Both are stateless: a record is public once its game
is over (it holds the seed), so replaying one reveals nothing a player may not see.
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Query, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from sengoku.core.game import SengokuError
from sengoku.core.record import GameRecord, InvalidRecord
from sengoku.core.registry import load_game

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
    "/puzzles",
    "/puzzles/{game}",
    "/puzzles/{game}/{puzzle_id}",
)
#: The rules in our own words, shipped in the package: a copy of docs/rules/*.md (the source;
#: ``make rules`` copies them, and a test checks the two agree).
RULES_DIR = WEB_DIR / "rules"
RULES_NAME = re.compile(r"[a-z]{1,32}")
#: A replay longer than this is refused: views are computed for every ply.
MAX_REPLAY_ACTIONS = 5000


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def replay_views(data: Any, seat: int | None) -> dict[str, Any]:
    """Every ply of ``data`` (a record) as ``{ply, view, action, seat, events}``.

    Ply 0 is the start; ply k is the position after the k-th action. Concessions are played
    where the record puts them. Raises :class:`InvalidRecord` naming the move that fails.
    """
    record = GameRecord.from_json(data)
    if len(record.actions) > MAX_REPLAY_ACTIONS:
        raise InvalidRecord(f"replays are limited to {MAX_REPLAY_ACTIONS} actions")
    try:
        game = load_game(record.game)
    except SengokuError as exc:
        raise InvalidRecord(f"record names an unknown game: {exc}") from None
    if record.version != game.version:
        raise InvalidRecord(
            f"record was made with {record.game} rules version {record.version}; "
            f"this server plays version {game.version}"
        )
    players = len(record.players) or game.min_players
    if seat is not None and not 0 <= seat < max(players, game.max_players):
        raise InvalidRecord(f"seat {seat} is not a seat of this record")
    plies: list[dict[str, Any]] = []
    state = None
    # In games of perfect information each ply carries its action as data (the last-move
    # mark): described from the state before it, while the replay stands there.
    perfect = game.traits(**game.resolve_options(**record.options)).perfect_information
    coming: dict[str, Any] | None = None
    for step in record.steps(check_result=False):
        state = step.state
        if step.kind == "action":
            plies.append(
                {
                    "ply": step.ply,
                    "view": state.view(seat),
                    "action": step.action,
                    "described": coming,
                    "seat": step.seat,
                    "events": _visible(step.events, seat),
                }
            )
        elif step.kind == "concession":
            plies[-1]["events"].extend(_visible(step.events, seat))
            plies[-1]["view"] = state.view(seat)
        else:
            plies.append(
                {"ply": 0, "view": state.view(seat), "action": None, "seat": None, "events": []}
            )
        coming = None
        if perfect and step.kind != "concession" and step.ply < len(record.actions):
            try:
                nxt = game.parse_action(state, record.actions[step.ply])
                coming = game.describe_action(state, nxt).to_json()
            except SengokuError:
                pass  # the replay itself refuses that move next, naming it
    assert state is not None
    outcome = state.outcome()
    return {
        "game": record.game,
        "options": record.options,
        "players": record.players,
        "seat": seat,
        "plies": plies,
        "result": outcome.to_json() if outcome else None,
    }


def replay_json(body: bytes, seat: int | None) -> tuple[int, bytes]:
    """Run in a worker: (HTTP status, JSON body) of the replay of ``body`` (a JSON record).

    The views and their JSON are built here, off the server's event loop."""
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        return 422, json.dumps(
            {"error": {"code": "bad_record", "message": "the body must be a JSON record"}}
        ).encode()
    try:
        out = replay_views(data, seat)
    except SengokuError as exc:
        return 422, json.dumps({"error": {"code": "bad_record", "message": str(exc)}}).encode()
    return 200, json.dumps(out, ensure_ascii=False, separators=(",", ":")).encode()


def _game_and_seed(body: bytes) -> tuple[str, int | None]:
    """The game and seed a record names, or ``("", None)`` if it names none."""
    try:
        data = json.loads(body)
        record = GameRecord.from_json(data)
    except (ValueError, RecursionError, SengokuError):
        return "", None
    return str(data.get("game")), record.seed


def _visible(events: list[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    return [
        e
        for e in events
        if e.get("audience") is None or (seat is not None and seat in e["audience"])
    ]


def mount(app: FastAPI) -> None:
    """Add the replay route, the client's pages, and its files at ``/`` (after the API routes)."""

    @app.post("/api/replay")
    async def replay(request: Request, seat: int | None = Query(default=None, ge=0)) -> Any:
        """The view of every ply of a record (the JSON of GET /api/records/{id}).

        The replay runs in the server's worker pool, bounded in time, never on the event
        loop (a long record took seconds and stalled every game)."""
        body = await request.body()
        service = getattr(request.app.state, "service", None)
        if service is None:  # mounted on an app without the game server
            status, payload = await asyncio.to_thread(replay_json, body, seat)
            return Response(payload, status_code=status, media_type="application/json")
        from sengoku.server.housekeeping import seed_in_play

        game, seed = await asyncio.to_thread(_game_and_seed, body)
        if seed is not None and await seed_in_play(service, game, seed):
            # the seed of a match in play is its secret: no view is computed from it
            return _error(
                409,
                "in_progress",
                "a match with this seed is still in play; its replay opens when it ends",
            )
        status, payload = await service.heavy(replay_json, body, seat)
        return Response(payload, status_code=status, media_type="application/json")

    @app.get("/api/rules/{game}")
    async def rules(game: str) -> Any:
        """The game's full rules (docs/rules/<game>.md, Markdown) where this copy has them."""
        path = RULES_DIR / f"{game}.md"
        if not RULES_NAME.fullmatch(game) or not path.is_file():
            return _error(404, "no_rules", f"no rules document for {game!r} on this server")
        return {"game": game, "markdown": path.read_text(encoding="utf-8")}

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
