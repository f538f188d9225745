"""Chat at the table (issue 17): players' and spectators' channels, mute, limits, storage."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from conftest import action_id, auth, new_match
from fastapi.testclient import TestClient
from test_server_websocket import hello, receive_until

from sengoku.server import chat as chat_module


def texts(body: dict[str, Any]) -> list[tuple[str, str]]:
    return [(m["channel"], m["text"]) for m in body["messages"]]


def test_players_and_spectators_write_apart_and_everybody_reads_the_players(
    make_client: Callable[..., TestClient],
) -> None:
    with make_client() as client:
        m = new_match(client, seats=[{"kind": "local", "name": "Ann"}, {"kind": "local"}])
        mid, t0, t1 = m["id"], m["tokens"]["0"], m["tokens"]["1"]
        r = client.post(f"/api/matches/{mid}/chat", json={"text": "good luck"}, headers=auth(t0))
        assert r.status_code == 201, r.text
        mine = r.json()
        # The player's name is the seat's: nobody writes in another seat's name.
        assert mine == {
            "n": 1,
            "channel": "players",
            "role": "player",
            "seat": 0,
            "name": "Ann",
            "text": "good luck",
            "at": mine["at"],
        }
        r = client.post(
            f"/api/matches/{mid}/chat", json={"text": "nice opening", "name": "Kibitzer"}
        )
        assert r.status_code == 201 and r.json()["channel"] == "spectators"
        assert r.json()["seat"] is None and r.json()["name"] == "Kibitzer"
        assert r.json()["role"] == "spectator"
        both = [("players", "good luck"), ("spectators", "nice opening")]
        assert texts(client.get(f"/api/matches/{mid}/chat").json()) == both
        assert texts(client.get(f"/api/matches/{mid}/chat", headers=auth(t1)).json()) == both
        # A spectator who claims to be a player is refused (test below); one who says so in
        # the text is still in the spectators' channel, marked as a spectator.
        r = client.post(f"/api/matches/{mid}/chat", json={"text": "I am Ann", "name": "Bo"})
        assert r.json()["channel"] == "spectators" and r.json()["role"] == "spectator"


def test_a_player_mutes_the_spectators_for_their_own_seat_only(
    make_client: Callable[..., TestClient],
) -> None:
    with make_client() as client:
        m = new_match(client)
        mid, t0, t1 = m["id"], m["tokens"]["0"], m["tokens"]["1"]
        client.post(f"/api/matches/{mid}/chat", json={"text": "before"})
        # Spectators cannot mute anyone.
        assert client.post(f"/api/matches/{mid}/chat/mute").status_code == 401
        r = client.post(f"/api/matches/{mid}/chat/mute", json={"muted": True}, headers=auth(t0))
        assert r.status_code == 200 and r.json()["muted"] is True
        assert r.json()["messages"] == []
        with (
            client.websocket_connect(f"/ws/matches/{mid}") as w0,
            client.websocket_connect(f"/ws/matches/{mid}") as w1,
            client.websocket_connect(f"/ws/matches/{mid}") as spec,
        ):
            hello(w0, t0)
            hello(w1, t1)
            hello(spec)
            spec.send_json({"type": "chat", "text": "psst, take 2", "id": "c1"})
            assert receive_until(spec, "ack")[-1]["id"] == "c1"
            got1 = receive_until(w1, "chat")[-1]["message"]
            assert (got1["channel"], got1["text"]) == ("spectators", "psst, take 2")
            # The muted seat gets nothing: the next thing it hears is a player's message.
            w1.send_json({"type": "chat", "text": "hello"})
            got0 = receive_until(w0, "chat")[-1]["message"]
            assert (got0["channel"], got0["text"]) == ("players", "hello")
        assert texts(client.get(f"/api/matches/{mid}/chat", headers=auth(t0)).json()) == [
            ("players", "hello")
        ]
        assert len(client.get(f"/api/matches/{mid}/chat", headers=auth(t1)).json()["messages"]) == 3
        # The mute is stored with the match: a restarted server keeps it; unmuting works.
    with make_client() as client:
        body = client.get(f"/api/matches/{mid}/chat", headers=auth(t0)).json()
        assert body["muted"] is True and texts(body) == [("players", "hello")]
        r = client.post(f"/api/matches/{mid}/chat/mute", json={"muted": False}, headers=auth(t0))
        assert r.json()["muted"] is False and len(r.json()["messages"]) == 3


def test_text_is_capped_and_cleaned_but_never_rewritten_as_markup(
    make_client: Callable[..., TestClient],
) -> None:
    with make_client() as client:
        mid = new_match(client)["id"]
        url = f"/api/matches/{mid}/chat"
        too_long = client.post(url, json={"text": "x" * (chat_module.MAX_TEXT + 1)})
        assert too_long.status_code == 422
        assert too_long.json()["error"]["code"] == "message_too_long"
        assert client.post(url, json={"text": " \n\t "}).json()["error"]["code"] == "empty_message"
        # Control and format characters (a bidi override, a zero-width space) are dropped,
        # new lines become spaces; markup stays text for the client to show as text.
        r = client.post(url, json={"text": "<b>hi</b>\u202e\u200b\nthere\x07"})
        assert r.json()["text"] == "<b>hi</b> there"
        assert client.post(url, json={"text": "x" * chat_module.MAX_TEXT}).status_code == 201


def test_writers_are_rate_limited_and_a_match_holds_a_bounded_chat(
    make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    with make_client() as client:
        m = new_match(client)
        mid, t0, t1 = m["id"], m["tokens"]["0"], m["tokens"]["1"]
        url = f"/api/matches/{mid}/chat"
        codes = [
            client.post(url, json={"text": f"m{i}"}, headers=auth(t0)).status_code for i in range(7)
        ]
        assert codes == [201] * chat_module.BURST + [429, 429]
        refused = client.post(url, json={"text": "again"}, headers=auth(t0)).json()
        assert refused["error"]["code"] == "chat_rate_limited"
        # Another seat has its own budget.
        assert client.post(url, json={"text": "me"}, headers=auth(t1)).status_code == 201
        monkeypatch.setattr(chat_module, "MAX_MESSAGES", 6)
        r = client.post(url, json={"text": "one too many"}, headers=auth(t1))
        assert r.status_code == 409 and r.json()["error"]["code"] == "chat_full"
        assert "players chat" in r.json()["error"]["message"]


def test_spectators_never_fill_the_players_chat(
    make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Spectators, who may come from many addresses, once filled a match's one bounded chat
    and so silenced its players: each channel now has its own bound."""
    monkeypatch.setattr(chat_module, "MAX_MESSAGES", 3)
    with make_client() as client:
        m = new_match(client)
        mid, t0 = m["id"], m["tokens"]["0"]
        url = f"/api/matches/{mid}/chat"
        codes = [client.post(url, json={"text": f"s{i}"}).status_code for i in range(4)]
        assert codes == [201, 201, 201, 409]
        r = client.post(url, json={"text": "gg"}, headers=auth(t0))
        assert r.status_code == 201, r.text
        texts = [x["text"] for x in client.get(url, headers=auth(t0)).json()["messages"]]
        assert texts == ["s0", "s1", "s2", "gg"]


def test_a_spectator_cannot_write_under_a_players_name(
    make_client: Callable[..., TestClient],
) -> None:
    with make_client() as client:
        m = new_match(client, seats=[{"kind": "local", "name": "Hana"}, {"kind": "local"}])
        url = f"/api/matches/{m['id']}/chat"
        imitations = [
            "Hana",
            "HANA",
            "h.a n-a",  # punctuation and spaces left out
            "\uff28\uff41\uff4e\uff41",  # full-width letters: NFKC makes them "Hana"
            "player 2",  # seat 1's default name
            "PLAYER-1",
            "Alice (seat 0)",
            "Bob (Seat 1)",
            "\uff53\uff45\uff41\uff54 1",  # full-width "seat"
        ]
        for name in imitations:
            r = client.post(url, json={"text": "resign now", "name": name})
            assert r.status_code == 422, (name, r.text)
            error = r.json()["error"]
            assert error["code"] == "name_not_allowed" and "'name'" in error["message"], error
        # nothing was stored
        assert client.get(url).json()["messages"] == []
        r = client.post(url, json={"text": "hi", "name": "Kenji"})
        assert r.status_code == 201 and r.json()["name"] == "Kenji", r.text
        assert r.json()["role"] == "spectator" and r.json()["seat"] is None


def test_zalgo_text_is_refused_in_names_and_messages(
    make_client: Callable[..., TestClient],
) -> None:
    zalgo = "he\u0301\u0302\u0303llo"  # three combining marks on one letter
    fine = "Vie\u0302\u0323t"  # two on one letter: Vietnamese needs that much
    with make_client() as client:
        m = new_match(client)
        mid, t0 = m["id"], m["tokens"]["0"]
        url = f"/api/matches/{mid}/chat"
        for body, headers, field in [
            ({"text": zalgo}, auth(t0), "text"),
            ({"text": zalgo}, {}, "text"),
            ({"text": "hi", "name": zalgo}, {}, "name"),
        ]:
            r = client.post(url, json=body, headers=headers)
            assert r.status_code == 422, r.text
            error = r.json()["error"]
            assert error["code"] == "too_many_marks" and f"'{field}'" in error["message"], error
        assert client.get(url).json()["messages"] == []
        r = client.post(url, json={"text": fine, "name": fine})
        assert r.status_code == 201 and r.json()["text"] == fine, r.text
        # a seat's name too, at creation and on joining
        r = client.post(
            "/api/matches",
            json={"game": "secretnim", "seats": [{"kind": "local", "name": zalgo}, {}]},
        )
        assert r.status_code == 422 and r.json()["error"]["code"] == "too_many_marks", r.text
        assert "seats[0].name" in r.json()["error"]["message"]
        inv = new_match(client, seats=[{"kind": "local"}, {"kind": "invite"}])
        r = client.post(
            f"/api/matches/{inv['id']}/join",
            json={"invite": inv["invites"][0]["invite"], "name": zalgo},
        )
        assert r.status_code == 422 and r.json()["error"]["code"] == "too_many_marks", r.text
        snap = client.get(f"/api/matches/{inv['id']}").json()
        assert snap["seats"][1]["joined"] is False


def test_chat_is_stored_apart_from_the_game_and_carries_nothing_of_it(
    make_client: Callable[..., TestClient],
) -> None:
    with make_client() as client:
        m = new_match(client, options={"pile": 9})
        mid, t0 = m["id"], m["tokens"]["0"]
        before = client.get(f"/api/matches/{mid}/events", headers=auth(t0)).json()
        client.post(f"/api/matches/{mid}/chat", json={"text": "hi"}, headers=auth(t0))
        r = client.post(
            f"/api/matches/{mid}/actions",
            json={"action": "take 1", "id": action_id()},
            headers=auth(t0),
        )
        assert r.status_code == 200, r.text
        after = client.get(f"/api/matches/{mid}/events", headers=auth(t0)).json()
        # Not a game event: the numbered events and the move count are the game's alone.
        assert all(e["event"]["type"] != "chat" for e in after["events"])
        assert after["last_event"] > before["last_event"]
        spectator = client.get(f"/api/matches/{mid}/chat").json()
        keys = {"n", "channel", "role", "seat", "name", "text", "at"}
        assert set(spectator["messages"][0]) == keys
        # Only what its writer typed, the seat and a name: nothing of the position.
        assert spectator["messages"][0]["text"] == "hi"
    with make_client() as client:  # stored with the match: a restart keeps it
        assert texts(client.get(f"/api/matches/{mid}/chat").json()) == [("players", "hi")]
        assert client.get("/api/matches/nope/chat").status_code == 404


def test_websocket_chat_reaches_spectators_and_refusals_come_back(
    make_client: Callable[..., TestClient],
) -> None:
    with make_client() as client:
        m = new_match(client)
        mid, t0 = m["id"], m["tokens"]["0"]
        with (
            client.websocket_connect(f"/ws/matches/{mid}") as w0,
            client.websocket_connect(f"/ws/matches/{mid}") as spec,
        ):
            hello(w0, t0)
            hello(spec)
            w0.send_json({"type": "chat", "text": "gg", "id": "x"})
            seen = receive_until(spec, "chat")[-1]["message"]
            assert (seen["channel"], seen["seat"], seen["text"]) == ("players", 0, "gg")
            w0.send_json({"type": "chat", "text": 5, "id": "bad"})
            refused = receive_until(w0, "refused")[-1]
            assert refused["code"] == "bad_message" and refused["id"] == "bad"
