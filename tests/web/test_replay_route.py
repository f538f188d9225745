"""The replay route of sengoku/web: every ply's view of a record, as one seat saw it."""

from __future__ import annotations

import pytest

from sengoku.core.game import SengokuError
from sengoku.core.record import GameRecord
from sengoku.core.registry import load_game
from sengoku.server.replay import MAX_REPLAY_ACTIONS, replay_views


def gungi_record() -> dict[str, object]:
    record, state = GameRecord.start(load_game("gungi"), 3, ["Gon", "Killua"])
    game = load_game("gungi")
    for text in ("5-6-1 兵(5-7)", "5-4-1 兵(5-3)"):
        record.play(state, game.parse_action(state, text))
    record.concede(state, 1)
    return record.to_json()


def test_every_ply_with_the_action_that_led_to_it() -> None:
    out = replay_views(gungi_record(), None)
    plies = out["plies"]
    assert [p["ply"] for p in plies] == [0, 1, 2]
    assert [p["action"] for p in plies] == [None, "5-6-1 兵(5-7)", "5-4-1 兵(5-3)"]
    assert [p["seat"] for p in plies] == [None, 0, 1]
    # Each move comes as data too (Gungi: every seat sees every move), for the last-move mark.
    assert [p.get("described") and p["described"]["notation"] for p in plies] == [
        None,
        "5-6-1 兵(5-7)",
        "5-4-1 兵(5-3)",
    ]
    assert plies[1]["described"]["from"] == "5-7-1" and plies[1]["described"]["to"] == "5-6-1"
    squares = {c["square"] for c in plies[1]["view"]["board"]}
    assert "5-6" in squares and "5-7" not in squares
    # The concession after the last move ends the game there.
    assert out["result"]["reason"] == "resignation" and out["result"]["winners"] == [0]
    assert plies[-1]["view"]["outcome"]["reason"] == "resignation"
    assert any(e["type"] == "game_over" for e in plies[-1]["events"])


def test_a_seat_gets_its_own_view() -> None:
    out = replay_views(gungi_record(), 1)
    assert out["seat"] == 1 and all(p["view"]["seat"] == 1 for p in out["plies"])


def test_bad_records_are_refused_naming_the_problem() -> None:
    record = gungi_record()
    with pytest.raises(SengokuError, match="move 2"):
        replay_views({**record, "actions": ["5-6-1 兵(5-7)", "9-9-9 兵"]}, None)
    with pytest.raises(SengokuError, match="seat 7"):
        replay_views(record, 7)
    with pytest.raises(SengokuError, match="version"):
        replay_views({**record, "version": 999}, None)
    with pytest.raises(SengokuError, match="limited"):
        replay_views({**record, "actions": ["x"] * (MAX_REPLAY_ACTIONS + 1)}, None)
    with pytest.raises(SengokuError, match="actions"):
        replay_views({"game": "gungi", "version": 1, "options": {}}, None)
