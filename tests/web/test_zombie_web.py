"""A player who leaves a five-player Gunkimono game in the browser (issue #37, the "zombie"
rule): Ann resigns by clicks, the computer takes her seat and the table plays on; Ben, in
another browser, sees her seat "played by the computer (left at ply 0)" and plays to the end
(by clicks in the rated game; through the API, his page open, in the other), whose card says
who left. Three more seats are the computer's from the start (level 1), so one human plays
most of the game."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import Page, expect

from tests.waiting import wait_until
from tests.web.api import API
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
    r = API.post(
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
    # His moves go through the API with his seat's token: his page shows them as played, and
    # the clicking of a whole five-player game is the rated test's below (and
    # test_gunkimono_web's), at a minute and a half each on a loaded machine.
    made = play_by_api(base_url, match, 1)
    end = ben.locator(".end-panel")
    expect(end).to_be_visible()
    expect(end.locator(".end-reason")).to_contain_text(re.compile(r"wins? — "))
    expect(end.locator(".end-left")).to_contain_text("Ann (resignation, at ply 0)")
    # the result is the game's own: every seat scored, Ann's by the computer's play
    expect(end.locator("ul.scores li")).to_have_count(5)
    assert_clean_text(ben)
    shot(ben, "zombie-ben-end-1600")
    assert made >= 3  # Ben played his own turns to the end, beside the four computer seats
    assert not watch.failed, watch.failed
    # Ann's page, still open, ends on the same card
    expect(ann.locator(".end-panel .end-left")).to_contain_text("Ann (resignation, at ply 0)")
    snap = API.get(f"{base_url}/api/matches/{match['id']}").json()
    assert snap["status"] == "finished" and snap["result"]["reason"] == "end_of_game"
    assert snap["left"] == [
        {"seat": 0, "reason": "resignation", "ply": 0, "level": 1, "returned": None}
    ]


def play_by_api(base_url: str, match: dict[str, Any], seat: int) -> int:
    """``seat`` plays its first legal choice through the API whenever it is to act, until the
    game ends; how many choices it made."""
    headers = {"Authorization": f"Bearer {match['tokens'][str(seat)]}"}
    url = f"{base_url}/api/matches/{match['id']}"

    def mine_or_over() -> dict[str, Any] | None:
        snap = API.get(url, headers=headers).json()
        over = snap["status"] == "finished"
        return dict(snap) if over or (snap["to_act"] == seat and snap["legal"]) else None

    made = 0
    while (snap := wait_until(mine_or_over, f"seat {seat}'s turn or the end"))["status"] != (
        "finished"
    ):
        action = {"action": snap["legal"][0]["action"], "ply": snap["ply"]}
        r = API.post(f"{url}/actions", json=action, headers=headers)
        assert r.status_code == 200, r.text
        made += 1
        assert made < 400, "the game does not end"
    return made


def play_to_the_end(page: Page) -> dict[str, int]:
    """Click ``page``'s decisions until the game's end (bounded by a count of decisions)."""
    seen: dict[str, int] = {}
    turn = decisions = 0
    while wait_turn_or_end(page):
        if not decision_ready(page):
            continue
        before = ply(page)
        if page.locator(".kimono-decide button.choice").count() == 0:
            turn += 1
        decide(page, turn, seen)
        page.wait_for_function(
            "n => Number(document.getElementById('status').dataset.ply) > n"
            " || document.querySelector('.end-panel:not([hidden])')",
            arg=before,
        )
        decisions += 1
        assert decisions < 400, "the game does not end"
    return seen


def test_a_rated_five_player_game_rates_the_player_who_left_last(new_page: Any) -> None:
    """Issue 37: two new players sign up; Ann makes a rated five-player game (Ben invited, three
    computer seats at their fixed ratings), resigns by clicks, and the computer finishes her
    game while Ben plays to the end by clicks. Both end cards show a rating change, and Ann,
    who left, is rated last (docs/ratings.md, *A player who leaves*): below Ben."""
    from tests.web.test_rated_web import sign_up

    ann: Page = new_page(1600, 1000)
    ben: Page = new_page(1600, 1000)
    watch = PageWatch(ben)
    sign_up(ann, "ZombieAnn")
    sign_up(ben, "ZombieBen")
    body = {
        "game": "gunkimono",
        "options": {"players": 5},
        "seats": [{"kind": "local"}, {"kind": "invite"}] + [{"kind": "ai", "level": 1}] * 3,
        "clock": {"type": "fischer", "initial": 3600, "increment": 30},
        "rated": True,
        "replacement_level": 1,
    }
    # Ann's browser creates it (her session cookie, and the CSRF token it echoes)
    answer = ann.evaluate(
        """async (body) => {
            const csrf = document.cookie.split("; ").find((c) => c.startsWith("sengoku_csrf="));
            const r = await fetch("/api/matches", {
                method: "POST",
                headers: {"Content-Type": "application/json",
                          "X-CSRF-Token": decodeURIComponent(csrf.split("=").slice(1).join("="))},
                body: JSON.stringify(body),
            });
            return {status: r.status, body: await r.json()};
        }""",
        body,
    )
    assert answer["status"] == 201, answer
    match = answer["body"]
    tokens = json.dumps({match["id"]: {"0": match["tokens"]["0"]}})
    ann.evaluate("t => localStorage.setItem('sengoku.tokens', t)", tokens)
    ben.goto(match["invites"][0]["url"])
    expect(ben.locator("#rated-note")).to_contain_text("You play as ZombieBen")
    ben.click("#join-button")
    expect(ben.locator("#status")).to_have_attribute("data-state", "active")
    ann.goto(f"/play/{match['id']}")
    ann.wait_for_selector(".kimono-board")

    ann.click("#resign")
    ann.locator(".dialog").get_by_role("button", name="Resign").click()
    expect(ben.locator('.player[data-seat="0"] .player-sub')).to_contain_text(
        "played by the computer (left at ply 0)"
    )
    seen = play_to_the_end(ben)
    assert seen.get("place_tile", 0) >= 3
    assert seen.get("ghosts", 0) >= 1
    changes = re.compile(r"Your rating:\s*1500 → (\d+) \(([+−]\d+)\)")
    for page in (ben, ann):
        card = page.locator(".end-panel .end-ratings")
        expect(card).to_be_visible()
        expect(card).to_contain_text("Your rating")
        assert_clean_text(page)
    shot(ben, "zombie-rated-end-1600")
    ann_after = int(changes.search(ann.locator(".end-ratings").inner_text()).group(1))  # type: ignore[union-attr]
    ben_after = int(changes.search(ben.locator(".end-ratings").inner_text()).group(1))  # type: ignore[union-attr]
    assert ann_after < ben_after, (ann_after, ben_after)  # she left: last, below Ben
    assert not watch.failed, watch.failed
