"""The routes of puzzles (docs/api.md "Puzzles"; sengoku/server/puzzles.py): the next puzzle
near the solver's puzzle rating, each move checked by the server (the solution stays here),
a hint, and an attempt's rating change (stored for a signed-in player; a guest's computed
from the rating its browser keeps and only returned).

An attempt with the session cookie changes the account's rating: CSRF is checked for it by
:class:`sengoku.server.accounts.CsrfMiddleware` (``COOKIE_PATHS``).
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from typing import Any

from fastapi import APIRouter, Query, Request
from pydantic import Field

from sengoku.analysis.puzzles import Puzzle
from sengoku.core.registry import load_game
from sengoku.server import puzzles
from sengoku.server.accounts import Accounts
from sengoku.server.errors import ApiError, engine_error
from sengoku.server.i18n import N_
from sengoku.server.routes.common import StrictBody

PUZZLE_ID = re.compile(r"^[a-z]{1,32}-[0-9]{1,20}-[0-9]{1,9}$")


class Moves(StrictBody):
    #: the solver's own decisions so far, in notation, in order
    moves: list[str] = Field(max_length=puzzles.MAX_MOVES)


class Attempt(StrictBody):
    moves: list[str] = Field(max_length=puzzles.MAX_MOVES)
    #: the solver's claim: solved without help (the server checks the moves before it
    #: counts a solve; false: a miss, a hint taken or given up)
    correct: bool
    #: a guest's rating as the browser keeps it (ignored for a signed-in player)
    rating: float | None = Field(default=None, ge=0, le=4000)
    deviation: float | None = Field(default=None, gt=0, le=350)


def _puzzle(puzzle_id: str) -> Puzzle:
    if not PUZZLE_ID.match(puzzle_id):
        raise ApiError(404, "no_such_puzzle", N_("puzzle ids look like <game>-<seed>-<ply>"))
    try:
        return puzzles.find(puzzle_id)
    except puzzles.PuzzleError as err:
        raise engine_error(404, "no_such_puzzle", err) from err


def _check_moves(moves: list[str]) -> None:
    for i, move in enumerate(moves):
        if not 0 < len(move) <= 200:
            raise ApiError(
                422, "bad_move", N_("moves[%(i)s]: a move is 1-200 characters"), {"i": i}
            )


def router(accounts: Accounts) -> APIRouter:
    router = APIRouter()
    engine = accounts.store.engine

    @router.get("/api/puzzles")
    async def listing() -> dict[str, Any]:
        """The games with puzzles and how many each has."""
        out = []
        for game in puzzles.games():
            count = len(await asyncio.to_thread(puzzles.catalogue, game))
            out.append({"game": game, "title": load_game(game).game_type.title, "count": count})
        return {"games": out}

    @router.get("/api/puzzles/next")
    async def next_puzzle(
        request: Request,
        game: str = Query(max_length=32),
        rating: float | None = Query(default=None, ge=0, le=4000),
        deviation: float | None = Query(default=None, gt=0, le=350),
        exclude: str | None = Query(default=None, max_length=2000),
    ) -> dict[str, Any]:
        """A puzzle of ``game`` near the solver's puzzle rating: a signed-in player's stored
        one (puzzles already rated skipped), or a guest's ``rating`` (the browser's; a new
        player's 1500 without it), ``exclude`` naming puzzles the guest has seen (ids, by
        commas). The mover's view and legal actions only."""
        if game not in puzzles.games():
            raise ApiError(
                404,
                "no_puzzles",
                N_("no puzzles for %(game)s; for %(games)s"),
                {"game": repr(game), "games": ", ".join(puzzles.games())},
            )
        account = await accounts.current(request)
        if account is not None:
            mine = await asyncio.to_thread(puzzles.stored_rating, engine, account.id, game)
            seen = await asyncio.to_thread(puzzles.attempted, engine, account.id, game)
            solver = {**mine, "stored": True}
            target = mine["rating"]
        else:
            guest = puzzles.guest_rating(rating, deviation)
            solver = {**puzzles.rating_json(guest, 0), "stored": False}
            seen = set((exclude or "").split(",")) - {""}
            target = guest.rating
        chosen = puzzles.next_puzzle(game, target, seen, random.Random())
        shown = await asyncio.to_thread(puzzles.public, chosen)
        return {"puzzle": shown, "solver": solver}

    @router.get("/api/puzzles/{puzzle_id}")
    async def one(puzzle_id: str) -> dict[str, Any]:
        """One puzzle by id, as ``next`` shows it."""
        return {"puzzle": await asyncio.to_thread(puzzles.public, _puzzle(puzzle_id))}

    @router.post("/api/puzzles/{puzzle_id}/move")
    async def move(puzzle_id: str, body: Moves) -> dict[str, Any]:
        """Check the solver's moves so far: ``correct`` (every one right), ``solved``, the
        opponent's ``replies`` played after the last one, the mover's view now, and its legal
        actions while the puzzle goes on. The solution is not shown."""
        puzzle = _puzzle(puzzle_id)
        _check_moves(body.moves)
        if not body.moves:
            raise ApiError(422, "bad_move", N_("moves: give at least one move"))
        try:
            verdict = await asyncio.to_thread(puzzles.check, puzzle, body.moves)
        except puzzles.PuzzleError as err:
            raise engine_error(422, "bad_move", err) from err
        going_on = verdict.correct and not verdict.solved
        return {
            "correct": verdict.correct,
            "solved": verdict.solved,
            "replies": verdict.replies if verdict.correct else [],
            "view": verdict.state.view(puzzle.seat),
            "legal": puzzles.legal_json(verdict.state) if going_on else [],
        }

    @router.post("/api/puzzles/{puzzle_id}/hint")
    async def hint(puzzle_id: str, body: Moves) -> dict[str, Any]:
        """After the solver's right ``moves``: the legal actions of the piece, card or tile
        to use next (the page highlights them). Taking a hint makes the attempt a miss."""
        puzzle = _puzzle(puzzle_id)
        _check_moves(body.moves)
        try:
            actions = await asyncio.to_thread(puzzles.hint, puzzle, body.moves)
        except puzzles.PuzzleError as err:
            raise engine_error(422, "bad_move", err) from err
        return {"actions": actions}

    @router.post("/api/puzzles/{puzzle_id}/attempt")
    async def attempt(puzzle_id: str, body: Attempt, request: Request) -> dict[str, Any]:
        """The end of an attempt: solved (``correct`` and the moves solve it) or missed. The
        rating change (Glicko-2, the puzzle the opponent), stored for a signed-in player
        (once per puzzle), computed from ``rating``/``deviation`` for a guest; and now the
        solution."""
        puzzle = _puzzle(puzzle_id)
        _check_moves(body.moves)
        try:
            verdict = await asyncio.to_thread(puzzles.check, puzzle, body.moves)
        except puzzles.PuzzleError as err:
            raise engine_error(422, "bad_move", err) from err
        if body.correct and not verdict.solved:
            raise ApiError(
                422, "not_solved", N_("correct: these moves do not solve the puzzle; send false")
            )
        correct = body.correct and verdict.solved
        account = await accounts.current(request)
        if account is not None:
            before, after, attempts, rated = await asyncio.to_thread(
                puzzles.record_attempt,
                engine,
                account.id,
                puzzle,
                body.moves,
                correct,
                time.time(),
            )
            stored = True
        else:
            try:
                before = puzzles.guest_rating(body.rating, body.deviation)
            except puzzles.PuzzleError as err:
                raise engine_error(422, "bad_request", err) from err
            after = puzzles.rate(before, puzzle, correct)
            attempts, rated, stored = 0, True, False
        return {
            "correct": correct,
            "rated": rated,
            "stored": stored,
            "before": puzzles.rating_json(before, attempts - 1 if stored and rated else attempts),
            "after": puzzles.rating_json(after, attempts),
            "delta": after.display - before.display,
            "solution": list(puzzle.solution),
        }

    return router
