"""The lists (issue 17): records with winner, players and date, a filter by game and pages;
live games with their spectators and a share link; results in words."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from tests.web.api import API
from tests.web.test_table_features import base_url, create, open_as  # noqa: F401  (fixture)


def finished(url: str, game: str, loser: int) -> str:
    m = create(url, game)
    r = API.post(
        f"{url}/api/matches/{m['id']}/resign",
        headers={"Authorization": f"Bearer {m['tokens'][str(loser)]}"},
    )
    assert r.status_code == 200, r.text
    return str(m["id"])


def test_records_show_the_winner_in_words_filter_by_game_and_page(
    new_page: Any,
    base_url: str,  # noqa: F811
) -> None:
    # Gunkimono and Gunshi: the other tests of this server finish only Gungi games.
    for i in range(27):
        finished(base_url, "gunkimono", i % 2)
    gunshi = [finished(base_url, "gunshi", 1) for _ in range(2)]
    page: Page = new_page(1280, 900)
    page.goto("/records")
    rows = page.locator("#records-list .record-row")
    expect(rows).to_have_count(25)
    first = rows.first
    expect(first).to_contain_text("wins by resignation")
    expect(first.locator("time")).to_have_count(1)
    expect(first.locator(".winner")).to_have_count(1)
    # The newest first: the two Gunshi games lead, named by side and player.
    assert rows.nth(0).get_attribute("data-id") == gunshi[1]
    expect(rows.nth(0)).to_contain_text("Aki")
    page.select_option("#list-game", "gunkimono")
    expect(rows.first).to_have_attribute("data-game", "gunkimono")
    expect(rows).to_have_count(25)
    page.click("#page-older")
    expect(rows).to_have_count(2)
    expect(page.locator("#page-number")).to_have_text("Page 2")
    expect(page.locator("#page-older")).to_have_count(0)
    assert "page=2" in page.url and "game=gunkimono" in page.url
    page.click("#page-newer")
    expect(rows).to_have_count(25)
    page.select_option("#list-game", "gunshi")
    expect(rows).to_have_count(2)
    assert "game=gunshi" in page.url
    assert {rows.nth(i).get_attribute("data-game") for i in range(2)} == {"gunshi"}


def test_results_read_in_words(new_page: Any, base_url: str) -> None:  # noqa: F811
    page: Page = new_page(800, 600)
    page.goto("/records")
    cases = [
        ({"reason": "vp", "winners": [0], "scores": [3, 1]}, "East wins on victory points, 3 to 1"),
        ({"reason": "end_of_game", "winners": [1], "scores": [30, 42, 12]},
         "West wins on victory points at the end of the game, 42, 30 and 12"),
        ({"reason": "agreement", "winners": [], "scores": [0, 0]}, "Drawn by agreement"),
        ({"reason": "timeout", "winners": [1], "scores": [0, 1]}, "West wins on time"),
        ({"reason": "kagemusha_deck", "winners": [], "scores": [4]},
         "The Kagemusha wins because a deck ran out"),
    ]  # fmt: skip
    for result, words in cases:
        got = page.evaluate(
            """async (r) => (await import('/js/words.js'))
                 .resultInWords(r, (s) => ['East', 'West', 'North'][s])""",
            result,
        )
        assert got == words


def test_live_games_with_spectators_and_a_share_link(
    new_page: Any,
    base_url: str,  # noqa: F811
) -> None:
    m = create(base_url, "gungi")
    mid = m["id"]
    open_as(new_page, mid, None, None)  # a spectator
    page: Page = new_page(1280, 900)
    page.goto("/")
    page.click("header nav a[href='/live']")
    row = page.locator(f'#live-list .live-row[data-id="{mid}"]')
    expect(row).to_contain_text("1 spectator")
    expect(row).to_contain_text("Aki")
    share = row.locator("button[data-share]").get_attribute("data-share")
    assert share is not None and share.endswith(f"/play/{mid}")
    row.locator("a[data-watch]").click()
    page.wait_for_selector("#chat")
    assert page.url.endswith(f"/play/{mid}")
