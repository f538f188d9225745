"""Turn-based play in the browser: a signed-in player's home page lists the games whose move
is theirs first, with the time left in days and hours, and the tab's title carries a badge
("(1) ...") and the favicon a dot; when it becomes their turn again the badge comes back
with the "turn" sound (docs/web.md "Your turn")."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import httpx
from playwright.sync_api import Page, expect

from tests.waiting import GENEROUS
from tests.web.helpers import shot


def play_first_legal(http: httpx.Client, mid: str, token: str) -> None:
    headers = {"Authorization": f"Bearer {token}"}
    snap = http.get(f"/api/matches/{mid}", headers=headers)
    assert snap.status_code == 200, snap.text
    r = http.post(
        f"/api/matches/{mid}/actions",
        json={"action": snap.json()["legal"][0]["action"], "ply": snap.json()["ply"]},
        headers=headers,
    )
    assert r.status_code == 200, r.text


def look_again(page: Page) -> None:
    """What a player's coming back to the tab does: the list is asked for at once."""
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")


def test_signed_in_player_sees_your_turn_first_and_the_title_badge(
    new_page: Callable[..., Page], base_url: str
) -> None:
    with httpx.Client(base_url=base_url, timeout=GENEROUS) as http:
        r = http.post(
            "/api/matches",
            json={
                "game": "gungi",
                "seats": [{"kind": "local", "name": "Me"}, {"kind": "local", "name": "Kenshin"}],
                "clock": {"type": "correspondence", "days": 1},
            },
        )
        assert r.status_code == 201, r.text
        m: dict[str, Any] = r.json()
        mid, mine = m["id"], str(m["match"]["to_act"])
        theirs = next(s for s in m["tokens"] if s != mine)
        page = new_page(1280, 900)
        page.goto("/")
        expect(page.locator("#sign-in-link")).to_be_visible()
        expect(page.locator("#your-turn")).to_be_hidden()  # a guest: no such list
        assert not page.title().startswith("(")
        # the browser holds the seat to act only; signing up claims it
        stored = {mid: {mine: m["tokens"][mine]}}
        page.evaluate(
            f"localStorage.setItem('sengoku.tokens', JSON.stringify({json.dumps(stored)}))"
        )
        page.locator("#sign-in-link").click()
        page.get_by_label("Name").nth(1).fill("Turner")
        page.get_by_label("Password").nth(1).fill("turn password")
        page.locator("#signup button[type=submit]").click()
        expect(page.locator("#account-name")).to_have_text("Turner")
        page.wait_for_url(f"{base_url}/")
        box = page.locator("#your-turn")
        expect(box).to_be_visible()
        # first on the page, before the welcome and the games
        assert page.evaluate("document.getElementById('app').firstElementChild.id") == "your-turn"
        row = box.locator(f'a.record-row[data-id="{mid}"]')
        expect(row).to_contain_text("against Kenshin")
        expect(row).to_contain_text(re.compile(r"your move · (23 h \d+ min|1 d 0 h) left"))
        expect(page).to_have_title(re.compile(r"^\(1\) Sengoku"))
        expect(page.locator("html")).to_have_attribute("data-your-turn", "1")
        icon = page.locator('link[rel="icon"]').get_attribute("href") or ""
        assert icon.startswith("data:image/svg+xml,") and "circle" in icon, icon[:80]
        expect(page.locator("#your-turn-notify")).to_have_text("Notify me")  # never asked
        shot(page, "your-turn-home")
        # the move is made (here through the API): nothing waits for this player any more
        play_first_legal(http, mid, m["tokens"][mine])
        look_again(page)
        expect(page.locator("html")).to_have_attribute("data-your-turn", "0")
        expect(box).to_be_hidden()
        expect(page).to_have_title(re.compile(r"^Sengoku"))
        assert (page.locator('link[rel="icon"]').get_attribute("href") or "") == "/favicon.svg"
        page.evaluate("document.documentElement.dataset.lastSound = ''")
        # the opponent moves: it is this player's turn again, with the sound
        play_first_legal(http, mid, m["tokens"][theirs])
        look_again(page)
        expect(page).to_have_title(re.compile(r"^\(1\) Sengoku"))
        expect(page.locator("html")).to_have_attribute("data-last-sound", "turn:on")
        expect(row).to_be_visible()
        # every page keeps the badge in front of its own title
        page.goto("/records")
        expect(page).to_have_title(re.compile(r"^\(1\) "))
        # the account page keeps an optional address for "your turn" mails
        page.goto("/account")
        page.locator("#account-email").fill("turner@example.org")
        page.locator("#email-form button[type=submit]").click()
        expect(page.locator("#email-status")).to_have_text("Saved: mails go to turner@example.org.")
        saved = page.request.get(f"{base_url}/api/account/email")
        assert saved.status == 200 and saved.json()["email"] == "turner@example.org", saved.text()
        # the match page shows the turn-based clock in hours and minutes
        page.goto(f"/play/{mid}")
        clock = page.locator(f'.clock[data-seat="{mine}"]')
        expect(clock).to_have_text(re.compile(r"^(23 h \d+ min|1 d 0 h)$"))


def test_the_setup_page_offers_days_per_move(new_page: Callable[..., Page], base_url: str) -> None:
    page = new_page(1280, 900)
    page.goto("/new/gungi")
    expect(page.locator("#clock optgroup option")).to_have_text(
        ["1 day per move", "2 days per move", "3 days per move", "7 days per move"]
    )
    page.select_option("#clock", "days-3")
    page.locator("#start").click()
    page.wait_for_url(re.compile(r"/play/"))
    mid = page.url.rsplit("/", 1)[1]
    r = page.request.get(f"{base_url}/api/matches/{mid}")
    assert r.status == 200, r.text()
    clocks = r.json()["clocks"]
    assert clocks["spec"] == {"type": "correspondence", "days": 3}
    running = page.locator(f'.clock[data-seat="{clocks["running"]}"]')
    expect(running).to_have_text(re.compile(r"^(2 d 23 h|3 d 0 h)$"))
