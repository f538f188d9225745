"""Nim in the browser: picked from the home page's game picker, played in hot seat by two
players on one device to the end by clicks only, on the generic renderer's choice buttons
(the game declares no renderer of its own), with no console error, no failed request and no
broken text on screen.

Screenshots (1920x1080 and 390x844) are kept in build/web-screenshots/.
"""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, Request, Response, expect

from tests.waiting import GENEROUS_MS

# tests/web's browser fixtures (its in-process server, Debian's Chromium through Playwright,
# opened and closed per test module). Imported here rather than in a conftest.py: this folder
# is on sys.path (a plugin), where a module named conftest would shadow other folders' ones.
from tests.web.conftest import base_url, browser, playwright  # noqa: F401, F811
from tests.web.helpers import no_horizontal_overflow, shot

#: What a page must never show: a value the client failed to turn into words.
BROKEN = re.compile(r"\[object Object\]|\bundefined\b|\bNaN\b")


class Watch:
    """Console errors, page errors and failed requests of one page."""

    def __init__(self, page: Page) -> None:
        self.problems: list[str] = []
        page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        page.on(
            "console",
            lambda m: (
                self.problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None
            ),
        )
        page.on("requestfailed", self._failed)
        page.on("response", self._response)

    def _failed(self, request: Request) -> None:
        if request.failure == "net::ERR_ABORTED" and request.url.endswith("/favicon.svg"):
            return  # the browser drops the icon's load when the page navigates: no failure
        self.problems.append(f"request failed: {request.method} {request.url} {request.failure}")

    def _response(self, response: Response) -> None:
        if response.status >= 400:
            self.problems.append(
                f"HTTP {response.status}: {response.request.method} {response.url}"
            )


def no_broken_text(page: Page) -> None:
    text = page.evaluate("document.body.innerText")
    found = BROKEN.search(text)
    assert found is None, f"the page shows {found.group(0)!r}: {text[:2000]}"


def ply(page: Page) -> int:
    return int(page.locator("#status").get_attribute("data-ply") or 0)


def test_nim_hot_seat_by_clicks(browser: Browser, base_url: str) -> None:  # noqa: F811
    ctx = browser.new_context(viewport={"width": 1920, "height": 1080}, base_url=base_url)
    ctx.set_default_timeout(GENEROUS_MS)
    try:
        page = ctx.new_page()
        watch = Watch(page)
        page.goto("/")
        # The game picker offers every game the server lists, plugins included.
        card = page.locator('.game-card[data-game="nim"]')
        expect(card).to_be_visible()
        no_broken_text(page)
        card.locator("a.button").click()
        page.wait_for_url("**/new/nim")
        page.click('.presets button[data-preset="hotseat"]')
        page.select_option("#opt-heaps", label="classic")
        assert page.locator(".seats .seat-row").count() == 2
        for kind in page.locator(".seats select.seat-kind").all():
            assert kind.input_value() == "local"
        no_broken_text(page)
        page.click("#start")
        page.wait_for_url("**/play/*")

        played: list[str] = []
        passes = 0
        for _ in range(40):
            page.wait_for_function(
                "() => { const s = document.getElementById('status');"
                " return s && (s.dataset.state === 'finished'"
                " || document.querySelector('.pass-screen:not([hidden]) #pass-ready')"
                " || document.querySelector('button.action')); }"
            )
            if page.locator("#status").get_attribute("data-state") == "finished":
                break
            no_broken_text(page)
            if page.locator(".pass-screen:not([hidden])").count():
                expect(page.locator(".pass-screen")).to_contain_text("Pass the device")
                page.click("#pass-ready")
                passes += 1
                continue
            buttons = page.locator("button.action")
            if not played:
                # Heaps 1-3-5-7: every take of one to three stones is a button.
                assert buttons.count() == 1 + 3 + 3 + 3
                shot(page, "nim-hot-seat-start-1920")
            # The largest take from the first heap that has stones.
            first_heap = (buttons.first.get_attribute("data-action") or "")[0]
            choice = page.locator(f'button.action[data-action^="{first_heap}"]').last
            action = choice.get_attribute("data-action") or ""
            before = ply(page)
            choice.click()
            page.wait_for_function(
                "n => Number(document.getElementById('status').dataset.ply) > n", arg=before
            )
            played.append(action)
        assert played == ["a1", "b3", "c3", "c2", "d3", "d3", "d1"]
        assert passes >= 6  # the device changed hands between the players' turns

        end = page.locator(".end-panel")
        expect(end).to_be_visible()
        expect(end.locator("h2")).to_have_text("Seat 1 wins")
        expect(end.locator(".end-reason")).to_contain_text("wins")
        expect(page.locator("#status")).to_contain_text("Game over:")
        no_broken_text(page)
        no_horizontal_overflow(page)
        shot(page, "nim-hot-seat-end-1920")
        page.set_viewport_size({"width": 390, "height": 844})
        expect(end).to_be_visible()
        no_broken_text(page)
        no_horizontal_overflow(page)
        shot(page, "nim-hot-seat-end-390")
        page.click("#end-close")
        shot(page, "nim-hot-seat-board-390")
        no_broken_text(page)
        assert not watch.problems, watch.problems
    finally:
        ctx.close()
