"""Every game's table in every language at both sizes (issue 41, "Layout holds in all three"):
a game in progress opened in English, Japanese and French at 1920x1080 and 390x844 has nothing
sticking out past the window's right edge, shows no English phrase of the catalog in Japanese
or French, and leaves a screenshot (``build/web-screenshots/layout-<game>-<lang>-<width>.png``)
to look at."""

from __future__ import annotations

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


@pytest.mark.parametrize("size", SIZES, ids=lambda s: str(s[0]))
@pytest.mark.parametrize("lang", ["en", "ja", "fr"])
@pytest.mark.parametrize("game", sorted(DECISIONS))
def test_a_game_in_progress_holds_its_layout_in_the_language(
    new_page: Any, base_url: str, game: str, lang: str, size: tuple[int, int]
) -> None:
    match = create(base_url, game)
    looks = iter(range(DECISIONS[game] + 1))  # play_until looks once before each choice
    play_until(base_url, match, lambda _view: next(looks) >= DECISIONS[game])
    seat = snapshot(base_url, match)["to_act"]
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
#: decisions), and only its width matters here.
TEN_KUMI = """() => {
  const row = document.querySelector('.s-hands .s-hand-kumi').parentElement;
  while (row.querySelectorAll('.s-hand-kumi').length < 10) row.append(row.querySelector('.s-hand-kumi').cloneNode(true));
}"""


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
    expect(page.locator(".s-hands .s-hand-kumi")).to_have_count(10)
    tops = page.locator(".s-hands .s-hand-group").evaluate_all(
        "groups => groups.map((g) => Math.round(g.getBoundingClientRect().top))"
    )
    assert len(set(tops)) == 1, tops
    assert_within_window(page, ".s-hands")
    shot(page, "layout-sashimono-full-hand-fr-1920")
