"""Looking back during a live game: ← and → step through earlier positions (the board shows
each as the seat saw it, with no choices), the move list's moves show theirs, and the game
is one key or one button away."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect

from tests.web.helpers import (
    PageWatch,
    assert_clean_text,
    click_move,
    moves_shown,
    start_game,
    tower,
    wait_moves,
)

MOVES = (("5-7", "5-6"), ("5-3", "5-4"), ("9-7", "9-6"), ("9-3", "9-4"))


def test_step_back_through_a_live_game_and_return(new_page: Any) -> None:
    page: Page = new_page(1280, 900)
    watch = PageWatch(page)
    start_game(page, "gungi", "hotseat")
    page.wait_for_selector('.board .tower[data-square="5-7"] .piece')
    start = {sq: tower(page, sq) for sq in ("5-7", "5-6", "9-3", "9-4")}
    for origin, target in MOVES:
        click_move(page, origin, target)
    live = {sq: tower(page, sq) for sq in ("5-7", "5-6", "9-3", "9-4")}
    assert live != start
    bar = page.locator(".browse-bar")
    expect(bar).to_be_hidden()
    # The last click was on the board: the arrow keys browse (a square focused from the
    # keyboard would take them instead).
    page.keyboard.press("ArrowLeft")
    expect(bar).to_contain_text("after move 3 of 4")
    # Black's last move (9-3 to 9-4) is undone on the board shown; nothing can be played.
    expect(page.locator(".board-area")).to_have_attribute("data-interactive", "false")
    page.wait_for_function(
        "() => !document.querySelector('.board .tower[data-square=\"9-4\"] .piece')"
    )
    assert tower(page, "9-3") == start["9-3"]
    assert tower(page, "5-6") == live["5-6"]  # White's first move is still played
    expect(page.locator('#moves li[data-ply="3"]')).to_have_class("current")
    for _ in range(3):
        page.keyboard.press("ArrowLeft")
    expect(bar).to_contain_text("the start")
    page.wait_for_function(
        "() => !document.querySelector('.board .tower[data-square=\"5-6\"] .piece')"
    )
    assert tower(page, "5-7") == start["5-7"]
    # A move of the list shows the position after it.
    page.locator('#moves li[data-ply="2"] button').click()
    expect(bar).to_contain_text("after move 2 of 4")
    assert_clean_text(page)
    # Back to the game: the live board, and the next move can be played.
    page.click("#browse-live")
    expect(bar).to_be_hidden()
    expect(page.locator(".board-area")).to_have_attribute("data-interactive", "true")
    assert tower(page, "9-4") == live["9-4"]
    page.keyboard.press("ArrowLeft")
    expect(bar).to_be_visible()
    page.keyboard.press("End")
    expect(bar).to_be_hidden()
    click_move(page, "1-7", "1-6")
    assert not watch.failed, watch.failed


KANJI = re.compile(r"[\u4e00-\u9fff]")
#: Marks the first line of the move list, the element itself (a line drawn anew lacks it).
MARK_FIRST = "() => { document.querySelector('#moves li[data-ply=\"1\"]').dataset.seen = 'yes'; }"
FIRST_MARKED = "() => document.querySelector('#moves li[data-ply=\"1\"]').dataset.seen === 'yes'"
KANJI_SHOWN = """() => {
  const first = document.querySelector('#moves li[data-ply] .notation');
  return !!first && /[\\u4e00-\\u9fff]/.test(first.textContent);
}"""


def test_the_move_list_grows_and_is_drawn_anew_only_when_its_lines_change(
    new_page: Any,
) -> None:
    """The move list keeps its lines from one snapshot to the next and adds the new moves
    (drawn whole at every snapshot, it was most of a long game's work in the page); a
    takeback or the labels draw it anew."""
    page: Page = new_page(1280, 900)
    watch = PageWatch(page)
    start_game(page, "gungi", "hotseat")
    for origin, target in MOVES[:2]:
        click_move(page, origin, target)
    page.evaluate(MARK_FIRST)
    click_move(page, *MOVES[2])
    three = wait_moves(page, 3)
    assert three == ["5-6-1 兵(5-7)", "5-4-1 兵(5-3)", "9-6-1 兵(9-7)"]
    assert page.evaluate(FIRST_MARKED), "the first line was drawn again"
    # The labels change every line's words: drawn anew, without kanji.
    page.click("#labels-toggle")
    page.wait_for_function(f"() => !({FIRST_MARKED})()")
    assert not [m for m in moves_shown(page) if KANJI.search(m)], moves_shown(page)
    page.click("#labels-toggle")
    page.wait_for_function(KANJI_SHOWN)
    assert moves_shown(page) == three
    # A takeback shortens the list; the next move follows the two left.
    page.evaluate(MARK_FIRST)
    page.click("#takeback")
    page.wait_for_function("() => document.querySelectorAll('#moves li[data-ply]').length === 2")
    assert moves_shown(page) == three[:2]
    click_move(page, "1-7", "1-6")
    assert wait_moves(page, 3) == [*three[:2], "1-6-1 兵(1-7)"]
    assert [li.get_attribute("data-ply") for li in page.locator("#moves li").all()] == [
        "1",
        "2",
        "3",
    ]
    assert not watch.failed, watch.failed
