"""Every legal choice in every snapshot arrives described as data (issue 16): ``kind``,
``label`` and ``text`` beside its notation, so the browser never parses notation; and
``GET /api/games/{name}`` serves the view's JSON Schema and the game's catalog."""

from __future__ import annotations

import random
from collections.abc import Callable

import jsonschema
import pytest
from conftest import auth, new_match
from fastapi.testclient import TestClient

from sengoku.core.registry import load_game

GAMES = ["gungi", "gunshi", "gunkimono", "sashimono"]
BROKEN = ("[object Object]", "undefined", "NaN", "None")


@pytest.mark.parametrize("game", GAMES)
def test_every_legal_choice_is_described(make_client: Callable[..., TestClient], game: str) -> None:
    rng = random.Random(game)
    schema = load_game(game).view_schema()
    with make_client(create_burst=50) as client:
        m = new_match(client, game=game)
        tokens = m["tokens"]
        for _ in range(40):
            snap = client.get(f"/api/matches/{m['id']}", headers=auth(tokens["0"])).json()
            if snap["status"] != "active":
                break
            seat = str(snap["to_act"])
            snap = client.get(f"/api/matches/{m['id']}", headers=auth(tokens[seat])).json()
            jsonschema.validate(snap["view"], schema)
            assert snap["legal"], snap
            for choice in snap["legal"]:
                for key in ("kind", "label", "text"):
                    assert isinstance(choice[key], str) and choice[key].strip(), choice
                    assert not any(b in choice[key] for b in BROKEN), choice
                assert choice["notation"] == choice["action"]
            pick = rng.choice(snap["legal"])["action"]
            r = client.post(
                f"/api/matches/{m['id']}/actions",
                json={"action": pick, "ply": snap["ply"]},
                headers=auth(tokens[seat]),
            )
            assert r.status_code == 200, r.text


@pytest.mark.parametrize("game", GAMES)
def test_a_game_serves_its_view_schema_and_catalog(
    make_client: Callable[..., TestClient], game: str
) -> None:
    with make_client() as client:
        info = client.get(f"/api/games/{game}").json()
    assert info["view_schema"] == load_game(game).view_schema()
    jsonschema.Draft202012Validator.check_schema(info["view_schema"])
    assert info["catalog"] and info["catalog"] == load_game(game).catalog()


def test_a_played_move_comes_as_data_in_gungi_and_never_in_a_hidden_information_game(
    make_client: Callable[..., TestClient],
) -> None:
    """The last move is shown from data: a Gungi move event carries the description of the
    move as it was chosen (the same as its legal row), and so do an earlier position and a
    replay; a hidden-information game's events carry none (a description could name what
    another seat may not see)."""
    with make_client(create_burst=50) as client:
        m = new_match(client, game="gungi", options={"mode": "intro"})
        mid, tokens = m["id"], m["tokens"]
        chosen = []
        for ply in range(3):
            snap = client.get(f"/api/matches/{mid}", headers=auth(tokens[str(ply % 2)])).json()
            choice = snap["legal"][ply]
            chosen.append({k: v for k, v in choice.items() if k not in ("action", "short")})
            r = client.post(
                f"/api/matches/{mid}/actions",
                json={"action": choice["action"], "ply": ply},
                headers=auth(tokens[str(ply % 2)]),
            )
            assert r.status_code == 200, r.text
        events = client.get(f"/api/matches/{mid}/events").json()["events"]
        moves = [e["event"] for e in events if e["event"]["type"] == "move"]
        assert [mv["described"] for mv in moves] == chosen
        back = client.get(f"/api/matches/{mid}/position?ply=2").json()
        assert back["described"] == chosen[1]

        other = new_match(client, game="sashimono")
        oid, otok = other["id"], other["tokens"]
        for _ in range(6):
            snap = client.get(f"/api/matches/{oid}", headers=auth(otok["0"])).json()
            seat = str(snap["to_act"])
            snap = client.get(f"/api/matches/{oid}", headers=auth(otok[seat])).json()
            r = client.post(
                f"/api/matches/{oid}/actions",
                json={"action": snap["legal"][0]["action"], "ply": snap["ply"]},
                headers=auth(otok[seat]),
            )
            assert r.status_code == 200, r.text
        for s in ("0", "1"):
            evs = client.get(f"/api/matches/{oid}/events", headers=auth(otok[s])).json()
            assert all("described" not in e["event"] for e in evs["events"])
        assert client.get(f"/api/matches/{oid}/position?ply=3").json()["described"] is None
