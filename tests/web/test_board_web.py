"""The analysis board page (issue 38) in Chromium: Gungi from the start, moves played by
clicks for both sides, the engine's evaluation and top 3 following the position, a
variation made by going back two moves and playing another, and the exported line, a
record that replays to the position on the board."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from sengoku.core.record import GameRecord
from sengoku.core.registry import load_game
from tests.web.helpers import click_move, shot, tower


def legal_rows(page: Page, line: list[str]) -> list[dict[str, Any]]:
    """The legal rows after ``line`` from the intro setup, as the API gives them."""
    r = page.request.post(
        "/api/board/position",
        data={
            "game": "gungi",
            "options": {"mode": "intro"},
            "from": {"setup": True},
            "actions": line,
        },
    )
    assert r.status == 200, r.text()
    rows: list[dict[str, Any]] = r.json()["legal"]
    return rows


def plain_moves(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Moves of a piece on the board (no drop, capture or stack): a click on the piece and
    one on its target play them."""
    return [r for r in rows if r["kind"] == "move" and r["from"] != "hand" and r["tier"] == 1]


def square(cell: str) -> str:
    return "-".join(cell.split("-")[:2])


def click_row(page: Page, row: dict[str, Any]) -> None:
    click_move(page, square(row["from"]), square(row["to"]), mark=row["action"])


def engine_done(page: Page, ply: int) -> list[str]:
    """Wait for the engine's answer for the position after ``ply`` moves; its top moves."""
    page.wait_for_selector(f'#board-eval[data-state="done"][data-ply="{ply}"]')
    expect(page.locator("#board-eval")).to_contain_text("iterations")
    return [
        str(a)
        for a in page.eval_on_selector_all(
            "#board-top button[data-action]", "els => els.map(e => e.dataset.action)"
        )
    ]


def test_gungi_board_by_clicks_with_engine_variations_and_export(
    new_page: Any, tmp_path: Path
) -> None:
    page: Page = new_page(1280, 900)
    page.goto("/board/gungi?mode=intro")
    top = engine_done(page, 0)
    assert 1 <= len(top) <= 3
    assert set(top) <= {r["action"] for r in legal_rows(page, [])}
    expect(page.locator("#status")).to_have_text("White to move")

    # Four moves by clicks, White and Black in turn; the engine follows each position.
    line: list[str] = []
    for ply in range(4):
        rows = plain_moves(legal_rows(page, line))
        row = rows[ply % len(rows)]
        click_row(page, row)
        line.append(row["action"])
        top = engine_done(page, ply + 1)
        assert set(top) <= {r["action"] for r in legal_rows(page, line)}, (ply, top)
        expect(page.locator("#status")).to_have_text(
            "Black to move" if ply % 2 == 0 else "White to move"
        )
    nodes = page.locator("#board-tree .board-line button.board-node")
    expect(nodes).to_have_count(4)
    assert nodes.all_inner_texts() == line

    # Back two moves, and another move there: a variation branches off the main line.
    page.click("#board-back")
    page.click("#board-back")
    page.wait_for_selector('#status[data-ply="2"]')
    engine_done(page, 2)
    rows = plain_moves(legal_rows(page, line[:2]))
    other = next(r for r in rows if r["action"] != line[2])
    click_row(page, other)
    engine_done(page, 3)
    variation = page.locator("#board-tree .board-variation button.board-node")
    expect(variation).to_have_count(1)
    expect(variation.first).to_have_text(other["action"])
    expect(page.locator("#board-tree button.board-node.current")).to_have_text(other["action"])
    # The main line is kept whole beside it.
    assert (
        page.locator("#board-tree .board-line > li > button.board-node").all_inner_texts() == line
    )

    # One of the engine's top moves, played by a click.
    best = engine_done(page, 3)[0]
    page.click(f'#board-top button[data-action="{best}"]')
    engine_done(page, 4)
    expect(variation).to_have_count(2)
    shot(page, "board-gungi-1280")

    # Clicking a node of the main line goes there.
    page.click(f'#board-tree .board-line button.board-node:text-is("{line[3]}")')
    page.wait_for_selector('#status[data-ply="4"]')
    engine_done(page, 4)
    back = [line[0], line[1], other["action"], best]
    page.click(f'#board-tree .board-variation button.board-node:text-is("{best}")')
    page.wait_for_selector('#status[data-ply="4"]')
    expect(page.locator("#board-tree button.board-node.current")).to_have_text(best)

    # The export is a record of the current line that replays to the board's position.
    with page.expect_download() as info:
        page.click("#board-export")
    path = tmp_path / "line.json"
    info.value.save_as(path)
    record = GameRecord.from_json(json.loads(path.read_text(encoding="utf-8")))
    assert record.game == "gungi" and record.actions == back
    state = record.replay()
    assert state.view(0)["fen"] == load_game("gungi").to_fen(state)  # type: ignore[attr-defined]
    drawn = {
        cell["square"]: [(p["piece"], p["color"]) for p in cell["tower"]]
        for cell in state.view(0)["board"]
    }
    for sq, pieces in drawn.items():
        assert tower(page, sq) == pieces, sq
    assert page.locator(".board .tower").count() == len(drawn)

    # Imported again, the record's moves are the main line, from its first position.
    page.click("#board-import-open")
    page.fill("#board-import-text", path.read_text(encoding="utf-8"))
    page.click("#board-import")
    page.wait_for_selector('#status[data-ply="0"]')
    expect(page.locator("#board-tree .board-line button.board-node")).to_have_count(4)
    assert page.locator("#board-tree .board-line button.board-node").all_inner_texts() == back
    page.click("#board-tree .board-line > li:last-child > button.board-node")
    page.wait_for_selector('#status[data-ply="4"]')
    for sq, pieces in drawn.items():
        assert tower(page, sq) == pieces, sq
