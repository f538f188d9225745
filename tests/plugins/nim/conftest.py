"""Browser fixtures for Nim's browser test: tests/web's in-process server on a free loopback
port, and Debian's Chromium through Playwright, offline.

Playwright's sync API runs an event loop on the main thread while it is open, so this folder
opens its own and closes it when its module ends (module scope): a session-wide one opened
here would still be open when later folders (tests/server's asyncio code, tests/web's own
Playwright) run.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Playwright, sync_playwright

from tests.web.conftest import CHROMIUM, FLAGS, base_url  # noqa: F401


@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        raise RuntimeError(f"{CHROMIUM} is missing: `make test` installs Debian's chromium")
    b = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
    yield b
    b.close()
