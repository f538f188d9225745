"""Seeks in the browser (issue 37, docs/web.md "Seeks"): two players in two browser
contexts, both signed up; one creates a rated seek in the lobby of the home page, the other
sees it there (with the seeker's rating) and accepts it; both land on the match page, each
in their own seat, and the player to move first plays a move by clicks that the other sees.
Screenshots at 1280x900 and 390x844 go to build/web-screenshots/."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page, expect

from sengoku.core.registry import load_game
from tests.web.helpers import PageWatch, assert_clean_text, shot
from tests.web.test_gungi_full_games import click_move
from tests.web.test_rated_web import sign_up

GAME = load_game("gungi")


def test_a_seek_made_in_one_browser_is_accepted_in_another(
    new_page: Callable[..., Page],
) -> None:
    ann = new_page(1280, 900)
    ben = new_page(390, 844)
    watches = [PageWatch(ann), PageWatch(ben)]
    sign_up(ann, "SeekAnn")
    sign_up(ben, "SeekBen")

    # Ann offers a rated Gungi game (beginner rules, 15 min + 10 s)
    ann.goto("/")
    ann.locator("#seeks summary", has_text="Create a seek").click()
    ann.select_option("#seek-game", "gungi")
    ann.select_option("#opt-mode", '"beginner"')
    ann.select_option("#seek-clock", "fischer-15-10")
    expect(ann.locator("#seek-rated")).to_be_enabled()
    ann.get_by_label("Rated", exact=True).check()
    ann.click("#seek-create")
    expect(ann.locator("#my-seeks .seek-row")).to_have_count(1)
    expect(ann.locator("#my-seeks .seek-row")).to_contain_text("Waiting for an opponent")
    expect(ann.locator("#seek-list")).not_to_contain_text("SeekAnn")  # not offered to herself
    shot(ann, "seek-created-1280")

    # Ben finds it in his lobby and accepts it
    ben.goto("/")
    row = ben.locator("#seek-list .seek-row", has_text="SeekAnn")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("SeekAnn (1500?)")
    expect(row).to_contain_text("15 min + 10 s")
    expect(row).to_contain_text("mode: beginner")
    expect(row.locator(".rated-mark")).to_have_text("rated")
    assert_clean_text(ben)
    shot(ben, "seek-lobby-390")
    row.locator(".seek-accept").click()

    # both land on the match page, each seated in their own seat
    ben.wait_for_url("**/play/*")
    ann.wait_for_url("**/play/*")  # her page noticed the accept by itself
    assert ann.url == ben.url
    for page, me, other in ((ann, "SeekAnn", "SeekBen"), (ben, "SeekBen", "SeekAnn")):
        expect(page.locator("#status")).to_have_attribute("data-state", "active")
        expect(page.locator(".player-sub", has_text=f"{me} · you")).to_have_count(1)
        expect(page.locator(".player-sub", has_text=f"{other} · opponent")).to_have_count(1)
        expect(page.locator("#resign")).to_be_visible()
    shot(ann, "seek-match-1280")
    shot(ben, "seek-match-390")

    # seat 0 (White) moves first, by clicks, with the token its page holds
    white = ann if "you" in ann.locator('.player[data-seat="0"] .player-sub').inner_text() else ben
    black = ben if white is ann else ann
    state = GAME.new_state(mode="beginner")
    (d,) = GAME.describe_actions(state, state.legal_actions()[:1])
    click_move(white, d)
    for page in (white, black):
        page.wait_for_function("() => Number(document.getElementById('status').dataset.ply) >= 1")
    for w in watches:
        assert not w.failed, w.failed
