"""Gunkimono, Gunshi and Sashimono in the browser: short games by clicks against the AI and
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

OTHERS = [g for g in ("gunkimono", "gunshi", "sashimono") if g in list_games()]
#: Gunshi and Sashimono are played on their objects (cells, arrows, edges, cards), not on a
#: list of buttons: tests/web/test_gunshi_web.py and test_sashimono_web.py play whole games by
#: clicks, in hot seat too.
BUTTON_GAMES = [g for g in OTHERS if g not in ("gunshi", "sashimono")]


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


def test_gunkimono_board_shows_a_placed_tile(new_page: Any) -> None:
    if "gunkimono" not in OTHERS:
        pytest.fail("gunkimono is not registered")
    page: Page = new_page(1280, 900)
    start_game(page, "gunkimono", "ai")
    page.wait_for_selector(".kimono-board")
    first = page.locator("button.action").first
    action = first.get_attribute("data-action") or ""
    cells = [part.split("@")[1] for part in action.split() if "@" in part]
    assert len(cells) == 2, action
    # Clicking a square narrows the moves to those using it.
    page.click(f'[data-sq="{cells[0]}"]')
    for other in page.locator("button.action").all():
        assert cells[0] in (other.get_attribute("data-action") or "")
    page.locator(f'button.action[data-action="{action}"]').click()
    page.wait_for_function("() => Number(document.getElementById('status').dataset.ply) >= 1")
    for cell in cells:
        assert page.locator(f'.cell[data-cell="{cell}"]').get_attribute("data-level") == "1"
    assert page.locator("#moves li[data-ply]").first.inner_text().endswith(action)
    shot(page, "gunkimono-vs-ai-1280")


@pytest.mark.parametrize("game", BUTTON_GAMES)
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
    # Then an arrow on the new unit's cell for each way it may face.
    page.click('.gs-arrow[data-action="face e"]')
    unit = page.locator('.gunit[data-cell="d2"]')
    expect(unit).to_have_attribute("data-owner", "0")
    expect(unit).to_have_attribute("data-type", "I")
    expect(unit).to_have_attribute("data-facing", "e")
    shot(page, "gunshi-placed-1280")
