"""A screen reader hears the other side's moves (a live region), and two players' moves read
as numbered pairs, as on a score sheet."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect

from tests.web.helpers import click_move, start_game, wait_moves


def test_the_opponents_move_is_announced_and_moves_pair_up(new_page: Any) -> None:
    page: Page = new_page(1280, 900)
    start_game(page, "gungi", "ai")
    announce = page.locator("#announce")
    expect(announce).to_have_attribute("aria-live", "polite")
    click_move(page, "5-7", "5-6")
    wait_moves(page, 2)
    # The computer's reply, in words (its label), never our own move.
    expect(announce).to_have_text(re.compile(r"^Black: (Move|Capture|Stack|Drop|Place)\b"))
    assert "5-7-1" not in announce.inner_text()  # our own move is not read back to us
    # Numbered pairs: "1." heads White's move, Black's answer stands beside it unnumbered.
    moves = page.locator("#moves")
    expect(moves).to_have_class(re.compile(r"\bpairs\b"))
    assert page.locator('#moves li[data-ply="1"] .ply').inner_text() == "1."
    assert not page.locator('#moves li[data-ply="2"] .ply').is_visible()
    first = page.locator('#moves li[data-ply="1"]').bounding_box()
    second = page.locator('#moves li[data-ply="2"]').bounding_box()
    assert first and second and abs(first["y"] - second["y"]) < 2 and second["x"] > first["x"]
