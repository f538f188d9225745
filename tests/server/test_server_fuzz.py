"""Fuzzing: malformed requests of every shape get a 4xx JSON error and change nothing."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from conftest import auth, new_match
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sengoku.core.registry import load_game

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4)
    ),
    max_leaves=12,
)

keys = st.sampled_from(
    ["game", "options", "seats", "seed", "clock", "action", "ply", "invite", "name", "accept"]
)
bodies = st.one_of(
    json_values,
    st.dictionaries(keys, json_values, max_size=5),
    st.fixed_dictionaries(
        {
            "game": st.sampled_from(["secretnim", "gungi", "", "x" * 70]),
            "seats": st.lists(
                st.fixed_dictionaries(
                    {"kind": st.sampled_from(["local", "ai", "invite", "open", "?"])},
                    optional={"level": json_values, "agent": json_values, "name": json_values},
                ),
                max_size=3,
            ),
        },
        optional={"options": json_values, "clock": json_values, "seed": json_values},
    ),
)
headers = st.one_of(
    st.just({}),
    st.builds(lambda t: {"Authorization": t}, st.text(alphabet=st.characters(max_codepoint=126))),
    st.builds(
        lambda t: {"Authorization": f"Bearer {t}"},
        st.from_regex(r"[A-Za-z0-9_-]{0,60}", fullmatch=True),
    ),
)


#: Budgets no fuzz run exhausts (the limits have their own tests).
NO_LIMITS = {
    f"{kind}_burst": 1e9 for kind in ("http", "create", "import", "replay", "action", "ws")
}

#: Hostile JSON texts: deep nesting, long numbers, NaN, NUL (issue 14 item 8).
hostile_texts = st.one_of(
    st.integers(1, 3000).map(lambda n: "[" * n + "]" * n),
    st.integers(1, 3000).map(lambda n: '{"a":' * n + "1" + "}" * n),
    st.integers(90, 6000).map(lambda n: '{"seed": ' + "9" * n + "}"),
    st.integers(90, 6000).map(lambda n: '{"game": "gungi", "version": 1' + "0" * n + "}"),
    st.sampled_from(['{"seed": NaN}', '{"seed": -Infinity}', '{"game": "gungi\\u0000"}']),
)


def check_error(r: Any) -> None:
    assert r.status_code < 500, r.text
    if r.status_code >= 400:
        err = r.json()["error"]
        assert isinstance(err["code"], str) and isinstance(err["message"], str)


def test_fuzz_every_endpoint(make_client: Callable[..., TestClient]) -> None:
    with make_client(**NO_LIMITS) as client:
        m = new_match(client, options={"pile": 20})
        mid = m["id"]
        before = {
            s: client.get(f"/api/matches/{mid}", headers=auth(m["tokens"][s])).json()
            for s in ("0", "1")
        }
        paths = [
            "/api/matches",
            f"/api/matches/{mid}/actions",
            f"/api/matches/{mid}/join",
            f"/api/matches/{mid}/takeback",
            f"/api/matches/{mid}/resign",
            f"/api/matches/{mid}/abort",
            f"/api/matches/{mid}/claim",
            f"/api/matches/{mid}/rematch",
            "/api/records",
            "/api/replay",
            "/api/replay?seat=1",
            "/api/seeks",
            "/api/seeks/nosuchseek/accept",
        ]

        @settings(
            max_examples=150,
            deadline=None,
            database=None,
            suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
        )
        @given(st.sampled_from(paths), bodies, headers, st.booleans())
        def fuzz(path: str, body: Any, hdrs: dict[str, str], raw: bool) -> None:
            if raw:
                content = json.dumps(body).encode()[:-1] if body is not None else b"\xff\xfe"
                r = client.post(
                    path, content=content, headers={**hdrs, "content-type": "application/json"}
                )
            else:
                r = client.post(path, json=body, headers=hdrs)
            check_error(r)

        fuzz()

        @settings(max_examples=60, deadline=None, database=None)
        @given(st.sampled_from(paths), hostile_texts, headers)
        def fuzz_hostile(path: str, text: str, hdrs: dict[str, str]) -> None:
            r = client.post(
                path, content=text.encode(), headers={**hdrs, "content-type": "application/json"}
            )
            check_error(r)

        fuzz_hostile()

        @settings(max_examples=60, deadline=None, database=None)
        @given(
            st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=126), max_size=40),
            headers,
        )
        def fuzz_get(ident: str, hdrs: dict[str, str]) -> None:
            ident = ident.replace("/", "").replace("?", "").replace("#", "") or "x"
            for path in (f"/api/matches/{ident}", f"/api/records/{ident}", f"/api/games/{ident}"):
                check_error(client.get(path, headers=hdrs))
            r = client.get("/api/matches", params={"status": ident, "limit": ident})
            check_error(r)

        fuzz_get()

        @settings(max_examples=40, deadline=None, database=None)
        @given(st.one_of(st.text(max_size=200), json_values.map(json.dumps), hostile_texts))
        def fuzz_ws(text: str) -> None:
            with client.websocket_connect(f"/ws/matches/{mid}") as ws:
                ws.send_text(text)
                first = ws.receive_json()
                if first["type"] == "welcome":
                    while ws.receive_json()["type"] != "state":
                        pass
                    ws.send_text(text)
                    assert ws.receive_json()["type"] in {"refused", "pong"}
                else:
                    assert first["type"] == "error"

        fuzz_ws()
        # none of it was an action by a seat's holder: nothing changed
        for s in ("0", "1"):
            after = client.get(f"/api/matches/{mid}", headers=auth(m["tokens"][s])).json()
            assert after["ply"] == before[s]["ply"] == 0
            assert after["view"] == before[s]["view"]
            assert after["status"] == "active"


def test_fuzz_every_option_of_every_game(make_client: Callable[..., TestClient]) -> None:
    """Every declared option of every game, with its own values, neighbours of them, paths
    and arbitrary JSON: a 201 whose stored option the game accepts, or a clear 4xx."""
    paths = ["/etc/passwd", "/dev/zero", "../../etc/passwd", "/tmp", "~/.ssh/id_rsa", "."]
    with make_client(**NO_LIMITS) as client:
        described = client.get("/api/games").json()["games"]
        cases = [(g["name"], o) for g in described for o in g["options"]]
        assert {name for name, _o in cases} >= {"gungi", "gunkimono", "gunshi", "sashimono"}

        def values(option: dict[str, Any]) -> st.SearchStrategy[Any]:
            allowed = option["allowed"]
            own: list[Any] = [option["default"], *paths]
            if isinstance(allowed, dict):
                own += [allowed["min"], allowed["max"], allowed["min"] - 1, allowed["max"] + 1]
            else:
                own += list(allowed)
            return st.one_of(st.sampled_from(own), json_values)

        @settings(
            max_examples=300,
            deadline=None,
            database=None,
            suppress_health_check=[HealthCheck.too_slow],
        )
        @given(st.sampled_from(cases).flatmap(lambda c: st.tuples(st.just(c), values(c[1]))))
        def fuzz(case: tuple[tuple[str, dict[str, Any]], Any]) -> None:
            (game, option), value = case
            seats = [{"kind": "local"} for _ in range(5)]
            for n in (1, 2, 3, 4, 5):
                body = {"game": game, "options": {option["name"]: value}, "seats": seats[:n]}
                r = client.post("/api/matches", json=body)
                check_error(r)
                if r.status_code != 422 or r.json()["error"]["code"] != "bad_seats":
                    break
            if r.status_code == 201:
                stored = r.json()["match"]["options"][option["name"]]
                assert load_game(game).options[option["name"]].check(stored) == stored
                assert stored not in paths or option["name"] != "cards"
            else:
                assert r.json()["error"]["code"] in {"bad_option", "bad_request", "bad_json"}

        fuzz()
