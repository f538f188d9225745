"""Players who leave a game of three or more (issue #37, Board Game Arena's "zombie" rule):
the computer takes the seat of a player who resigns, runs out of time or is gone past the
abandonment time, and the others finish the game; the player may come back, with the seat's
token or from the account that owns the seat. Two-player games are unchanged."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from conftest import FakeTime, auth, new_match
from fastapi.testclient import TestClient

from sengoku.server import ai as ai_mod
from sengoku.server.clocks import Clocks, ClockSpec

ORIGIN = "http://testserver"
#: Argon2 at a test's cost, as in test_accounts.py.
CHEAP = {"argon2_time_cost": 1, "argon2_memory_kib": 1024, "argon2_parallelism": 1}
#: Nothing here is about rate limits: one test client plays five seats.
FAST = {"http_burst": 1e9, "action_burst": 1e9, **CHEAP}
#: The safety net of every wait (the waits themselves wait for a condition).
PATIENCE = 300.0


def ok(r: Any, status: int = 200) -> Any:
    assert r.status_code == status, r.text
    return r.json()


def look(client: TestClient, mid: str, token: str | None = None) -> Any:
    headers = auth(token) if token else {}
    return ok(client.get(f"/api/matches/{mid}?short=false", headers=headers))


def csrf(client: TestClient) -> dict[str, str]:
    if "sengoku_csrf" not in client.cookies:
        ok(client.get("/api/account/me"))
    return {"Origin": ORIGIN, "X-CSRF-Token": client.cookies["sengoku_csrf"]}


def five_players(client: TestClient, **extra: Any) -> dict[str, Any]:
    return new_match(
        client,
        game="gunkimono",
        options={"players": 5},
        seats=[{"kind": "local", "name": n} for n in ("Ann", "Ben", "Cho", "Dai", "Eri")],
        **extra,
    )


def drive(
    client: TestClient,
    mid: str,
    tokens: dict[int, str],
    until: Callable[[dict[str, Any]], bool],
    played: dict[int, int],
) -> dict[str, Any]:
    """Play on until ``until(snapshot)``: a human seat to act plays its first legal action
    through the API (its token from ``tokens``); an AI seat is left to the server's AI,
    which this waits for."""
    deadline = time.monotonic() + PATIENCE
    while True:
        snap = look(client, mid)
        if until(snap):
            return snap
        assert snap["status"] == "active", snap["status"]
        seat = snap["to_act"]
        if snap["seats"][seat]["kind"] == "human":
            mine = look(client, mid, tokens[seat])
            r = client.post(
                f"/api/matches/{mid}/actions",
                json={"action": mine["legal"][0]["action"], "ply": mine["ply"]},
                headers=auth(tokens[seat]),
            )
            ok(r)
            played[seat] = played.get(seat, 0) + 1
        else:
            time.sleep(0.005)  # the AI thinks in its worker thread; look again
        assert time.monotonic() < deadline, f"stuck at ply {snap['ply']}"


def test_five_players_three_leave_the_computer_plays_on_and_one_comes_back(
    make_client: Callable[..., TestClient], fake_time: FakeTime
) -> None:
    clock = {"type": "fischer", "initial": 300, "increment": 0}
    played: dict[int, int] = {}
    with make_client(claim_after=60.0, return_time=45.0, **FAST) as client:
        m = five_players(client, clock=clock, replacement_level=1)
        mid, tokens = m["id"], {int(k): v for k, v in m["tokens"].items()}
        assert m["match"]["replacement_level"] == 1 and m["match"]["left"] == []
        assert m["match"]["to_act"] == 0

        # 1. Ann (seat 0, to act) resigns: the computer takes her seat, the game goes on.
        snap = ok(client.post(f"/api/matches/{mid}/resign", headers=auth(tokens[0])))
        assert snap["status"] == "active" and snap["result"] is None
        assert snap["seats"][0]["kind"] == "ai" and snap["seats"][0]["level"] == 1
        assert snap["left"] == [
            {"seat": 0, "reason": "resignation", "ply": 0, "level": 1, "returned": None}
        ]
        # the computer plays without a clock: seat 0's is held, none runs while it thinks
        assert snap["clocks"]["held"] == [0] and snap["clocks"]["remaining"][0] == 300
        # her token now acts for nothing but a return
        r = client.post(f"/api/matches/{mid}/resign", headers=auth(tokens[0]))
        assert r.status_code == 409 and r.json()["error"]["code"] == "seat_left", r.text
        snap = drive(client, mid, tokens, lambda s: s["to_act"] == 1, played)
        assert snap["ply"] > 0 and 0 not in played  # the AI played seat 0's turn

        # 2. Ben (seat 1) runs out of time: the flag falls, the computer takes his seat.
        assert snap["clocks"]["running"] == 1
        fake_time.advance(301)
        snap = look(client, mid)
        assert snap["status"] == "active"
        assert snap["seats"][1]["kind"] == "ai"
        assert snap["left"][1] == {
            "seat": 1,
            "reason": "timeout",
            "ply": snap["ply"],
            "level": 1,
            "returned": None,
        }
        assert snap["clocks"]["remaining"][1] == 0 and snap["clocks"]["held"] == [0, 1]
        snap = drive(client, mid, tokens, lambda s: s["to_act"] == 2, played)

        # 3. Cho (seat 2) is gone: after claim_after, Dai's claim hands her seat to the AI.
        look(client, mid, tokens[2])  # seen now
        fake_time.advance(30)
        r = client.post(f"/api/matches/{mid}/claim", headers=auth(tokens[3]))
        assert r.status_code == 409 and r.json()["error"]["code"] == "too_soon", r.text
        fake_time.advance(31)
        snap = ok(client.post(f"/api/matches/{mid}/claim", headers=auth(tokens[3])))
        assert snap["status"] == "active" and snap["seats"][2]["kind"] == "ai"
        left_at = snap["ply"]
        assert snap["left"][2]["reason"] == "abandoned" and snap["left"][2]["ply"] == left_at
        assert snap["clocks"]["held"] == [0, 1, 2]
        assert snap["clocks"]["remaining"][2] == pytest.approx(300 - 61)

    # A restart keeps who left, the held clocks, and the AI picks the seats up again.
    with make_client(claim_after=60.0, return_time=45.0, **FAST) as client:
        snap = look(client, mid)
        assert [s["kind"] for s in snap["seats"]] == ["ai", "ai", "ai", "human", "human"]
        assert [e["seat"] for e in snap["left"]] == [0, 1, 2]
        assert snap["clocks"]["held"] == [0, 1, 2]
        snap = drive(client, mid, tokens, lambda s: s["ply"] >= left_at + 12, played)

        # 4. Ben comes back from his account (no token at hand): a new token, his clock
        # as it stood (it had run out: return_time), and he plays again.
        r = client.post(
            "/api/account/signup",
            json={"name": "Ben", "password": "correct horse"},
            headers=csrf(client),
        )
        ok(r, 201)
        claimed = ok(
            client.post("/api/account/claim", json={"tokens": [tokens[1]]}, headers=csrf(client))
        )
        assert claimed["claimed"] == [{"match_id": mid, "seat": 1}]
        # without the CSRF headers a signed-in return is refused, and changes nothing
        r = client.post(f"/api/matches/{mid}/return")
        assert r.status_code == 403 and r.json()["error"]["code"] in {"csrf", "cross_origin"}
        assert look(client, mid)["seats"][1]["kind"] == "ai"
        back = ok(client.post(f"/api/matches/{mid}/return", headers=csrf(client)))
        assert back["seat"] == 1 and back["token"] != tokens[1]
        snap = back["match"]
        assert snap["you"] == 1 and snap["seats"][1]["kind"] == "human"
        returned_at = snap["ply"]
        assert snap["left"][1]["returned"] == returned_at
        assert snap["clocks"]["remaining"][1] == 45.0 and snap["clocks"]["held"] == [0, 2]
        # the old token no longer acts for the seat; the new one does
        r = client.get(f"/api/matches/{mid}", headers=auth(tokens[1]))
        assert r.status_code == 401, r.text
        tokens[1] = back["token"]
        client.cookies.clear()  # the rest is played with seat tokens only
        r = client.post(f"/api/matches/{mid}/return", headers=auth(tokens[1]))
        assert r.status_code == 409 and r.json()["error"]["code"] == "not_replaced", r.text

        before = dict(played)
        snap = drive(client, mid, tokens, lambda s: s["status"] != "active", played)
        assert played.get(1, 0) > before.get(1, 0)  # Ben played again after his return

        # The end is the game's own (the computer played three seats to it), and the
        # match says who left, why, from which ply, and who came back.
        assert snap["status"] == "finished", snap["close_reason"]
        assert snap["result"]["reason"] == "end_of_game"
        assert len(snap["result"]["scores"]) == 5
        assert snap["left"] == [
            {"seat": 0, "reason": "resignation", "ply": 0, "level": 1, "returned": None},
            {
                "seat": 1,
                "reason": "timeout",
                "ply": snap["left"][1]["ply"],
                "level": 1,
                "returned": returned_at,
            },
            {"seat": 2, "reason": "abandoned", "ply": left_at, "level": 1, "returned": None},
        ]
        # the humans made only some of the decisions: the AI made the rest
        assert sum(played.values()) < snap["ply"]
        assert 0 not in played and 2 not in played
        record = ok(client.get(f"/api/records/{mid}"))
        assert record["left"] == snap["left"] and record["result"] == snap["result"]
        assert record["concessions"] == []  # nobody conceded: the game went on
        kinds = [
            e["event"]["type"]
            for e in ok(client.get(f"/api/matches/{mid}/events"))["events"]
            if e["event"]["type"] in {"seat_left", "seat_returned"}
        ]
        assert kinds == ["seat_left", "seat_left", "seat_left", "seat_returned"]
        # the record, with its `left`, is imported as it is (the field is set aside)
        ok(client.post("/api/records", json=record), 201)


class GatedAgent:
    """The real agent, held at a gate before it answers (to return mid-thought)."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.asked = threading.Event()
        self.answered = threading.Event()
        self.calls: list[int] = []
        self.real = ai_mod.choose_action

    def __call__(self, game: str, state_json: dict[str, Any], seat: int, *rest: Any) -> str:
        self.calls.append(seat)
        self.asked.set()
        assert self.gate.wait(60)
        try:
            return str(self.real(game, state_json, seat, *rest))
        finally:
            self.answered.set()


def test_a_return_while_the_ai_thinks_drops_its_answer(
    make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The player who comes back decides the position the AI was thinking about: its answer,
    arriving after the return, is never played."""
    agent = GatedAgent()
    monkeypatch.setattr(ai_mod, "choose_action", agent)
    with make_client(**FAST) as client:
        m = new_match(
            client,
            game="gunkimono",
            options={"players": 3},
            seats=[{"kind": "local"}, {"kind": "local"}, {"kind": "local"}],
        )
        mid, t0 = m["id"], m["tokens"]["0"]
        assert m["match"]["replacement_level"] == 2  # the default
        snap = ok(client.post(f"/api/matches/{mid}/resign", headers=auth(t0)))
        assert snap["seats"][0] == {**snap["seats"][0], "kind": "ai", "level": 2}
        assert agent.asked.wait(60)  # the AI thinks for seat 0, held at the gate
        back = ok(client.post(f"/api/matches/{mid}/return", headers=auth(t0)))
        assert "token" not in back  # with the token, the token stays
        snap = back["match"]
        assert snap["seats"][0]["kind"] == "human" and snap["ply"] == 0
        assert snap["left"] == [
            {"seat": 0, "reason": "resignation", "ply": 0, "level": 2, "returned": 0}
        ]
        agent.gate.set()
        assert agent.answered.wait(60)  # its answer came, too late
        mine = look(client, mid, t0)
        assert mine["ply"] == 0 and mine["to_act"] == 0 and mine["legal"]
        r = client.post(
            f"/api/matches/{mid}/actions",
            json={"action": mine["legal"][-1]["action"], "ply": 0},
            headers=auth(t0),
        )
        snap = ok(r)
        assert snap["ply"] == 1
        assert agent.calls == [0]  # asked once, for the position it lost
        record_actions = look(client, mid)["ply"]
        assert record_actions == 1


def test_the_last_human_leaving_ends_the_game_and_two_players_are_unchanged(
    make_client: Callable[..., TestClient], fake_time: FakeTime
) -> None:
    with make_client(**FAST) as client:
        # Two humans and the computer: the first to resign is replaced...
        m = new_match(
            client,
            game="gunkimono",
            options={"players": 3},
            seats=[{"kind": "local"}, {"kind": "local"}, {"kind": "ai"}],
            replacement_level=3,
        )
        mid, t0, t1 = m["id"], m["tokens"]["0"], m["tokens"]["1"]
        snap = ok(client.post(f"/api/matches/{mid}/resign", headers=auth(t1)))
        assert snap["status"] == "active" and snap["seats"][1]["level"] == 3, snap["seats"]
        # ... the last human's resignation ends the game as a concession, as ever
        snap = ok(client.post(f"/api/matches/{mid}/resign", headers=auth(t0)))
        assert snap["status"] == "finished"
        assert snap["result"]["reason"] == "resignation" and snap["result"]["winners"] == [1, 2]
        assert [e["seat"] for e in snap["left"]] == [1]

        # Two players: a resignation loses at once, a timeout too; no replacement level.
        r = client.post(
            "/api/matches",
            json={"game": "gunkimono", "seats": [{}, {}], "replacement_level": 2},
        )
        assert r.status_code == 422 and "replacement_level" in r.json()["error"]["message"]
        two = new_match(client, game="gunkimono", seats=[{}, {}])
        assert two["match"]["replacement_level"] is None
        snap = ok(client.post(f"/api/matches/{two['id']}/resign", headers=auth(two["tokens"]["0"])))
        assert snap["status"] == "finished" and snap["result"]["winners"] == [1]
        assert snap["left"] == []
        timed = new_match(
            client,
            game="gunkimono",
            seats=[{}, {}],
            clock={"type": "sudden_death", "initial": 10},
        )
        fake_time.advance(11)
        snap = look(client, timed["id"])
        assert snap["status"] == "finished" and snap["result"]["reason"] == "timeout"
        r = client.post(f"/api/matches/{timed['id']}/return", headers=auth(timed["tokens"]["0"]))
        assert r.status_code == 409, r.text
        # a level outside 1-5 is named
        r = client.post(
            "/api/matches",
            json={
                "game": "gunkimono",
                "options": {"players": 3},
                "seats": [{}, {}, {}],
                "replacement_level": 9,
            },
        )
        assert r.status_code == 422 and "replacement_level" in r.text


def test_the_process_that_runs_the_match_plays_the_seat_taken_on_another(
    make_client: Callable[..., TestClient],
) -> None:
    """Two server processes on one database (no pub/sub): a player resigns through the one
    that does not run the match; the one that does learns it from the database and its AI
    plays the seat."""
    shared = {"pubsub_url": "none://", "node_beat": 3600.0, **FAST}  # rounds run by hand
    with make_client(**shared) as a, make_client(**shared) as b:
        m = new_match(
            a,
            game="gunkimono",
            options={"players": 3},
            seats=[{"kind": "local"}, {"kind": "local"}, {"kind": "local"}],
        )
        mid, t0 = m["id"], m["tokens"]["0"]
        snap = ok(b.post(f"/api/matches/{mid}/resign", headers=auth(t0)))
        assert snap["seats"][0]["kind"] == "ai"
        runner = a.app.state.service
        assert runner.live[mid].seats[0].kind == "human"  # a has not heard yet
        assert a.portal is not None
        deadline = time.monotonic() + PATIENCE
        while runner.live[mid].seats[0].kind != "ai":  # its looks at the database
            a.portal.call(runner.cluster.round)
            assert time.monotonic() < deadline, "a never caught up"
            time.sleep(0.005)  # its catching up runs as a task of its own
        assert runner.live[mid].left[0]["reason"] == "resignation"
        # a runs the match's AI: it plays seat 0's turn, which b then reads from storage
        snap = wait_for_ply(a, mid, 1)
        assert snap["left"] == [
            {"seat": 0, "reason": "resignation", "ply": 0, "level": 2, "returned": None}
        ]
        assert snap["clocks"] is None


def wait_for_ply(client: TestClient, mid: str, ply: int) -> Any:
    deadline = time.monotonic() + PATIENCE
    while True:
        snap = look(client, mid)
        if snap["ply"] >= ply:
            return snap
        assert time.monotonic() < deadline, "the AI did not move"
        time.sleep(0.005)


def test_a_held_seat_earns_no_increment_and_its_clock_never_runs() -> None:
    clocks = Clocks(ClockSpec("fischer", 100.0, 5.0), 3)
    clocks.start(0, 0.0)
    clocks.hold(0, 10.0)  # seat 0 left after 10 s
    assert clocks.running is None and clocks.remaining[0] == 90.0
    clocks.decided(0, 1, 50.0)  # the computer's decision for seat 0: 40 s, not charged
    assert clocks.remaining[0] == 90.0 and clocks.running == 1
    clocks.decided(1, 0, 60.0)
    assert clocks.running is None and clocks.remaining[1] == 95.0  # seat 1 earned its 5 s
    again = Clocks.from_json(clocks.spec, clocks.to_json())  # stored and read back
    assert again.held == {0}
    again.release(0, 70.0, 0, 60.0)  # the player comes back while seat 0 is to act
    assert again.running == 0 and again.remaining[0] == 90.0 and again.held == set()
