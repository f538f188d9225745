"""Post-game analysis in the browser (issue 38): a Gungi game played by clicks and resigned,
"Analyse" on its page, the job's progress, the graph of winning chances under the board, the
costly moves, and the engine's preferred move drawn on the board (js/analysis.js)."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import Page, expect

from tests.web.helpers import click_move, shot, start_game


def test_analyse_a_finished_game_then_see_a_blunder_and_the_better_move(new_page: Any) -> None:
    page: Page = new_page(1280, 900)
    start_game(page, "gungi", "hotseat")
    click_move(page, "7-7", "6-7", "付")
    click_move(page, "5-3", "5-4")
    click_move(page, "5-7", "5-6")
    # no analysis during the game: the page offers none, and the server refuses it
    expect(page.locator("#analyse-match, #end-analyse")).to_have_count(0)
    match_id = page.url.rstrip("/").rsplit("/", 1)[1]
    refused = page.request.post(f"/api/matches/{match_id}/analysis", data={})
    assert refused.status == 409, refused.text()
    assert refused.json()["error"]["code"] == "not_finished", refused.text()
    page.click("#resign")
    page.click(".dialog button.danger")
    expect(page.locator(".end-panel")).to_contain_text("wins")

    page.click("#end-analyse")
    page.wait_for_url(f"**/replay/{match_id}")
    # the job's progress, then the graph: one bar per move, under the board
    graph = page.locator("#analysis-graph")
    expect(graph).to_be_visible(timeout=120_000)
    expect(graph.locator(".bar")).to_have_count(3)
    below = page.evaluate(
        """() => document.querySelector('#analysis').getBoundingClientRect().top >=
                 document.querySelector('.board-shell').getBoundingClientRect().bottom"""
    )
    assert below, "the analysis sits under the board"
    expect(page.locator("#analysis-information")).to_contain_text("only what the mover saw")
    expect(page.locator("#analysis-accuracy li")).to_have_count(2)
    expect(page.locator("#analysis")).to_contain_text("a blunder 30%")

    stored = page.request.get(f"/api/matches/{match_id}/analysis")
    assert stored.status == 200, stored.text()
    plies = json.loads(stored.text())["result"]["plies"]
    # a blunder from the list: the position before it, the engine's move drawn on the board
    blunder = page.locator('#analysis-worst button[data-class="blunder"]').first
    expect(blunder).to_contain_text("Blunder")
    ply = int(blunder.get_attribute("data-ply") or 0)
    info = plies[ply - 1]
    assert info["classification"] == "blunder" and info["best"] != info["played"], info
    blunder.click()
    expect(page.locator("#replay-counter")).to_have_text(re.compile(rf"^{ply - 1} / "))
    expect(page.locator("#analysis-hint")).to_contain_text(f"the engine preferred {info['best']}")
    best = page.locator(".board .best-move")
    expect(best).to_have_count(1)
    described = info["best_described"]
    assert best.get_attribute("data-best") == "-".join(described["to"].split("-")[:2])
    if described.get("from") not in (None, "hand"):
        assert best.get_attribute("data-from") == "-".join(described["from"].split("-")[:2])
    expect(graph.locator(f'.bar[data-ply="{ply}"]')).to_have_class(re.compile("current"))
    shot(page, "analysis-blunder-1280")
    # a bar of the graph: that move's position
    graph.locator('.bar[data-ply="3"]').click()
    expect(page.locator("#replay-counter")).to_have_text(re.compile(r"^2 / "))
