"""How the match page sends actions: each click once, in order, and never dropped.

The socket often shows the next decision before the answer to the last action has come
back (a game where one player decides several times in a row, a hot seat). A click made in
that moment used to be thrown away without a word; it now waits for that answer and goes out.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import APIResponse, Page, Request, Route, expect

from tests.waiting import wait_until
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


def test_a_click_after_the_answer_and_before_the_page_shows_it_is_not_sent(
    new_page: Any,
) -> None:
    """The page fetches the action's events before it shows the position its answer brought.
    A second click on the old position in that moment went out again, at a ply the server had
    left, and came back 409 (a Sashimono game in CI, a choice button clicked twice)."""
    page: Page = new_page(1280, 900)
    # The socket says nothing: the page learns what its action did from the answer alone, so
    # that moment stays open while the events' fetch is held.
    page.route_web_socket("**/ws/matches/*", lambda ws: None)
    start_game(page, "gungi", "hotseat")
    posted: list[str] = []
    refused: list[str] = []
    page.on(
        "request",
        lambda r: (
            posted.append(r.post_data or "")
            if r.method == "POST" and r.url.endswith("/actions")
            else None
        ),
    )
    page.on(
        "response", lambda r: refused.append(f"{r.status} {r.url}") if r.status >= 400 else None
    )
    held: list[Route] = []

    def hold_events_after_the_action(route: Route) -> None:
        if posted and not held:
            held.append(route)
        else:
            route.continue_()

    page.route("**/api/matches/*/events*", hold_events_after_the_action)
    page.wait_for_selector('.board-area[data-interactive="true"]')
    page.click('[data-sq="5-7"]')
    page.wait_for_selector('[data-target="5-6"]')
    with page.expect_request(lambda r: "/events" in r.url and bool(posted)):
        page.click('[data-sq="5-6"]')
    # (Playwright calls the route's handler while the test is in one of its own calls.)
    wait_until(lambda: page.evaluate("() => true") and held, "the page fetching its events")
    # The page still shows the position the action was made in: the same move again.
    assert page.locator("#status").get_attribute("data-ply") == "0"
    page.click('[data-sq="5-7"]')  # (sending the move let go of the piece)
    page.wait_for_selector(".board rect.selected")
    page.click('[data-sq="5-6"]')
    # Proved by order, as above: a request made after the click, and still one action.
    with page.expect_request("**/healthz"):
        page.evaluate("() => fetch('/healthz')")
    assert len(posted) == 1, posted
    held[0].continue_()
    page.wait_for_function("() => document.getElementById('status').dataset.ply === '1'")
    assert len(posted) == 1, posted
    assert not refused, refused


#: Snapshots as the server sends them (only the two counters matter here), and whether the
#: first shows an earlier moment of the match than the second.
ORDER_CASES = [
    # An action that writes no event (Gunshi's "place", "at", many "dir"): the ply decides.
    ({"ply": 4, "last_event": 2}, {"ply": 5, "last_event": 2}, True),
    ({"ply": 5, "last_event": 2}, {"ply": 4, "last_event": 2}, False),
    # A takeback writes an event and lowers the ply: the position after it is the newer.
    ({"ply": 9, "last_event": 7}, {"ply": 6, "last_event": 8}, True),
    ({"ply": 6, "last_event": 8}, {"ply": 9, "last_event": 7}, False),
    # The same moment (a chat line, a clock): not older, it is shown.
    ({"ply": 3, "last_event": 3}, {"ply": 3, "last_event": 3}, False),
    ({"ply": 2, "last_event": 1}, {"ply": 3, "last_event": 3}, True),
]


def test_an_answer_older_than_the_shown_position_is_dropped(new_page: Any) -> None:
    """The answer to our action can come back after the socket brought the opponent's reply.
    When that reply wrote no event (Gunshi's AI turning a unit), the old rule (fewer plies
    *and* fewer events) showed the answer's older position, the opponent to act, and the
    board stayed so until a reload (a Gunshi keyboard game stuck in CI)."""
    page: Page = new_page(800, 600)
    page.goto("/")
    got = page.evaluate(
        """async (cases) => { const { isOlder } = await import('/js/match.js');
             return cases.map(([a, b]) => isOlder(a, b)); }""",
        [[a, b] for a, b, _ in ORDER_CASES],
    )
    assert got == [older for _, _, older in ORDER_CASES]
