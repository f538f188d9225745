"""The browser through ``sengoku serve --processes 2``: a whole game by clicks, where the
front hands the pages, the API and the match's WebSocket to their workers.

The other browser tests run one in-process server; this one runs the real front and two
worker processes on a temporary SQLite file, so a page's static files (round the workers),
its match page, API calls and socket (the match's owner) all pass through the hand-over.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.server.real_server import RealServer, real_server
from tests.web.conftest import page_maker
from tests.web.helpers import PageWatch
from tests.web.test_sashimono_web import check_end, new_game, play_to_the_end


@pytest.fixture(scope="module")
def front(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RealServer]:
    folder = tmp_path_factory.mktemp("front-web")
    # Every request of the test comes from 127.0.0.1, one client to the rate limits.
    with real_server(folder, ("--processes", "2"), SENGOKU_LIMIT_EXEMPT="127.0.0.1") as server:
        yield server


@pytest.fixture
def front_page(browser: Browser, front: RealServer) -> Iterator[Any]:
    yield from page_maker(browser, front.base)


def test_a_whole_duel_against_the_ai_through_the_front(front_page: Any, front: RealServer) -> None:
    page: Page = front_page(1920, 1080)
    watch = PageWatch(page)
    new_game(page, "duel", vp=1)
    match_id = page.url.rstrip("/").rsplit("/", 1)[-1]
    # A spectator's page on the same match, in its own browser context: its own connections,
    # which the front must send to the same worker for it to see the moves live.
    spectator: Page = front_page(1280, 900)
    spectator.goto(f"/play/{match_id}")
    spectator.wait_for_selector(".s-sonae")
    play_to_the_end(page, "front-sashimono-duel", seed=21)
    check_end(page, watch, "front-sashimono-duel")
    # The spectator saw the end without reloading.
    expect(spectator.locator("#status")).to_have_attribute("data-state", "finished")
    # Nothing failed in the workers, and the match is stored as finished (read on a fresh
    # connection, which the front sends to the match's owner).
    assert "Traceback" not in Path(front.log_path).read_text()
    r = front.http.get(f"/api/matches/{match_id}", headers={"Connection": "close"})
    assert r.status_code == 200 and r.json()["status"] != "active", r.text
