"""Offers are not a way to spam the opponent (issue 39): one pending offer of a kind, and a
seat whose takeback or draw offer was declined (a takeback: or withdrawn) may offer that kind
again only some plies later (``OFFER_GAP``, as lichess does). A refusal stores nothing."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

from conftest import action_id, auth, new_match
from fastapi.testclient import TestClient

from sengoku.server.offers import OFFER_GAP


def _count(db_url: str, mid: str) -> int:
    with sqlite3.connect(db_url.removeprefix("sqlite:///")) as conn:
        row = conn.execute("SELECT COUNT(*) FROM events WHERE match_id = ?", (mid,)).fetchone()
        return int(row[0])


def move(client: TestClient, mid: str, tokens: list[str], action: str | None = None) -> int:
    """The seat to act plays ``action`` (else its first legal action); the new ply."""
    seat = client.get(f"/api/matches/{mid}").json()["to_act"]
    snap = client.get(f"/api/matches/{mid}", headers=auth(tokens[seat])).json()
    r = client.post(
        f"/api/matches/{mid}/actions",
        json={"action": action or snap["legal"][0]["action"], "id": action_id()},
        headers=auth(tokens[seat]),
    )
    assert r.status_code == 200, r.text
    return int(r.json()["ply"])


def refused_too_soon(r: Any, again: int) -> None:
    assert r.status_code == 409, r.text
    error = r.json()["error"]
    assert error["code"] == "offer_too_soon", error
    assert f"from ply {again}" in error["message"], error


def test_a_declined_or_withdrawn_takeback_may_be_asked_again_only_plies_later(
    make_client: Callable[..., TestClient], db_url: str
) -> None:
    gap = OFFER_GAP["takeback"]
    with make_client() as client:
        m = new_match(client, options={"pile": 60})
        mid, tokens = m["id"], [m["tokens"]["0"], m["tokens"]["1"]]
        url = f"/api/matches/{mid}/takeback"
        assert move(client, mid, tokens, "take 1") == 1
        r = client.post(url, headers=auth(tokens[0]))
        assert r.status_code == 200 and r.json()["offers"]["takeback"] == {"by": 0, "to_ply": 0}
        # one pending offer: asking again is refused
        r = client.post(url, headers=auth(tokens[0]))
        assert r.status_code == 409 and r.json()["error"]["code"] == "already_offered", r.text
        r = client.post(url, json={"accept": False}, headers=auth(tokens[1]))
        assert r.status_code == 200 and r.json()["offers"]["takeback"] is None, r.text
        # declined at ply 1: seat 0 waits until ply 1 + gap, and a refusal stores nothing
        for ply in range(1, 1 + gap):
            before = _count(db_url, mid)
            refused_too_soon(client.post(url, headers=auth(tokens[0])), 1 + gap)
            assert _count(db_url, mid) == before
            assert client.get(f"/api/matches/{mid}").json()["offers"]["takeback"] is None
            assert move(client, mid, tokens, "take 1") == ply + 1
        ply = 1 + gap
        r = client.post(url, headers=auth(tokens[0]))
        assert r.status_code == 200 and r.json()["offers"]["takeback"]["by"] == 0, r.text
        # withdrawn by the asker itself: the same wait
        r = client.post(url, json={"accept": False}, headers=auth(tokens[0]))
        assert r.status_code == 200 and r.json()["offers"]["takeback"] is None, r.text
        refused_too_soon(client.post(url, headers=auth(tokens[0])), ply + gap)
        # the other seat was never declined: it may ask at once, and it is accepted
        r = client.post(url, headers=auth(tokens[1]))
        assert r.status_code == 200 and r.json()["offers"]["takeback"]["by"] == 1, r.text
        r = client.post(url, headers=auth(tokens[0]))  # accepting is never limited
        assert r.status_code == 200 and r.json()["offers"]["takeback"] is None, r.text
        # the game went back below the ply of the withdrawal: the wait counts from that ply
        assert client.get(f"/api/matches/{mid}").json()["ply"] < ply
        refused_too_soon(client.post(url, headers=auth(tokens[0])), ply + gap)
    with make_client() as client:  # the wait is read from stored events: a restart keeps it
        refused_too_soon(client.post(url, headers=auth(tokens[0])), ply + gap)


def test_a_declined_draw_may_be_offered_again_only_twenty_plies_later(
    make_client: Callable[..., TestClient], db_url: str
) -> None:
    gap = OFFER_GAP["draw"]
    assert gap == 20  # lichess's rule
    with make_client() as client:
        m = new_match(client, game="gungi")
        mid, tokens = m["id"], [m["tokens"]["0"], m["tokens"]["1"]]
        url = f"/api/matches/{mid}/draw"
        assert client.post(url, headers=auth(tokens[0])).status_code == 200
        r = client.post(url, json={"accept": False}, headers=auth(tokens[1]))
        assert r.status_code == 200 and r.json()["table"]["draw"]["offered_by"] == []
        before = _count(db_url, mid)
        refused_too_soon(client.post(url, headers=auth(tokens[0])), gap)
        assert _count(db_url, mid) == before
        table = client.get(f"/api/matches/{mid}/table").json()
        assert table["draw"]["offered_by"] == []
        # the seat that declined was never declined: it may offer
        r = client.post(url, headers=auth(tokens[1]))
        assert r.status_code == 200 and r.json()["table"]["draw"]["offered_by"] == [1], r.text
        # a move lapses that offer (not a decline: seat 1 is not held back)
        while (ply := move(client, mid, tokens)) < gap - 1:
            pass
        refused_too_soon(client.post(url, headers=auth(tokens[0])), gap)
        r = client.post(url, headers=auth(tokens[1]))
        assert r.status_code == 200 and r.json()["table"]["draw"]["offered_by"] == [1], r.text
        assert move(client, mid, tokens) == gap
        assert ply + 1 == gap
        r = client.post(url, headers=auth(tokens[0]))
        assert r.status_code == 200 and r.json()["table"]["draw"]["offered_by"] == [0], r.text
