"""The analysis board's routes (issue 38): ``POST /api/board/position`` and
``POST /api/board/evaluate``. Stateless: each request names where the board starts and the
line played from there (sengoku/analysis/board.py); the replay and the search run in the
server's worker pool (sengoku/server/work.py), never on the event loop, the search bounded
in iterations and in CPU time. A live match's position is never a board's start: a match in
play (or a record or setup with the seed of one) is ``409 in_progress``, as its record is.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request
from pydantic import Field

from sengoku.analysis.board import MAX_LINE, evaluate_job, position_job
from sengoku.server import i18n, security
from sengoku.server.errors import ApiError
from sengoku.server.housekeeping import seed_in_play
from sengoku.server.i18n import N_
from sengoku.server.routes.common import ServiceRef, StrictBody, find
from sengoku.server.routes.errors import request_language
from sengoku.server.routes.records import ActionText, record_problem
from sengoku.server.settings import Settings

#: The largest seed a fresh setup takes (the server's own seeds are 128-bit).
MAX_SETUP_SEED = 2**128
IN_PLAY = N_("a match with this seed is still in play; its positions open when it ends")


class BoardFrom(StrictBody):
    """Where the board starts: exactly one of ``setup`` (true: a fresh game of the body's
    ``game``, ``options`` and ``seed``), ``record`` (a record's JSON) or ``match_id`` (a
    match that has ended), each at ``ply`` (the end by default), ``fen`` (Gungi's FEN) or
    ``position`` (Gunshi's position string)."""

    setup: bool | None = None
    record: dict[str, Any] | None = None
    match_id: str | None = Field(default=None, min_length=1, max_length=32)
    ply: int | None = Field(default=None, ge=0)
    fen: Annotated[str, Field(min_length=1, max_length=4000)] | None = None
    position: Annotated[str, Field(min_length=1, max_length=4000)] | None = None


class BoardBody(StrictBody):
    """``POST /api/board/position``: the board's start, the line played from it, and the seat
    whose view is shown (null: the seat to act at each position)."""

    game: str = Field(min_length=1, max_length=64)
    options: dict[str, Any] = Field(default_factory=dict)
    seed: int | None = Field(default=None, ge=0, lt=MAX_SETUP_SEED)
    start: BoardFrom = Field(alias="from")
    actions: list[ActionText] = Field(default_factory=list, max_length=MAX_LINE)
    seat: int | None = Field(default=None, ge=0, le=16)


class EvaluateBody(BoardBody):
    """``POST /api/board/evaluate``: as a position, and the search's ``iterations`` (the
    server's default when left out; at most its cap)."""

    iterations: int | None = Field(default=None, ge=1)


async def job_data(svc: ServiceRef, body: BoardBody, lang: str = i18n.DEFAULT) -> dict[str, Any]:
    """The request as a worker job's fields, with the checks that need the server: the
    match that has ended, and no seed of a match in play."""
    start = body.start
    sources = [
        name
        for name, given in (
            ("setup", bool(start.setup)),
            ("record", start.record is not None),
            ("match_id", start.match_id is not None),
            ("fen", start.fen is not None),
            ("position", start.position is not None),
        )
        if given
    ]
    if len(sources) != 1:
        if not sources:
            raise ApiError(
                422,
                "bad_request",
                N_("from: give exactly one of setup (true), record, match_id, fen or position"),
            )
        raise ApiError(
            422,
            "bad_request",
            N_(
                "from: give exactly one of setup (true), record, match_id, fen or position; "
                "got %(sources)s"
            ),
            {"sources": ", ".join(sources)},
        )
    source = sources[0]
    if start.ply is not None and source not in ("record", "match_id"):
        raise ApiError(422, "bad_request", N_("from.ply: only a record or a match_id has plies"))
    if body.seed is not None and source != "setup":
        raise ApiError(
            422, "bad_request", N_("seed: only a setup takes a seed (a record carries its own)")
        )
    if body.options and source in ("record", "match_id"):
        raise ApiError(
            422, "bad_request", N_("options: a record carries its own options; leave them out")
        )
    problem = security.options_problem(body.options)
    if problem is not None:
        raise ApiError(422, "bad_option", problem)
    data: dict[str, Any] = {
        "game": body.game,
        "options": body.options,
        "seed": body.seed or 0,
        "setup": source == "setup",
        "record": None,
        "ply": start.ply,
        "fen": start.fen if start.fen is not None else start.position,
        "actions": list(body.actions),
        "seat": body.seat,
    }
    if source == "match_id":
        assert start.match_id is not None
        live = await find(svc(), start.match_id)
        # A match in play is refused as its record is (409 in_progress): its seed and its
        # actions hold what the seats may not see yet.
        record = dict(await svc().record_of(live))
        for key in ("id", "status", "left"):
            record.pop(key, None)
        data["record"] = record
    elif source == "record":
        problem = record_problem(start.record, lang)
        if problem is not None:
            raise ApiError(422, "bad_record", N_("from.record: %(problem)s"), {"problem": problem})
        assert start.record is not None
        data["record"] = start.record
    seed = _seed_of(data)
    if seed is not None and await seed_in_play(svc(), body.game, seed):
        raise ApiError(409, "in_progress", IN_PLAY)
    return data


def _seed_of(data: dict[str, Any]) -> int | None:
    """The seed the board's start replays from (a record's or a setup's), or None (a FEN)."""
    if data["setup"]:
        return int(data["seed"])
    record = data["record"]
    if record is None:
        return None
    seed = record.get("seed", 0)
    return int(seed) if isinstance(seed, int | str) and str(seed).isdigit() else None


def _answer(out: dict[str, Any]) -> dict[str, Any]:
    if "error" in out:
        err = out["error"]
        # the analysis board's sentence (sengoku/analysis/board.py), where it has one
        raise ApiError(
            int(err["status"]), str(err["code"]), str(err["message"]), say=err.get("say")
        )
    answer: dict[str, Any] = out["ok"]
    return answer


def router(svc: ServiceRef, settings: Settings) -> APIRouter:
    """The analysis board's routes, on the service ``svc()`` returns."""
    router = APIRouter()

    @router.post("/api/board/position")
    async def board_position(body: BoardBody, request: Request) -> dict[str, Any]:
        """The position after ``actions`` from the board's start: the view of the seat
        shown, the seat to act's legal choices described, the result, the FEN, and the line
        as a record to export."""
        data = await job_data(svc, body, request_language(request))
        return _answer(await svc().heavy(position_job, data))

    @router.post("/api/board/evaluate")
    async def board_evaluate(body: EvaluateBody, request: Request) -> dict[str, Any]:
        """The engine's winning chances for the seat to act and its top 3 moves, from a
        search bounded in iterations (``iterations``, at most ``board_max_iterations``) and
        in CPU time (``board_cpu_seconds``)."""
        cap = int(settings.board_max_iterations)
        # The server's default, held to its cap; a number asked for above the cap is refused.
        iterations = (
            body.iterations if body.iterations is not None else min(settings.board_iterations, cap)
        )
        if iterations > cap:
            raise ApiError(
                422,
                "bad_request",
                N_("iterations: at most %(cap)s on this server, not %(iterations)s"),
                {"cap": cap, "iterations": iterations},
            )
        data = await job_data(svc, body, request_language(request))
        out = await svc().heavy(
            evaluate_job, data, int(iterations), float(settings.board_cpu_seconds)
        )
        return _answer(out)

    return router
