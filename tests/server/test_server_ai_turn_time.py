"""Level 5 thinks for a time per *turn*, shared over the turn's decisions (issue 20): the
server makes a fresh agent for each decision, so it passes what is left of the turn's time,
and a new turn (another seat acted) starts with the whole of it."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from conftest import new_match
from fastapi.testclient import TestClient

from sengoku.core.registry import load_game
from sengoku.server import ai as ai_mod
from tests.waiting import ok, wait_until


def test_level5_gets_what_is_left_of_its_turn(
    make_client: Callable[..., TestClient], monkeypatch: Any
) -> None:
    asked: list[tuple[int, int, float | None]] = []
    ceilings: list[tuple[int, float | None]] = []

    def choose(
        game_name: str,
        state_json: dict[str, Any],
        seat: int,
        agent_name: str,
        seed: int,
        max_seconds: float | None = None,
        turn_seconds: float | None = None,
        ceiling: float | None = None,
    ) -> str:
        state = load_game(game_name).state_from_json(state_json)
        asked.append((seat, len(asked), turn_seconds))
        ceilings.append((seat, ceiling))
        time.sleep(0.15)  # the decision's thinking: the time the turn uses, under test
        return str(state.legal_actions()[0])

    monkeypatch.setattr(ai_mod, "choose_action", choose)
    thoughts: list[dict[str, Any]] = []
    with make_client(ai_turn_seconds=1.0, ai_turn_ceiling=3.0) as client:
        m = new_match(client, game="sashimono", seats=[{"kind": "ai", "level": 5}] * 2)

        def seen() -> bool:  # each look is a watch: the all-AI match keeps going
            snap = ok(client.get(f"/api/matches/{m['id']}"))
            if snap.get("ai_thought"):
                thoughts.append(snap["ai_thought"])
            return len(asked) >= 14

        wait_until(seen, "14 decisions of the AI")
    # The players see how long the computer thought (wall-clock, queueing included).
    assert thoughts and all(t["seconds"] >= 0.15 for t in thoughts), thoughts
    assert {t["seat"] for t in thoughts} <= {0, 1}
    # Each decision also gets what is left of the turn's wall-clock ceiling, never below the
    # minimum: a new turn starts with the whole ceiling.
    assert ceilings[0] == (asked[0][0], 3.0)
    assert all(c is not None and 0.05 <= c <= 3.0 for _s, c in ceilings)
    runs: list[list[float]] = []
    last_seat = None
    for seat, _i, left in asked:
        assert left is not None
        if seat != last_seat:
            runs.append([])
            last_seat = seat
        runs[-1].append(left)
    # a new turn starts with the whole second; each later decision of the same turn gets
    # less (what the earlier ones used is gone), never below the server's minimum
    assert all(run[0] == 1.0 for run in runs)
    long_turns = [run for run in runs if len(run) > 1]
    assert long_turns, runs
    for run in long_turns:
        # once a long turn has spent its second (a loaded machine: each decision here takes
        # 0.15 s and more), every later decision gets the minimum
        assert all(
            later < earlier or later == earlier == 0.05
            for earlier, later in zip(run, run[1:], strict=False)
        ), run
        assert min(run) >= 0.05
