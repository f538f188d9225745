"""Gunshi and Sashimono in the browser: short games by clicks against the AI and
in hot seat (with the pass-the-device screen), on the board drawing or the generic picker.

Each registered game is played; a game whose engine has not landed is not in the registry.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from sengoku.core.registry import list_games
from tests.web.helpers import no_horizontal_overflow, shot, start_game

# Gunkimono has its own tests (test_gunkimono_web.py: whole games by clicks, hot seat).
OTHERS = [g for g in ("gunshi", "sashimono") if g in list_games()]


def ply(page: Page) -> int:
    return int(page.locator("#status").get_attribute("data-ply") or 0)


def wait_my_turn(page: Page) -> None:
    page.wait_for_function(
        "() => { const s = document.getElementById('status');"
        " return s && (s.textContent.includes('move') || s.dataset.state !== 'active')"
        " && document.querySelector('button.action, .pass-screen:not([hidden])'); }"
    )


def click_first_action(page: Page) -> str:
    """Play the first legal move the page offers, by clicking it; returns its notation."""
    if page.locator(".pass-screen:not([hidden])").count():
        page.click("#pass-ready")
    before = ply(page)
    button = page.locator("button.action").first
    action = button.get_attribute("data-action") or ""
    button.click()
    page.wait_for_function(
        "n => Number(document.getElementById('status').dataset.ply) > n", arg=before
    )
    return action


@pytest.mark.parametrize("game", OTHERS)
def test_short_game_against_the_ai_and_in_hot_seat(new_page: Any, game: str) -> None:
    page: Page = new_page(1280, 900)
    start_game(page, game, "ai")
    wait_my_turn(page)
    played = [click_first_action(page)]
    wait_my_turn(page)
    played.append(click_first_action(page))
    assert ply(page) >= 2
    no_horizontal_overflow(page)
    shot(page, f"{game}-vs-ai-1280")
    # Resign, then replay the game as each seat saw it.
    page.click("#resign")
    page.click(".dialog button.danger")
    page.locator(".end-panel a", has_text="Replay").click()
    page.wait_for_url("**/replay/*")
    counter = page.locator("#replay-counter")
    expect(counter).to_have_text(re.compile(r"^\d+ / \d+$"))
    total = int(counter.inner_text().split("/")[1])
    assert total >= 2
    page.select_option("#replay-seat", "0")
    page.click("#replay-first")
    expect(counter).to_have_text(f"0 / {total}")
    page.click("#replay-next")
    expect(counter).to_have_text(f"1 / {total}")
    expect(page.locator("#status")).to_contain_text("Move 1:")
    shot(page, f"{game}-replay-1280")
    # Hot seat on a phone: the device passes between the players.
    phone: Page = new_page(360, 740)
    start_game(phone, game, "hotseat")
    passes = 0
    for _ in range(12):  # a turn may take several decisions; stop after the first pass
        wait_my_turn(phone)
        if phone.locator(".pass-screen:not([hidden])").count():
            passes += 1
            expect(phone.locator(".pass-screen")).to_contain_text("Pass the device")
            expect(phone.locator(".board-area")).to_have_class(re.compile(r"\bcovered\b"))
            # Nothing of either player's is on screen while the device changes hands.
            expect(phone.locator("#moves")).to_have_text("Hidden while the device is passed.")
            if ply(phone) >= 2:
                break
        click_first_action(phone)
    assert passes >= 1
    no_horizontal_overflow(phone)
    shot(phone, f"{game}-hot-seat-360")


def test_gunshi_field_shows_a_unit_placed_by_clicks(new_page: Any) -> None:
    if "gunshi" not in OTHERS:
        pytest.fail("gunshi is not registered")
    page: Page = new_page(1280, 900)
    start_game(page, "gunshi", "ai")
    page.wait_for_selector('.board-area[data-interactive="true"] .gunshi-board')
    page.click('button.action[data-action="place I"]')
    # Every cell the Infantry may go to is outlined; clicking one plays "at <cell>".
    page.wait_for_selector('[data-target="d2"]')
    targets = page.eval_on_selector_all("[data-target]", "els => els.map(e => e.dataset.target)")
    assert "d2" in targets and all(t[1] in "123" for t in targets)  # Red's side of the field
    page.click('[data-sq="d2"]')
    page.click('button.action[data-action="face e"]')
    unit = page.locator('.gunit[data-cell="d2"]')
    expect(unit).to_have_attribute("data-owner", "0")
    expect(unit).to_have_attribute("data-type", "I")
    expect(unit).to_have_attribute("data-facing", "e")
    shot(page, "gunshi-placed-1280")


def test_sashimono_sonae_shows_both_armies(new_page: Any) -> None:
    if "sashimono" not in OTHERS:
        pytest.fail("sashimono is not registered")
    page: Page = new_page(1280, 900)
    start_game(page, "sashimono", "ai")
    page.wait_for_selector('.board-area[data-interactive="true"] .sonae')
    # Two Sonae of nine troop cards each, twelve Sashimono spaces around each.
    assert page.locator('.sside[data-seat="0"] .scard').count() == 9
    assert page.locator('.sside[data-seat="1"] .scard').count() == 9
    assert page.locator('.sside[data-seat="0"] .slot').count() == 12
    # Your hand is shown to you only: the opponent's is a count.
    assert page.locator('.sside[data-seat="0"] .gcards').count() >= 1
    expect(page.locator('.sside[data-seat="1"] .sside-head')).to_contain_text("hand")
    assert page.locator('.sside[data-seat="1"] .gcards').count() == 0
    shot(page, "sashimono-start-1280")
