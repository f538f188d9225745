"""Attacks on accounts, against a real server process over real sockets: cross-site
requests, a planted session, name enumeration, password guessing, another account's seat,
and a deleted account's cookie. Cookies are handled by hand here, as an attacker would."""

from __future__ import annotations

from collections.abc import Iterator
from http.cookies import SimpleCookie
from typing import Any

import httpx
import pytest
from real_server import RealServer, real_server

NAME_BURST = 5
#: The one HTTP client of this module's browsers (each sends its own cookies by hand).
CLIENT: list[httpx.Client] = []


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RealServer]:
    env = {
        # Argon2id at a test's cost (the answers do not depend on it)
        "SENGOKU_ARGON2_TIME_COST": "1",
        "SENGOKU_ARGON2_MEMORY_KIB": "1024",
        "SENGOKU_ARGON2_PARALLELISM": "1",
        "SENGOKU_SIGNIN_NAME_BURST": str(NAME_BURST),
        "SENGOKU_SIGNIN_NAME_RATE": "0.0001",
        # every browser here is one address: its budget is tested in test_accounts.py
        "SENGOKU_SIGNIN_CLIENT_BURST": "1000",
    }
    with (
        real_server(tmp_path_factory.mktemp("accounts"), **env) as s,
        httpx.Client(base_url=s.base, timeout=20) as http,
    ):
        CLIENT[:] = [http]
        yield s
        CLIENT.clear()


class Browser:
    """One browser's cookies for the server, kept by hand."""

    def __init__(self, server: RealServer) -> None:
        self.server = server
        self.http: httpx.Client = CLIENT[0]
        self.cookies: dict[str, str] = {}

    @property
    def origin(self) -> str:
        return str(self.server.base)

    def send(
        self, method: str, path: str, headers: dict[str, str] | None = None, **kw: Any
    ) -> httpx.Response:
        cookie = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        r = self.http.request(
            method,
            path,
            headers={**({"Cookie": cookie} if cookie else {}), **(headers or {})},
            **kw,
        )
        self.http.cookies.clear()  # httpx's own jar would mix the browsers' cookies
        for line in r.headers.get_list("set-cookie"):
            jar: SimpleCookie = SimpleCookie()
            jar.load(line)
            for name, morsel in jar.items():
                if morsel["max-age"] == "0" or not morsel.value:
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = morsel.value
        return r

    def page_post(self, path: str, body: Any = None) -> httpx.Response:
        """A POST as this server's own page sends it."""
        if "sengoku_csrf" not in self.cookies:
            r = self.send("GET", "/api/account/me")
            assert r.status_code == 200, r.text
        headers = {"Origin": self.origin, "X-CSRF-Token": self.cookies["sengoku_csrf"]}
        return self.send("POST", path, headers=headers, json=body)

    def me(self) -> Any:
        r = self.send("GET", "/api/account/me")
        assert r.status_code == 200, r.text
        return r.json()["account"]


def signed_up(server: RealServer, name: str, password: str) -> Browser:
    b = Browser(server)
    r = b.page_post("/api/account/signup", {"name": name, "password": password})
    assert r.status_code == 201, r.text
    return b


def test_a_cross_site_request_is_refused_and_changes_nothing(server: RealServer) -> None:
    victim = signed_up(server, "Victim1", "victim password")
    token = victim.cookies["sengoku_csrf"]
    # Another site's form or fetch: the browser adds the cookies, but the Origin is theirs
    # and the page cannot read the CSRF cookie to echo it.
    for headers in (
        {"Origin": "https://evil.example", "X-CSRF-Token": token},
        {"Origin": "https://evil.example"},
        {"Referer": "https://evil.example/page", "X-CSRF-Token": token},
        {"Origin": victim.origin},  # same origin without the token
    ):
        r = victim.send(
            "POST", "/api/account/delete", headers=headers, json={"password": "victim password"}
        )
        assert r.status_code == 403, (headers, r.text)
        assert r.json()["error"]["code"] in ("cross_origin", "csrf"), r.text
    r = victim.send(
        "POST",
        "/api/account/delete",
        headers={"Origin": "https://evil.example", "Content-Type": "text/plain"},
        content=b'{"password": "victim password"}',
    )
    assert r.status_code == 403, r.text
    assert victim.me()["name"] == "Victim1"
    # logging the victim into the attacker's account from another site fails the same way
    attacker_form = Browser(server)
    r = attacker_form.send(
        "POST",
        "/api/account/signin",
        headers={"Origin": "https://evil.example"},
        json={"name": "Victim1", "password": "victim password"},
    )
    assert r.status_code == 403, r.text


def test_a_planted_session_id_is_never_the_one_after_sign_in(server: RealServer) -> None:
    signed_up(server, "Fixed1", "fixation password")
    b = Browser(server)
    planted = "attacker-chosen-session-id-0123456789"
    b.cookies["sengoku_session"] = planted
    r = b.page_post("/api/account/signin", {"name": "Fixed1", "password": "fixation password"})
    assert r.status_code == 200, r.text
    assert b.cookies["sengoku_session"] != planted
    assert b.me()["name"] == "Fixed1"
    attacker = Browser(server)
    attacker.cookies["sengoku_session"] = planted
    assert attacker.me() is None


def test_an_unknown_name_and_a_wrong_password_answer_alike(server: RealServer) -> None:
    signed_up(server, "Known1", "known password")
    b = Browser(server)
    wrong = b.page_post("/api/account/signin", {"name": "Known1", "password": "not it at all"})
    unknown = b.page_post("/api/account/signin", {"name": "Unknown1", "password": "not it at all"})
    assert wrong.status_code == unknown.status_code == 401, (wrong.text, unknown.text)
    assert wrong.content == unknown.content
    assert "set-cookie" not in wrong.headers and "set-cookie" not in unknown.headers


def test_password_guessing_is_answered_429_after_the_budget(server: RealServer) -> None:
    signed_up(server, "Guessed1", "the real password")
    b = Browser(server)
    answers = [
        b.page_post("/api/account/signin", {"name": "Guessed1", "password": f"guess {i:04}"})
        for i in range(NAME_BURST + 3)
    ]
    codes = [r.status_code for r in answers]
    assert codes[:NAME_BURST] == [401] * NAME_BURST, [r.text for r in answers]
    assert set(codes[NAME_BURST:]) == {429}, [r.text for r in answers]
    assert int(answers[-1].headers["retry-after"]) >= 1
    # even the right password waits: the budget is the name's, whoever spends it
    r = b.page_post("/api/account/signin", {"name": "guessed1", "password": "the real password"})
    assert r.status_code == 429, r.text


def test_another_accounts_seat_is_refused(server: RealServer) -> None:
    alice = signed_up(server, "Alice1", "alice password")
    r = alice.page_post(
        "/api/matches", {"game": "gungi", "seats": [{"kind": "local"}, {"kind": "local"}]}
    )
    assert r.status_code == 201, r.text
    m = r.json()
    mallory = signed_up(server, "Mallory1", "mallory password")
    # Mallory got hold of Alice's seat token: claiming it for her account is refused
    r = mallory.page_post("/api/account/claim", {"tokens": [m["tokens"]["0"]]})
    assert r.status_code == 200, r.text
    assert r.json()["claimed"] == [] and r.json()["refused"][0]["seat"] == 0, r.text
    r = mallory.send("GET", "/api/account/seats")
    assert r.status_code == 200 and r.json()["seats"] == [], r.text
    # and a session cookie never acts for a seat: only the seat's own token does
    r = mallory.page_post(f"/api/matches/{m['id']}/resign")
    assert r.status_code in (401, 403), r.text
    r = alice.page_post(f"/api/matches/{m['id']}/resign")
    assert r.status_code in (401, 403), r.text
    r = Browser(server).send("GET", f"/api/matches/{m['id']}")
    assert r.status_code == 200 and r.json()["status"] == "active", r.text


def test_a_deleted_accounts_cookie_no_longer_works(server: RealServer) -> None:
    b = signed_up(server, "Gone1", "gone password")
    other = Browser(server)
    r = other.page_post("/api/account/signin", {"name": "Gone1", "password": "gone password"})
    assert r.status_code == 200, r.text
    kept = dict(b.cookies)
    r = b.page_post("/api/account/delete", {"password": "gone password"})
    assert r.status_code == 200, r.text
    for cookies in (kept, other.cookies):  # the deleting browser's old cookie, and another's
        replay = Browser(server)
        replay.cookies = dict(cookies)
        assert replay.me() is None
        r = replay.page_post("/api/account/claim", {"tokens": []})
        assert r.status_code == 401, r.text
        r = replay.page_post(
            "/api/account/password", {"old_password": "gone password", "new_password": "x" * 10}
        )
        assert r.status_code == 401, r.text


def test_the_cookies_attributes(server: RealServer) -> None:
    b = Browser(server)
    r = b.page_post("/api/account/signup", {"name": "Attrs1", "password": "attrs password"})
    assert r.status_code == 201, r.text
    lines = {line.split("=", 1)[0]: line.lower() for line in r.headers.get_list("set-cookie")}
    session = lines["sengoku_session"]
    assert "httponly" in session and "samesite=lax" in session and "path=/" in session
    # plain http here: not Secure (SENGOKU_COOKIE_SECURE=1, or https, makes it Secure)
    assert "secure" not in session
    r = Browser(server).send("GET", "/api/account/me")
    csrf_line = next(x for x in r.headers.get_list("set-cookie") if x.startswith("sengoku_csrf="))
    assert "httponly" not in csrf_line.lower()  # the page must read it to echo it
