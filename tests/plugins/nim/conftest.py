"""Browser fixtures for Nim's browser test: tests/web's in-process server on a free loopback
port, and Debian's Chromium through Playwright, offline.

Playwright's sync API runs an event loop on the main thread while it is open, so this folder
opens its own and closes it when its module ends (module scope): a session-wide one opened
here would still be open when later folders (tests/server's asyncio code, tests/web's own
Playwright) run.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Playwright, sync_playwright

from tests.web.conftest import base_url, launch_chromium  # noqa: F401


@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    b = launch_chromium(playwright)
    yield b
    b.close()
