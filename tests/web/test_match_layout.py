"""The match page's layout and the shared helpers every renderer uses: the hand, the prompt
and the actions on screen without scrolling at 1920x1080 and 390x844 (Gungi, and Nim on the
generic renderer), the prompt in words, the last move's contrast, the move animation off
under prefers-reduced-motion, and the hover description of a piece.

Screenshots are kept in build/web-screenshots/ (match-layout-*.png).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.web.api import API
from tests.web.helpers import (
    PageWatch,
    assert_clean_text,
    assert_within_window,
    click_move,
    no_horizontal_overflow,
    shot,
    start_game,
)

SIZES = [(1920, 1080), (390, 844)]


def _luminance(rgb: tuple[int, int, int]) -> float:
    """WCAG relative luminance of an sRGB colour."""

    def lin(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def rgb(css: str) -> tuple[int, int, int]:
    """``rgb(1, 2, 3)`` or ``#rrggbb`` as a tuple."""
    css = css.strip()
    if css.startswith("#"):
        return (int(css[1:3], 16), int(css[3:5], 16), int(css[5:7], 16))
    parts = css[css.index("(") + 1 : css.index(")")].split(",")
    return (int(float(parts[0])), int(float(parts[1])), int(float(parts[2])))


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_gungi_hand_prompt_and_actions_above_the_fold(
    new_page: Any, width: int, height: int
) -> None:
    page: Page = new_page(width, height)
    watch = PageWatch(page)
    start_game(page, "gungi", "ai")
    page.wait_for_selector('.board-area[data-interactive="true"]')
    # The player's own hand (White), the prompt, the board and the buttons that decide.
    for selector in (".hand.mine", "#prompt", ".board", "#resign", ".hand.mine .droppable"):
        assert_within_window(page, selector)
    expect(page.locator("#prompt")).to_contain_text("Your move")
    expect(page.locator("#prompt")).to_contain_text("move a piece")
    # The board uses the room it has: at least 60% of the window's short side.
    box = page.locator(".board").bounding_box()
    assert box is not None and min(box["width"], box["height"]) >= 0.6 * min(width, height - 120)
    no_horizontal_overflow(page)
    assert_clean_text(page)
    shot(page, f"match-layout-gungi-{width}")
    # The page never scrolls on a wide screen: the move list scrolls in its own panel.
    if width > 960:
        assert page.evaluate("document.documentElement.scrollHeight") <= height + 1
    assert not watch.failed


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_generic_renderer_choices_above_the_fold(new_page: Any, width: int, height: int) -> None:
    page: Page = new_page(width, height)
    watch = PageWatch(page)
    start_game(page, "nim", "hotseat")
    page.wait_for_selector("button.action")
    for selector in ("#dock .action-picker", "#prompt", "button.action", "#resign"):
        assert_within_window(page, selector)
    # The prompt says in words what is decided (Nim's rows name no kind: how many moves).
    count = page.locator("button.action").count()
    expect(page.locator("#prompt")).to_have_text(f"Choose one of the {count} legal moves.")
    no_horizontal_overflow(page)
    assert_clean_text(page)
    shot(page, f"match-layout-nim-{width}")
    assert not watch.failed


def test_last_move_contrast_reduced_motion_and_tooltips(new_page: Any) -> None:
    page: Page = new_page(1280, 900)
    page.emulate_media(reduced_motion="reduce")
    start_game(page, "gungi", "hotseat")
    click_move(page, "5-7", "5-6")
    # Reduced motion: the move arrived without any animation on the page.
    assert page.evaluate("document.getAnimations().length") == 0
    # The last move is framed on both squares, and the frame's colour stands out from the
    # board's wood (both ends of its gradient) by at least 3:1.
    expect(page.locator('.board [data-last="to"]')).to_have_count(1)
    expect(page.locator('.board [data-last="from"]')).to_have_count(1)
    # Read from the frame in the document: a redraw (the socket's state after the move's
    # answer) may replace the board between finding an element and styling it.
    line = page.wait_for_function(
        """() => {
          const e = document.querySelector('.board [data-last="to"] .last-line');
          const stroke = e && e.isConnected ? getComputedStyle(e).stroke : "";
          return stroke && stroke !== "none" ? stroke : null;
        }"""
    ).json_value()
    woods = page.eval_on_selector_all(
        ".board #wood stop", "els => els.map(e => e.getAttribute('stop-color'))"
    )
    assert len(woods) == 2
    for wood in woods:
        assert contrast(rgb(line), rgb(wood)) >= 3, (line, wood)
    # Full motion: the next move slides in (a short Web Animation on the piece).
    # The animation lasts a quarter of a second: on a busy machine it may be over before the
    # test looks, so the page records every animation started (its id is set on return).
    page.emulate_media(reduced_motion="no-preference")
    page.evaluate(
        """() => {
          window.startedAnimations = [];
          const animate = Element.prototype.animate;
          Element.prototype.animate = function (...args) {
            const animation = animate.apply(this, args);
            window.startedAnimations.push(animation);
            return animation;
          };
        }"""
    )
    click_move(page, "5-3", "5-4")
    expect(page.locator('.board [data-last="to"]')).to_have_count(1)
    started = page.evaluate("window.startedAnimations.map(a => a.id)")
    assert "sengoku-move" in started, started
    # Hovering a piece says what it is and what it may do.
    page.hover('[data-sq="5-9"]')
    tip = page.locator("#tip")
    expect(tip).to_be_visible()
    expect(tip).to_contain_text("White Marshal (帥) at 5-9")
    expect(tip).to_contain_text("legal move")
    page.hover('.hand button.hand-piece[data-color="white"][data-piece="pawn"]')
    expect(tip).to_contain_text("White Pawn (兵), 1 in hand")
    assert_clean_text(page)
    # On a touch screen, a long press says the same.
    page.mouse.move(0, 0)
    expect(tip).to_be_hidden()
    page.dispatch_event(
        '[data-sq="5-1"]', "pointerdown", {"pointerType": "touch", "isPrimary": True}
    )
    expect(tip).to_be_visible()
    expect(tip).to_contain_text("Black Marshal (帥) at 5-1")


def test_the_move_list_scrolls_in_its_panel_to_the_last_move(new_page: Any) -> None:
    """On a wide screen the page does not scroll: the move list does, showing the last move."""
    page: Page = new_page(1920, 1080)
    start_game(page, "gungi", "hotseat")
    for origin, target in (("5-7", "5-6"), ("5-3", "5-4"), ("9-7", "9-6"), ("9-3", "9-4")):
        click_move(page, origin, target)
    # A laptop window: the list is cut, and scrolls by itself to the latest move.
    page.set_viewport_size({"width": 1440, "height": 900})
    for origin, target in (("1-7", "1-6"), ("1-3", "1-4"), ("9-6", "9-5"), ("1-4", "1-5")):
        click_move(page, origin, target)
    page.wait_for_selector('#moves li[data-ply="8"]')
    assert page.evaluate("document.documentElement.scrollHeight") <= 901
    cut = page.eval_on_selector("#moves", "e => e.scrollHeight > e.clientHeight + 4")
    assert cut, "eight moves should not all fit: this test would not see the list scroll"
    assert_within_window(page, '#moves li[data-ply="8"]')
    assert_within_window(page, ".hand.mine")


def test_a_crowded_side_column_keeps_the_table_within_reach(new_page: Any, base_url: str) -> None:
    """At 1280x900 a Gungi setup's two full hands fill the side column: the hands then scroll
    in their own box, and the moves and the table (its Rules button) keep room to be reached."""
    page: Page = new_page(1280, 900)
    r = API.post(
        f"{base_url}/api/matches",
        json={
            "game": "gungi",
            "options": {"mode": "advanced"},
            "seats": [{"kind": "local"}, {"kind": "local"}],
        },
    )
    assert r.status_code == 201, r.text
    m = r.json()
    page.goto("/")
    page.evaluate(
        "t => localStorage.setItem('sengoku.tokens', t)",
        json.dumps({m["id"]: {"0": m["tokens"]["0"]}}),
    )
    page.goto(f"/play/{m['id']}")
    page.wait_for_selector('.board-area[data-interactive="true"]')
    moves = page.locator(".side-rest").bounding_box()
    assert moves is not None and moves["height"] >= 200
    page.click("#rules-open")
    expect(page.locator("#rules-dialog")).to_be_visible()
    page.keyboard.press("Escape")
    # The player's own hand is still there to pick from (its box scrolls to it).
    page.locator(".hand.mine .droppable").first.click()
    expect(page.locator(".board .target").first).to_be_attached()
    shot(page, "match-layout-gungi-setup-1280")


def test_the_prompt_names_each_step_in_words(new_page: Any) -> None:
    """A multi-step choice's prompt reads as English: "pick an edge", and Gunkimono's placements
    (step ``cells``) as where the tile goes, never "pick a cells"."""
    page: Page = new_page(800, 600)
    page.goto("/")
    prompt = page.evaluate(
        """async () => {
      const { promptFromLegal } = await import('/js/ui.js');
      const rows = (step, n) => Array.from({ length: n }, () => ({ kind: 'x', step }));
      return [promptFromLegal([...rows('cells', 3), ...rows('tile', 2)]),
              promptFromLegal([...rows('edge', 2), ...rows('unit', 2)])];
    }"""
    )
    assert prompt == [
        "Pick where the tile goes or pick a tile.",
        "Pick an edge or pick a unit.",
    ]
