"""Whole Gungi games in the browser, by clicks only (no typed notation), to the end panel:
the intro mode, and the advanced mode from its setup (placement) phase, in hot seat.

The test chooses each move with the engine, on its own copy of the game, and plays it the
way a player does: a piece on the board (or in the hand), then a highlighted square, then
(when two moves reach that square) the chooser's button; Done (済み) ends a side's setup.
White attacks (captures, threats on the Marshal, squares near it) and Black does not
defend, so each game reaches a rules end (the Marshal captured, or checkmate) in a few dozen
moves.

Each run asserts no console error, no failed request, no junk text ("[object Object]",
"undefined", "NaN") and an end panel that names the winner and the reason in words.
Screenshots (mid-game and end panel, 1920x1080 and 390x844) go to build/web-screenshots/.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from sengoku.core.describe import ActionDescription
from sengoku.core.registry import load_game
from sengoku.server import i18n
from tests.web.helpers import (
    PageWatch,
    assert_clean_text,
    assert_within_window,
    shot,
    wait_for_page,
)

GAME = load_game("gungi")
WHITE, BLACK = 0, 1
#: Pieces each side places in the advanced setup before pressing Done (the Marshal first).
SETUP_QUOTA = {WHITE: 5, BLACK: 3}
#: How the end panel words each rules end (match.js REASONS).
REASON_WORDS = {
    "marshal_captured": "the Marshal was captured",
    "mate": "checkmate: the Marshal cannot escape",
}
#: A whole game is short with this policy; more plies than this means the policy broke.
MAX_PLIES = 120


def square(cell: str) -> str:
    """``"5-7-1"`` (square and tier) -> ``"5-7"``."""
    return "-".join(cell.split("-")[:2])


def enemy_marshal(view: dict[str, Any], color: str) -> tuple[int, int] | None:
    for cell in view["board"]:
        for piece in cell["tower"]:
            if piece["piece"] == "marshal" and piece["color"] != color:
                col, row = cell["square"].split("-")
                return int(col), int(row)
    return None


def placed(view: dict[str, Any], color: str) -> int:
    return sum(p["color"] == color for cell in view["board"] for p in cell["tower"])


def choose(state: Any, rng: random.Random) -> tuple[Any, ActionDescription]:
    """The move to play: White makes progress toward Black's Marshal, Black idles."""
    actions = state.legal_actions()
    descriptions = GAME.describe_actions(state, actions)
    view = state.view(None)
    me = state.current_player
    color = view["to_move"]
    target = enemy_marshal(view, color)
    best: tuple[float, Any, ActionDescription] | None = None
    for action, d in zip(actions, descriptions, strict=True):
        after = state.clone()
        after.apply(action)
        if after.is_terminal():
            return action, d
        score = rng.random()
        if view["phase"] == "setup":
            # Place the quota (the Marshal first: the rules ask for it), then declare Done.
            enough = placed(view, color) >= SETUP_QUOTA[me]
            if d.kind == "done":
                score += 100 if enough else -100
            elif d.objects.get("piece") == "marshal":
                score += 50
        elif me == WHITE:
            if d.kind == "capture":
                score += 3
            if after.view(None)["marshal_capturable"][BLACK]:
                score += 4
            if d.kind == "drop":
                score -= 1
        elif d.kind == "capture":
            score -= 3  # Black leaves White's pieces alone
        to = d.objects.get("to")
        if me == WHITE and to and target:
            col, row = (int(x) for x in square(to).split("-"))
            score -= 0.5 * max(abs(col - target[0]), abs(row - target[1]))
        if best is None or score > best[0]:
            best = (score, action, d)
    assert best is not None
    return best[1], best[2]


def ply(page: Page) -> int:
    return int(page.locator("#status").get_attribute("data-ply") or 0)


def click_move(page: Page, d: ActionDescription) -> None:
    """Play ``d`` by clicks, as a player does, and wait until the page shows the next ply."""
    page.wait_for_selector('.board-area[data-interactive="true"]')
    before = ply(page)
    if d.kind == "done":
        page.click("#setup-done")
    else:
        frm = d.objects["from"]
        if frm == "hand":
            page.click(f'.hand.mine button.hand-piece.droppable[data-piece="{d.objects["piece"]}"]')
        else:
            page.click(f'[data-sq="{square(frm)}"]')
        to = square(d.objects["to"])
        page.wait_for_selector(f'[data-target="{to}"]')
        page.click(f'[data-sq="{to}"]')
        chooser = page.locator(".chooser:not([hidden])")
        if chooser.count():
            chooser.locator(f'button.choice[data-action="{d.notation}"]').click()
    wait_for_page(
        page,
        "n => Number(document.getElementById('status').dataset.ply) > n",
        before,
        what=f"the position after {d.notation}",
    )


def end_words(lang: str) -> tuple[str, str, Callable[[str], re.Pattern[str]]]:
    """In ``lang`` (its catalog, docs/i18n.md): the setup prompt's first word, the end
    panel's headline, and the end reason's pattern for a rules end."""
    white = i18n.gettext_(lang, "White")
    headline = i18n.ngettext(lang, "{names} wins", "{names} win", 1).replace("{names}", white)
    template = i18n.ngettext(lang, "{names} wins — {reason}", "{names} win — {reason}", 1)
    setup = re.split(r"[:：]", i18n.gettext_(lang, "Setup: place a piece from your hand."))[0]

    def reason(why: str) -> re.Pattern[str]:
        names = re.escape(white) + r"(?: ?[(（].*[)）])?"  # "White (Ann)", "白（Ann）"
        words = re.escape(template).replace(re.escape("{names}"), names)
        why_words = re.escape(i18n.gettext_(lang, REASON_WORDS[why]))
        return re.compile("^" + words.replace(re.escape("{reason}"), why_words) + "$")

    return setup, headline, reason


def play_to_the_end(
    page: Page,
    mode: str,
    width: int,
    height: int,
    lang: str = "en",
    check: Callable[[Page], None] | None = None,
) -> list[str]:
    """Start a hot-seat game of ``mode`` and play it to its end by clicks; returns the moves.
    The page shows ``lang`` (its words are checked in it); ``check`` looks at the page every
    few moves and at the end."""
    watch = PageWatch(page)
    setup_word, headline, reason_words = end_words(lang)
    tag = f"gungi-{mode}" if lang == "en" else f"gungi-{mode}-{lang}"  # screenshots' names
    page.goto("/new/gungi")
    page.click('.presets button[data-preset="hotseat"]')
    page.select_option("#opt-mode", value=f'"{mode}"')
    page.click("#start")
    page.wait_for_url("**/play/*")
    state = GAME.new_state(mode=mode)
    rng = random.Random(7)
    played: list[str] = []
    setup_seen = False
    while not state.is_terminal():
        assert len(played) < MAX_PLIES, f"no end after {len(played)} moves: {played}"
        action, d = choose(state, rng)
        if state.phase == "setup" and not setup_seen:
            setup_seen = True
            expect(page.locator("#prompt")).to_contain_text(setup_word)
        click_move(page, d)
        state.apply(action)
        played.append(d.notation)
        if len(played) == 8:
            shot(page, f"{tag}-midgame-{width}")
            other = (390, 844) if width > 960 else (1920, 1080)
            page.set_viewport_size({"width": other[0], "height": other[1]})
            shot(page, f"{tag}-midgame-{other[0]}")
            page.set_viewport_size({"width": width, "height": height})
        if len(played) % 4 == 0:
            assert_clean_text(page)
            if check:
                check(page)
            # Whatever the hands hold, the hand to play from, the prompt and Resign stay on
            # screen without scrolling.
            if not state.is_terminal():
                page.wait_for_selector('.board-area[data-interactive="true"]')
                try:
                    for selector in (".hand.mine", "#prompt", "#resign"):
                        assert_within_window(page, selector)
                except AssertionError:
                    shot(page, f"{tag}-off-screen-{width}")
                    raise
    assert setup_seen == (mode == "advanced")
    outcome = state.outcome()
    # A rules end: the Marshal captured, or checkmate (it cannot escape); never a resignation.
    assert outcome is not None and outcome.reason in REASON_WORDS, outcome
    assert outcome.winners == (WHITE,)
    # The end panel says who won and why, in words.
    panel = page.locator(".end-panel")
    expect(panel).to_be_visible()
    expect(panel.locator("h2")).to_have_text(headline)
    expect(panel.locator(".end-reason")).to_have_text(reason_words(outcome.reason))
    if check:
        check(page)
    expect(page.locator("#status")).to_have_attribute("data-state", "finished")
    # The page's move list is the game the engine played.
    page.click("#end-close")
    shown = [t.strip() for t in page.locator("#moves li[data-ply] .notation").all_inner_texts()]
    assert shown == played
    assert_clean_text(page)
    shot(page, f"{tag}-final-board-{width}")
    page.reload()
    expect(panel).to_be_visible()
    assert_clean_text(page)
    shot(page, f"{tag}-end-panel-{width}")
    other = (390, 844) if width > 960 else (1920, 1080)
    page.set_viewport_size({"width": other[0], "height": other[1]})
    shot(page, f"{tag}-end-panel-{other[0]}")
    assert not watch.failed, watch.failed
    return played


@pytest.mark.parametrize(
    ("mode", "width", "height"), [("intro", 1920, 1080), ("advanced", 390, 844)]
)
def test_whole_game_by_clicks(new_page: Any, mode: str, width: int, height: int) -> None:
    page: Page = new_page(width, height)
    played = play_to_the_end(page, mode, width, height)
    assert len(played) >= 7
    if mode == "advanced":
        # The setup was played on the board: both Marshals and more pieces were placed, one
        # side declared Done (済み), which ends the setup, and play went on from there.
        done = played.index("済み")
        assert done >= 6 and played.count("済み") == 1
        assert all(n.endswith("新") for n in played[:done])
        assert sum(n.endswith("帥新") for n in played[:done]) == 2
        assert len(played) > done + 1
