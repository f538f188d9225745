"""Turn-based play (issue #37): the ``correspondence`` clock (days per move), the looks at
the running clocks, a signed-in player's "your turn" list, the e-mail hook (a local SMTP
sink: aiosmtpd on a loopback port), and the test hook that moves a real server's clock."""

from __future__ import annotations

import email
import email.policy
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from conftest import FakeTime, auth, new_match
from fastapi.testclient import TestClient
from real_server import free_port, real_server
from test_accounts import CHEAP, post, sign_up

from sengoku.server.clocks import ClockError, Clocks, ClockSpec
from sengoku.server.config import settings_from_env
from sengoku.server.testing_clock import FileClock

DAY = 86_400.0


def ok(r: Any) -> dict[str, Any]:
    assert r.status_code in (200, 201), f"{r.status_code}: {r.text}"
    data: dict[str, Any] = r.json()
    return data


def service(client: TestClient) -> Any:
    return client.app.state.service  # type: ignore[attr-defined]


def on_loop(client: TestClient, fn: Callable[[], Any]) -> Any:
    """``fn()`` run on the app's event loop (what the server's own tasks run on)."""
    portal = client.portal
    assert portal is not None
    return portal.call(fn)


def play(client: TestClient, mid: str, token: str) -> dict[str, Any]:
    """The seat's first legal action, with the ply it saw."""
    snap = ok(client.get(f"/api/matches/{mid}", headers=auth(token)))
    return ok(
        client.post(
            f"/api/matches/{mid}/actions",
            json={"action": snap["legal"][0]["action"], "ply": snap["ply"]},
            headers=auth(token),
        )
    )


# -- the clock kind ------------------------------------------------------------------------


def test_correspondence_spec_is_whole_days_and_bad_ones_name_the_field() -> None:
    spec = ClockSpec.from_json({"type": "correspondence", "days": 3})
    assert spec.initial == 3 * DAY and spec.days == 3
    assert spec.to_json() == {"type": "correspondence", "days": 3}
    for bad, word in (
        ({"type": "correspondence"}, "'days' is required"),
        ({"type": "correspondence", "days": 0}, "'days' must be between"),
        ({"type": "correspondence", "days": 15}, "'days' must be between"),
        ({"type": "correspondence", "days": 1.5}, "whole number of days"),
        ({"type": "correspondence", "days": "3"}, "'days' must be a number"),
        ({"type": "correspondence", "days": 3, "initial": 5}, "unknown field(s) initial"),
    ):
        with pytest.raises(ClockError) as err:
            ClockSpec.from_json(bad)
        assert word in str(err.value), (bad, str(err.value))


def test_each_move_gets_its_days_afresh_and_a_turn_of_several_decisions_is_one_move() -> None:
    clocks = Clocks(ClockSpec.from_json({"type": "correspondence", "days": 2}), 2)
    t = 1_000.0
    clocks.start(0, t)
    assert clocks.deadline() == t + 2 * DAY
    # seat 0 thinks a day, makes the first decision of its turn: the same move goes on
    t += DAY
    clocks.decided(0, 0, t)
    assert clocks.remaining == [DAY, 2 * DAY] and clocks.running == 0
    assert clocks.deadline() == t + DAY  # no new days for a decision within the turn
    # half a day more and the turn passes: seat 1 has 2 days; seat 0's next move too
    t += DAY / 2
    clocks.decided(0, 1, t)
    assert clocks.remaining == [2 * DAY, 2 * DAY] and clocks.running == 1
    assert clocks.deadline() == t + 2 * DAY
    # time left unused is not kept: seat 1 moves at once, and has 2 days again, not more
    clocks.decided(1, 0, t + 1)
    assert clocks.remaining == [2 * DAY, 2 * DAY]
    assert clocks.flagged(t + 1 + 2 * DAY - 1) is None
    assert clocks.flagged(t + 1 + 2 * DAY) == 0


def test_a_correspondence_game_over_the_api_with_gunshis_three_decision_turn(
    make_client: Callable[..., TestClient], fake_time: FakeTime
) -> None:
    """Gunshi's first placement is three decisions of Red (piece, cell, facing): one move."""
    with make_client() as client:
        clock = {"type": "correspondence", "days": 3}
        created = new_match(client, game="gunshi", clock=clock)
        mid, tokens = created["id"], created["tokens"]
        match = created["match"]
        assert match["clocks"]["spec"] == clock
        red = match["to_act"]
        assert match["clocks"]["running"] == red
        decisions = 0
        while True:
            fake_time.advance(DAY / 2)
            match = play(client, mid, tokens[str(red)])
            decisions += 1
            if match["to_act"] != red:
                break
            assert match["clocks"]["running"] == red
            assert match["clocks"]["remaining"][red] == 3 * DAY - decisions * DAY / 2
        assert decisions == 3
        other = match["to_act"]
        # the move is made: Red has 3 days again for its next one, the other seat 3 days now
        assert match["clocks"]["remaining"] == [3 * DAY, 3 * DAY]
        assert match["clocks"]["running"] == other
        fake_time.advance(3 * DAY - 1)
        assert on_loop(client, service(client).sweep_due) == []
        assert ok(client.get(f"/api/matches/{mid}"))["status"] == "active"
        fake_time.advance(2)
        # nobody asks: the look at the running clocks ends it
        assert on_loop(client, service(client).sweep_due) == [mid]
        final = ok(client.get(f"/api/matches/{mid}"))
        assert final["status"] == "finished" and final["result"]["reason"] == "timeout"
        assert final["result"]["winners"] == [red]


def test_the_games_list_names_the_correspondence_clock(
    make_client: Callable[..., TestClient],
) -> None:
    with make_client() as client:
        kinds = ok(client.get("/api/games"))["clocks"]
        assert {"type": "correspondence", "fields": ["days"]} in kinds


# -- "your turn" -----------------------------------------------------------------------------


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> Iterator[TestClient]:
    with make_client(**CHEAP) as c:
        yield c


def claim(client: TestClient, token: str) -> None:
    r = post(client, "/api/account/claim", {"tokens": [token]})
    assert len(ok(r)["claimed"]) == 1, r.text


def test_your_turn_lists_the_accounts_games_where_it_is_to_act(
    client: TestClient, fake_time: FakeTime
) -> None:
    assert client.get("/api/account/games").status_code == 401
    # Two games of a guest's browser; Taro then signs in and owns seat 0 of each.
    slow = new_match(client, clock={"type": "correspondence", "days": 2}, seats=None)
    quick = new_match(client, clock={"type": "correspondence", "days": 1})
    plain = new_match(client)  # no clock: the seat is listed, with no time left
    sign_up(client, "Taro")
    for m in (slow, quick, plain):
        claim(client, m["tokens"]["0"])
    mine = {m["id"] for m in (slow, quick, plain) if m["match"]["to_act"] == 0}
    # Secret Nim: seat 0 moves first
    assert mine == {slow["id"], quick["id"], plain["id"]}
    fake_time.advance(3600)
    listed = ok(client.get("/api/account/games?turn=mine"))
    assert listed["your_turn"] == 3
    ids = [g["match_id"] for g in listed["games"]]
    assert ids == [quick["id"], slow["id"], plain["id"]]  # the least time left first
    first = listed["games"][0]
    assert first["your_turn"] is True and first["seat"] == 0 and first["to_act"] == 0
    assert first["time_left"] == DAY - 3600
    assert first["clock"] == {"type": "correspondence", "days": 1}
    assert first["title"] == "Secret Nim (a test game)" and first["game"] == "secretnim"
    assert listed["games"][2]["time_left"] is None
    assert "state" not in first and "hand" not in str(first)
    # Taro moves in the quick game: it is the other seat's turn there
    play(client, quick["id"], quick["tokens"]["0"])
    listed = ok(client.get("/api/account/games?turn=mine"))
    assert [g["match_id"] for g in listed["games"]] == [slow["id"], plain["id"]]
    every = ok(client.get("/api/account/games"))
    assert [g["match_id"] for g in every["games"]][-1] == quick["id"]
    assert every["games"][-1]["your_turn"] is False and every["your_turn"] == 2
    # the other seat (not Taro's) moves: Taro's turn again, with a whole day
    play(client, quick["id"], quick["tokens"]["1"])
    listed = ok(client.get("/api/account/games?turn=mine"))
    assert listed["games"][0]["match_id"] == quick["id"]
    assert listed["games"][0]["time_left"] == DAY
    # a game that ends leaves the list
    ok(client.post(f"/api/matches/{slow['id']}/resign", headers=auth(slow["tokens"]["0"])))
    listed = ok(client.get("/api/account/games?turn=mine"))
    assert slow["id"] not in [g["match_id"] for g in listed["games"]]
    assert client.get("/api/account/games?turn=theirs").status_code == 422


def test_the_email_address_is_optional_checked_and_gone_with_the_account(
    client: TestClient,
) -> None:
    assert client.get("/api/account/email").status_code == 401
    sign_up(client, "Hanako", "password hanako")
    assert ok(client.get("/api/account/email")) == {"email": None, "mails_sent_here": False}
    for bad in (
        "no-at-sign",
        "a@b",
        "two@@example.org",
        "x y@example.org",
        "a@example.org\r\nBcc: z@e.org",
    ):
        r = post(client, "/api/account/email", {"email": bad})
        assert r.status_code == 422, r.text
        assert r.json()["error"]["code"] == "bad_email" and "'email'" in r.text
    for body in ({"email": 5}, {"email": "a@example.org", "extra": 1}, {}):
        r = post(client, "/api/account/email", body)
        assert r.status_code == 422, r.text
    assert ok(client.get("/api/account/email"))["email"] is None  # nothing changed
    ok(post(client, "/api/account/email", {"email": " hanako@example.org "}))
    assert ok(client.get("/api/account/email"))["email"] == "hanako@example.org"
    ok(post(client, "/api/account/email", {"email": None}))
    assert ok(client.get("/api/account/email"))["email"] is None
    ok(post(client, "/api/account/email", {"email": "hanako@example.org"}))
    r = client.post("/api/account/email", json={"email": "x@example.org"})  # no CSRF token
    assert r.status_code == 403, r.text
    account_id = ok(client.get("/api/account/me"))["account"]["id"]
    ok(post(client, "/api/account/delete", {"password": "password hanako"}))
    assert service(client).turn_based.email(account_id) is None


# -- the e-mail hook ---------------------------------------------------------------------------


class Sink:
    """aiosmtpd's handler: keeps every message it is given (nothing leaves the machine)."""

    def __init__(self) -> None:
        self.messages: list[Any] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        with self.lock:
            self.messages.append(envelope)
        return "250 OK"


@pytest.fixture
def smtp_sink() -> Iterator[tuple[Sink, int]]:
    sink = Sink()
    port = free_port()
    controller = Controller(sink, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield sink, port
    finally:
        controller.stop()


def wait_for(what: Callable[[], bool], label: str) -> None:
    deadline = time.monotonic() + 30  # a safety net only
    while not what():
        assert time.monotonic() < deadline, f"timed out waiting for {label}"
        time.sleep(0.02)


def test_your_turn_mail_goes_to_the_seats_owner_of_a_turn_based_game_only(
    make_client: Callable[..., TestClient], smtp_sink: tuple[Sink, int]
) -> None:
    sink, port = smtp_sink
    mail = {
        "smtp_host": "127.0.0.1",
        "smtp_port": port,
        "smtp_from": "sengoku@example.org",
        "public_url": "https://sengoku.example.org/",
    }
    with make_client(**CHEAP, **mail) as client:
        svc = service(client)

        def mails_in_flight() -> int:
            return sum(1 for t in svc._tasks if "_send" in repr(t.get_coro()))

        turn_based = new_match(
            client,
            clock={"type": "correspondence", "days": 3},
            seats=[{"kind": "local", "name": "Taro"}, {"kind": "local", "name": "Jiro"}],
        )
        real_time = new_match(
            client,
            clock={"type": "fischer", "initial": 600, "increment": 5},
            seats=[{"kind": "local", "name": "Taro"}, {"kind": "local", "name": "Jiro"}],
        )
        sign_up(client, "Taro")
        ok(post(client, "/api/account/email", {"email": "taro@example.org"}))
        assert ok(client.get("/api/account/email"))["mails_sent_here"] is True
        for m in (turn_based, real_time):
            claim(client, m["tokens"]["0"])
        # Taro moves, then Jiro (no account): it is Taro's turn in both games
        for m in (real_time, turn_based):
            play(client, m["id"], m["tokens"]["0"])
            play(client, m["id"], m["tokens"]["1"])
        wait_for(lambda: len(sink.messages) >= 1, "the mail")
        wait_for(lambda: on_loop(client, mails_in_flight) == 0, "every mail task")
        # one mail: Taro's turn in the turn-based game (Jiro gave no address; the real-time
        # game sends none), with the game, the opponent and the link, and nothing else
        assert len(sink.messages) == 1
        envelope = sink.messages[0]
        assert envelope.rcpt_tos == ["taro@example.org"]
        assert envelope.mail_from == "sengoku@example.org"
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        link = f"https://sengoku.example.org/play/{turn_based['id']}"
        assert message["Subject"] == "Your turn in Secret Nim (a test game) against Jiro"
        assert message["To"] == "taro@example.org"
        assert not message.is_multipart()  # one plain text: no attachment, no picture
        body = message.get_content().replace("\r\n", "\n")
        assert body == (
            f"It is your turn in Secret Nim (a test game) against Jiro: {link}\n\n"
            "(You receive this because your Sengoku account has this address; remove it on "
            "your account page to receive no more.)\n"
        )
        assert svc.mail.sent == 1


def test_a_mail_server_that_is_down_never_fails_a_move(
    make_client: Callable[..., TestClient],
) -> None:
    port = free_port()  # nothing listens there
    settings = {"smtp_host": "127.0.0.1", "smtp_port": port, "smtp_from": "s@example.org"}
    with make_client(**CHEAP, **settings) as client:
        m = new_match(client, clock={"type": "correspondence", "days": 1})
        sign_up(client, "Taro")
        claim(client, m["tokens"]["0"])
        ok(post(client, "/api/account/email", {"email": "taro@example.org"}))
        play(client, m["id"], m["tokens"]["0"])
        after = play(client, m["id"], m["tokens"]["1"])  # Taro's turn: the mail fails
        assert after["ply"] == 2
        svc = service(client)
        wait_for(
            lambda: (
                on_loop(client, lambda: sum("_send" in repr(t.get_coro()) for t in svc._tasks)) == 0
            ),
            "the try",
        )
        assert svc.mail.sent == 0
        assert ok(client.get(f"/api/matches/{m['id']}"))["status"] == "active"


# -- the test hook that moves a real server's clock ------------------------------------------


def test_file_clock_adds_the_files_seconds_and_is_off_by_default(tmp_path: Path) -> None:
    assert settings_from_env("sqlite://", {}).test_clock_file == ""
    path = tmp_path / "offset"
    clock = FileClock(str(path))
    assert abs(clock() - time.time()) < 60  # no file: the machine's time
    path.write_text("86400")
    assert clock.read_offset() == 86_400.0
    path.write_text("")  # being rewritten: the last offset holds
    assert clock.read_offset() == 86_400.0
    path.write_text("nan")
    assert clock.read_offset() == 86_400.0


def set_offset(path: Path, seconds: float) -> None:
    part = path.with_suffix(".part")
    part.write_text(str(seconds))
    os.replace(part, path)  # the server never reads half a number


def test_a_turn_based_flag_falls_on_a_real_server_when_its_clock_moves(tmp_path: Path) -> None:
    offset = tmp_path / "clock-offset"
    set_offset(offset, 0)
    with real_server(
        tmp_path, SENGOKU_TEST_CLOCK_FILE=str(offset), SENGOKU_FLAG_SWEEP="0.2"
    ) as server:
        assert "SENGOKU_TEST_CLOCK_FILE is set" in server.logs()
        assert "never set it in production" in server.logs()
        r = server.create(
            {
                "game": "gungi",
                "seats": [{"kind": "local"}, {"kind": "local"}],
                "clock": {"type": "correspondence", "days": 2},
            }
        )
        created = ok(r)
        mid, loser = created["id"], created["match"]["to_act"]
        assert created["match"]["clocks"]["running"] == loser
        set_offset(offset, 2 * DAY - 600)  # ten minutes short: the game goes on
        snap = ok(server.http.get(f"/api/matches/{mid}"))
        assert snap["status"] == "active"
        assert 0 < snap["clocks"]["remaining"][loser] <= 600
        set_offset(offset, 2 * DAY + 60)

        def stored() -> tuple[str, str | None]:
            with sqlite3.connect(server.db) as conn:
                row = conn.execute(
                    "SELECT status, result FROM matches WHERE id = ?", (mid,)
                ).fetchone()
            return str(row[0]), row[1]

        # nobody asks for the match: the database is read until the server has ended it
        wait_for(lambda: stored()[0] == "finished", "the flag to fall")
        status, result = stored()
        assert status == "finished" and result is not None and '"timeout"' in result
        final = ok(server.http.get(f"/api/matches/{mid}"))
        assert final["result"]["reason"] == "timeout"
        assert loser not in final["result"]["winners"]


def test_the_email_migration_goes_up_and_down(tmp_path: Path) -> None:
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import inspect

    from sengoku.server.db import MIGRATIONS, make_engine, migrate

    engine = make_engine(f"sqlite:///{tmp_path / 'm.db'}")
    migrate(engine)

    def columns() -> set[str]:
        return {c["name"] for c in inspect(engine).get_columns("accounts")}

    assert "email" in columns()
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0008_rated_matches")
    assert "email" not in columns() and "name_key" in columns()
    migrate(engine)
    assert "email" in columns()
    engine.dispose()


def test_a_rated_turn_based_flag_stores_the_result_with_the_ratings_on_a_real_server(
    tmp_path: Path,
) -> None:
    """Issue 37: a rated game of days per move between two accounts on a real server
    process; the server's clock is moved past the deadline (the test hook), the flag falls
    with nobody asking, and the result and both rating changes are stored together."""
    import httpx

    offset = tmp_path / "clock-offset"
    set_offset(offset, 0)
    with real_server(
        tmp_path, SENGOKU_TEST_CLOCK_FILE=str(offset), SENGOKU_FLAG_SWEEP="0.2"
    ) as server:
        browsers = []
        for name in ("ann_days", "ben_days"):
            browser = httpx.Client(base_url=server.base, timeout=30)
            ok(browser.get("/api/account/me"))  # hands out the CSRF cookie
            browser.headers.update(
                {"Origin": server.base, "X-CSRF-Token": browser.cookies["sengoku_csrf"]}
            )
            r = browser.post("/api/account/signup", json={"name": name, "password": "long enough"})
            assert r.status_code == 201, r.text
            browsers.append(browser)
        ann, ben = browsers
        try:
            created = ok(
                ann.post(
                    "/api/matches",
                    json={
                        "game": "gungi",
                        "seats": [{"kind": "local"}, {"kind": "invite"}],
                        "clock": {"type": "correspondence", "days": 1},
                        "rated": True,
                    },
                )
            )
            mid = created["id"]
            invite = created["invites"][0]["invite"]
            ok(ben.post(f"/api/matches/{mid}/join", json={"invite": invite}))
            loser = ok(server.http.get(f"/api/matches/{mid}"))["to_act"]
            set_offset(offset, DAY + 60)

            def stored() -> tuple[str, int]:
                with sqlite3.connect(server.db) as conn:
                    status = conn.execute(
                        "SELECT status FROM matches WHERE id = ?", (mid,)
                    ).fetchone()[0]
                    changes = conn.execute(
                        "SELECT count(*) FROM rating_changes WHERE match_id = ?", (mid,)
                    ).fetchone()[0]
                return str(status), int(changes)

            # nobody asks for the match: the database is read until the server has ended it
            wait_for(lambda: stored()[0] == "finished", "the flag to fall")
            assert stored() == ("finished", 2)  # the result and both ratings, together
            final = ok(server.http.get(f"/api/matches/{mid}"))
            assert final["result"]["reason"] == "timeout"
            assert loser not in final["result"]["winners"]
            lost = next(s for s in final["ratings"]["seats"] if s["seat"] == loser)
            won = next(s for s in final["ratings"]["seats"] if s["seat"] != loser)
            assert lost["delta"] < 0 < won["delta"], final["ratings"]
        finally:
            for browser in browsers:
                browser.close()
