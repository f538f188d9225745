"""Claims on the opponent's time, and AI seats: budgets, failures, take-backs, owners."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import FakeTime, auth, new_match
from fastapi.testclient import TestClient

from sengoku.core.game import SengokuError
from sengoku.server import ai as ai_mod
from tests.waiting import ok, wait_until


def play(client: TestClient, mid: str, token: str, action: str, ply: int) -> Any:
    return client.post(
        f"/api/matches/{mid}/actions", json={"action": action, "ply": ply}, headers=auth(token)
    )


def test_claim_wins_only_on_the_opponents_time(
    make_client: Callable[..., TestClient], fake_time: FakeTime
) -> None:
    with make_client(claim_after=60.0) as client:
        m = new_match(client, options={"pile": 20})
        mid, t0 = m["id"], m["tokens"]["0"]
        # seat 1 is gone for ages, but seat 0 is to move: its own time, no claim
        fake_time.advance(600)
        r = client.post(f"/api/matches/{mid}/claim", headers=auth(t0))
        assert r.status_code == 409 and r.json()["error"]["code"] == "your_turn"
        assert client.get(f"/api/matches/{mid}").json()["status"] == "active"
        assert play(client, mid, t0, "take 1", 0).status_code == 200
        # now seat 1 is to act, and seat 1 is the one that left: the claim wins
        fake_time.advance(61)
        r = client.post(f"/api/matches/{mid}/claim", headers=auth(t0))
        assert r.status_code == 200, r.text
        assert r.json()["result"]["reason"] == "abandoned" and r.json()["result"]["winners"] == [0]
        # and the one to move never wins by claiming against a player who waits
        n = new_match(client, options={"pile": 20})
        assert play(client, n["id"], n["tokens"]["0"], "take 1", 0).status_code == 200
        fake_time.advance(600)
        r = client.post(f"/api/matches/{n['id']}/claim", headers=auth(n["tokens"]["1"]))
        assert r.status_code == 409 and r.json()["error"]["code"] == "your_turn"


# -- AI seats ------------------------------------------------------------------------------
class FakeAgents:
    """Stands in for ``choose_action`` in the worker threads: a log of the calls (by agent),
    an optional gate each call waits at, and a script of answers or failures."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.gate: threading.Event | None = None
        self.fail: int = 0
        self.delay = 0.0
        self.answers: list[str] = []
        self.slow: list[float] = []  # seconds the next calls take, in order
        self.lock = threading.Lock()
        self.finished = 0  # calls that have returned or raised

    def __call__(self, *args: Any) -> str:
        try:
            return self._think(*args)
        finally:
            with self.lock:
                self.finished += 1

    def _think(
        self,
        _game: str,
        state_json: dict[str, Any],
        _seat: int,
        agent: str,
        _seed: int,
        _max_seconds: float | None = None,
        _turn_seconds: float | None = None,
        _ceiling: float | None = None,
    ) -> str:
        with self.lock:
            self.calls.append(agent)
        if self.gate is not None:
            assert self.gate.wait(30)
        # The fake agent's thinking time: the behaviour under test, not a wait for anything.
        if self.delay:
            time.sleep(self.delay)
        with self.lock:
            slow = self.slow.pop(0) if self.slow else 0.0
        time.sleep(slow)
        with self.lock:
            if self.fail:
                self.fail -= 1
                raise RuntimeError("the agent broke")
            if self.answers:
                return self.answers.pop(0)
        return "take 1"


@pytest.fixture
def fake_agents(monkeypatch: pytest.MonkeyPatch) -> FakeAgents:
    agents = FakeAgents()
    monkeypatch.setattr(ai_mod, "choose_action", agents)
    return agents


def wait_for(client: TestClient, mid: str, cond: Callable[[dict[str, Any]], bool]) -> Any:
    def look() -> Any:
        snap = ok(client.get(f"/api/matches/{mid}"))
        return snap if cond(snap) else None

    return wait_until(look, "the AI to move")


def test_bad_or_unbounded_agent_specs_are_refused_at_creation(
    make_client: Callable[..., TestClient],
) -> None:
    with make_client(ai_max_seconds=5.0, ai_max_iterations=20_000) as client:
        for spec, words in [
            ("mcts:seconds=86400", "at most 5"),
            ("mcts:iterations=100000000", "1 to 20000"),
            ("mcts:seconds=-1", "above 0"),
            ("mcts:iterations=ten", "integer"),
            # the other budgets: a floor of iterations and a time per turn
            ("mcts:floor=999999999", "1 to 20000"),
            ("mcts:turn_seconds=86400", "at most 5"),
            ("alphabeta:floor=0", "1 to 20000"),
            ("mcts:bogus=1", "bogus"),
            ("greedy:epsilon=7", "epsilon"),
            ("level3:seconds=1", "no options"),
            ("nosuchagent", "unknown agent"),
            ("random:seed=1", "seed is not an agent option"),
            ("learned:weights=[1]", "never a path"),  # not a name (and not hashable)
            ("alphabeta:eval={}", "never a path"),
        ]:
            r = client.post(
                "/api/matches",
                json={
                    "game": "secretnim",
                    "seats": [{"kind": "local"}, {"agent": spec, "kind": "ai"}],
                },
            )
            assert r.status_code == 422, (spec, r.text)
            assert (
                r.json()["error"]["code"] == "bad_seats" and words in r.json()["error"]["message"]
            )
        assert client.get("/api/matches").json()["matches"] == []  # nothing was created
        r = client.post(
            "/api/matches",
            json={
                "game": "secretnim",
                "seats": [{"kind": "local"}, {"kind": "ai", "agent": "mcts:iterations=50"}],
            },
        )
        assert r.status_code == 201 and "owner" not in r.json()


def test_a_takeback_cancels_the_ais_thought(
    make_client: Callable[..., TestClient], fake_agents: FakeAgents
) -> None:
    """The AI's answer to a position that was taken back is never played, even when the
    human's new move brings the match back to the same ply."""
    with make_client() as client:
        m = new_match(client, seats=[{"kind": "local"}, {"kind": "ai"}], options={"pile": 30})
        mid, t0 = m["id"], m["tokens"]["0"]
        fake_agents.gate = threading.Event()
        fake_agents.answers = ["take 2"]  # its answer to the position after "take 1"
        assert play(client, mid, t0, "take 1", 0).status_code == 200
        wait_until(lambda: fake_agents.calls, "the AI to think (held at the gate)")
        r = client.post(f"/api/matches/{mid}/takeback", headers=auth(t0))
        assert r.status_code == 200 and r.json()["ply"] == 0
        assert play(client, mid, t0, "take 2", 0).status_code == 200
        fake_agents.gate.set()  # the stale thought ends now; a fresh one answers "take 1"
        snap = wait_for(client, mid, lambda s: s["ply"] >= 2)
        assert len(fake_agents.calls) == 2
        moves = [
            e["event"]
            for e in client.get(f"/api/matches/{mid}/events").json()["events"]
            if e["event"]["type"] == "took"
        ]
        assert snap["view"]["pile"] == 30 - 2 - 1, moves


def test_an_ai_that_fails_is_retried_then_the_match_aborted(
    make_client: Callable[..., TestClient], fake_agents: FakeAgents
) -> None:
    with make_client(ai_retries=2) as client:
        fake_agents.fail = 2  # two failures, then an answer: retried, and it plays
        m = new_match(client, seats=[{"kind": "ai"}, {"kind": "local"}], options={"pile": 30})
        snap = wait_for(client, m["id"], lambda s: s["ply"] == 1)
        assert snap["status"] == "active" and len(fake_agents.calls) == 3
        fake_agents.fail = 3  # every try fails: the match ends, and the human is told why
        assert play(client, m["id"], m["tokens"]["1"], "take 1", 1).status_code == 200
        snap = wait_for(client, m["id"], lambda s: s["status"] != "active")
        assert snap["status"] == "aborted" and snap["result"] is None
        assert snap["close_reason"] == "the AI in seat 0 could not move (it failed, 3 tries)"
        events = client.get(f"/api/matches/{m['id']}/events").json()["events"]
        assert events[-1]["event"]["type"] == "aborted"
        assert "could not move" in events[-1]["event"]["message"]


def test_all_ai_matches_have_an_owner_and_an_idle_limit(
    make_client: Callable[..., TestClient], fake_agents: FakeAgents, fake_time: FakeTime
) -> None:
    with make_client(ai_idle_after=600.0) as client:
        fake_agents.gate = threading.Event()
        seats = [{"kind": "ai"}, {"kind": "ai", "agent": "random"}]
        m = new_match(client, seats=seats, options={"pile": 200})
        owner = m["owner"]
        r = client.post(f"/api/matches/{m['id']}/stop", headers=auth(owner[::-1]))
        assert r.status_code == 403 and r.json()["error"]["code"] == "not_owner"
        r = client.post(f"/api/matches/{m['id']}/stop")
        assert r.status_code == 403
        r = client.post(f"/api/matches/{m['id']}/stop", headers=auth(owner))
        assert r.status_code == 200 and r.json()["status"] == "aborted"
        assert r.json()["close_reason"] == "stopped by its owner"
        fake_agents.gate.set()
        # the thought it was having ends, and is thrown away (the stopped match may no
        # longer be held in memory at all)
        service = client.app.state.service  # type: ignore[attr-defined]

        def thought_over() -> bool:
            live = service.live.get(m["id"])
            task = live.ai_task if live is not None else None
            return bool(fake_agents.finished) and (task is None or task.done())

        wait_until(thought_over, "the thought to end")
        assert ok(client.get(f"/api/matches/{m['id']}"))["ply"] == 0

        # nobody watches for 10 minutes: it stops by itself at its next decision
        fake_agents.gate = threading.Event()
        n = new_match(client, seats=seats, options={"pile": 200})
        fake_time.advance(601)
        fake_agents.gate.set()
        live = client.app.state.service.live[n["id"]]  # type: ignore[attr-defined]
        # watched without a request (a request is a look at it)
        wait_until(lambda: live.status != "active", "the unwatched match to stop")
        snap = client.get(f"/api/matches/{n['id']}").json()
        assert snap["status"] == "aborted" and "nobody watched" in snap["close_reason"]
        assert snap["ply"] == 1


def test_the_ai_pool_serves_a_humans_opponent_before_all_ai_matches(
    make_client: Callable[..., TestClient], fake_agents: FakeAgents
) -> None:
    """One worker, four all-AI matches always wanting it: the human's opponent gets the
    next free worker, not a place behind every all-AI match's decision."""
    with make_client(ai_workers=1, http_burst=1e9) as client:
        fake_agents.delay = 0.05
        for _ in range(4):
            new_match(client, seats=[{"kind": "ai", "agent": "random"}] * 2, options={"pile": 200})
        h = new_match(
            client,
            seats=[{"kind": "local"}, {"kind": "ai", "agent": "greedy"}],
            options={"pile": 200},
        )
        wait_until(lambda: len(fake_agents.calls) >= 4, "the all-AI matches to be playing")
        for ply in (0, 2, 4):
            with fake_agents.lock:
                answered = fake_agents.calls.count("greedy")
            assert play(client, h["id"], h["tokens"]["0"], "take 1", ply).status_code == 200
            with fake_agents.lock:
                asked = len(fake_agents.calls)
            wait_for(client, h["id"], lambda s, p=ply: s["ply"] == p + 2)
            with fake_agents.lock:
                since = fake_agents.calls[asked:]
                assert fake_agents.calls.count("greedy") == answered + 1
            # The opponent's decision may be asked before this test looks (then nothing
            # went before it): only a decision asked after the look can have others before it.
            before = since[: since.index("greedy")] if "greedy" in since else []
            # at most the decision already handed the worker goes first
            assert len(before) <= 1, since
        for m in client.get("/api/matches").json()["matches"]:
            if m["id"] != h["id"]:
                assert m["status"] == "active"


def test_a_replay_past_the_time_limit_is_stopped(
    make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    from test_server_faults import _long_gungi_record

    import sengoku.server.routes.replay as replay_route

    # The replay is held until the answer came back: past the limit on any machine, however
    # fast (a real long record finished inside 0.05 s on a quick CI machine).
    answered = threading.Event()
    started = threading.Event()
    real = replay_route.replay_json

    def held_replay(body: bytes, seat: int | None) -> tuple[int, bytes]:
        started.set()
        answered.wait(60)  # only a broken limit waits this out (the test then fails, not hangs)
        return real(body, seat)

    monkeypatch.setattr(replay_route, "replay_json", held_replay)
    try:
        with make_client(work_mode="thread", work_timeout=0.05) as client:
            r = client.post("/api/replay", json=_long_gungi_record(min_actions=20))
            assert started.is_set()
            assert r.status_code == 503 and r.json()["error"]["code"] == "too_slow"
            assert "0.05 s" in r.json()["error"]["message"]
    finally:
        answered.set()


def test_an_ai_past_its_time_limit_is_asked_again(
    make_client: Callable[..., TestClient],
    fake_agents: FakeAgents,
    caplog: pytest.LogCaptureFixture,
) -> None:
    with make_client(ai_timeout=0.2, ai_workers=1) as client:
        fake_agents.slow = [1.0]  # the first decision hangs past the limit; the next does not
        m = new_match(client, seats=[{"kind": "ai"}, {"kind": "local"}], options={"pile": 30})
        snap = wait_for(client, m["id"], lambda s: s["ply"] == 1)
        assert snap["status"] == "active" and len(fake_agents.calls) == 2
        assert "ran out of time" in caplog.text


@pytest.mark.parametrize("game", ["gungi", "sashimono"])
def test_an_agent_spec_naming_a_file_is_refused_before_it_is_read(
    game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every option of every agent, given a path (here without the request's length cap),
    is refused as text: no agent is built, so no file is opened."""
    from sengoku.ai import AGENTS

    planted = tmp_path / "weights.json"
    planted.write_text("{}")
    built: list[str] = []
    monkeypatch.setattr(ai_mod, "make_agent", lambda *a, **k: built.append(str(a)))
    for name, cls in sorted(AGENTS.items()):
        for option in sorted({*cls.defaults, "iterations", "seconds", "floor"}):
            for value in (str(planted), "../weights.npz", "w\\x", "cards.toml", "~root"):
                with pytest.raises(SengokuError, match="never a path"):
                    ai_mod.resolve_ai(None, f"{name}:{option}={value}", game)
    for n in range(1, 6):
        with pytest.raises(SengokuError, match="no options"):
            ai_mod.resolve_ai(None, f"level{n}:eval={planted}", game)
    assert built == []
    # the shipped files, by name, are built
    ai_mod.resolve_ai(None, "learned:weights=default", game)
    assert len(built) == 1
