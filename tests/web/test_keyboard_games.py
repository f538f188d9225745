"""Whole games with the keyboard alone: Tab to a board (one stop), the arrow keys to a
square, Enter to pick it; hand pieces, choices and buttons are reached with Tab.

The moves are chosen as in the click tests (test_gungi_full_games.py), so the game reaches
a rules end; nothing is clicked and no notation is typed.
"""

from __future__ import annotations

import random
import re
from typing import Any

from playwright.sync_api import Page, expect

from tests.web.helpers import PageWatch, assert_clean_text, key_press, key_to
from tests.web.test_gungi_full_games import GAME, MAX_PLIES, REASON_WORDS, choose, ply, square
from tests.web.test_gunkimono_web import wait_turn_or_end


def key_move(page: Page, d: Any) -> None:
    page.wait_for_selector('.board-area[data-interactive="true"]')
    before = ply(page)
    frm = d.objects["from"]
    if frm == "hand":
        key_press(
            page, f'.hand.mine button.hand-piece.droppable[data-piece="{d.objects["piece"]}"]'
        )
    else:
        key_press(page, f'[data-sq="{square(frm)}"]')
    to = square(d.objects["to"])
    page.wait_for_selector(f'[data-target="{to}"]')
    key_press(page, f'[data-sq="{to}"]')
    if page.locator(".chooser:not([hidden])").count():
        key_press(page, f'.chooser button.choice[data-action="{d.notation}"]')
    page.wait_for_function(
        "n => Number(document.getElementById('status').dataset.ply) > n", arg=before
    )


def test_gungi_intro_by_keyboard_alone(new_page: Any) -> None:
    page: Page = new_page(1280, 900)
    watch = PageWatch(page)
    page.goto("/new/gungi")
    # The setup page by keyboard too: the hot-seat preset, then Start.
    key_press(page, '.presets button[data-preset="hotseat"]')
    key_press(page, "#start")
    page.wait_for_url("**/play/*")
    state = GAME.new_state(mode="intro")
    rng = random.Random(7)
    played: list[str] = []
    while not state.is_terminal():
        assert len(played) < MAX_PLIES, f"no end after {len(played)} moves: {played}"
        action, d = choose(state, rng)
        key_move(page, d)
        state.apply(action)
        played.append(d.notation)
        if len(played) == 1:
            # The focus is drawn, and it is a square of the board with a label in words.
            key_to(page, '[data-sq="5-5"]')
            label = page.evaluate("document.activeElement.getAttribute('aria-label')")
            assert re.search(r"5-5", label or ""), label
            outline = page.evaluate("getComputedStyle(document.activeElement).stroke || ''")
            assert outline not in ("", "none"), "the focused square shows no focus mark"
    outcome = state.outcome()
    assert outcome is not None and outcome.reason in REASON_WORDS
    panel = page.locator(".end-panel")
    expect(panel).to_be_visible()
    expect(panel.locator("h2")).to_have_text("White wins")
    # Escape closes the end panel; the board is shown again with the moves played.
    page.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    shown = [t.strip() for t in page.locator("#moves li[data-ply] .notation").all_inner_texts()]
    assert shown == played
    assert_clean_text(page)
    assert not watch.failed, watch.failed


def test_gunkimono_by_keyboard_alone(new_page: Any) -> None:
    """A tile picked from the hand with Tab and Enter, turned with R, placed on a square
    reached with the arrows; scorings and draws are buttons reached with Tab."""
    page: Page = new_page(1280, 900)
    watch = PageWatch(page)
    page.goto("/new/gunkimono")
    key_press(page, '.presets button[data-preset="ai"]')
    key_press(page, "#start")
    page.wait_for_url("**/play/*")
    page.wait_for_selector(".kimono-board")
    placed = turned = steps = 0
    while wait_turn_or_end(page):
        # A safety net against a game that never ends, counted in decisions, not seconds.
        steps += 1
        assert steps < 5000, "the game does not end"
        before = ply(page)
        if page.locator(".kimono-decide button.choice").count():
            key_press(page, ".kimono-decide button.choice")
        else:
            large = page.locator("button.hand-tile.playable").count()
            small = page.locator("button.small-tile.playable").count()
            if (large or small) and not page.locator("button.hand-tile.picked").count():
                key_press(
                    page, "button.hand-tile.playable" if large else "button.small-tile.playable"
                )
                if large and placed % 3 == 1:
                    shown = page.locator(".kimono-decide .picked span").inner_text()
                    page.keyboard.press("r")  # turn the tile
                    expect(page.locator(".kimono-decide .picked span")).not_to_have_text(shown)
                    turned += 1
            try:
                page.wait_for_selector("[data-target]")
            except Exception as exc:  # say what the page showed, not only "timeout"
                shown = page.evaluate(
                    """() => ({ply: document.getElementById('status').dataset.ply,
                      prompt: document.getElementById('kimono-prompt')?.textContent,
                      decide: document.querySelector('.kimono-decide')?.innerText,
                      focus: document.activeElement?.outerHTML?.slice(0, 120)})"""
                )
                raise AssertionError(f"a tile picked, but no square to place it: {shown}") from exc
            target = page.locator("[data-target]").first.get_attribute("data-target")
            key_press(page, f'[data-sq="{target}"]')
            placed += 1
        page.wait_for_function(
            "n => Number(document.getElementById('status').dataset.ply) > n"
            " || document.querySelector('.end-panel:not([hidden])')",
            arg=before,
        )
    assert placed >= 5 and turned >= 1
    panel = page.locator(".end-panel")
    expect(panel).to_be_visible()
    expect(panel.locator(".end-reason")).to_contain_text(re.compile(r"wins? — |No winner"))
    page.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    assert_clean_text(page)
    assert not watch.failed, watch.failed


def test_a_hand_tile_keeps_the_focus_through_a_redraw(new_page: Any) -> None:
    """A redraw that changes nothing (the socket's first message repeats the fetched
    snapshot) used to drop the focus of a hand tile: keyboard.js then gave it back to the
    last square, or to nothing, and the player's Enter picked no tile (CI saw the keyboard
    game above stop there). The new tile of the same name keeps the focus."""
    page: Page = new_page(1280, 900)
    page.goto("/new/gunkimono")
    key_press(page, '.presets button[data-preset="ai"]')
    key_press(page, "#start")
    page.wait_for_url("**/play/*")
    assert wait_turn_or_end(page)
    # A square focused first: that is where keyboard.js sent a lost focus.
    key_to(page, '[data-sq="a1"]')
    key_to(page, "button.hand-tile.playable")
    tile = page.evaluate("document.activeElement.dataset.tile")
    assert tile
    page.evaluate("window.dispatchEvent(new Event('sengoku:prefs'))")
    assert page.evaluate("document.activeElement.dataset.tile") == tile
    assert page.evaluate("document.activeElement.isConnected")
    page.keyboard.press("Enter")
    expect(page.locator(f'button.hand-tile.picked[data-tile="{tile}"]')).to_have_count(1)
    page.wait_for_selector("[data-target]")


def test_a_hand_piece_keeps_the_focus_through_a_redraw(new_page: Any) -> None:
    """Gungi's hand pieces alike: a redraw keeps the focus on the same side's piece."""
    page: Page = new_page(1280, 900)
    page.goto("/new/gungi")
    key_press(page, '.presets button[data-preset="hotseat"]')
    key_press(page, "#start")
    page.wait_for_url("**/play/*")
    page.wait_for_selector('.board-area[data-interactive="true"]')
    key_to(page, ".hand.mine button.hand-piece.droppable")
    piece = page.evaluate(
        "[document.activeElement.dataset.piece, document.activeElement.dataset.color]"
    )
    page.evaluate("window.dispatchEvent(new Event('sengoku:prefs'))")
    now = page.evaluate(
        "[document.activeElement.dataset.piece, document.activeElement.dataset.color]"
    )
    assert now == piece
    assert page.evaluate("document.activeElement.closest('.hand.mine') !== null")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-target]")
