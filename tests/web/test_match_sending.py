"""How the match page sends actions: each click once, in order, and never dropped.

The socket often shows the next decision before the answer to the last action has come
back (a game where one player decides several times in a row, a hot seat). A click made in
that moment used to be thrown away without a word; it now waits for that answer and goes out.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import APIResponse, Page, Request, Route, expect

from tests.web.helpers import start_game


def test_a_click_made_before_the_last_answer_came_back_is_sent(new_page: Any) -> None:
    page: Page = new_page(1280, 900)
    start_game(page, "gungi", "hotseat")
    # The first action reaches the server, but its answer is held back until we let it go.
    held: list[tuple[Route, APIResponse]] = []

    def hold_first_answer(route: Route) -> None:
        if route.request.method == "POST" and not held:
            held.append((route, route.fetch()))
        else:
            route.continue_()

    page.route("**/api/matches/*/actions", hold_first_answer)
    posted: list[str] = []

    def count_post(request: Request) -> None:
        if request.method == "POST" and request.url.endswith("/actions"):
            posted.append(request.post_data or "")

    page.on("request", count_post)
    page.wait_for_selector('.board-area[data-interactive="true"]')
    page.click('[data-sq="5-7"]')
    page.wait_for_selector('[data-target="5-6"]')
    page.click('[data-sq="5-6"]')
    # The socket brings Black's turn while White's answer is still held.
    page.wait_for_function(
        "() => document.getElementById('status').dataset.ply === '1'"
        " && document.querySelector('.board-area[data-interactive=\"true\"]')"
    )
    assert len(held) == 1
    page.click('[data-sq="5-3"]')
    page.wait_for_selector('[data-target="5-4"]')
    page.click('[data-sq="5-4"]')
    # Black's action waits for White's answer: the requests go out in order. Proved by
    # order: the page reports its requests in the order it makes them, so once a request
    # made after the click is seen, an action sent at the click would have been seen too.
    with page.expect_request("**/healthz"):
        page.evaluate("() => fetch('/healthz')")
    assert len(posted) == 1, posted
    route, response = held[0]
    route.fulfill(response=response)
    page.wait_for_function("() => document.getElementById('status').dataset.ply === '2'")
    assert len(posted) == 2, posted
    assert '"ply":1' in posted[1].replace(" ", "")
    expect(page.locator("#moves li[data-ply]")).to_have_count(2)
