"""Looking back during a game (``GET /api/matches/{id}/position``): each earlier position is
the engine's, replayed, as the seat saw it; the copies the server keeps every few actions to
answer quickly are never used after a takeback changed the actions that led to them."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from conftest import auth, new_match
from fastapi.testclient import TestClient

from sengoku.core.registry import load_game
from sengoku.server.positions import EVERY

GAME = load_game("gungi")


def reference(actions: list[str], ply: int, seat: int) -> Any:
    state = GAME.new_state(5, mode="intro")
    for text in actions[:ply]:
        state.apply(GAME.parse_action(state, text))
    return state.view(seat)


def play(client: TestClient, mid: str, tokens: dict[str, str], rng: random.Random) -> str:
    snap = client.get(f"/api/matches/{mid}", headers=auth(tokens["0"])).json()
    seat = str(snap["to_act"])
    snap = client.get(f"/api/matches/{mid}", headers=auth(tokens[seat])).json()
    action = rng.choice(snap["legal"])["action"]
    r = client.post(
        f"/api/matches/{mid}/actions",
        json={"action": action, "ply": snap["ply"]},
        headers=auth(tokens[seat]),
    )
    assert r.status_code == 200, r.text
    return str(action)


def test_positions_are_the_engines_before_and_after_a_takeback(
    make_client: Callable[..., TestClient],
) -> None:
    rng = random.Random(3)
    with make_client(http_burst=1e9) as client:
        m = new_match(client, game="gungi", seed=5, options={"mode": "intro"})
        mid, tokens = m["id"], m["tokens"]
        actions = [play(client, mid, tokens, rng) for _ in range(EVERY + 8)]

        def check(ply: int) -> None:
            for seat in (0, 1):
                got = client.get(
                    f"/api/matches/{mid}/position?ply={ply}", headers=auth(tokens[str(seat)])
                )
                assert got.status_code == 200, got.text
                body = got.json()
                assert body["view"] == reference(actions, ply, seat), ply
                assert body["action"] == (actions[ply - 1] if ply else None)

        for ply in (EVERY + 5, EVERY + 1, EVERY, 3, 0, len(actions)):
            check(ply)  # the first ones leave a copy at EVERY actions
        # Take moves back to below that copy, play others, and look again.
        while len(actions) > EVERY - 4:
            before = client.get(f"/api/matches/{mid}", headers=auth(tokens["0"])).json()
            offerer = str(1 - before["to_act"]) if before["to_act"] in (0, 1) else "0"
            client.post(f"/api/matches/{mid}/takeback", headers=auth(tokens[offerer]))
            r = client.post(
                f"/api/matches/{mid}/takeback", headers=auth(tokens[str(1 - int(offerer))])
            )
            assert r.status_code == 200, r.text
            actions = actions[: r.json()["ply"]]
        actions += [play(client, mid, tokens, rng) for _ in range(12)]
        for ply in (EVERY + 2, EVERY, len(actions)):
            check(ply)
        past = client.get(f"/api/matches/{mid}/position?ply={len(actions) + 1}")
        assert past.status_code == 422
        for bad in ("-1", "x", "1e9"):
            assert client.get(f"/api/matches/{mid}/position?ply={bad}").status_code == 422
