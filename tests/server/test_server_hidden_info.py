"""Hidden information never reaches a seat that may not see it, in any game.

A property test plays random games of every registered game through the HTTP API and checks
each seat's responses against a reference engine replaying the same seed and actions: the
view is exactly ``view(seat)``, legal actions go only to the seat to act, and the events are
exactly the engine's events whose audience includes the seat. For the test game, whose
secrets are recognisable strings, it also looks for the other seat's secret everywhere:
responses, events, WebSocket messages and the server's log.
"""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Callable
from typing import Any

import pytest
from conftest import action_id, auth, new_match
from fastapi.testclient import TestClient

from sengoku.core.registry import list_games, load_game
from tests.waiting import ok, wait_until

SERVER_EVENTS = {
    "match_created",
    "match_started",
    "player_joined",
    "takeback",
    "takeback_offered",
    "takeback_declined",
    "rematch",
    "rematch_offered",
    "aborted",
    "closed",
    "imported",
}


def loadable_games() -> list[str]:
    names = []
    for name in list_games():
        try:
            load_game(name)
        except Exception:  # a game still being written is not the server's concern
            continue
        names.append(name)
    return names


def jsonish(value: Any) -> Any:
    return json.loads(json.dumps(value))


def without_description(ev: dict[str, Any], perfect: bool) -> dict[str, Any]:
    """The engine's event as the server stored it, less the played move's description that
    the server adds in games of perfect information only (never in the others)."""
    if not perfect:
        assert "described" not in ev, ev
        return ev
    return {k: v for k, v in ev.items() if k != "described"}


def check_game(
    client: TestClient, name: str, options: dict[str, Any], max_plies: int, seed: int
) -> None:
    game = load_game(name)
    rng = random.Random(seed)
    ref = game.new_state(seed, **options)
    perfect = game.traits(**game.resolve_options(**options)).perfect_information
    n = ref.num_players
    m = new_match(client, game=name, seats=[{"kind": "local"}] * n, seed=seed, options=options)
    mid = m["id"]
    tokens = [m["tokens"][str(s)] for s in range(n)]
    seen_events: list[list[Any]] = [[] for _ in range(n + 1)]
    #: What each seat (and a spectator) was shown at each ply, checked against the engine.
    shown: list[dict[int | None, Any]] = []
    #: Who played each action, and its notation.
    played: list[tuple[int, str]] = []
    for _ply in range(max_plies):
        shown.append({})
        for s in [*range(n), None]:
            headers = auth(tokens[s]) if s is not None else {}
            snap = client.get(f"/api/matches/{mid}?short=false", headers=headers).json()
            assert snap["view"] == jsonish(ref.view(s)), (name, s)
            shown[-1][s] = snap["view"]
            if s is not None and s == ref.current_player:
                assert [a["action"] for a in snap["legal"]] == [str(a) for a in ref.legal_actions()]
            else:
                assert snap["legal"] == []
            for other in range(n):
                if other != s:
                    assert tokens[other] not in json.dumps(snap)
            got = client.get(f"/api/matches/{mid}/events", headers=headers).json()
            engine = [
                without_description(e["event"], perfect)
                for e in got["events"]
                if e["event"]["type"] not in SERVER_EVENTS
            ]
            for e in got["events"]:
                aud = e["event"]["audience"]
                assert aud is None or (s is not None and s in aud), (name, s, e)
            key = n if s is None else s
            assert engine == seen_events[key], (name, s)
        if ref.is_terminal():
            break
        seat = ref.current_player
        action = rng.choice(ref.legal_actions())
        played.append((seat, str(action)))
        r = client.post(
            f"/api/matches/{mid}/actions",
            json={"action": str(action), "ply": _ply},
            headers=auth(tokens[seat]),
        )
        assert r.status_code == 200, (name, r.text)
        for ev in ref.apply(action):
            for s in [*range(n), None]:
                if ev["audience"] is None or (s is not None and s in ev["audience"]):
                    seen_events[n if s is None else s].append(jsonish(ev))
    # Browsing back during the game: an earlier position is shown to each seat exactly as it
    # was shown then (the engine's view of that seat), never more.
    for k in sorted({0, len(shown) // 2, len(shown) - 1}):
        for s in [*range(n), None]:
            headers = auth(tokens[s]) if s is not None else {}
            back = client.get(f"/api/matches/{mid}/position?ply={k}", headers=headers)
            assert back.status_code == 200, back.text
            assert back.json()["view"] == shown[k][s], (name, s, k)
    # ... and each action's notation only to its mover, unless the game hides nothing (a
    # Gunshi Shogun, a card sent face down or a hand's order is in the notation).
    for k in range(1, len(played) + 1):
        mover, notation = played[k - 1]
        for s in [*range(n), None]:
            headers = auth(tokens[s]) if s is not None else {}
            back = client.get(f"/api/matches/{mid}/position?ply={k}", headers=headers).json()
            assert back["action"] == (notation if perfect or s == mover else None), (name, s, k)
    past = client.get(f"/api/matches/{mid}/position?ply={len(shown) + 5}")
    assert past.status_code == 422 and past.json()["error"]["code"] == "bad_ply"
    if not ref.is_terminal():
        loser = rng.randrange(n)
        r = client.post(f"/api/matches/{mid}/resign", headers=auth(tokens[loser]))
        assert r.status_code == 200, r.text
        if n >= 3:
            # The zombie rule: in a game of three or more the computer takes the seat of a
            # player who resigns, and the others play on (docs/api.md).
            assert r.json()["result"] is None
            assert r.json()["seats"][loser]["kind"] == "ai"
            assert [e["seat"] for e in r.json()["left"]] == [loser]
        else:
            ref.concede(loser, "resignation")
            assert r.json()["result"] == ref.outcome().to_json()  # type: ignore[union-attr]


@pytest.mark.parametrize("name", loadable_games() + ["secretnim"])
def test_random_games_through_the_api_leak_nothing(
    make_client: Callable[..., TestClient], name: str
) -> None:
    if name == "secretnim":
        with make_client(http_burst=1e9) as client:
            for options in ({"pile": 9}, {"pile": 6, "peek": True}):
                check_secret_nim(client, options)
        return
    with make_client(http_burst=1e9) as client:
        # every preset the game benchmarks (its modes, variants and player counts)
        for i, options in enumerate(load_game(name).game_type.bench_presets):
            check_game(client, name, dict(options), max_plies=20, seed=100 + i)


def check_secret_nim(client: TestClient, options: dict[str, Any]) -> None:
    for seed in range(6):
        ref = load_game("secretnim").new_state(seed, **options)
        m = new_match(client, options=options, seed=seed)
        mid, tokens = m["id"], [m["tokens"]["0"], m["tokens"]["1"]]
        rng = random.Random(seed)
        while not ref.is_terminal():
            seat = ref.current_player
            action = rng.choice(ref.legal_actions())
            r = client.post(
                f"/api/matches/{mid}/actions",
                json={"action": str(action), "id": action_id()},
                headers=auth(tokens[seat]),
            )
            assert r.status_code == 200
            ref.apply(action)
            for s in (0, 1):
                snap = client.get(f"/api/matches/{mid}", headers=auth(tokens[s])).json()
                evs = client.get(f"/api/matches/{mid}/events", headers=auth(tokens[s])).json()
                other = ref.secrets[1 - s]  # type: ignore[attr-defined]
                if not ref.revealed[1 - s]:  # type: ignore[attr-defined]
                    assert other not in json.dumps(snap) and other not in json.dumps(evs)
            spec = client.get(f"/api/matches/{mid}").json()
            for s in (0, 1):
                if not ref.revealed[s]:  # type: ignore[attr-defined]
                    assert ref.secrets[s] not in json.dumps(spec)  # type: ignore[attr-defined]


def test_no_secret_or_token_in_the_log(
    make_client: Callable[..., TestClient], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    with make_client() as client:
        m = new_match(client, seats=[{"kind": "local"}, {"kind": "ai"}], options={"pile": 8})
        mid, t0 = m["id"], m["tokens"]["0"]
        secret = m["match"]["view"]["my_secret"]
        with client.websocket_connect(f"/ws/matches/{mid}") as ws:
            ws.send_json({"type": "hello", "token": t0})
            while ws.receive_json()["type"] != "state":
                pass

            def my_turn_or_the_end() -> dict[str, Any] | None:
                snap = ok(client.get(f"/api/matches/{mid}", headers=auth(t0)))
                return snap if snap["status"] != "active" or snap["to_act"] == 0 else None

            while (snap := wait_until(my_turn_or_the_end, "seat 0's turn"))["status"] == "active":
                r = client.post(
                    f"/api/matches/{mid}/actions",
                    json={"action": "take 1", "ply": snap["ply"]},
                    headers=auth(t0),
                )
                ok(r)
        client.post("/api/matches", json={"game": "secretnim", "seats": [{"kind": "x"}]})
    text = caplog.text + "\n".join(str(r.args) for r in caplog.records)
    assert "played ply" in text  # the server does log the play
    assert t0 not in text and secret not in text
    assert "take 1" not in text  # not even the actions: some games' actions are secret
