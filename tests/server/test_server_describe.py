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
