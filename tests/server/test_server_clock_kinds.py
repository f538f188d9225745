"""Every clock kind ticks in every game (one process, a fake time source).

A clock that is accepted at creation must run: the seat to act loses on time once its time
is spent, whatever the game. Gunshi once accepted Fischer, byo-yomi and sudden death and never
ran them, so a connected player who never moved held the game forever.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
import sqlalchemy as sa
from conftest import FakeTime, auth, new_match
from fastapi.testclient import TestClient

from sengoku.core.registry import list_games, load_game

#: Each kind, with 10 s of thinking time in all before the flag falls (turn-based play:
#: one day, the least it gives).
KINDS: dict[str, dict[str, Any]] = {
    "fischer": {"type": "fischer", "initial": 10, "increment": 2},
    "byoyomi": {"type": "byoyomi", "main": 5, "periods": 1, "period": 5},
    "sudden_death": {"type": "sudden_death", "initial": 10},
    "tournament": {"type": "tournament", "initial": 10},
    "correspondence": {"type": "correspondence", "days": 1},
}
#: The seconds of thinking time each kind gives the seat to act.
THINKING = {kind: 86_400.0 if kind == "correspondence" else 10.0 for kind in KINDS}
GAMES = sorted(list_games())


def ok(r: Any) -> dict[str, Any]:
    assert r.status_code in (200, 201), f"{r.status_code}: {r.text}"
    data: dict[str, Any] = r.json()
    return data


def sweep(client: TestClient) -> None:
    """What the server's timers run: flags that have fallen end their games."""
    client.portal.call(client.app.state.service.sweep)  # type: ignore[union-attr,attr-defined]


def play_first(client: TestClient, match: dict[str, Any], tokens: dict[str, str]) -> None:
    mid = match["id"]
    seat = match["to_act"]
    snap = ok(client.get(f"/api/matches/{mid}", headers=auth(tokens[str(seat)])))
    action = snap["legal"][0]["action"]
    ok(
        client.post(
            f"/api/matches/{mid}/actions",
            json={"action": action, "ply": snap["ply"]},
            headers=auth(tokens[str(seat)]),
        )
    )


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("game", GAMES)
def test_every_clock_kind_runs_out_in_every_game(
    make_client: Callable[..., TestClient], fake_time: FakeTime, game: str, kind: str
) -> None:
    n = load_game(game).new_state(1).num_players
    with make_client() as client:
        created = new_match(client, game=game, seats=[{"kind": "local"}] * n, clock=KINDS[kind])
        match, tokens = created["match"], created["tokens"]
        mid = match["id"]
        assert match["status"] == "active"
        if kind == "tournament":
            assert match["clocks"]["running"] is None
            # The first decision is not timed (in Gunshi, the whole of Red's first
            # placement: piece, cell and facing).
            for _ in range(3):
                fake_time.advance(1000)
                play_first(client, match, tokens)
                match = ok(client.get(f"/api/matches/{mid}"))
                if match["clocks"]["running"] is not None:
                    break
            assert match["clocks"]["remaining"] == [10.0] * n
        seat = match["to_act"]
        assert match["clocks"]["running"] == seat, match["clocks"]
        if kind == "correspondence":  # the days of one move
            assert match["clocks"]["remaining"][seat] == THINKING[kind], match["clocks"]
        fake_time.advance(THINKING[kind] - 0.5)
        sweep(client)
        assert ok(client.get(f"/api/matches/{mid}"))["status"] == "active"
        fake_time.advance(1.0)
        sweep(client)  # nobody asks: the flag falls on the server's timer
        final = ok(client.get(f"/api/matches/{mid}"))
        assert final["status"] == "finished", final
        assert final["result"]["reason"] == "timeout"
        assert seat not in final["result"]["winners"]
        assert final["clocks"]["running"] is None


def test_gunshi_time_control_follows_the_clock(
    make_client: Callable[..., TestClient], fake_time: FakeTime
) -> None:
    """Gunshi's own ``time_control`` option says which rules decide whose clock runs: a
    tournament clock plays with them, any other kind without, and a contradiction is refused
    with the field named."""
    with make_client() as client:
        for kind, wanted in (("fischer", "none"), ("tournament", "tournament")):
            created = new_match(client, game="gunshi", clock=KINDS[kind])
            assert created["match"]["options"]["time_control"] == wanted
        r = client.post(
            "/api/matches",
            json={
                "game": "gunshi",
                "seats": [{"kind": "local"}, {"kind": "local"}],
                "options": {"time_control": "tournament"},
                "clock": KINDS["byoyomi"],
            },
        )
        assert r.status_code == 422, r.text
        assert r.json()["error"]["code"] == "bad_clock"
        assert "time_control" in r.json()["error"]["message"]
        # the option alone still brings the rulebook's 20-minute tournament clock
        alone = new_match(client, game="gunshi", options={"time_control": "tournament"})
        assert alone["match"]["clocks"]["spec"] == {"type": "tournament", "initial": 1200.0}


def test_a_stored_gunshi_clock_that_never_started_runs_after_a_restart(
    make_client: Callable[..., TestClient], fake_time: FakeTime, db_url: str
) -> None:
    """Matches stored by servers that never ran Gunshi's Fischer clock (running: none) get
    their clock running when loaded again, from the load, so they end instead of hanging."""
    with make_client() as client:
        created = new_match(client, game="gunshi", clock=KINDS["sudden_death"])
        mid = created["match"]["id"]
    engine = sa.create_engine(db_url)
    with engine.begin() as conn:  # as an older server stored it: no clock running
        row = conn.execute(sa.text("SELECT clock FROM matches WHERE id=:id"), {"id": mid})
        stored = json.loads(row.scalar_one())
        stored["state"]["running"] = None
        stored["state"]["since"] = None
        conn.execute(
            sa.text("UPDATE matches SET clock=:c WHERE id=:id"),
            {"c": json.dumps(stored), "id": mid},
        )
    engine.dispose()
    fake_time.advance(5000)  # a long time on the old server: none of it is charged
    with make_client() as client:
        snap = ok(client.get(f"/api/matches/{mid}"))
        assert snap["clocks"]["running"] == 0 and snap["clocks"]["remaining"] == [10.0, 10.0]
        fake_time.advance(10.5)
        sweep(client)
        final = ok(client.get(f"/api/matches/{mid}"))
        assert final["status"] == "finished" and final["result"]["reason"] == "timeout"
        assert final["result"]["winners"] == [1]
