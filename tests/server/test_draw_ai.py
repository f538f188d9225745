"""The computer answers a draw offer by its own judgement (issue 41, item 6).

The AI seat judges the position in the AI pool (thread mode here) with its own agent from its
seat's view (``sengoku.ai.draws``); these tests fix that judgement by replacing
``expected_result`` (the pool's threads run in this process) and check the server's side:
the answer comes, is an event everybody sees, follows the offer rules, and never carries the
value. The judgement itself is tested on real positions in tests/ai/test_draws_pressure.py.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from conftest import auth, new_match
from fastapi.testclient import TestClient

import sengoku.ai.draws as ai_draws
from tests.waiting import ok, wait_until

#: A value the judgement returns that no answer may carry (an odd number, easy to look for).
LOSING = 0.1234567
WINNING = 0.8765432


def events(client: TestClient, mid: str, token: str) -> list[dict[str, Any]]:
    body = ok(client.get(f"/api/matches/{mid}/events?after=0", headers=auth(token)))
    return [e["event"] for e in body["events"]]


def judged(monkeypatch: pytest.MonkeyPatch, value: float) -> list[int]:
    """Make every AI judgement ``value``; returns the seats judged, as they are."""
    seats: list[int] = []

    def fake(agent: object, state: object, seat: int) -> float:
        seats.append(seat)
        return value

    monkeypatch.setattr(ai_draws, "expected_result", fake)
    return seats


def ai_match(client: TestClient, game: str = "gungi") -> tuple[str, str]:
    m = new_match(client, game=game, seats=[{"kind": "local"}, {"kind": "ai", "level": 1}])
    return m["id"], m["tokens"]["0"]


def test_the_computer_accepts_a_draw_when_its_judgement_says_it_is_losing(
    make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    seats = judged(monkeypatch, LOSING)
    with make_client() as client:
        mid, t0 = ai_match(client, "gunshi")  # Gunshi too: every one of the four games
        assert ok(client.get(f"/api/matches/{mid}/table"))["draw"]["allowed"] is True
        r = ok(client.post(f"/api/matches/{mid}/draw", headers=auth(t0)))
        assert r["table"]["draw"]["offered_by"] == [0]
        done = wait_until(
            lambda: (m := ok(client.get(f"/api/matches/{mid}")))["status"] == "finished" and m,
            "the computer's answer to the draw offer",
        )
        assert done["result"]["reason"] == "agreement" and done["result"]["winners"] == []
        assert seats == [1]  # the AI seat judged the position from its own seat
        evs = events(client, mid, t0)
        agreed = [e for e in evs if e["type"] == "draw_agreed"]
        assert len(agreed) == 1 and agreed[0]["seat"] == 1
        # The answer carries no value: neither the events nor the snapshot hold it.
        text = json.dumps(evs) + json.dumps(done)
        assert str(LOSING)[:6] not in text


def test_the_computer_declines_a_draw_when_winning_and_the_offer_rules_hold(
    make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    judged(monkeypatch, WINNING)
    with make_client() as client:
        mid, t0 = ai_match(client)
        ok(client.post(f"/api/matches/{mid}/draw", headers=auth(t0)))
        declined = wait_until(
            lambda: [e for e in events(client, mid, t0) if e["type"] == "draw_declined"],
            "the computer's decline",
        )
        assert declined[0]["seat"] == 1 and declined[0]["offered_by"] == [0]
        assert declined[0]["message"] == "the computer declines the draw"
        assert str(WINNING)[:6] not in json.dumps(events(client, mid, t0))
        m = ok(client.get(f"/api/matches/{mid}"))
        assert m["status"] == "active"
        assert ok(client.get(f"/api/matches/{mid}/table"))["draw"]["offered_by"] == []
        # Declined: the offerer waits 20 plies, as after a human's decline.
        r = client.post(f"/api/matches/{mid}/draw", headers=auth(t0))
        assert r.status_code == 409, r.text
        assert r.json()["error"]["code"] == "offer_too_soon"


def test_an_answer_to_an_offer_that_lapsed_is_dropped(
    make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The AI's answer is for the offer standing when it was asked: a move first makes it
    lapse, and the late answer stores nothing (no agreement after the move)."""
    from sengoku.server.draws import Draws

    judged(monkeypatch, LOSING)
    stored: list[str] = []
    original = Draws.answer_for_ai

    async def late(self: Draws, live: Any, ply: int, offered: list[int], answers: str) -> None:
        # As if a move came before the answer is stored (an action event): the offer lapses.
        live.events.append({"n": 10**6, "ply": live.ply, "event": {"action": "moved"}})
        try:
            await original(self, live, ply, offered, answers)
        finally:
            live.events.pop()
        stored.append(answers)

    monkeypatch.setattr(Draws, "answer_for_ai", late)
    with make_client() as client:
        mid, t0 = ai_match(client)
        ok(client.post(f"/api/matches/{mid}/draw", headers=auth(t0)))
        wait_until(lambda: stored, "the computer's (late) answer")
        assert stored == ["a"]  # it would have accepted
        assert ok(client.get(f"/api/matches/{mid}"))["status"] == "active"
        assert not [e for e in events(client, mid, t0) if e["type"] == "draw_agreed"]


def test_with_several_seats_one_ai_decline_declines_and_all_must_agree(
    make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Gunkimono with three players: a draw needs every seat. One AI seat judging itself
    ahead declines for all; an AI that accepts leaves the offer standing for the humans."""
    values = {1: LOSING, 2: WINNING}

    def fake(agent: object, state: object, seat: int) -> float:
        return values[seat]

    monkeypatch.setattr(ai_draws, "expected_result", fake)
    with make_client() as client:
        m = new_match(
            client,
            game="gunkimono",
            options={"players": 3},
            seats=[{"kind": "local"}, {"kind": "ai", "level": 1}, {"kind": "ai", "level": 1}],
        )
        mid, t0 = m["id"], m["tokens"]["0"]
        ok(client.post(f"/api/matches/{mid}/draw", headers=auth(t0)))
        declined = wait_until(
            lambda: [e for e in events(client, mid, t0) if e["type"] == "draw_declined"],
            "the decline of the AI seat that judges itself ahead",
        )
        assert declined[0]["seat"] == 2 and declined[0]["offered_by"] == [0]
        assert ok(client.get(f"/api/matches/{mid}"))["status"] == "active"

        values[2] = LOSING
        m = new_match(
            client,
            game="gunkimono",
            options={"players": 3},
            seats=[{"kind": "local"}, {"kind": "local"}, {"kind": "ai", "level": 1}],
        )
        mid, t0, t1 = m["id"], m["tokens"]["0"], m["tokens"]["1"]
        ok(client.post(f"/api/matches/{mid}/draw", headers=auth(t0)))
        wait_until(
            lambda: ok(client.get(f"/api/matches/{mid}/table"))["draw"]["offered_by"] == [0, 2],
            "the AI seat's acceptance, standing beside the offer",
        )
        assert ok(client.get(f"/api/matches/{mid}"))["status"] == "active"
        r = ok(client.post(f"/api/matches/{mid}/draw", headers=auth(t1)))
        assert r["status"] == "finished" and r["result"]["reason"] == "agreement"
