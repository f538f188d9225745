"""Puzzles on the server (issue 38; docs/analysis.md, *Puzzles on the server*): the shipped
sets of :mod:`sengoku.analysis.puzzles`, a puzzle near a player's puzzle rating, checking a
player's moves one at a time, and the puzzle ratings (Glicko-2, as the players' ratings).

What a client gets of a puzzle is what its mover sees: the view, the legal actions
described, the puzzle's rating and theme. Never the solution (until the puzzle has been
attempted), nor the record's seed and actions, which rebuild every hidden part of a
hidden-information game's position. The server keeps the true position and answers each
move: right or wrong, and the opponent's reply where the solution has one.
"""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from sqlalchemy import Connection, Engine, insert, select, update

from sengoku.analysis.puzzles import DATA, Puzzle, load
from sengoku.core.game import Action, SengokuError, State
from sengoku.core.sentence import say
from sengoku.ratings import Glicko2Rating, glicko2
from sengoku.ratings.rating import TAU
from sengoku.server.db import puzzle_attempts, puzzle_ratings

#: A puzzle's rating from its difficulty (1..5): 1100 .. 1900, with a fixed deviation. The
#: miners' difficulty is a coarse judgement; the ratings only place puzzles on the players'
#: scale. (Puzzles do not learn their own ratings from attempts yet.)
PUZZLE_BASE, PUZZLE_STEP, PUZZLE_DEVIATION = 900.0, 200.0, 80.0
#: The next puzzle is drawn among this many unseen ones nearest the player's rating.
NEAREST = 8
#: The most moves an attempt or a move check may carry (the longest solution is far shorter).
MAX_MOVES = 16


class PuzzleError(SengokuError):
    """A request about a puzzle that cannot be answered (no such puzzle, a bad move list),
    raised with a sentence (sengoku/core/sentence.py) that the routes answer in the
    request's language."""


def puzzle_rating(puzzle: Puzzle) -> float:
    return PUZZLE_BASE + PUZZLE_STEP * puzzle.difficulty


def games() -> list[str]:
    """The games with a shipped puzzle set."""
    return sorted(p.stem for p in DATA.glob("*.json"))


@cache
def catalogue(game: str) -> dict[str, Puzzle]:
    """The shipped puzzles of ``game`` by id (read once)."""
    if game not in games():
        raise PuzzleError(
            say(
                "no puzzles for {game}; puzzles exist for {games}",
                game=repr(game),
                games=", ".join(games()),
            )
        )
    return {p.id: p for p in load(game)}


def find(puzzle_id: str) -> Puzzle:
    game = puzzle_id.split("-", 1)[0]
    if game not in games() or puzzle_id not in catalogue(game):
        raise PuzzleError(say("no puzzle {puzzle}", puzzle=repr(puzzle_id)))
    return catalogue(game)[puzzle_id]


_positions: dict[str, State] = {}
_positions_lock = threading.Lock()


def position(puzzle: Puzzle) -> State:
    """A fresh copy of the puzzle's true position (replayed once, then cloned)."""
    with _positions_lock:
        state = _positions.get(puzzle.id)
    if state is None:
        state = puzzle.position()
        with _positions_lock:
            if len(_positions) > 512:
                _positions.clear()
            _positions[puzzle.id] = state
    return state.clone()


def legal_json(state: State) -> list[dict[str, Any]]:
    """The mover's legal actions as the match page gets them: described, with notation."""
    legal = state.legal_actions()
    described = state.game.describe_actions(state, legal)
    return [{**d.to_json(), "action": str(a)} for a, d in zip(legal, described, strict=True)]


def public(puzzle: Puzzle, state: State | None = None) -> dict[str, Any]:
    """What a solver is shown: the mover's view and legal actions, never the solution, the
    seed or the actions that led there."""
    state = state or position(puzzle)
    mover_moves = sum(1 for seat in _line_movers(puzzle) if seat == puzzle.seat)
    return {
        "id": puzzle.id,
        "game": puzzle.game,
        "seat": puzzle.seat,
        "view": state.view(puzzle.seat),
        "legal": legal_json(state),
        "rating": round(puzzle_rating(puzzle)),
        "theme": puzzle.theme,
        "difficulty": puzzle.difficulty,
        "moves": mover_moves,
    }


def _line_movers(puzzle: Puzzle) -> list[int]:
    """Who makes each decision of the solution line."""
    state = position(puzzle)
    movers = []
    for text in puzzle.solution:
        movers.append(state.current_player)
        state.apply(state.game.parse_action(state, text))
    return movers


@dataclass(frozen=True)
class Check:
    """The verdict on a solver's moves: all right so far (``correct``), the puzzle solved
    (``solved``), the opponent's replies played after the last move (``replies``, notation
    and description) and the position the solver faces next (``state``)."""

    correct: bool
    solved: bool
    replies: list[dict[str, Any]]
    state: State


def _won(state: State, seat: int) -> bool:
    result = state.outcome()
    return result is not None and result.winners == (seat,)


def _parse(state: State, text: str, index: int) -> Action:
    try:
        action = state.game.parse_action(state, text)
    except SengokuError as err:
        # the game's own reason, a sentence of its own where the game wrote one
        reason = err.say if err.say is not None else str(err)
        raise PuzzleError(
            say(
                "moves[{index}]: {text} is not a move here: {reason}",
                index=index,
                text=repr(text),
                reason=reason,
            )
        ) from err
    if action not in state.legal_actions():
        raise PuzzleError(
            say("moves[{index}]: {text} is not legal here", index=index, text=repr(text))
        )
    return action


def check(puzzle: Puzzle, moves: Sequence[str]) -> Check:
    """Play the solver's ``moves`` (the mover's own decisions, in order) against the
    solution: each must be the solution's move, or, in a perfect-information game, one that
    wins the game at once (an alternative mate is as good). After each right move the opponent's replies of the
    line are played. The first wrong move ends the check (``correct`` False)."""
    if len(moves) > MAX_MOVES:
        raise PuzzleError(say("moves: at most {n}", n=MAX_MOVES))
    state = position(puzzle)
    game = state.game
    perfect = game.traits(**puzzle.options).perfect_information
    line = list(puzzle.solution)
    at = 0  # the next decision of the line
    replies: list[dict[str, Any]] = []
    for index, text in enumerate(moves):
        if at >= len(line) or state.is_terminal():
            raise PuzzleError(
                say("moves[{index}]: the puzzle is over before this move", index=index)
            )
        action = _parse(state, text, index)
        expected = game.parse_action(state, line[at])
        state.apply(action)
        if action != expected:
            # Another move that wins at once is as good, where the solver can see that it
            # wins: in a hidden-information game it may win only in the true world (a
            # lucky guess at a hidden Shogun), and the puzzle asks for what is best in all.
            won = perfect and state.is_terminal() and _won(state, puzzle.seat)
            return Check(won, won, [], state)
        at += 1
        replies = []
        # the opponent's replies in the line, until the mover decides again
        while at < len(line) and not state.is_terminal() and state.current_player != puzzle.seat:
            reply = game.parse_action(state, line[at])
            described = game.describe_action(state, reply).to_json()
            state.apply(reply)
            replies.append({**described, "action": line[at]})
            at += 1
    solved = at >= len(line) or (state.is_terminal() and _won(state, puzzle.seat))
    return Check(True, solved, replies, state)


def hint(puzzle: Puzzle, moves: Sequence[str]) -> list[str]:
    """After the solver's right ``moves``: the legal actions that share the next solution
    move's piece, card or square of departure (what the page highlights), never fewer than
    the solution move itself."""
    done = check(puzzle, moves)
    if not done.correct or done.solved:
        raise PuzzleError(
            say("moves: a hint is for a puzzle still being solved, after right moves")
        )
    state = done.state
    line_at = _next_index(puzzle, moves)
    expected = state.game.parse_action(state, puzzle.solution[line_at])
    legal = state.legal_actions()
    described = state.game.describe_actions(state, legal)
    target = described[legal.index(expected)].to_json()
    for key in ("from", "piece", "card", "tile", "unit"):
        if target.get(key) is not None:
            return [
                str(a)
                for a, d in zip(legal, described, strict=True)
                if d.to_json().get(key) == target[key]
            ]
    return [str(expected)]


def _next_index(puzzle: Puzzle, moves: Sequence[str]) -> int:
    """The index in the line of the solver's next decision after ``moves`` (all right)."""
    movers = _line_movers(puzzle)
    seen = 0
    for i, seat in enumerate(movers):
        if seat == puzzle.seat:
            if seen == len(moves):
                return i
            seen += 1
    raise PuzzleError(say("moves: the puzzle is over"))  # pragma: no cover - checked before


# -- choosing the next puzzle -----------------------------------------------------------------


def next_puzzle(game: str, rating: float, exclude: set[str], rng: random.Random) -> Puzzle:
    """A puzzle of ``game`` near ``rating``: one of the :data:`NEAREST` nearest that are not
    in ``exclude`` (all of them once every puzzle has been tried)."""
    pool = list(catalogue(game).values())
    fresh = [p for p in pool if p.id not in exclude] or pool
    fresh.sort(key=lambda p: (abs(puzzle_rating(p) - rating), p.id))
    near = fresh[:NEAREST]
    return near[rng.randrange(len(near))]


# -- ratings ------------------------------------------------------------------------------------


def rate(before: Glicko2Rating, puzzle: Puzzle, correct: bool) -> Glicko2Rating:
    """The solver's puzzle rating after one attempt: one Glicko-2 rating period, the puzzle
    the opponent (its rating from its difficulty), solved a win, missed a loss."""
    r, d, v = glicko2.update(
        before.rating,
        before.deviation,
        before.volatility,
        [(puzzle_rating(puzzle), PUZZLE_DEVIATION, 1.0 if correct else 0.0)],
        TAU,
    )
    return Glicko2Rating(r, d, v)


def guest_rating(rating: float | None, deviation: float | None) -> Glicko2Rating:
    """A guest's rating as its browser keeps it (a new player's when absent)."""
    fresh = Glicko2Rating()
    try:
        return Glicko2Rating(
            fresh.rating if rating is None else float(rating),
            fresh.deviation if deviation is None else float(deviation),
            fresh.volatility,
        )
    except ValueError as err:
        # the rating module's words, passed on
        raise PuzzleError(say("rating: {problem}", problem=str(err))) from err


def load_rating(conn: Connection, account_id: str, game: str) -> tuple[Glicko2Rating, int]:
    row = conn.execute(
        select(puzzle_ratings).where(
            puzzle_ratings.c.account_id == account_id, puzzle_ratings.c.game == game
        )
    ).first()
    if row is None:
        return Glicko2Rating(), 0
    return Glicko2Rating(row.rating, row.deviation, row.volatility), int(row.attempts)


def stored_rating(engine: Engine, account_id: str, game: str) -> dict[str, Any]:
    with engine.connect() as conn:
        rating, attempts = load_rating(conn, account_id, game)
    return rating_json(rating, attempts)


def attempted(engine: Engine, account_id: str, game: str) -> set[str]:
    with engine.connect() as conn:
        rows = conn.execute(
            select(puzzle_attempts.c.puzzle_id).where(
                puzzle_attempts.c.account_id == account_id, puzzle_attempts.c.game == game
            )
        ).all()
    return {r.puzzle_id for r in rows}


def rating_json(rating: Glicko2Rating, attempts: int) -> dict[str, Any]:
    return {
        "rating": round(rating.rating, 2),
        "deviation": round(rating.deviation, 2),
        "display": rating.display,
        "provisional": rating.provisional,
        "attempts": attempts,
    }


def record_attempt(
    engine: Engine,
    account_id: str,
    puzzle: Puzzle,
    moves: Sequence[str],
    correct: bool,
    now: float,
) -> tuple[Glicko2Rating, Glicko2Rating, int, bool]:
    """Store a signed-in solver's attempt and new rating, in one transaction: (before,
    after, attempts, rated). A puzzle is rated once per player: a later attempt of it
    changes nothing (``rated`` False, before == after)."""
    with engine.begin() as conn:
        before, attempts = load_rating(conn, account_id, puzzle.game)
        done = conn.execute(
            select(puzzle_attempts.c.puzzle_id).where(
                puzzle_attempts.c.account_id == account_id,
                puzzle_attempts.c.puzzle_id == puzzle.id,
            )
        ).first()
        if done is not None:
            return before, before, attempts, False
        after = rate(before, puzzle, correct)
        values = {
            "rating": after.rating,
            "deviation": after.deviation,
            "volatility": after.volatility,
            "attempts": attempts + 1,
            "updated_at": now,
        }
        if attempts == 0 and before == Glicko2Rating():
            conn.execute(
                insert(puzzle_ratings).values(account_id=account_id, game=puzzle.game, **values)
            )
        else:
            conn.execute(
                update(puzzle_ratings)
                .where(
                    puzzle_ratings.c.account_id == account_id,
                    puzzle_ratings.c.game == puzzle.game,
                )
                .values(**values)
            )
        conn.execute(
            insert(puzzle_attempts).values(
                account_id=account_id,
                puzzle_id=puzzle.id,
                game=puzzle.game,
                moves=json.dumps(list(moves)),
                correct=correct,
                before=before.rating,
                after=after.rating,
                delta=after.display - before.display,
                at=now,
            )
        )
        return before, after, attempts + 1, True
