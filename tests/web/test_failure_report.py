"""The report of a failed browser test says what each page showed (tests/web/conftest.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.conftest import OPEN_PAGES, describe_page


def test_a_page_stuck_on_the_server_is_described_with_its_unanswered_request(
    new_page: Any,
) -> None:
    page = new_page(800, 600)
    requests = OPEN_PAGES[-1][1]
    # The list of games is never answered: the setup page waits for it, as a page would on a
    # server that stalled.
    page.route("**/api/games", lambda route: None)
    page.goto("/new/nim")
    page.wait_for_function("() => document.body.dataset.page === 'new'")
    report = describe_page(page, requests, "failed-report-test")
    lines = dict(line.split(": ", 1) for line in report.splitlines())
    assert lines["address"].endswith("/new/nim")
    assert lines["page"] == "new"
    assert lines["unanswered requests"].endswith("/api/games']"), report
    assert lines["failed requests"] == "none"
    assert lines["message"] == "none"
    assert Path(lines["screenshot"]).stat().st_size > 0
    page.unroute("**/api/games")
