"""A player who leaves a five-player Gunkimono game in the browser (issue #37, the "zombie"
rule): Ann resigns by clicks, the computer takes her seat and the table plays on; Ben, in
another browser, sees her seat "played by the computer (left at ply 0)" and plays by clicks
to the end, whose card says who left. Three more seats are the computer's from the start
(level 1), so one human plays most of the game."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import httpx
from playwright.sync_api import Page, expect

from tests.web.helpers import PageWatch, assert_clean_text, shot
from tests.web.test_gunkimono_web import decide, decision_ready, ply, wait_turn_or_end


def open_seat(new_page: Any, match: dict[str, Any], seat: int) -> Page:
    """The match's page in a browser of its own that holds ``seat``'s token only."""
    page: Page = new_page(1600, 1000)
    page.goto("/")
    tokens = json.dumps({match["id"]: {str(seat): match["tokens"][str(seat)]}})
    page.evaluate("t => localStorage.setItem('sengoku.tokens', t)", tokens)
    page.goto(f"/play/{match['id']}")
    page.wait_for_selector(".kimono-board")
    return page


def test_a_player_resigns_and_the_computer_finishes_the_game_for_her(
    new_page: Any, base_url: str
) -> None:
    r = httpx.post(
        f"{base_url}/api/matches",
        json={
            "game": "gunkimono",
            "options": {"players": 5},
            "seats": [
                {"kind": "local", "name": "Ann"},
                {"kind": "local", "name": "Ben"},
                {"kind": "ai", "level": 1},
                {"kind": "ai", "level": 1},
                {"kind": "ai", "level": 1},
            ],
            "replacement_level": 1,
        },
    )
    assert r.status_code == 201, r.text
    match = r.json()
    ann = open_seat(new_page, match, 0)
    ben = open_seat(new_page, match, 1)
    watch = PageWatch(ben)

    # Ann (to act first) resigns by clicks; the dialog says what happens in this game.
    ann.click("#resign")
    dialog = ann.locator(".dialog")
    expect(dialog).to_contain_text("The computer takes your seat and plays on")
    dialog.get_by_role("button", name="Resign").click()
    expect(ann.locator("#return")).to_be_visible()  # she may come back
    expect(ann.locator('.player[data-seat="0"] .player-sub')).to_contain_text(
        "played by the computer (left at ply 0)"
    )
    expect(ann.locator("#resign")).to_have_count(0)
    shot(ann, "zombie-ann-left-1600")

    # Ben sees her seat taken by the computer, and plays by clicks to the end.
    expect(ben.locator('.player[data-seat="0"] .player-sub')).to_contain_text(
        "played by the computer (left at ply 0)"
    )
    seen: dict[str, int] = {}
    turn = 0
    began = time.monotonic()
    while wait_turn_or_end(ben):
        if not decision_ready(ben):
            continue
        before = ply(ben)
        if ben.locator(".kimono-decide button.choice").count() == 0:
            turn += 1
        decide(ben, turn, seen)
        ben.wait_for_function(
            "n => Number(document.getElementById('status').dataset.ply) > n"
            " || document.querySelector('.end-panel:not([hidden])')",
            arg=before,
        )
        assert time.monotonic() - began < 400, "the game takes too long"
    end = ben.locator(".end-panel")
    expect(end).to_be_visible()
    expect(end.locator(".end-reason")).to_contain_text(re.compile(r"wins? — "))
    expect(end.locator(".end-left")).to_contain_text("Ann (resignation, at ply 0)")
    # the result is the game's own: every seat scored, Ann's by the computer's play
    expect(end.locator("ul.scores li")).to_have_count(5)
    assert_clean_text(ben)
    shot(ben, "zombie-ben-end-1600")
    assert seen.get("place_tile", 0) >= 3
    assert not watch.failed, watch.failed
    # Ann's page, still open, ends on the same card
    expect(ann.locator(".end-panel .end-left")).to_contain_text("Ann (resignation, at ply 0)")
    snap = httpx.get(f"{base_url}/api/matches/{match['id']}").json()
    assert snap["status"] == "finished" and snap["result"]["reason"] == "end_of_game"
    assert snap["left"] == [
        {"seat": 0, "reason": "resignation", "ply": 0, "level": 1, "returned": None}
    ]
