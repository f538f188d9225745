"""Post-game analysis in the browser (issue 38): a Gungi game played by clicks and resigned,
"Analyse" on its page, the job's progress, the graph of winning chances under the board, the
costly moves, and the engine's preferred move drawn on the board (js/analysis.js); in Gunshi,
Gunkimono and Sashimono (games finished through the API) the preferred move drawn on the
board or table, its secret parts (a card from the hand, a Shogun) only for its mover."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect

from tests.web.helpers import (
    analysed_replay,
    click_move,
    finished_by_api,
    pick_analysed_ply,
    shot,
    show_replay_as,
    start_game,
)


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


def preferred(
    plies: list[dict[str, Any]], wanted: Callable[[dict[str, Any]], Any]
) -> dict[str, Any]:
    """The first ply whose engine's move is not the one played and whose description
    ``wanted`` accepts."""
    for p in plies:
        d = p.get("best_described")
        if not p["forced"] and p["best"] != p["played"] and d and wanted(d):
            return p
    raise AssertionError(f"no such ply: {[(p['best'], p['played']) for p in plies]}")


#: Whether the centre of the first element ``a`` matches lies within the first ``b`` matches
#: (read from the document each time: the board may have been drawn again).
CENTRE_INSIDE = """([a, b]) => {
    const i = document.querySelector(a), o = document.querySelector(b);
    if (!i || !o) return false;
    const r = i.getBoundingClientRect(), q = o.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    return x > q.left && x < q.right && y > q.top && y < q.bottom;
}"""


def wait_lies_on(page: Page, inner: str, outer: str) -> None:
    """Wait until the mark ``inner`` is drawn on the place ``outer`` (Playwright's timeout
    as the safety net)."""
    page.wait_for_function(CENTRE_INSIDE, arg=[inner, outer])


def test_gunkimono_analysis_frames_the_squares_of_the_preferred_tile(
    new_page: Any, base_url: str
) -> None:
    match_id = finished_by_api(base_url, "gunkimono", 9, seed=5)
    page: Page = new_page(1280, 900)
    plies = analysed_replay(page, match_id)
    info = preferred(plies, lambda d: d.get("cells") or d.get("to"))
    described = info["best_described"]
    squares = described.get("cells") or [described["to"]]
    pick_analysed_ply(page, info["ply"])
    expect(page.locator("#analysis-hint")).to_contain_text(f"the engine preferred {info['best']}")
    frames = page.locator(".kimono-board .best-move")
    expect(frames).to_have_count(len(squares))
    for square in squares:
        wait_lies_on(
            page,
            f'.kimono-board .best-move[data-best="{square}"] .best-frame',
            f'.kimono-board .cell[data-cell="{square}"]',
        )
    shot(page, "analysis-gunkimono-best")
    # a move the engine agreed with: nothing drawn
    agreed = [p for p in plies if p["best"] == p["played"]]
    assert agreed, [(p["best"], p["played"]) for p in plies]
    pick_analysed_ply(page, agreed[0]["ply"])
    expect(frames).to_have_count(0)


def test_gunshi_analysis_marks_the_preferred_cell_and_only_its_mover_sees_a_card(
    new_page: Any, base_url: str
) -> None:
    match_id = finished_by_api(base_url, "gunshi", 58, seed=5)
    page: Page = new_page(1280, 900)
    plies = analysed_replay(page, match_id)
    # a unit placed on a cell, or a Fence: on the field, which every seat sees
    board = preferred(plies, lambda d: d["kind"] in ("at", "to", "unit", "fence"))
    described = board["best_described"]
    pick_analysed_ply(page, board["ply"])
    best = page.locator(".gunshi-board .best-move")
    expect(best).to_have_count(1)
    if described["kind"] == "fence":
        expect(best).to_have_attribute("data-best", described["edge"])
    else:
        cell = described["to"] if "to" in described else described["from"]
        expect(best).to_have_attribute("data-best", cell)
        wait_lies_on(
            page,
            ".gunshi-board .best-move .best-frame",
            f'.gunshi-board .gcell[data-cell="{cell}"]',
        )
    shot(page, "analysis-gunshi-best")

    # a card arranged into the hand or the deck: secret, so outlined for its mover only
    secret = preferred(plies, lambda d: d["kind"] in ("hand", "deck") and d.get("card"))
    card = secret["best_described"]["card"]
    pick_analysed_ply(page, secret["ply"])
    show_replay_as(page, secret["seat"])
    outlined = page.locator(f'.gs-side[data-seat="{secret["seat"]}"] .gs-card.best-card')
    expect(outlined).to_have_count(1)
    expect(outlined).to_have_attribute("data-best", card)
    show_replay_as(page, None)
    expect(page.locator(".gs-side.mine")).to_have_count(0)  # the spectator's view is drawn
    expect(page.locator(".best-card")).to_have_count(0)


def test_sashimono_analysis_outlines_the_preferred_space_and_only_its_mover_sees_the_card(
    new_page: Any, base_url: str
) -> None:
    match_id = finished_by_api(base_url, "sashimono", 24, seed=5)
    page: Page = new_page(1280, 900)
    plies = analysed_replay(page, match_id)
    # a space of the mover's Sonae for the card just played: on the table, seen by all
    board = preferred(plies, lambda d: d["kind"] == "choose_slot" and d.get("slot"))
    slot = board["best_described"]["slot"]
    pick_analysed_ply(page, board["ply"])
    outlined = page.locator(".s-best")
    expect(outlined).to_have_count(1)
    expect(
        page.locator(f'.s-side[data-seat="{board["seat"]}"] .s-slot[data-slot="{slot}"].s-best')
    ).to_have_count(1)
    shot(page, "analysis-sashimono-best")

    # a card played from the hand: secret, so outlined for its mover only
    secret = preferred(plies, lambda d: d["kind"] == "play_card" and d.get("card"))
    card = secret["best_described"]["card"]
    pick_analysed_ply(page, secret["ply"])
    show_replay_as(page, secret["seat"])
    expect(page.locator(f'.s-hands .s-hand-card[data-card="{card}"].s-best')).to_have_count(1)
    expect(outlined).to_have_count(1)
    show_replay_as(page, None)
    expect(page.locator(".s-hands")).to_have_count(0)  # the spectator's view is drawn
    expect(outlined).to_have_count(0)
