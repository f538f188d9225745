"""The analysis board's API (``POST /api/board/position``, ``POST /api/board/evaluate``):
positions from every kind of start for every game, checked against the engine; illegal
actions refused with the engine's reason; the engine's top moves legal and its budget
counted in iterations; a live match's position (or its seed) refused; one seat's board never
showing another seat's hidden choices."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from conftest import auth, new_match
from fastapi.testclient import TestClient

from sengoku.analysis import board as board_module
from sengoku.analysis.analyse import AnalysisEngine
from sengoku.core.game import State
from sengoku.core.record import GameRecord
from sengoku.core.registry import load_game

GAMES = ("gungi", "gunshi", "sashimono", "gunkimono")


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> Iterator[TestClient]:
    # The jobs run on a thread of the test's process (the process pool is tested once below).
    with make_client(work_mode="thread", http_burst=1e9) as c:
        yield c


def post(client: TestClient, path: str, body: dict[str, Any], status: int = 200) -> Any:
    r = client.post(path, json=body)
    assert r.status_code == status, r.text
    return r.json()


def random_record(game: str, seed: int, plies: int, **options: Any) -> tuple[GameRecord, State]:
    rng = random.Random(seed)
    record, state = GameRecord.start(load_game(game), seed, None, **options)
    for _ in range(plies):
        if state.is_terminal():
            break
        record.play(state, rng.choice(state.legal_actions()))
    return record, state


def shown(state: State) -> Any:
    return state.view(state.current_player if not state.is_terminal() else None)


@pytest.mark.parametrize("game", GAMES)
def test_a_setup_and_a_record_at_a_ply_give_the_engines_position(
    client: TestClient, game: str
) -> None:
    g = load_game(game)
    start = g.new_state(11)
    body = post(client, "/api/board/position", {"game": game, "seed": 11, "from": {"setup": True}})
    assert body["view"] == shown(start)
    assert [row["action"] for row in body["legal"]] == [str(a) for a in start.legal_actions()]
    assert body["to_act"] == start.current_player and body["actions"] == []

    record, _end = random_record(game, 4, 30)
    ply = 12
    at = record.replay(ply)
    line = [str(a) for a in at.legal_actions()[:1]]
    body = post(
        client,
        "/api/board/position",
        {"game": game, "from": {"record": record.to_json(), "ply": ply}, "actions": line},
    )
    after = at.clone()
    after.apply(g.parse_action(after, line[0]))
    assert body["view"] == shown(after)
    assert body["root"]["ply"] == ply and body["actions"] == line
    # The export is a record that replays to the same position: the record's first plies,
    # then the line.
    exported = GameRecord.from_json(body["export"]["record"])
    assert exported.actions == [*record.actions[:ply], *line]
    assert shown(exported.replay()) == body["view"]


def test_a_line_in_short_notation_comes_back_canonical(client: TestClient) -> None:
    g = load_game("gungi")
    state = g.new_state(0)
    legal = post(client, "/api/board/position", {"game": "gungi", "from": {"setup": True}})["legal"]
    row = next(r for r in legal if r["short"] != r["action"])
    body = post(
        client,
        "/api/board/position",
        {"game": "gungi", "from": {"setup": True}, "actions": [row["short"]]},
    )
    assert body["actions"] == [row["action"]]
    state.apply(g.parse_action(state, row["action"]))
    assert body["view"] == state.view(state.current_player)
    # Gungi is of perfect information: the last move comes as data, for its mark.
    assert body["last"]["from"] == row["from"] and body["last"]["to"] == row["to"]


def test_a_gungi_fen_and_a_gunshi_position_string_start_a_board(client: TestClient) -> None:
    gungi = load_game("gungi")
    record, state = random_record("gungi", 2, 10)
    fen = gungi.to_fen(state)  # type: ignore[attr-defined]
    body = post(client, "/api/board/position", {"game": "gungi", "from": {"fen": fen}})
    assert body["fen"] == fen and body["view"] == shown(gungi.from_fen(fen))
    assert body["view"]["board"] == shown(state)["board"]  # a FEN does not count the plies
    assert body["export"]["kind"] == "fen" and body["export"]["study"]["fen"] == fen

    gunshi = load_game("gunshi")
    record, state = random_record("gunshi", 3, 200, preset="first_battle")
    text = gunshi.position(state)  # type: ignore[attr-defined]
    body = post(
        client,
        "/api/board/position",
        {"game": "gunshi", "options": {"preset": "first_battle"}, "from": {"position": text}},
    )
    assert body["fen"] == text
    mine = gunshi.from_fen(text, preset="first_battle")
    assert body["view"] == shown(mine)
    # The seat to act plays on from the position string.
    first = body["legal"][0]["action"]
    body = post(
        client,
        "/api/board/position",
        {
            "game": "gunshi",
            "options": {"preset": "first_battle"},
            "from": {"position": text},
            "actions": [first],
        },
    )
    assert body["actions"] == [first]


def test_an_illegal_action_is_refused_naming_its_place_and_the_reason(client: TestClient) -> None:
    legal = post(client, "/api/board/position", {"game": "gungi", "from": {"setup": True}})["legal"]
    first = legal[0]["action"]
    r = client.post(
        "/api/board/position",
        json={"game": "gungi", "from": {"setup": True}, "actions": [first, "1-1-1 帥(9-9)"]},
    )
    assert r.status_code == 422, r.text
    error = r.json()["error"]
    assert error["code"] == "illegal_action"
    assert "actions[1]" in error["message"] and "names no legal move" in error["message"]
    # Bad starts name their field.
    for body, code in (
        ({"game": "gungi", "from": {}}, "bad_request"),
        ({"game": "gungi", "from": {"setup": True, "fen": "x"}}, "bad_request"),
        ({"game": "gungi", "from": {"fen": "not a fen"}}, "bad_fen"),
        ({"game": "sashimono", "from": {"fen": "x"}}, "no_fen"),
        ({"game": "gungi", "from": {"setup": True}, "options": {"mode": "chess"}}, "bad_option"),
        ({"game": "nochess", "from": {"setup": True}}, "unknown_game"),
        ({"game": "gungi", "from": {"setup": True}, "seed": True}, "bad_request"),
        ({"game": "gungi", "from": {"setup": True}, "colour": 1}, "bad_request"),
    ):
        r = client.post("/api/board/position", json=body)
        assert r.status_code in (404, 422), r.text
        assert r.json()["error"]["code"] == code, (body, r.text)
    record, _ = random_record("gungi", 1, 5)
    r = client.post(
        "/api/board/position",
        json={"game": "gungi", "from": {"record": record.to_json(), "ply": 6}},
    )
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_ply", r.text


def test_a_finished_match_opens_on_the_board_and_a_live_one_is_refused(
    client: TestClient,
) -> None:
    m = new_match(client, game="gungi", seed=7)
    mid, tokens = m["id"], m["tokens"]
    rng = random.Random(1)
    played = []
    for _ in range(6):
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
        played.append(action)
    live_board = {"game": "gungi", "from": {"match_id": mid, "ply": 3}}
    for path in ("/api/board/position", "/api/board/evaluate"):
        r = client.post(path, json=live_board)
        assert r.status_code == 409 and r.json()["error"]["code"] == "in_progress", r.text
    # The seed of the match in play is refused too, as a setup's or a record's.
    r = client.post(
        "/api/board/position", json={"game": "gungi", "seed": 7, "from": {"setup": True}}
    )
    assert r.status_code == 409 and r.json()["error"]["code"] == "in_progress", r.text
    record = GameRecord("gungi", load_game("gungi").version, {}, 7, [], played[:2])
    r = client.post(
        "/api/board/position", json={"game": "gungi", "from": {"record": record.to_json()}}
    )
    assert r.status_code == 409 and r.json()["error"]["code"] == "in_progress", r.text

    r = client.post(f"/api/matches/{mid}/resign", headers=auth(tokens["0"]))
    assert r.status_code == 200, r.text
    body = post(client, "/api/board/position", live_board)
    g = load_game("gungi")
    state = g.new_state(7, **body["options"])
    for text in played[:3]:
        state.apply(g.parse_action(state, text))
    assert body["view"] == shown(state)
    assert body["export"]["record"]["actions"] == played[:3]


def test_the_engines_top_three_are_legal_and_its_budget_is_counted_in_iterations(
    make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    counted = {"n": 0}
    real = AnalysisEngine.iterate

    def counting(self: Any, root: Any, world: Any, seat: int) -> None:
        counted["n"] += 1
        real(self, root, world, seat)

    monkeypatch.setattr(AnalysisEngine, "iterate", counting)
    with make_client(work_mode="thread", board_max_iterations=60, board_iterations=500) as client:
        for game in GAMES:
            start = {"game": game, "seed": 5, "from": {"setup": True}}
            legal = {r["action"] for r in post(client, "/api/board/position", start)["legal"]}
            counted["n"] = 0
            body = post(client, "/api/board/evaluate", start)
            # The default (500) is held to the server's cap (60), counted in iterations.
            assert body["iterations"] == 60 == counted["n"], (game, body)
            assert 1 <= len(body["top"]) <= 3
            assert {row["action"] for row in body["top"]} <= legal, game
            assert body["best"] == body["top"][0]["action"]
            assert 0.0 <= body["chances"] <= 1.0
            assert body["to_act"] == load_game(game).new_state(5).current_player
            counted["n"] = 0
            body = post(client, "/api/board/evaluate", {**start, "iterations": 20})
            assert body["iterations"] == 20 == counted["n"]
        r = client.post("/api/board/evaluate", json={**start, "iterations": 61})
        assert r.status_code == 422 and "iterations" in r.json()["error"]["message"], r.text
    # The CPU cap stops a search (after its floor of iterations) whatever was asked.
    with make_client(work_mode="thread", board_cpu_seconds=0.0) as client:
        counted["n"] = 0
        body = post(
            client,
            "/api/board/evaluate",
            {"game": "gungi", "from": {"setup": True}, "iterations": 4000},
        )
        assert body["iterations"] == board_module.FLOOR == counted["n"]


def test_the_board_runs_in_the_process_pool(make_client: Callable[..., TestClient]) -> None:
    with make_client() as client:  # work_mode "process": spawned workers, as in production
        body = post(
            client,
            "/api/board/evaluate",
            {"game": "gungi", "from": {"setup": True}, "iterations": 30},
        )
        assert body["iterations"] == 30 and body["top"]


def test_a_pinned_seat_never_sees_the_other_seats_choices(client: TestClient) -> None:
    g = load_game("gunshi")
    record, state = random_record("gunshi", 8, 40, preset="first_battle")
    while state.current_player != 1:
        record.play(state, state.legal_actions()[0])
    start = {"game": "gunshi", "from": {"record": record.to_json()}}
    pinned = post(client, "/api/board/position", {**start, "seat": 0})
    assert pinned["view"] == state.view(0) and pinned["seat"] == 0
    assert pinned["legal"] == [] and pinned["hidden"] is True
    r = client.post("/api/board/evaluate", json={**start, "seat": 0, "iterations": 10})
    assert r.status_code == 409 and r.json()["error"]["code"] == "hidden_seat", r.text
    # Following the seat to act, the board shows that seat's view and choices only.
    follow = post(client, "/api/board/position", start)
    assert follow["seat"] == 1 and follow["view"] == state.view(1)
    assert [row["action"] for row in follow["legal"]] == [str(a) for a in state.legal_actions()]
    assert g.name == "gunshi"


def test_board_bodies_are_capped_and_evaluations_rate_limited(
    make_client: Callable[..., TestClient],
) -> None:
    with make_client(work_mode="thread", evaluate_burst=2.0, evaluate_rate=0.001) as client:
        big = {"game": "gungi", "from": {"setup": True}, "actions": ["x" * 400] * 700}
        r = client.post("/api/board/position", json=big)
        assert r.status_code == 413 and r.json()["error"]["code"] == "too_large", r.text
        body = {"game": "gungi", "from": {"setup": True}, "iterations": 5}
        for _ in range(2):
            post(client, "/api/board/evaluate", body)
        r = client.post("/api/board/evaluate", json=body)
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited", r.text
        # Positions draw on their own budget.
        post(client, "/api/board/position", {"game": "gungi", "from": {"setup": True}})
