"""Puzzles on the server (issue 38; docs/api.md "Puzzles"): the next puzzle near the solver's
puzzle rating, moves checked by the server (the solution is not sent before the attempt),
ratings stored for a signed-in player and only returned for a guest, and nothing hidden in
a hidden-information puzzle's payload."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from test_accounts import CHEAP, csrf, post, sign_up

from sengoku.analysis.puzzles import Puzzle, load
from sengoku.server import puzzles
from sengoku.server.db import puzzle_attempts, puzzle_ratings

GUNGI = {p.id: p for p in load("gungi")}


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> Iterator[TestClient]:
    with make_client(**CHEAP) as c:
        yield c


def ok(r: Any, status: int = 200) -> Any:
    assert r.status_code == status, r.text
    return r.json()


def rows(client: TestClient, table: Any) -> list[Any]:
    engine = client.app.state.accounts.store.engine  # type: ignore[attr-defined]
    with engine.connect() as conn:
        return list(conn.execute(select(table)).all())


def one_move(game: str = "gungi") -> Puzzle:
    return next(p for p in puzzles.catalogue(game).values() if len(p.solution) == 1)


def mover_moves(puzzle: Puzzle) -> list[str]:
    """The solution's moves that the solver makes (the replies come from the server)."""
    state, mine = puzzle.position(), []
    for text in puzzle.solution:
        if state.current_player == puzzle.seat:
            mine.append(text)
        state.apply(state.game.parse_action(state, text))
    return mine


def a_wrong_move(puzzle: Puzzle) -> str:
    state = puzzle.position()
    for action in state.legal_actions():
        after = state.clone()
        after.apply(action)
        won = after.is_terminal() and (after.outcome() or None) is not None
        if str(action) != puzzle.solution[0] and not won:
            return str(action)
    raise AssertionError("no wrong move")


@pytest.mark.parametrize("rating", [1000.0, 1500.0, 2100.0])
def test_the_next_puzzle_is_near_the_guests_rating(client: TestClient, rating: float) -> None:
    for _ in range(5):
        out = ok(client.get("/api/puzzles/next", params={"game": "gungi", "rating": rating}))
        shown = out["puzzle"]
        assert out["solver"]["rating"] == rating and out["solver"]["stored"] is False
        distances = sorted(abs(puzzles.puzzle_rating(p) - rating) for p in GUNGI.values())
        assert abs(shown["rating"] - rating) <= distances[puzzles.NEAREST - 1]
        # what is shown: the mover's view and legal moves, never the solution or the record
        assert set(shown) == {
            "id", "game", "seat", "view", "legal", "rating", "theme", "difficulty", "moves",
        }  # fmt: skip
        assert shown["view"] == GUNGI[shown["id"]].view
        assert all({"action", "kind", "label"} <= set(row) for row in shown["legal"])


def test_a_guest_solves_a_puzzle_and_the_rating_goes_up_unstored(client: TestClient) -> None:
    puzzle = one_move()
    verdict = ok(client.post(f"/api/puzzles/{puzzle.id}/move", json={"moves": puzzle.solution}))
    assert verdict["correct"] is True and verdict["solved"] is True
    assert "solution" not in verdict
    out = ok(
        client.post(
            f"/api/puzzles/{puzzle.id}/attempt",
            json={"moves": puzzle.solution, "correct": True, "rating": 1500.0, "deviation": 200.0},
        )
    )
    assert out["correct"] is True and out["stored"] is False
    assert out["before"]["rating"] == 1500.0 and out["after"]["rating"] > 1500.0
    assert out["delta"] > 0 and out["solution"] == puzzle.solution
    assert rows(client, puzzle_ratings) == [] and rows(client, puzzle_attempts) == []


def test_a_wrong_move_is_wrong_and_cannot_be_claimed_solved(client: TestClient) -> None:
    puzzle = one_move()
    wrong = a_wrong_move(puzzle)
    verdict = ok(client.post(f"/api/puzzles/{puzzle.id}/move", json={"moves": [wrong]}))
    state = puzzle.position()
    state.apply(state.game.parse_action(state, wrong))
    assert verdict == {
        "correct": False,
        "solved": False,
        "replies": [],
        "view": state.view(puzzle.seat),
        "legal": [],
    }
    r = client.post(f"/api/puzzles/{puzzle.id}/attempt", json={"moves": [wrong], "correct": True})
    assert r.status_code == 422 and r.json()["error"]["code"] == "not_solved", r.text
    out = ok(
        client.post(
            f"/api/puzzles/{puzzle.id}/attempt",
            json={"moves": [wrong], "correct": False, "rating": 1500.0},
        )
    )
    assert out["correct"] is False and out["delta"] < 0


def test_a_longer_puzzle_plays_the_opponents_reply(client: TestClient) -> None:
    puzzle = next(p for p in GUNGI.values() if len(p.solution) >= 3)
    verdict = ok(client.post(f"/api/puzzles/{puzzle.id}/move", json={"moves": puzzle.solution[:1]}))
    assert verdict["correct"] is True and verdict["solved"] is False
    assert [r["action"] for r in verdict["replies"]] == [puzzle.solution[1]]
    state = puzzle.position()
    for text in puzzle.solution[:2]:
        state.apply(state.game.parse_action(state, text))
    assert verdict["view"] == state.view(puzzle.seat)
    assert puzzle.solution[2] in [row["action"] for row in verdict["legal"]]
    # a hint names the piece to move: its moves, the solution's among them
    hint = ok(client.post(f"/api/puzzles/{puzzle.id}/hint", json={"moves": puzzle.solution[:1]}))
    assert puzzle.solution[2] in hint["actions"]
    assert len(hint["actions"]) < len(verdict["legal"])
    mine = puzzle.solution[0::2]  # the mover's moves; the replies come from the server
    for n in range(2, len(mine) + 1):
        step = ok(client.post(f"/api/puzzles/{puzzle.id}/move", json={"moves": mine[:n]}))
        assert step["correct"] is True and step["solved"] is (n == len(mine))


def test_a_signed_in_players_attempts_are_stored_once(client: TestClient) -> None:
    sign_up(client)
    first = ok(client.get("/api/puzzles/next", params={"game": "gungi", "rating": 2500}))
    assert first["solver"]["stored"] is True and first["solver"]["rating"] == 1500.0
    puzzle = GUNGI[first["puzzle"]["id"]]
    body = {"moves": mover_moves(puzzle), "correct": True}
    r = client.post(f"/api/puzzles/{puzzle.id}/attempt", json=body)  # no CSRF token: refused
    assert r.status_code == 403, r.text
    out = ok(post(client, f"/api/puzzles/{puzzle.id}/attempt", body))
    assert out["stored"] is True and out["rated"] is True and out["delta"] > 0
    (stored,) = rows(client, puzzle_ratings)
    assert stored.game == "gungi" and stored.attempts == 1
    assert round(stored.rating, 2) == out["after"]["rating"] > 1500.0
    (attempt,) = rows(client, puzzle_attempts)
    assert (attempt.puzzle_id, attempt.correct) == (puzzle.id, True)
    assert json.loads(attempt.moves) == mover_moves(puzzle)
    # the stored rating picks the next puzzle, and the puzzle rated is not offered again
    again = ok(client.get("/api/puzzles/next", params={"game": "gungi"}))
    assert again["solver"]["rating"] == out["after"]["rating"]  # both rounded alike
    assert again["puzzle"]["id"] != puzzle.id
    # a second attempt of the same puzzle is answered and not rated
    wrong = {"moves": [a_wrong_move(puzzle)], "correct": False}
    second = ok(client.post(f"/api/puzzles/{puzzle.id}/attempt", json=wrong, headers=csrf(client)))
    assert second["rated"] is False and second["delta"] == 0
    assert [r.rating for r in rows(client, puzzle_ratings)] == [stored.rating]


def test_bad_requests_name_the_field_and_change_nothing(client: TestClient) -> None:
    puzzle = one_move()
    cases = [
        ("/api/puzzles/nope/move", {"moves": ["x"]}, 404),
        (f"/api/puzzles/{puzzle.id}/move", {"moves": ["not a move"]}, 422),
        (f"/api/puzzles/{puzzle.id}/move", {"moves": puzzle.solution, "extra": 1}, 422),
        (f"/api/puzzles/{puzzle.id}/attempt", {"moves": [], "correct": "yes"}, 422),
        (f"/api/puzzles/{puzzle.id}/move", {"moves": ["a"] * 100}, 422),
    ]
    for path, body, status in cases:
        r = client.post(path, json=body)
        assert r.status_code == status, (path, body, r.text)
        assert "error" in r.json()
    # a body over the small cap is refused before it is read (sengoku/server/guard.py)
    huge = json.dumps({"moves": ["x" * 150] * 30}).encode()
    r = client.post(
        f"/api/puzzles/{puzzle.id}/move",
        content=huge,
        headers={"Content-Type": "application/json"},
    )
    assert r.status_code == 413, r.text
    r = client.get("/api/puzzles/next", params={"game": "chess"})
    assert r.status_code == 404, r.text
    assert rows(client, puzzle_attempts) == []


@pytest.mark.parametrize("game", ["gunshi", "sashimono", "gunkimono"])
def test_a_hidden_information_puzzle_shows_only_the_movers_view(
    client: TestClient, game: str
) -> None:
    out = ok(client.get("/api/puzzles/next", params={"game": game}))
    shown = out["puzzle"]
    puzzle = puzzles.find(shown["id"])
    text = json.dumps(shown)
    for secret in ("solution", "seed", "actions", "fen"):
        assert f'"{secret}"' not in text
    # the payload is a function of what the mover sees: a position that differs from the
    # true one only where the mover cannot look gives the same payload
    state = puzzle.position()
    other = state.determinize(puzzle.seat, random.Random(7))
    others = [s for s in range(state.num_players) if s != puzzle.seat]
    assert any(other.view(s) != state.view(s) for s in others)  # hidden parts differ
    assert puzzles.public(puzzle, other) == shown
    moves = mover_moves(puzzle)
    verdict = ok(client.post(f"/api/puzzles/{puzzle.id}/move", json={"moves": moves}))
    assert verdict["correct"] and verdict["solved"] and verdict["replies"] == []
