"""Seeks: matchmaking in the lobby (issue 37; docs/api.md "Seeks"). Making, listing,
withdrawing; the rating-range filter; accepting (a rated match between the two accounts with
the seek's options and clock, the seeker playing with the token its seek's making answered);
two accepts at once on two app instances on one database (one wins); the limit of open
seeks; lapsing with fake time (expiry, an owner who stops looking, a signed-out session)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import sqlalchemy as sa
from conftest import FakeTime, auth
from fastapi.testclient import TestClient
from test_accounts import CHEAP, csrf, post, sign_up
from test_server_postgres import cluster

from sengoku.server.seeks import SeekStore

CLOCK = {"type": "fischer", "initial": 300, "increment": 5}


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> Iterator[TestClient]:
    with make_client(**CHEAP) as c:
        yield c


def ok(r: Any, status: int = 200) -> Any:
    assert r.status_code == status, f"{r.status_code}: {r.text}"
    return r.json()


def refused(r: Any, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, f"{r.status_code}: {r.text}"
    error: dict[str, Any] = r.json()["error"]
    assert error["code"] == code, error
    return error


def as_user(client: TestClient, name: str) -> None:
    client.cookies.clear()
    ok(post(client, "/api/account/signin", {"name": name, "password": "correct horse"}))


def seek(client: TestClient, **body: Any) -> dict[str, Any]:
    """Make a seek (gungi, casual, no clock unless given): its JSON and its token."""
    out: dict[str, Any] = ok(post(client, "/api/seeks", {"game": "gungi", **body}), 201)
    return out


def lobby(client: TestClient) -> list[str]:
    return [s["id"] for s in ok(client.get("/api/seeks"))["seeks"]]


def accept(client: TestClient, seek_id: str, body: Any = None) -> Any:
    return post(client, f"/api/seeks/{seek_id}/accept", body)


def mine(client: TestClient, token: str | None = None) -> list[dict[str, Any]]:
    headers = auth(token) if token else {}
    out: list[dict[str, Any]] = ok(client.get("/api/seeks/mine", headers=headers))["seeks"]
    return out


def set_rating(client: TestClient, name: str, game: str, rating: float, deviation: float) -> None:
    engine = client.app.state.service.store.engine  # type: ignore[attr-defined]
    with engine.begin() as conn:
        account_id = conn.scalar(sa.text("SELECT id FROM accounts WHERE name = :n"), {"n": name})
        conn.execute(
            sa.text(
                "INSERT INTO ratings (account_id, game, system, rating, deviation, volatility, "
                "games, updated_at) VALUES (:a, :g, 'glicko2', :r, :d, 0.06, 30, 0)"
            ),
            {"a": account_id, "g": game, "r": rating, "d": deviation},
        )


def count(client: TestClient, table: str) -> int:
    engine = client.app.state.service.store.engine  # type: ignore[attr-defined]
    with engine.connect() as conn:
        return int(conn.scalar(sa.text(f"SELECT COUNT(*) FROM {table}")))  # noqa: S608


def test_make_list_and_withdraw_a_seek(client: TestClient) -> None:
    sign_up(client, "Ann")
    made = seek(client, options={"mode": "beginner"}, clock=CLOCK)
    s = made["seek"]
    assert s["status"] == "open" and s["name"] == "Ann" and s["options"]["mode"] == "beginner"
    assert s["clock"] == CLOCK and s["rated"] is False and s["match_id"] is None
    assert len(made["token"]) >= 40
    assert lobby(client) == []  # one's own seek is not offered to oneself
    assert [m["id"] for m in mine(client)] == [s["id"]]
    refused(accept(client, s["id"]), 409, "own_seek")

    client.cookies.clear()
    sign_up(client, "Ben")
    listed = ok(client.get("/api/seeks"))["seeks"]
    assert [x["id"] for x in listed] == [s["id"]]
    shown = listed[0]
    assert shown["name"] == "Ann" and shown["game"] == "gungi"
    assert shown["rating"] == {"rating": 1500, "provisional": True, "games": 0}
    assert "account_id" not in shown and "token_hash" not in shown and "status" not in shown
    assert ok(client.get("/api/seeks", params={"game": "gunshi"}))["seeks"] == []
    # Ben may not withdraw it, by his session or by a token of his own
    refused(client.delete(f"/api/seeks/{s['id']}", headers=csrf(client)), 403, "not_your_seek")
    other = seek(client)["token"]
    refused(
        client.delete(f"/api/seeks/{s['id']}", headers={**csrf(client), **auth(other)}),
        403,
        "not_your_seek",
    )
    refused(client.delete("/api/seeks/nope", headers=csrf(client)), 404, "no_such_seek")

    as_user(client, "Ann")
    gone = ok(client.delete(f"/api/seeks/{s['id']}", headers=csrf(client)))["seek"]
    assert gone["status"] == "cancelled"
    as_user(client, "Ben")
    assert lobby(client) == []
    refused(accept(client, s["id"]), 409, "seek_cancelled")


def test_a_guest_seeks_and_plays_with_the_token_the_seek_answered(
    make_client: Callable[..., TestClient],
) -> None:
    with make_client(**CHEAP) as seeker, make_client(**CHEAP) as other:
        made = ok(seeker.post("/api/seeks", json={"game": "gungi", "name": "Kenji"}), 201)
        token, seek_id = made["token"], made["seek"]["id"]
        assert [s["status"] for s in mine(seeker, token)] == ["open"]
        refused(seeker.get("/api/seeks/mine"), 401, "no_token")
        # a guest's seek is withdrawn only with its token (no cookie holds it)
        refused(other.delete(f"/api/seeks/{seek_id}"), 403, "not_your_seek")

        assert seek_id in lobby(other)
        out = ok(other.post(f"/api/seeks/{seek_id}/accept", json={"name": "Aiko"}), 201)
        match_id, seat = out["id"], out["seat"]
        assert out["match"]["you"] == seat and out["match"]["status"] == "active"
        names = {s["seat"]: s["name"] for s in out["match"]["seats"]}
        assert names == {seat: "Aiko", 1 - seat: "Kenji"}

        (taken,) = mine(seeker, token)
        assert taken["status"] == "accepted" and taken["match_id"] == match_id
        assert taken["seat"] == 1 - seat
        snap = ok(seeker.get(f"/api/matches/{match_id}", headers=auth(token)))
        assert snap["you"] == 1 - seat and snap["rated"] is False
        # the accepter's token holds the other seat, not the seeker's
        snap = ok(other.get(f"/api/matches/{match_id}", headers=auth(out["token"])))
        assert snap["you"] == seat
        refused(other.post(f"/api/seeks/{seek_id}/accept"), 409, "seek_taken")
        refused(seeker.delete(f"/api/seeks/{seek_id}", headers=auth(token)), 409, "seek_taken")


def test_the_lobby_offers_a_seek_only_to_ratings_in_its_range(client: TestClient) -> None:
    for name in ("Ann", "Ben", "Cara", "Dai"):
        client.cookies.clear()
        sign_up(client, name)
    set_rating(client, "Ann", "gungi", 1650.4, 60.0)
    set_rating(client, "Ben", "gungi", 1700.0, 50.0)
    set_rating(client, "Dai", "gungi", 1850.0, 50.0)
    set_rating(client, "Cara", "gunshi", 1700.0, 50.0)  # another game's rating counts not
    as_user(client, "Ann")
    ranged = seek(client, rating_min=1600, rating_max=1800)["seek"]
    open_to_all = seek(client)["seek"]
    assert ranged["rating_min"] == 1600 and ranged["rating_max"] == 1800

    as_user(client, "Ben")  # 1700: inside
    listed = {s["id"]: s for s in ok(client.get("/api/seeks"))["seeks"]}
    assert set(listed) == {ranged["id"], open_to_all["id"]}
    assert listed[ranged["id"]]["rating"] == {"rating": 1650, "provisional": False, "games": 30}
    as_user(client, "Cara")  # a new player in Gungi: 1500, below the range
    assert lobby(client) == [open_to_all["id"]]
    error = refused(accept(client, ranged["id"]), 403, "out_of_range")
    assert "1500" in error["message"], error
    as_user(client, "Dai")  # 1850: above
    assert lobby(client) == [open_to_all["id"]]
    refused(accept(client, ranged["id"]), 403, "out_of_range")
    client.cookies.clear()  # a guest has no rating: not offered a ranged seek
    assert lobby(client) == [open_to_all["id"]]
    refused(accept(client, ranged["id"]), 401, "not_signed_in")
    assert count(client, "matches") == 0  # no refusal made a match

    as_user(client, "Ben")
    out = ok(accept(client, ranged["id"]), 201)
    assert out["match"]["status"] == "active"

    # a bad range names the field; nothing is stored
    as_user(client, "Ann")
    before = count(client, "seeks")
    refused(
        post(client, "/api/seeks", {"game": "gungi", "rating_min": 1900, "rating_max": 1800}),
        422,
        "bad_range",
    )
    refused(post(client, "/api/seeks", {"game": "gungi", "rating_max": 5000}), 422, "bad_request")
    assert count(client, "seeks") == before


def test_accepting_a_rated_seek_creates_the_rated_match_between_the_two_accounts(
    client: TestClient,
) -> None:
    sign_up(client, "Ann")
    made = seek(client, options={"mode": "beginner"}, clock=CLOCK, rated=True)
    ann_token, seek_id = made["token"], made["seek"]["id"]
    assert made["seek"]["rated"] is True
    client.cookies.clear()
    refused(accept(client, seek_id), 401, "not_signed_in")  # rated: guests may not
    assert seek_id not in lobby(client)
    sign_up(client, "Ben")
    assert seek_id in lobby(client)
    out = ok(accept(client, seek_id), 201)
    match_id, ben_seat = out["id"], out["seat"]
    ann_seat = 1 - ben_seat
    snap = out["match"]
    assert snap["rated"] is True and snap["status"] == "active"
    assert snap["options"]["mode"] == "beginner"
    assert snap["clocks"]["spec"] == CLOCK
    assert {s["seat"]: s["name"] for s in snap["seats"]} == {ben_seat: "Ben", ann_seat: "Ann"}

    engine = client.app.state.service.store.engine  # type: ignore[attr-defined]
    with engine.connect() as conn:
        owners = dict(
            conn.execute(
                sa.text(
                    "SELECT s.seat, a.name FROM account_seats s JOIN accounts a "
                    "ON a.id = s.account_id WHERE s.match_id = :m"
                ),
                {"m": match_id},
            ).all()
        )
        rated = conn.scalar(sa.text("SELECT rated FROM matches WHERE id = :m"), {"m": match_id})
    assert owners == {ben_seat: "Ben", ann_seat: "Ann"} and bool(rated)

    as_user(client, "Ann")
    (taken,) = mine(client)
    assert taken["status"] == "accepted"
    assert (taken["match_id"], taken["seat"]) == (match_id, ann_seat)
    # Ann's seat is held by the token her seek's making answered: it acts for it
    tokens = {ann_seat: ann_token, ben_seat: out["token"]}
    snap = ok(client.get(f"/api/matches/{match_id}", headers=auth(ann_token)))
    assert snap["you"] == ann_seat
    first = snap["to_act"]
    mover = ok(client.get(f"/api/matches/{match_id}", headers=auth(tokens[first])))
    played = ok(
        client.post(
            f"/api/matches/{match_id}/actions",
            json={"action": mover["legal"][0]["action"], "ply": 0},
            headers=auth(tokens[first]),
        )
    )
    assert played["ply"] == 1


def test_a_rated_seek_needs_an_account_and_a_clock_and_two_seats(client: TestClient) -> None:
    refused(
        client.post("/api/seeks", json={"game": "gungi", "rated": True, "clock": CLOCK}),
        422,
        "not_ratable",
    )
    sign_up(client, "Ann")
    refused(post(client, "/api/seeks", {"game": "gungi", "rated": True}), 422, "not_ratable")
    refused(
        post(client, "/api/seeks", {"game": "gunkimono", "options": {"players": 3}}),
        422,
        "bad_seats",
    )
    refused(post(client, "/api/seeks", {"game": "nosuchgame"}), 404, "unknown_game")
    refused(
        post(client, "/api/seeks", {"game": "gungi", "options": {"mode": "x"}}), 422, "bad_option"
    )
    refused(post(client, "/api/seeks", {"game": "gungi", "rated": "yes"}), 422, "bad_request")
    refused(post(client, "/api/seeks", {"game": "gungi", "colour": "white"}), 422, "bad_request")
    refused(post(client, "/api/seeks", {"game": "gungi", "clock": {"type": "x"}}), 422, "bad_clock")
    assert count(client, "seeks") == 0
    # the body cap of a match's creation, before any parsing
    r = client.post(
        "/api/seeks",
        content=b'{"game": "gungi", "options": {"x": "' + b"a" * 70_000 + b'"}}',
        headers={**csrf(client), "Content-Type": "application/json"},
    )
    refused(r, 413, "too_large")
    # signed in, a seek's making, withdrawal and accept are CSRF-checked
    refused(client.post("/api/seeks", json={"game": "gungi"}), 403, "cross_origin")


@pytest.fixture(params=["sqlite", "postgresql"])
def shared_db(request: pytest.FixtureRequest, db_url: str) -> Iterator[str]:
    """One database for two app instances: the SQLite file, or a throw-away PostgreSQL
    cluster (where the second accept's update waits for the first's row lock)."""
    if request.param == "sqlite":
        yield db_url
        return
    with cluster(fsync=False) as url:
        yield url


def test_two_accepts_at_once_on_two_processes_one_wins(
    make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch, shared_db: str
) -> None:
    """Two app instances on one database (as two server processes); both accepts have seen
    the seek standing before either stores its match: the conditional update in the match's
    transaction lets exactly one through, and the other stores nothing."""
    with (
        make_client(**CHEAP, db_url=shared_db) as one,
        make_client(**CHEAP, db_url=shared_db) as two,
    ):
        sign_up(one, "Ann")
        seek_id = seek(one, clock=CLOCK, rated=True)["seek"]["id"]
        one.cookies.clear()
        sign_up(one, "Ben")
        sign_up(two, "Cara")

        both_looked = threading.Barrier(2, timeout=60)
        original = SeekStore.is_standing

        def looked(self: SeekStore, *args: Any) -> bool:
            answer = original(self, *args)
            both_looked.wait()  # neither goes on to create its match before both looked
            return answer

        monkeypatch.setattr(SeekStore, "is_standing", looked)
        with ThreadPoolExecutor(2) as pool:
            answers = list(pool.map(lambda c: accept(c, seek_id), [one, two]))
        statuses = sorted(r.status_code for r in answers)
        assert statuses == [201, 409], [r.text for r in answers]
        loser = next(r for r in answers if r.status_code == 409)
        refused(loser, 409, "seek_taken")
        winner = next(r for r in answers if r.status_code == 201).json()
        assert count(one, "matches") == 1
        assert count(one, "account_seats") == 2
        engine = one.app.state.service.store.engine  # type: ignore[attr-defined]
        with engine.connect() as conn:
            row = conn.execute(
                sa.text("SELECT status, match_id FROM seeks WHERE id = :s"), {"s": seek_id}
            ).one()
        assert tuple(row) == ("accepted", winner["id"])


def test_a_player_has_at_most_n_open_seeks(make_client: Callable[..., TestClient]) -> None:
    with make_client(**CHEAP, seek_max_open=2) as client:
        sign_up(client, "Ann")
        first = seek(client)["seek"]["id"]
        seek(client)
        error = refused(post(client, "/api/seeks", {"game": "gungi"}), 409, "too_many_seeks")
        assert "2" in error["message"]
        ok(client.delete(f"/api/seeks/{first}", headers=csrf(client)))
        seek(client)  # a withdrawn seek frees its place
        # guests are counted by their address
        client.cookies.clear()
        for _ in range(2):
            ok(client.post("/api/seeks", json={"game": "gungi"}), 201)
        refused(client.post("/api/seeks", json={"game": "gungi"}), 409, "too_many_seeks")


def test_seeks_lapse(make_client: Callable[..., TestClient], fake_time: FakeTime) -> None:
    with make_client(**CHEAP, seek_ttl=600.0, seek_idle=60.0) as client:
        sign_up(client, "Ann")
        lasting = seek(client)["seek"]["id"]
        # the owner's page looks every 30 s: the seek stands past seek_idle...
        for _ in range(4):
            fake_time.advance(30)
            assert [s["status"] for s in mine(client)] == ["open"]
        client.cookies.clear()
        sign_up(client, "Ben")
        assert lobby(client) == [lasting]
        # ...but not past seek_ttl
        fake_time.advance(600)
        assert lobby(client) == []
        refused(accept(client, lasting), 409, "seek_expired")

        # an owner who stops looking: lapsed after seek_idle
        as_user(client, "Ann")
        idle = seek(client)["seek"]["id"]
        fake_time.advance(61)
        assert [s["status"] for s in mine(client) if s["id"] == idle] == ["expired"]
        fake_time.advance(1)
        as_user(client, "Ben")
        assert lobby(client) == []
        refused(accept(client, idle), 409, "seek_expired")

        # a seek ends with the session that made it: another session's end does nothing
        as_user(client, "Ann")
        other_session = dict(client.cookies)
        as_user(client, "Ann")
        signed_out = seek(client)["seek"]["id"]
        kept = dict(client.cookies)
        client.cookies.clear()
        client.cookies.update(other_session)
        ok(post(client, "/api/account/signout"))
        as_user(client, "Ben")
        assert lobby(client) == [signed_out]
        client.cookies.clear()
        client.cookies.update(kept)
        ok(post(client, "/api/account/signout"))
        as_user(client, "Ben")
        assert lobby(client) == []
        refused(accept(client, signed_out), 409, "seek_expired")
        assert count(client, "matches") == 0
