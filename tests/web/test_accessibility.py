"""Every page passes axe-core's automated accessibility check (WCAG 2.1 A and AA rules).

axe-core ships inside the ``axe-playwright-python`` package (a test dependency): nothing is
fetched. Each page is checked as a player first sees it, and the match pages of every game
once a game is under way.
"""

from __future__ import annotations

from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

from sengoku.core.registry import list_games
from tests.web.helpers import start_game

AXE = Axe()
#: The rule sets checked: WCAG 2.0 and 2.1, levels A and AA, and axe's best practices.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]


#: Waits for every animation that ends (a card or piece arriving fades in): axe reads colours
#: as they are at that instant, so a half-faded piece would fail the contrast rule. Endless
#: ones (the tutorial's pulse) are left running.
SETTLE = """() => Promise.all(document.getAnimations()
  .filter((a) => a.effect && a.effect.getComputedTiming().endTime !== Infinity)
  .map((a) => a.finished.catch(() => null)))"""


def violations(page: Page) -> list[str]:
    page.evaluate(SETTLE)
    results = AXE.run(page, options={"runOnly": {"type": "tag", "values": TAGS}})
    found = results.response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at "
        + ", ".join(" ".join(n["target"]) for n in v["nodes"][:4])
        for v in found
    ]


@pytest.mark.parametrize("path", ["/", "/records", "/no/such/page"])
def test_site_pages(new_page: Any, path: str) -> None:
    page: Page = new_page(1280, 900)
    page.goto(path)
    page.wait_for_load_state("networkidle")
    assert violations(page) == []


@pytest.mark.parametrize("game", list_games())
def test_setup_and_match_pages(new_page: Any, game: str) -> None:
    page: Page = new_page(1280, 900)
    page.goto("/")
    page.click(f'.game-card[data-game="{game}"] a.button')
    page.wait_for_selector("#start")
    assert violations(page) == [], "the setup page"
    start_game(page, game, "ai")
    page.wait_for_load_state("networkidle")
    page.wait_for_selector("#status[data-state]")  # the match is drawn (violations() settles)
    assert violations(page) == [], "the match page"
