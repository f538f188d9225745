"""Rated games (issue 37): chosen at creation, between signed-in players with a clock; every
ending (resignation, a timeout on the timer, a last move, a draw agreed, a claim) stores the
players' rating changes in the transaction that stores the result, once; the leaderboard and
the players' profiles. docs/ratings.md."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from conftest import FakeTime, auth
from fastapi.testclient import TestClient
from test_accounts import CHEAP, post, sign_up

from sengoku.server import ratings as server_ratings

CLOCK = {"type": "fischer", "initial": 300, "increment": 0}
#: Gungi intro: a pawn and a general shuffle back and forth; the third time round the start
#: position stands the 4th time (rulebook: "If the same board position is reached 4 times,
#: the game is drawn").
SHUFFLE = ["9-6-1 兵(9-7)", "7-1-1 中(6-1)", "9-7-1 兵(9-6)", "6-1-1 中(7-1)"]


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
    """Sign in as ``name`` (the client's one cookie jar holds one session at a time)."""
    client.cookies.clear()
    r = post(client, "/api/account/signin", {"name": name, "password": "correct horse"})
    assert r.status_code == 200, r.text


def rated_game(client: TestClient, seats: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Ann creates a rated Gungi game (seat 0, white) and Ben joins by the invitation: the
    match id and both seats' tokens."""
    sign_up(client, "Ann")
    created = ok(
        post(
            client,
            "/api/matches",
            {
                "game": "gungi",
                "seats": seats or [{"kind": "local"}, {"kind": "invite"}],
                "clock": CLOCK,
                "rated": True,
            },
        ),
        201,
    )
    assert created["match"]["rated"] is True
    client.cookies.clear()
    sign_up(client, "Ben")
    invite = created["invites"][0]["invite"]
    joined = ok(post(client, f"/api/matches/{created['id']}/join", {"invite": invite}))
    assert joined["match"]["status"] == "active"
    return {"id": created["id"], "tokens": {0: created["tokens"]["0"], 1: joined["token"]}}


def play(client: TestClient, g: dict[str, Any], seat: int, action: str) -> dict[str, Any]:
    snap = ok(client.get(f"/api/matches/{g['id']}", headers=auth(g["tokens"][seat])))
    out: dict[str, Any] = ok(
        client.post(
            f"/api/matches/{g['id']}/actions",
            json={"action": action, "ply": snap["ply"]},
            headers=auth(g["tokens"][seat]),
        )
    )
    return out


def sweep(client: TestClient) -> None:
    """What the server's timers run: flags that have fallen end their games."""
    client.portal.call(client.app.state.service.sweep)  # type: ignore[union-attr,attr-defined,call-arg]


def rows(client: TestClient, table: str) -> list[Any]:
    engine = client.app.state.service.store.engine  # type: ignore[attr-defined]
    with engine.connect() as conn:
        return list(conn.execute(sa.text(f"SELECT * FROM {table}")).mappings())  # noqa: S608


def stored_match(client: TestClient, match_id: str) -> Any:
    engine = client.app.state.service.store.engine  # type: ignore[attr-defined]
    with engine.connect() as conn:
        return conn.execute(
            sa.text("SELECT status, result, rated FROM matches WHERE id = :id"), {"id": match_id}
        ).one()


def check_rated_once(client: TestClient, match: dict[str, Any]) -> dict[str, Any]:
    """The match is finished with its result and its ratings event; ``rating_changes``
    holds one row per player and ``ratings`` one game each."""
    assert match["status"] == "finished" and match["result"], match
    ratings = match["ratings"]
    assert ratings is not None and [s["seat"] for s in ratings["seats"]] == [0, 1], ratings
    changes = rows(client, "rating_changes")
    assert sorted(c["match_id"] for c in changes) == [match["id"]] * 2, changes
    assert sorted(r["games"] for r in rows(client, "ratings")) == [1, 1]
    for seat in ratings["seats"]:
        assert seat["kind"] == "player"
        assert seat["after"] - seat["before"] == seat["delta"]
    row = stored_match(client, match["id"])
    assert row.status == "finished" and row.result is not None and row.rated
    out: dict[str, Any] = ratings
    return out


def test_a_rated_game_ended_by_resignation_rates_both_players_once(client: TestClient) -> None:
    g = rated_game(client)
    play(client, g, 0, SHUFFLE[0])
    end = ok(client.post(f"/api/matches/{g['id']}/resign", headers=auth(g["tokens"][1])))
    ratings = check_rated_once(client, end)
    ann, ben = ratings["seats"]
    assert ann["before"] == ben["before"] == 1500
    assert ann["delta"] > 0 > ben["delta"], ratings
    assert ann["provisional"] and ben["provisional"]  # one game: a deviation far over 110
    # the event is public and numbered: a spectator sees it after the game_over
    evs = ok(client.get(f"/api/matches/{g['id']}/events"))["events"]
    assert evs[-1]["event"]["type"] == "ratings", evs[-1]
    assert evs[-1]["event"]["seats"] == ratings["seats"]
    # the game is over: a second resignation changes nothing
    refused(
        client.post(f"/api/matches/{g['id']}/resign", headers=auth(g["tokens"][0])),
        409,
        "match_finished",
    )
    check_rated_once(client, ok(client.get(f"/api/matches/{g['id']}")))


def test_a_timeout_on_the_timer_is_rated_once(client: TestClient, fake_time: FakeTime) -> None:
    g = rated_game(client)
    play(client, g, 0, SHUFFLE[0])
    fake_time.advance(300 + 1)  # Ben, to move, runs out of time (CLOCK's initial)
    sweep(client)
    match = ok(client.get(f"/api/matches/{g['id']}"))
    assert match["result"]["reason"] == "timeout" and match["result"]["winners"] == [0]
    ratings = check_rated_once(client, match)
    assert ratings["seats"][0]["delta"] > 0 > ratings["seats"][1]["delta"]
    sweep(client)
    check_rated_once(client, ok(client.get(f"/api/matches/{g['id']}")))


def test_a_last_move_that_ends_the_game_is_rated(client: TestClient) -> None:
    g = rated_game(client)
    seat = 0
    snap: dict[str, Any] = {}
    for _ in range(3):
        for text in SHUFFLE:
            snap = play(client, g, seat, text)
            seat = 1 - seat
    # rulebook: "If the same board position is reached 4 times, the game is drawn"
    assert snap["result"]["reason"] == "repetition", snap["result"]
    ratings = check_rated_once(client, snap)
    assert [s["delta"] for s in ratings["seats"]] == [0, 0]  # equals drew
    after = [r["deviation"] for r in rows(client, "ratings")]
    assert all(d < 350 for d in after), after  # yet the game told something


def test_a_draw_agreed_is_rated(client: TestClient) -> None:
    g = rated_game(client)
    play(client, g, 0, SHUFFLE[0])
    url = f"/api/matches/{g['id']}/draw"
    ok(client.post(url, json={"accept": True}, headers=auth(g["tokens"][0])))
    assert rows(client, "rating_changes") == []  # an offer ends nothing
    end = ok(client.post(url, json={"accept": True}, headers=auth(g["tokens"][1])))
    assert end["result"]["reason"] == "agreement"
    check_rated_once(client, end)


def test_a_claimed_win_is_rated(client: TestClient, fake_time: FakeTime) -> None:
    g = rated_game(client)
    play(client, g, 0, SHUFFLE[0])
    fake_time.advance(client.app.state.service.settings.claim_after + 1)  # type: ignore[attr-defined]
    end = ok(client.post(f"/api/matches/{g['id']}/claim", headers=auth(g["tokens"][0])))
    assert end["result"]["reason"] == "abandoned"
    check_rated_once(client, end)


def test_a_rating_that_cannot_be_stored_leaves_the_game_unfinished(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    g = rated_game(client)
    play(client, g, 0, SHUFFLE[0])

    def broken(*_args: Any, **_kwargs: Any) -> Any:
        raise server_ratings.NotRated("the ratings' storage failed")

    monkeypatch.setattr(server_ratings, "apply_ratings", broken)
    refused(
        client.post(f"/api/matches/{g['id']}/resign", headers=auth(g["tokens"][1])),
        503,
        "ratings_not_stored",
    )
    row = stored_match(client, g["id"])
    assert row.status == "active" and row.result is None  # no result without its ratings
    assert rows(client, "rating_changes") == [] and rows(client, "ratings") == []
    match = ok(client.get(f"/api/matches/{g['id']}", headers=auth(g["tokens"][1])))
    assert match["status"] == "active" and match["result"] is None and match["ratings"] is None
    monkeypatch.undo()
    end = ok(client.post(f"/api/matches/{g['id']}/resign", headers=auth(g["tokens"][1])))
    check_rated_once(client, end)


def test_a_casual_game_changes_no_rating(client: TestClient) -> None:
    sign_up(client, "Ann")
    created = ok(
        post(
            client,
            "/api/matches",
            {"game": "gungi", "seats": [{"kind": "local"}, {"kind": "local"}], "clock": CLOCK},
        ),
        201,
    )
    assert created["match"]["rated"] is False
    tokens = created["tokens"]
    end = ok(client.post(f"/api/matches/{created['id']}/resign", headers=auth(tokens["1"])))
    assert end["status"] == "finished" and end["ratings"] is None
    assert rows(client, "rating_changes") == [] and rows(client, "ratings") == []
    lobby = ok(client.get("/api/matches", params={"status": "live"}))
    assert lobby["matches"] == []  # finished: the lobby lists rated below


def test_against_the_ai_only_the_player_is_rated(client: TestClient) -> None:
    sign_up(client, "Ann")
    created = ok(
        post(
            client,
            "/api/matches",
            {
                "game": "gungi",
                "seats": [{"kind": "local"}, {"kind": "ai", "level": 3}],
                "clock": CLOCK,
                "rated": True,
            },
        ),
        201,
    )
    mid, token = created["id"], created["tokens"]["0"]
    end = ok(client.post(f"/api/matches/{mid}/resign", headers=auth(token)))
    ann, bot = end["ratings"]["seats"]
    assert bot == {"seat": 1, "kind": "ai", "level": 3, "rating": 1500, "provisional": False}
    assert ann["before"] == 1500 and ann["delta"] < 0
    assert [r["account_id"] for r in rows(client, "ratings")] == [
        c["account_id"] for c in rows(client, "rating_changes")
    ]  # one row each: Ann's; the level's rating is fixed
    assert len(rows(client, "ratings")) == 1


def test_who_may_create_and_join_a_rated_game(client: TestClient) -> None:
    def create(**body: Any) -> Any:
        full = {
            "game": "gungi",
            "seats": [{"kind": "local"}, {"kind": "invite"}],
            "clock": CLOCK,
            "rated": True,
            **body,
        }
        return post(client, "/api/matches", full)

    def why(r: Any) -> str:
        return str(refused(r, 422, "not_ratable")["message"])

    assert "sign in" in why(create())  # a guest
    sign_up(client, "Ann")
    assert "clock" in why(create(clock=None))
    assert "local seat" in why(create(seats=[{"kind": "local"}, {"kind": "local"}]))
    assert "seed" in why(create(seats=[{"kind": "local"}, {"kind": "ai", "level": 2}], seed=5))
    assert "agent" in why(create(seats=[{"kind": "local"}, {"kind": "ai", "agent": "random"}]))
    assert "no human seat" in why(create(seats=[{"kind": "ai"}, {"kind": "ai"}]))
    solo = create(game="sashimono", options={"mode": "solo"}, seats=[{"kind": "local"}])
    assert "1" in why(solo)
    assert rows(client, "matches") == []  # nothing of a refusal is stored
    created = ok(create(), 201)
    invite = created["invites"][0]["invite"]
    url = f"/api/matches/{created['id']}/join"
    # the creator's own account cannot take the second seat
    refused(post(client, url, {"invite": invite}), 409, "already_seated")
    client.cookies.clear()
    refused(post(client, url, {"invite": invite}), 401, "not_signed_in")
    sign_up(client, "Ben")
    joined = ok(post(client, url, {"invite": invite, "name": "Somebody else"}))
    names = [s["name"] for s in joined["match"]["seats"]]
    assert names == ["Ann", "Ben"]  # a rated seat plays under its account's name
    lobby = ok(client.get("/api/matches", params={"status": "active"}))
    assert [(m["id"], m["rated"]) for m in lobby["matches"]] == [(created["id"], True)]


def test_leaderboard_and_profiles(client: TestClient) -> None:
    g = rated_game(client)  # Ann (seat 0) beats Ben
    end = ok(client.post(f"/api/matches/{g['id']}/resign", headers=auth(g["tokens"][1])))
    ann_after, ben_after = (s["after"] for s in end["ratings"]["seats"])
    board = ok(client.get("/api/ratings/gungi"))
    assert board["system"] == "glicko2"
    assert [
        (p["rank"], p["name"], p["rating"], p["provisional"], p["games"]) for p in board["players"]
    ] == [
        (1, "Ann", ann_after, True, 1),
        (2, "Ben", ben_after, True, 1),
    ]
    assert ok(client.get("/api/ratings/gunshi"))["players"] == []
    refused(client.get("/api/ratings/chess"), 404, "not_rated")
    refused(client.get("/api/ratings/gungi", params={"system": "plackett_luce"}), 422, "bad_system")

    ben = ok(client.get("/api/players/ben"))
    assert ben["name"] == "Ben" and ben["record"] == {"wins": 0, "losses": 1, "draws": 0}
    (pool,) = ben["ratings"]
    assert pool["game"] == "gungi" and pool["rating"] == ben_after and pool["provisional"]
    assert [p[1] for p in pool["history"]] == [1500, ben_after]
    (game,) = ben["games"]
    assert game["id"] == g["id"] and game["result"] == "loss" and game["opponents"] == ["Ann"]
    assert game["rated"] and game["rating"]["delta"] == ben_after - 1500
    text = str(ben)
    assert "account_id" not in text and g["tokens"][1] not in text  # public facts only
    assert ok(client.get("/api/players/Ben", params={"result": "win"}))["games"] == []
    assert ok(client.get("/api/players/Ben", params={"opponent": "ANN"}))["total"] == 1
    assert ok(client.get("/api/players/Ben", params={"opponent": "Cho"}))["total"] == 0
    assert ok(client.get("/api/players/Ben", params={"game": "gunshi"}))["games"] == []
    refused(client.get("/api/players/Nobody"), 404, "no_such_player")
    # a deleted account has no profile, and leaves the leaderboard
    as_user(client, "Ben")
    ok(post(client, "/api/account/delete", {"password": "correct horse"}))
    refused(client.get("/api/players/Ben"), 404, "no_such_player")
    assert [p["name"] for p in ok(client.get("/api/ratings/gungi"))["players"]] == ["Ann"]
