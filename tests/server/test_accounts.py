"""Player accounts through the app (FastAPI's test client): sign up and in, sessions,
CSRF, limits, claims, deletion, export, and the migration that makes their tables.
(Attacks on a real server process: test_accounts_attacks.py.)"""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Literal

import pytest
from argon2 import PasswordHasher
from conftest import auth, new_match
from fastapi.testclient import TestClient
from sqlalchemy import inspect, text

from sengoku.server.db import MIGRATIONS, make_engine, migrate

ORIGIN = "http://testserver"
#: Argon2 at a test's cost (the hashes are still Argon2id; only their cost is lower).
CHEAP = {"argon2_time_cost": 1, "argon2_memory_kib": 1024, "argon2_parallelism": 1}


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> Iterator[TestClient]:
    with make_client(**CHEAP) as c:
        yield c


def csrf(client: TestClient) -> dict[str, str]:
    """The headers a page of this server sends: its origin and the CSRF cookie echoed."""
    if "sengoku_csrf" not in client.cookies:
        r = client.get("/api/account/me")
        assert r.status_code == 200, r.text
    return {"Origin": ORIGIN, "X-CSRF-Token": client.cookies["sengoku_csrf"]}


def post(client: TestClient, path: str, body: Any = None) -> Any:
    return client.post(path, json=body, headers=csrf(client))


def sign_up(client: TestClient, name: str = "Taro", password: str = "correct horse") -> Any:
    r = post(client, "/api/account/signup", {"name": name, "password": password})
    assert r.status_code == 201, r.text
    return r.json()["account"]


def plant(client: TestClient, name: str, value: str) -> None:
    """Replace the cookie ``name`` (whatever domain it was set for) with ``value``."""
    client.cookies.delete(name)
    client.cookies.set(name, value, domain="testserver.local")


def me(client: TestClient) -> Any:
    r = client.get("/api/account/me")
    assert r.status_code == 200, r.text
    return r.json()["account"]


def test_sign_up_sign_in_sign_out(client: TestClient) -> None:
    account = sign_up(client)
    assert me(client)["name"] == "Taro"
    cookie = client.cookies["sengoku_session"]
    r = post(client, "/api/account/signout")
    assert r.status_code == 200, r.text
    assert me(client) is None
    plant(client, "sengoku_session", cookie)  # the old cookie is dead on the server too
    assert me(client) is None
    r = post(client, "/api/account/signin", {"name": "tARO", "password": "correct horse"})
    assert r.status_code == 200, r.text
    assert r.json()["account"]["id"] == account["id"]
    set_cookie = r.headers["set-cookie"].lower()
    assert "httponly" in set_cookie and "samesite=lax" in set_cookie and "path=/" in set_cookie
    assert me(client)["name"] == "Taro"


def test_names_are_unique_whatever_their_case_and_checked(client: TestClient) -> None:
    sign_up(client, "Hanako")
    r = post(client, "/api/account/signup", {"name": "HANAKO", "password": "another one"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "name_taken", r.text
    for bad in ("a", "x y", "-lead", "<script>", "a" * 33):
        r = post(client, "/api/account/signup", {"name": bad, "password": "long enough"})
        assert r.status_code == 422 and r.json()["error"]["code"] == "bad_name", (bad, r.text)
    r = post(client, "/api/account/signup", {"name": "Jiro", "password": "short"})
    assert r.status_code == 422 and "'password'" in r.json()["error"]["message"], r.text
    # in the page's language (docs/i18n.md), the field and the bounds filled in after
    from sengoku.server.accounts import MAX_PASSWORD, MIN_PASSWORD

    client.cookies.set("sengoku_lang", "ja")
    r = post(client, "/api/account/signup", {"name": "Jiro", "password": "short"})
    assert r.status_code == 422, r.text
    assert r.json()["error"]["message"] == f"'password'：{MIN_PASSWORD}〜{MAX_PASSWORD} 文字"
    client.cookies.delete("sengoku_lang")


def test_passwords_are_stored_as_argon2id_only(client: TestClient, db_url: str) -> None:
    sign_up(client, "Saburo", "my secret words")
    with make_engine(db_url).connect() as conn:
        stored = conn.execute(text("select password_hash from accounts")).scalar_one()
        session = conn.execute(text("select id_hash from account_sessions")).scalar_one()
    assert stored.startswith("$argon2id$") and "my secret words" not in stored
    assert session != client.cookies["sengoku_session"] and len(session) == 64


def test_an_unknown_name_answers_as_a_wrong_password_after_the_same_argon2_work(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    sign_up(client, "Shiro", "right password")
    post(client, "/api/account/signout")
    accounts = client.app.state.accounts  # type: ignore[attr-defined]
    calls: list[str] = []

    class Counting(PasswordHasher):
        def verify(self, hash: str | bytes, password: str | bytes) -> Literal[True]:
            calls.append(str(hash))
            return super().verify(hash, password)

    old = accounts.hasher
    monkeypatch.setattr(
        accounts,
        "hasher",
        Counting(old.time_cost, old.memory_cost, old.parallelism, old.hash_len, old.salt_len),
    )
    wrong = post(client, "/api/account/signin", {"name": "Shiro", "password": "wrong password"})
    unknown = post(client, "/api/account/signin", {"name": "Nobody", "password": "any password"})
    assert wrong.status_code == unknown.status_code == 401, (wrong.text, unknown.text)
    assert wrong.content == unknown.content
    # one Argon2 verification each, with the same cost parameters
    assert len(calls) == 2
    assert calls[0].rsplit("$", 2)[0] == calls[1].rsplit("$", 2)[0]


def test_sign_in_rotates_the_session_and_drops_the_one_brought(
    client: TestClient, db_url: str
) -> None:
    sign_up(client, "Goro", "password five")
    first = client.cookies["sengoku_session"]
    r = post(client, "/api/account/signin", {"name": "Goro", "password": "password five"})
    assert r.status_code == 200, r.text
    second = client.cookies["sengoku_session"]
    assert second != first
    plant(client, "sengoku_session", first)
    assert me(client) is None  # the session brought to the sign-in no longer exists


def test_csrf_cookie_header_and_origin_are_required(client: TestClient) -> None:
    sign_up(client, "Rokuro", "password six")
    token = client.cookies["sengoku_csrf"]
    body: dict[str, list[str]] = {"tokens": []}
    cases = [
        ({"Origin": ORIGIN}, "csrf"),  # no header
        ({"Origin": ORIGIN, "X-CSRF-Token": token + "x"}, "csrf"),
        ({"Origin": "https://evil.example", "X-CSRF-Token": token}, "cross_origin"),
        ({"X-CSRF-Token": token}, "cross_origin"),  # neither Origin nor Referer
        ({"Origin": "null", "X-CSRF-Token": token}, "cross_origin"),
    ]
    for headers, code in cases:
        r = client.post("/api/account/claim", json=body, headers=headers)
        assert r.status_code == 403 and r.json()["error"]["code"] == code, (headers, r.text)
    r = client.post(
        "/api/account/claim", json=body, headers={"Referer": f"{ORIGIN}/", "X-CSRF-Token": token}
    )
    assert r.status_code == 200, r.text
    # a token this server did not sign is refused even when cookie and header agree
    plant(client, "sengoku_csrf", "forged")
    r = client.post(
        "/api/account/claim", json=body, headers={"Origin": ORIGIN, "X-CSRF-Token": "forged"}
    )
    assert r.status_code == 403 and r.json()["error"]["code"] == "csrf", r.text


def test_bearer_requests_are_unchanged_and_sign_in_needs_csrf(client: TestClient) -> None:
    # the game API without cookies: no Origin, no CSRF header, as before
    m = new_match(client)
    assert client.get(f"/api/matches/{m['id']}", headers=auth(m["tokens"]["0"])).status_code == 200
    # signing in from another site is refused (no login CSRF)
    r = client.post("/api/account/signup", json={"name": "Evil", "password": "password!!"})
    assert r.status_code == 403, r.text
    # signed in, a move with the seat token still needs nothing more
    sign_up(client, "Nanao", "password seven")
    r = client.post(f"/api/matches/{m['id']}/resign", headers=auth(m["tokens"]["0"]))
    assert r.status_code == 200, r.text


def test_create_and_join_while_signed_in_own_the_seats(client: TestClient) -> None:
    sign_up(client, "Hachi", "password eight")
    r = client.post(
        "/api/matches",
        json={"game": "secretnim", "seats": [{"kind": "local"}, {"kind": "invite"}]},
        headers=csrf(client),
    )
    assert r.status_code == 201, r.text
    m = r.json()
    r = post(client, f"/api/matches/{m['id']}/join", {"invite": m["invites"][0]["invite"]})
    assert r.status_code == 200, r.text
    r = client.get("/api/account/seats")
    assert r.status_code == 200, r.text
    assert r.json()["seats"] == [{"match_id": m["id"], "seat": 0}, {"match_id": m["id"], "seat": 1}]


def test_claim_takes_seats_by_token_and_refuses_another_accounts(
    make_client: Callable[..., TestClient],
) -> None:
    with make_client(**CHEAP) as a, make_client(**CHEAP) as b:
        m = new_match(a)  # as a guest
        sign_up(a, "Kyu", "password nine")
        r = post(a, "/api/account/claim", {"tokens": [m["tokens"]["0"], "x" * 40]})
        assert r.status_code == 200, r.text
        assert r.json() == {"claimed": [{"match_id": m["id"], "seat": 0}], "refused": []}
        sign_up(b, "Ju", "password ten")
        r = post(b, "/api/account/claim", {"tokens": [m["tokens"]["0"], m["tokens"]["1"]]})
        assert r.status_code == 200, r.text
        assert r.json()["claimed"] == [{"match_id": m["id"], "seat": 1}]
        assert r.json()["refused"][0]["match_id"] == m["id"] and r.json()["refused"][0]["seat"] == 0
        assert a.get("/api/account/seats").json()["seats"] == [{"match_id": m["id"], "seat": 0}]
        r = post(b, "/api/account/claim", {"tokens": ["bad token!"]})
        assert r.status_code == 422, r.text
        # the seat tokens stay the authority for acting: one seat's token never acts in another
        r = b.post(f"/api/matches/{m['id']}/resign", headers=auth("y" * 43))
        assert r.status_code in (401, 403), r.text


def test_change_password_ends_the_other_sessions(make_client: Callable[..., TestClient]) -> None:
    with make_client(**CHEAP) as a, make_client(**CHEAP) as b:
        sign_up(a, "Juichi", "old password")
        r = post(b, "/api/account/signin", {"name": "Juichi", "password": "old password"})
        assert r.status_code == 200, r.text
        r = post(a, "/api/account/password", {"old_password": "wrong!!!", "new_password": "x" * 9})
        assert r.status_code == 401, r.text
        r = post(
            a, "/api/account/password", {"old_password": "old password", "new_password": "new one!"}
        )
        assert r.status_code == 200, r.text
        assert me(a)["name"] == "Juichi" and me(b) is None
        r = post(b, "/api/account/signin", {"name": "Juichi", "password": "old password"})
        assert r.status_code == 401, r.text
        r = post(b, "/api/account/signin", {"name": "Juichi", "password": "new one!"})
        assert r.status_code == 200, r.text


def test_delete_anonymises_the_seats_keeps_the_games_and_kills_the_cookie(
    client: TestClient,
) -> None:
    sign_up(client, "Juni", "password twelve")
    r = client.post(
        "/api/matches",
        json={"game": "secretnim", "seats": [{"kind": "local", "name": "Juni"}, {"kind": "local"}]},
        headers=csrf(client),
    )
    assert r.status_code == 201, r.text
    m = r.json()
    cookie = client.cookies["sengoku_session"]
    r = post(client, "/api/account/delete", {"password": "wrong password"})
    assert r.status_code == 401, r.text
    r = post(client, "/api/account/delete", {"password": "password twelve"})
    # both seats of a hot-seat game are the account's (its browser holds both tokens)
    assert r.status_code == 200 and r.json()["seats_anonymised"] == 2, r.text
    match = client.get(f"/api/matches/{m['id']}").json()
    assert [s["name"] for s in match["seats"]] == ["deleted player"] * 2, match["seats"]
    client.app.state.service.live.clear()  # type: ignore[attr-defined]
    match = client.get(f"/api/matches/{m['id']}").json()  # as stored, too
    assert [s["name"] for s in match["seats"]] == ["deleted player"] * 2, match["seats"]
    plant(client, "sengoku_session", cookie)
    assert me(client) is None
    r = post(client, "/api/account/claim", {"tokens": []})
    assert r.status_code == 401, r.text
    r = post(client, "/api/account/signin", {"name": "Juni", "password": "password twelve"})
    assert r.status_code == 401, r.text
    sign_up(client, "Juni", "a new account")  # the name is free again


def test_delete_takes_the_name_out_of_the_join_events_too(client: TestClient) -> None:
    """Delete an account (issue 37: "their games stay, anonymised"): the name it joined a
    match under leaves the stored events, the events of a match in memory, and its chat."""
    m = new_match(client, seats=[{"kind": "local"}, {"kind": "invite"}])
    sign_up(client, "Kuromi", "password fourteen")
    invite = m["invites"][0]["invite"]
    r = client.post(
        f"/api/matches/{m['id']}/join",
        json={"invite": invite, "name": "Kuromi"},
        headers=csrf(client),
    )
    assert r.status_code == 200, r.text
    assert "Kuromi" in json.dumps(client.get(f"/api/matches/{m['id']}/events").json())
    token = r.json()["token"]
    said = client.post(
        f"/api/matches/{m['id']}/chat", json={"text": "good game"}, headers=auth(token)
    )
    assert said.status_code == 201, said.text
    chat = client.get(f"/api/matches/{m['id']}/chat", headers=auth(token)).json()
    assert [c["name"] for c in chat["messages"]] == ["Kuromi"], chat
    r = post(client, "/api/account/delete", {"password": "password fourteen"})
    assert r.status_code == 200 and r.json()["seats_anonymised"] == 1, r.text
    assert "Kuromi" not in json.dumps(client.get(f"/api/matches/{m['id']}/events").json())
    chat = client.get(f"/api/matches/{m['id']}/chat").json()
    assert "Kuromi" not in json.dumps(chat) and chat["messages"], chat
    client.app.state.service.live.clear()  # type: ignore[attr-defined]
    stored = client.get(f"/api/matches/{m['id']}/events").json()
    assert "Kuromi" not in json.dumps(stored)
    assert any(
        e["event"].get("type") == "player_joined" and e["event"]["name"] == "deleted player"
        for e in stored["events"]
    ), stored


def test_export_zips_the_records_of_finished_games(client: TestClient) -> None:
    m = new_match(client)
    other = new_match(client)
    sign_up(client, "Jusan", "password thirteen")
    r = post(client, "/api/account/claim", {"tokens": [m["tokens"]["0"], other["tokens"]["1"]]})
    assert r.status_code == 200, r.text
    r = client.post(f"/api/matches/{m['id']}/resign", headers=auth(m["tokens"]["1"]))
    assert r.status_code == 200, r.text
    r = client.get("/api/account/export")
    assert r.status_code == 200 and r.headers["content-type"] == "application/zip", r.text
    z = zipfile.ZipFile(io.BytesIO(r.content))
    listing = json.loads(z.read("games.json"))
    assert listing["account"] == "Jusan"
    by_id = {g["id"]: g for g in listing["games"]}
    assert by_id[other["id"]]["record"] is None and by_id[other["id"]]["why"] == "in_progress"
    record = json.loads(z.read(f"{m['id']}.json"))
    assert record == client.get(f"/api/records/{m['id']}").json()
    assert sorted(z.namelist()) == sorted(["games.json", f"{m['id']}.json"])


def test_sign_in_is_limited_per_name_and_per_address(
    make_client: Callable[..., TestClient],
) -> None:
    with make_client(**CHEAP, signin_name_burst=3.0, signin_name_rate=0.0001) as client:
        sign_up(client, "Jushi", "password fourteen")
        for _ in range(2):  # sign-up spent nothing of the name's budget
            r = post(client, "/api/account/signin", {"name": "Jushi", "password": "wrong pass"})
            assert r.status_code == 401, r.text
        r = post(client, "/api/account/signin", {"name": "JUSHI", "password": "password fourteen"})
        assert r.status_code == 200, r.text
        r = post(client, "/api/account/signin", {"name": "jushi", "password": "password fourteen"})
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited", r.text
        assert int(r.headers["retry-after"]) >= 1
        # another name is still open to this address
        r = post(client, "/api/account/signin", {"name": "Other", "password": "password!"})
        assert r.status_code == 401, r.text
    with make_client(**CHEAP, signin_client_burst=2.0, signin_client_rate=0.0001) as client:
        for name in ("A1", "B2"):
            r = post(client, "/api/account/signin", {"name": name, "password": "password!"})
            assert r.status_code == 401, r.text
        r = post(client, "/api/account/signin", {"name": "C3", "password": "password!"})
        assert r.status_code == 429, r.text
        # said in the request's language, the seconds filled in after
        client.cookies.set("sengoku_lang", "fr")
        r = post(client, "/api/account/signin", {"name": "D4", "password": "password!"})
        assert r.status_code == 429, r.text
        wait = r.headers["retry-after"]
        assert r.json()["error"]["message"] == (
            f"trop de tentatives de connexion depuis votre adresse ; réessayez dans {wait} s"
        )


def test_the_accounts_migration_goes_up_and_down(tmp_path: Path) -> None:
    from alembic import command
    from alembic.config import Config

    engine = make_engine(f"sqlite:///{tmp_path / 'm.db'}")
    migrate(engine)
    tables = {"accounts", "account_sessions", "account_seats", "server_secrets"}
    assert tables <= set(inspect(engine).get_table_names())
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0005")
    inspector = inspect(engine)
    assert not tables & set(inspector.get_table_names())
    assert "ix_seats_token_hash" not in {i["name"] for i in inspector.get_indexes("seats")}
    migrate(engine)
    inspector = inspect(engine)
    assert tables <= set(inspector.get_table_names())
    assert "ix_seats_token_hash" in {i["name"] for i in inspector.get_indexes("seats")}
    from alembic.script import ScriptDirectory

    with engine.connect() as conn:
        # up again to the newest migration (later ones, 0007_ratings on, go up with it)
        assert conn.execute(text("select version_num from alembic_version")).scalar_one() == (
            ScriptDirectory.from_config(cfg).get_current_head()
        )


def test_accounts_on_postgresql(make_client: Callable[..., TestClient]) -> None:
    """The same tables and queries on PostgreSQL: up, down and up again, then an account's
    life (sign-up, claim, another account refused, deletion)."""
    from alembic import command
    from alembic.config import Config
    from test_server_postgres import cluster

    with cluster(fsync=False) as url:
        engine = make_engine(url)
        migrate(engine)
        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        with engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.downgrade(cfg, "0005")
        assert "accounts" not in inspect(engine).get_table_names()
        engine.dispose()
        with make_client(db_url=url, **CHEAP) as a, make_client(db_url=url, **CHEAP) as b:
            m = new_match(a)
            sign_up(a, "Pg", "postgres password")
            r = post(a, "/api/account/claim", {"tokens": [m["tokens"]["0"]]})
            assert r.status_code == 200 and len(r.json()["claimed"]) == 1, r.text
            sign_up(b, "pG2", "postgres password")
            r = post(b, "/api/account/claim", {"tokens": [m["tokens"]["0"]]})
            assert r.status_code == 200 and len(r.json()["refused"]) == 1, r.text
            r = post(b, "/api/account/signup", {"name": "PG", "password": "postgres password"})
            assert r.status_code == 409, r.text
            r = post(a, "/api/account/delete", {"password": "postgres password"})
            assert r.status_code == 200 and r.json()["seats_anonymised"] == 1, r.text
            assert me(a) is None
