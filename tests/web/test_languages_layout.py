"""Every game's table in every language at both sizes (issue 41, "Layout holds in all three"):
a game in progress opened in English, Japanese and French at 1920x1080 and 390x844 has nothing
sticking out past the window's right edge, shows no English phrase of the catalog in Japanese
or French, and leaves a screenshot (``build/web-screenshots/layout-<game>-<lang>-<width>.png``)
to look at."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.web.helpers import (
    PageWatch,
    assert_clean_text,
    assert_within_window,
    no_horizontal_overflow,
    shot,
)
from tests.web.labels_setup import create, open_as, play_until, snapshot
from tests.web.test_languages_web import assert_no_english, in_language

#: Decisions played through the API before the page is opened: a position in progress (the
#: setup, formation or first turns), with pieces, cards or tiles on the table.
DECISIONS = {"gungi": 14, "gunshi": 10, "gunkimono": 6, "sashimono": 8}
SIZES = [(1920, 1080), (390, 844)]


@cache
def in_progress(base_url: str, game: str) -> tuple[dict[str, Any], int]:
    """A match of ``game`` in progress and its seat to act, made once for the six pages
    (three languages, two sizes) that open it: opening a page plays nothing."""
    match = create(base_url, game)
    looks = iter(range(DECISIONS[game] + 1))  # play_until looks once before each choice
    play_until(base_url, match, lambda _view: next(looks) >= DECISIONS[game])
    return match, int(snapshot(base_url, match)["to_act"])


@pytest.mark.parametrize("size", SIZES, ids=lambda s: str(s[0]))
@pytest.mark.parametrize("lang", ["en", "ja", "fr"])
@pytest.mark.parametrize("game", sorted(DECISIONS))
def test_a_game_in_progress_holds_its_layout_in_the_language(
    new_page: Any, base_url: str, game: str, lang: str, size: tuple[int, int]
) -> None:
    match, seat = in_progress(base_url, game)
    page: Page = new_page(*size)
    watch = PageWatch(page)
    in_language(page, lang)
    open_as(page, match, seat)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    # The prompt for the seat to act is drawn once the table has its legal choices.
    expect(page.locator("#status")).not_to_be_empty()
    no_horizontal_overflow(page)
    assert_clean_text(page)
    if lang != "en":
        assert_no_english(page, lang, f"{game} in progress at {size[0]}x{size[1]}")
    assert not watch.failed, watch.failed
    shot(page, f"layout-{game}-{lang}-{size[0]}")


#: Grows the hand drawn on the page to ten Kumi (copies of the first): a hand of ten comes
#: only late in a game (random play reaches it in about half the games, after 60-150
#: decisions), and only its width matters here. The hand's own Kumi carry ``data-hand``;
#: Kumi being looked at (a card's action, in some deals) are drawn in a group of their own.
KUMI_IN_HAND = ".s-hand-kumi[data-hand]"
HAND_KUMI = f".s-hands {KUMI_IN_HAND}"
TEN_KUMI = f"""() => {{
  const row = document.querySelector('{HAND_KUMI}').parentElement;
  while (row.querySelectorAll('{KUMI_IN_HAND}').length < 10)
    row.append(row.querySelector('{KUMI_IN_HAND}').cloneNode(true));
}}"""


def test_a_full_sashimono_hand_stays_on_one_line_in_french(new_page: Any, base_url: str) -> None:
    """Ten Kumi and a Sashimono in French at 1920x1080: the hand's groups stay side by side,
    each row scrolling sideways when it must, and the hand stays in the window. Wrapped, the
    Sashimono (its French text the longest) went below the Kumi and past the window's foot
    (a whole French duel in CI)."""
    match = create(base_url, "sashimono")
    looks = iter(range(DECISIONS["sashimono"] + 1))
    play_until(base_url, match, lambda _view: next(looks) >= DECISIONS["sashimono"])
    seat = snapshot(base_url, match)["to_act"]
    page: Page = new_page(1920, 1080)
    in_language(page, "fr")
    open_as(page, match, seat)
    expect(page.locator(".s-hands .s-hand-card")).not_to_have_count(0)
    page.evaluate(TEN_KUMI)
    expect(page.locator(HAND_KUMI)).to_have_count(10)
    tops = page.locator(".s-hands .s-hand-group").evaluate_all(
        "groups => groups.map((g) => Math.round(g.getBoundingClientRect().top))"
    )
    assert len(set(tops)) == 1, tops
    assert_within_window(page, ".s-hands")
    shot(page, "layout-sashimono-full-hand-fr-1920")


#: Lengthens the list of choices drawn above the table to three lines (copies of its first
#: button): six attack choices in French took two lines at 1920x1080 in a whole duel.
LONG_CHOICES = """() => {
  const list = document.querySelector('.s-choices');
  const first = list.querySelector('button');
  while (list.querySelectorAll('button').length < 18) list.append(first.cloneNode(true));
}"""


def test_the_sashimono_hand_stays_in_the_window_below_a_long_list_of_choices(
    new_page: Any, base_url: str
) -> None:
    """At 1920x1080 in French, three lines of choices above the table: the hand stays at the
    window's foot, over the foot of the Sonae, and leaves the choices in view. Below two
    lines of them (six attack choices in a whole French duel) it reached 6 px past the
    window, out of view until scrolled."""
    match = create(base_url, "sashimono")
    # After the setup's four looked-at Sashimono, the first turn's choice: two buttons.
    looks = iter(range(5))
    play_until(base_url, match, lambda _view: next(looks) >= 4)
    page: Page = new_page(1920, 1080)
    in_language(page, "fr")
    open_as(page, match, snapshot(base_url, match)["to_act"])
    expect(page.locator(".s-hands .s-hand-card")).not_to_have_count(0)
    expect(page.locator('.s-choices button[data-kind="turn"]')).to_have_count(2)
    page.evaluate(LONG_CHOICES)
    lines = page.locator(".s-choices button").evaluate_all(
        "buttons => new Set(buttons.map((b) => Math.round(b.getBoundingClientRect().top))).size"
    )
    assert lines >= 3, lines
    assert_within_window(page, ".s-hands")
    assert_within_window(page, ".s-choices")
    choices_foot = page.locator(".s-choices").evaluate("e => e.getBoundingClientRect().bottom")
    hand_top = page.locator(".s-hands").evaluate("e => e.getBoundingClientRect().top")
    assert choices_foot <= hand_top, (choices_foot, hand_top)
    shot(page, "layout-sashimono-long-choices-fr-1920")
