"""A rated game in the browser (issue 37, docs/ratings.md): a new player signs up, creates a
rated Gungi game, a second signed-in player joins it from the invitation link in another
browser, both play by clicks until one resigns; both end cards show the rating change, and
both profiles and the leaderboard show the new ratings. Screenshots at 1920x1080 and 390x844
go to build/web-screenshots/."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Page, expect

from sengoku.core.registry import load_game
from tests.web.helpers import PageWatch, assert_clean_text, shot
from tests.web.test_gungi_full_games import click_move

GAME = load_game("gungi")
#: Each side moves a piece forward and back (Gungi intro): a short game before a resignation.
MOVES = ["9-6-1 兵(9-7)", "7-1-1 中(6-1)", "9-7-1 兵(9-6)", "6-1-1 中(7-1)"]


def sign_up(page: Page, name: str) -> None:
    page.goto("/account")
    page.locator("#signup-name").fill(name)
    page.locator("#signup-password").fill("rated password")
    page.locator("#signup button[type=submit]").click()
    expect(page.locator("#account-name")).to_have_text(name)


def test_a_rated_game_by_clicks_changes_both_ratings(new_page: Callable[..., Page]) -> None:
    ann = new_page(1920, 1080)
    ben = new_page(390, 844)
    watches = [PageWatch(ann), PageWatch(ben)]
    sign_up(ann, "RatedAnn")
    sign_up(ben, "RatedBen")

    # Ann sets up a rated game against a friend
    ann.goto("/new/gungi")
    ann.click('.presets button[data-preset="invite"]')
    rated = ann.locator("#rated-yes")
    expect(rated).to_be_enabled()
    expect(ann.locator("#rated-help")).to_contain_text("change your rating")
    ann.get_by_label("Rated", exact=True).check()
    expect(ann.locator("#clock")).not_to_have_value("none")  # a rated game has a clock
    shot(ann, "rated-setup-1920")
    ann.click("#start")
    ann.wait_for_url("**/play/*")
    invite = ann.locator(".invite-url").first.input_value()

    # Ben opens the link, signed in: the seat is his account's
    ben.goto(invite)
    expect(ben.locator("#rated-note")).to_contain_text("You play as RatedBen")
    shot(ben, "rated-join-390")
    ben.click("#join-button")
    expect(ben.locator("#status")).to_have_attribute("data-state", "active")
    expect(ann.locator("#status")).to_have_attribute("data-state", "active")

    state = GAME.new_state(mode="intro")
    pages = {0: ann, 1: ben}
    for played, text in enumerate(MOVES, start=1):
        mover = state.current_player
        action = GAME.parse_action(state, text)
        (d,) = GAME.describe_actions(state, [action])
        click_move(pages[mover], d)
        state.apply(action)
        pages[1 - mover].wait_for_function(
            "n => Number(document.getElementById('status').dataset.ply) >= n", arg=played
        )

    # Ben resigns by clicks
    ben.click("#resign")
    ben.locator(".dialog button", has_text="Resign").click()
    won = re.compile(r"Your rating:\s*1500 → (\d+) \(\+(\d+)\)")
    lost = re.compile(r"Your rating:\s*1500 → (\d+) \(−(\d+)\)")
    for page, pattern, name in ((ann, won, "1920"), (ben, lost, "390")):
        card = page.locator(".end-panel .end-ratings")
        expect(card).to_be_visible()
        expect(card).to_contain_text(pattern)
        assert_clean_text(page)
        shot(page, f"rated-end-card-{name}")
    ann_after = int(won.search(ann.locator(".end-ratings").inner_text()).group(1))  # type: ignore[union-attr]
    ben_after = int(lost.search(ben.locator(".end-ratings").inner_text()).group(1))  # type: ignore[union-attr]
    assert ann_after > 1500 > ben_after

    # both profiles show the new ratings and the game; each player looks at both
    for page, name in ((ann, "1920"), (ben, "390")):
        for who, after, result in (("RatedAnn", ann_after, "won"), ("RatedBen", ben_after, "lost")):
            page.goto(f"/player/{who}")
            pool = page.locator('.rating-pool[data-game="gungi"]')
            expect(pool.locator(".rating-number")).to_have_text(str(after))
            expect(pool.locator("svg.rating-graph")).to_be_visible()
            row = page.locator("#player-games .record-row")
            expect(row).to_have_count(1)
            expect(row).to_contain_text(f"{result} against")
            expect(row).to_contain_text(f"rated 1500 → {after}")
            page.select_option("#filter-result", "draw")
            expect(row).to_have_count(0)
            page.select_option("#filter-result", "")
            expect(row).to_have_count(1)
            assert_clean_text(page)
        shot(page, f"rated-profile-{name}")
        page.click("text=Gungi leaderboard")
        expect(page.locator(".leaderboard-table tbody tr")).to_have_count(2)
        expect(page.locator(".leaderboard-table tbody tr").first).to_have_attribute(
            "data-name", "RatedAnn"
        )
        assert_clean_text(page)
        shot(page, f"rated-leaderboard-{name}")
    for w in watches:
        assert not w.failed, w.failed


def test_setup_offers_rated_only_when_signed_in(new_page: Callable[..., Page]) -> None:
    page = new_page(390, 844)
    page.goto("/new/gungi")
    expect(page.locator("#rated-help")).to_contain_text("signed-in players")
    expect(page.locator("#rated-yes")).to_be_disabled()
    expect(page.locator("#rated-no")).to_be_checked()
    shot(page, "rated-setup-guest-390")
