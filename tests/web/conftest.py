"""Browser tests: the real server on 127.0.0.1 (a free port, a temporary SQLite file) and
Debian's Chromium driven by Playwright for Python, offline (no browser download, no network).

Screenshots are kept as test artifacts in build/web-screenshots/ (SENGOKU_WEB_ARTIFACTS
overrides the folder).
"""

from __future__ import annotations

import os
import re
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from playwright.sync_api import Browser, Page, Playwright, expect, sync_playwright
from playwright.sync_api import Error as PlaywrightError

from sengoku.server import Settings, create_app
from tests.waiting import GENEROUS_MS, wait_until
from tests.web.helpers import shot

#: How long a page's action or wait may take before it fails: tests/waiting.py's safety net
#: (GENEROUS), not a bound on how long things take. Playwright's own defaults (30 s for an
#: action, 5 s for an ``expect``; a short explicit 15-30 s before) failed whole-game tests
#: on a loaded machine (three browsers, the wheel build and a benchmark on two cores), where
#: a computer's turn or a redraw took that long. A short wait stays only as a probe, in a
#: ``try`` that looks again.
PAGE_TIMEOUT_MS = GENEROUS_MS
expect.set_options(timeout=PAGE_TIMEOUT_MS)

#: Debian's Chromium headless shell (``make test`` installs it): Blink without the full
#: browser's windowing layer, 10% less CPU over the browser tests than /usr/bin/chromium
#: (which SENGOKU_CHROMIUM still picks: the same pages, the same flags).
CHROMIUM = os.environ.get("SENGOKU_CHROMIUM", "/usr/bin/chromium-headless-shell")
#: What a closed network needs: no sandbox (root in CI), no GPU, nothing phoning home.
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-quic",
    "--disable-sync",
    # Containers often have a tiny /dev/shm; Chromium then crashes without this.
    "--disable-dev-shm-usage",
    # The first blank page of a context gets no renderer of its own (site isolation): the
    # app is one origin, and a context is opened for every test.
    "--disable-site-isolation-trials",
]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerThread(threading.Thread):
    """uvicorn in a thread with its own event loop; ``stop`` shuts it down cleanly."""

    def __init__(self, app: Any, port: int) -> None:
        super().__init__(daemon=True)
        config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
        self.server = uvicorn.Server(config)

    def run(self) -> None:
        self.server.run()

    def stop(self) -> None:
        self.server.should_exit = True
        self.join(timeout=10)


@pytest.fixture(scope="session")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("web") / "server.sqlite3"
    # AI seats run in a thread pool: no process start-up in the tests.
    # Every browser and API call of the tests comes from 127.0.0.1, one client to the rate
    # limits (tested in tests/server): here they are raised so that tests driving a game
    # through the API beside an open page never starve the page's own requests.
    app = create_app(
        Settings(
            db_url=f"sqlite:///{db}",
            ai_mode="thread",
            claim_after=3600,
            http_rate=500.0,
            http_burst=2000.0,
            # Tests that play hundreds of moves through the API (the game log's) share the
            # address's action budget with every test before them in the session.
            action_rate=500.0,
            action_burst=2000.0,
        )
    )
    port = free_port()
    thread = ServerThread(app, port)
    thread.start()
    wait_until(lambda: thread.server.started or not thread.is_alive(), "the test server to start")
    if not thread.is_alive():
        raise RuntimeError("the test server did not start")
    yield f"http://127.0.0.1:{port}"
    thread.stop()


# Playwright's sync API runs an event loop on the main thread while it is open: each test
# module opens its own and closes it when the module ends, so no other test (asyncio code in
# tests/server, a plugin's browser test) ever runs while one is open.
@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


#: Features Chromium preloads a renderer process for in every new window, headless too: the
#: omnibox popup's page (chrome://omnibox-popup.top-chrome). Every test opens a context (a
#: window), about 600 in the suite; without them a context cost 0.19 CPU seconds to open and
#: close instead of 0.39, and a browser's start 0.61 instead of 0.79 (Chromium 156).
UNNEEDED_FEATURES = ["WebUIOmniboxPopup", "WebUIOmniboxAimPopup"]
#: Playwright's own ``--disable-features`` list, read from the browser it launches.
_DISABLED_FEATURES: list[str] = []


def _disable_features(playwright: Playwright) -> str:
    """The one ``--disable-features`` switch: Chromium reads only the last one given, and
    Playwright gives its own (features that break automation), so ours must carry its list
    too. Read once a process from the command line of a browser it launched."""
    if not _DISABLED_FEATURES:
        # (Chromium tells its command line to a browser under automation only.)
        flags = [*FLAGS, "--enable-automation"]
        probe = playwright.chromium.launch(executable_path=CHROMIUM, args=flags, headless=True)
        try:
            line = probe.new_browser_cdp_session().send("Browser.getBrowserCommandLine")
        finally:
            probe.close()
        switch = "--disable-features="
        theirs = [a.removeprefix(switch) for a in line["arguments"] if a.startswith(switch)]
        _DISABLED_FEATURES.extend(f for f in ",".join(theirs[-1:]).split(",") if f)
        _DISABLED_FEATURES.extend(f for f in UNNEEDED_FEATURES if f not in _DISABLED_FEATURES)
    return "--disable-features=" + ",".join(_DISABLED_FEATURES)


def launch_chromium(playwright: Playwright) -> Browser:
    """Debian's Chromium, headless and offline (never a downloaded browser)."""
    if not Path(CHROMIUM).exists():
        raise RuntimeError(
            f"{CHROMIUM} is missing: `make test` installs Debian's chromium-headless-shell"
        )
    args = [*FLAGS, _disable_features(playwright)]
    return playwright.chromium.launch(executable_path=CHROMIUM, args=args, headless=True)


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    b = launch_chromium(playwright)
    yield b
    b.close()


class PageErrors:
    """JavaScript errors seen on a page: a test fails if its page threw."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    def watch(self, page: Page) -> Page:
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on(
            "console",
            lambda m: (
                self.errors.append(m.text)
                if m.type == "error" and not m.text.startswith("Failed to load resource")
                else None
            ),
        )
        return page


class Requests:
    """A page's requests still unanswered, and those that failed: what a page that never
    drew what a test awaited was waiting for (a report of a failed test lists them)."""

    def __init__(self, page: Page) -> None:
        self.pending: dict[int, str] = {}
        self.failed: list[str] = []
        page.on("request", lambda r: self.pending.__setitem__(id(r), f"{r.method} {r.url}"))
        page.on("requestfinished", lambda r: self.pending.pop(id(r), None))
        page.on("requestfailed", self._failed)

    def _failed(self, request: Any) -> None:
        self.pending.pop(id(request), None)
        self.failed.append(f"{request.method} {request.url}: {request.failure}")


#: The pages of the test running in this process (tests run one at a time in a process):
#: each with what it asked of the server.
OPEN_PAGES: list[tuple[Page, Requests]] = []

#: How long the report of a failed test waits on each look at a page: a page stuck in a
#: script must not hold up the run.
LOOK_MS = 5_000


def describe_page(page: Page, requests: Requests, picture: str) -> str:
    """What a page showed when its test failed: address, kind of page, its text, an error
    message on show, its unanswered and failed requests, and a screenshot's path."""
    lines = [f"address: {page.url}"]
    looks: list[tuple[str, Any]] = [
        ("page", lambda: page.locator("body").get_attribute("data-page", timeout=LOOK_MS)),
        (
            "text",
            lambda: " | ".join(page.locator("#app").inner_text(timeout=LOOK_MS).split("\n"))[:600],
        ),
        ("screenshot", lambda: str(shot(page, picture, timeout=LOOK_MS))),
        # No wait of its own (the message may be absent): read only from a page that answered.
        ("message", lambda: page.locator("#toast").all_inner_texts() or "none"),
    ]
    for name, look in looks:
        try:
            lines.append(f"{name}: {look()!s}")
        except PlaywrightError as exc:
            lines.append(f"{name}: (not read: {str(exc).splitlines()[0]})")
            break  # a page that does not answer is not asked again
    lines.append(f"unanswered requests: {sorted(requests.pending.values()) or 'none'}")
    lines.append(f"failed requests: {requests.failed or 'none'}")
    return "\n".join(lines)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """A browser test that failed reports what each of its pages showed then (before its
    pages close): a timeout alone does not say whether the page was waiting on the server,
    showed an error or drew something else."""
    report = yield
    if report.when == "call" and report.failed:
        for n, (page, requests) in enumerate(OPEN_PAGES, 1):
            picture = "failed-" + re.sub(r"[^a-z0-9]+", "-", item.name.lower()) + f"-{n}"
            report.sections.append(
                (f"page {n} when the test failed", describe_page(page, requests, picture))
            )
    return report


def page_maker(browser: Browser, base_url: str) -> Iterator[Any]:
    """Yields ``make(width, height)``: a page in a fresh context (its own localStorage) on
    the server at ``base_url``; afterwards closes them and fails on any JavaScript error."""
    contexts = []
    watcher = PageErrors()

    def make(width: int = 1280, height: int = 900) -> Page:
        ctx = browser.new_context(
            viewport={"width": width, "height": height}, base_url=base_url, accept_downloads=True
        )
        ctx.set_default_timeout(PAGE_TIMEOUT_MS)
        contexts.append(ctx)
        page = ctx.new_page()
        OPEN_PAGES.append((page, Requests(page)))
        return watcher.watch(page)

    yield make
    OPEN_PAGES.clear()
    for ctx in contexts:
        ctx.close()
    assert not watcher.errors, f"JavaScript errors: {watcher.errors}"


@pytest.fixture
def new_page(browser: Browser, base_url: str) -> Iterator[Any]:
    """``new_page(width, height)``: a page in a fresh context (its own localStorage)."""
    yield from page_maker(browser, base_url)
