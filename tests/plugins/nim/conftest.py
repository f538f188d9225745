"""The browser fixtures of tests/web (the in-process server on a free loopback port, Debian's
Chromium through Playwright, offline), reused for Nim's browser test."""

from tests.web.conftest import base_url, browser, playwright  # noqa: F401
