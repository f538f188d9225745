"""Gungi in the browser: games by clicks against the AI and in hot seat, an invitation link
between two browsers, a replay, and the layouts at 360 px and 1920 px."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import Page, expect

from tests.waiting import GENEROUS_MS
from tests.web.helpers import (
    click_move,
    moves_shown,
    no_horizontal_overflow,
    shot,
    start_game,
    tower,
    wait_moves,
)


def hand_count(page: Page, color: str, piece: str) -> int:
    button = page.locator(f'.hand button.hand-piece[data-color="{color}"][data-piece="{piece}"]')
    if not button.count():
        return 0
    return int(button.locator(".count").inner_text().strip("×"))


def test_against_the_ai_by_clicks_then_resign_and_replay(new_page: Any) -> None:
    page: Page = new_page(1280, 900)
    page.goto("/new/gungi")
    page.click('.presets button[data-preset="ai"]')
    page.select_option("#clock", "fischer-5-3")
    page.click("#start")
    page.wait_for_url("**/play/*")
    expect(page.locator("#status")).to_have_text("Your move")
    # Five minutes each, White's running.
    expect(page.locator('.clock[data-seat="0"]')).to_have_text(re.compile(r"^[45]:\d\d$"))
    expect(page.locator('.clock[data-seat="1"]')).to_have_text("5:00")
    # The intro setup: White's Pawn on 5-7, Black's Marshal on 5-1, hands of 7 pieces.
    assert tower(page, "5-7") == [("pawn", "white")]
    assert tower(page, "5-1") == [("marshal", "black")]
    assert hand_count(page, "white", "pawn") == 1
    # Selecting the Pawn highlights exactly its legal targets.
    page.click('[data-sq="5-7"]')
    targets = set(
        page.eval_on_selector_all("[data-target]", "els => els.map(e => e.dataset.target)")
    )
    assert targets == {"5-6", "5-8"}  # forward, or stack onto the Spear behind it
    page.click('[data-sq="5-6"]')
    wait_moves(page, 1)
    assert tower(page, "5-6") == [("pawn", "white")]
    assert tower(page, "5-7") == []
    # The AI answers; the move list shows both moves and the last move is marked.
    moves = wait_moves(page, 2)
    assert moves[0] == "5-6-1 兵(5-7)"
    expect(page.locator("#status")).to_have_text("Your move")
    assert page.locator(".board .last-to").count() == 1
    # A drop from the hand: the drop zones light up, the piece leaves the hand.
    page.click('.hand button.hand-piece[data-color="white"][data-piece="pawn"]')
    drop_zones = page.eval_on_selector_all("[data-target]", "els => els.map(e => e.dataset.target)")
    assert drop_zones
    square = drop_zones[0]
    height = len(tower(page, square))
    page.click(f'[data-sq="{square}"]')
    wait_moves(page, 3)
    assert hand_count(page, "white", "pawn") == 0
    # The AI may already have answered onto that square (a fast machine): the tower is
    # read first, so with only three moves shown after it, it is the tower after the drop.
    dropped = tower(page, square)
    shown = moves_shown(page)
    assert shown[2].startswith(f"{square}-") and shown[2].endswith("兵新")
    if len(shown) == 3 or not shown[3].startswith(f"{square}-"):
        assert dropped[-1] == ("pawn", "white")
        assert len(dropped) == height + 1
    wait_moves(page, 4)
    shot(page, "gungi-vs-ai-1280")
    # Resign: the end panel names the winner and the reason.
    page.click("#resign")
    page.click(".dialog button.danger")
    panel = page.locator(".end-panel")
    expect(panel).to_be_visible()
    expect(panel.locator(".end-reason")).to_have_text(re.compile(r"Black .*wins — resignation"))
    expect(panel.locator("h2")).to_have_text("You lose")
    shot(page, "gungi-end-panel-1280")
    # Export the record: the download is the server's record of this game.
    with page.expect_download() as info:
        panel.locator("button", has_text="Export").click()
    record = json.loads(open(info.value.path(), encoding="utf-8").read())
    assert record["game"] == "gungi" and record["actions"][0] == "5-6-1 兵(5-7)"
    assert record["result"]["reason"] == "resignation"
    # The replay steps through the game from the start.
    panel.locator("a", has_text="Replay").click()
    page.wait_for_url("**/replay/*")
    # The server replays the record in a worker process: seconds on a loaded machine.
    expect(page.locator("#replay-counter")).to_have_text(
        re.compile(r"^\d+ / 4$"), timeout=GENEROUS_MS
    )
    page.click("#replay-first")
    expect(page.locator("#replay-counter")).to_have_text("0 / 4")
    assert tower(page, "5-7") == [("pawn", "white")]
    assert tower(page, "5-6") == []
    page.click("#replay-next")
    expect(page.locator("#replay-counter")).to_have_text("1 / 4")
    assert tower(page, "5-6") == [("pawn", "white")]
    assert tower(page, "5-7") == []
    expect(page.locator("#status")).to_contain_text("White played 5-6-1 兵(5-7)")
    page.keyboard.press("End")
    expect(page.locator("#status")).to_contain_text("resignation")
    page.locator('#moves li[data-ply="3"]').click()
    expect(page.locator("#replay-counter")).to_have_text("3 / 4")
    assert tower(page, square)[-1] == ("pawn", "white")
    shot(page, "gungi-replay-1280")
    page.set_viewport_size({"width": 360, "height": 740})
    no_horizontal_overflow(page)
    shot(page, "gungi-replay-360")
    page.set_viewport_size({"width": 1280, "height": 900})
    # Import the exported record: it replays the same game.
    page.goto("/records")
    expect(page.locator(".record-row").first).to_be_visible()
    page.set_input_files("#import-file", info.value.path())
    page.click("#import")
    page.wait_for_url("**/replay/*", timeout=GENEROUS_MS)
    expect(page.locator("#replay-counter")).to_have_text(re.compile(r"/ 4$"), timeout=GENEROUS_MS)
    page.click("#replay-first")
    page.click("#replay-next")
    assert tower(page, "5-6") == [("pawn", "white")]


def test_hot_seat_without_pass_screen_stacks_and_notation(new_page: Any) -> None:
    page: Page = new_page(1280, 900)
    start_game(page, "gungi", "hotseat")
    expect(page.locator("#status")).to_contain_text("White")
    # White stacks the Fortress onto the Samurai: a tower of two, tier badge 2.
    click_move(page, "7-7", "6-7", "付")
    assert tower(page, "6-7") == [("samurai", "white"), ("fortress", "white")]
    assert page.locator('.tower[data-square="6-7"]').get_attribute("data-height") == "2"
    assert page.locator('.tower[data-square="6-7"] .tier-text').text_content() == "2"
    # Gungi hides nothing, so the device passes without a "pass the device" screen (the
    # hidden-information games' hot seat tests check that screen).
    expect(page.locator("#status")).to_contain_text("Black")
    expect(page.locator(".pass-screen")).to_be_hidden()
    expect(page.locator(".board")).to_be_visible()
    shot(page, "gungi-hot-seat-black-1280")
    click_move(page, "5-3", "5-4")
    assert tower(page, "5-4") == [("pawn", "black")]
    # Keyboard entry: the short form, checked against the legal moves before it is sent.
    page.fill("#notation", "9-9-9 兵")
    page.press("#notation", "Enter")
    expect(page.locator("#toast")).to_contain_text("not a legal move")
    assert len(moves_shown(page)) == 2
    page.fill("#notation", "5-6-1 兵")
    page.press("#notation", "Enter")
    moves = wait_moves(page, 3)
    assert moves == ["6-7-2 砦(7-7)付", "5-4-1 兵(5-3)", "5-6-1 兵(5-7)"]
    assert tower(page, "5-6") == [("pawn", "white")]
    # Take back: both players are at this device, so it is agreed at once.
    page.click("#takeback")
    page.wait_for_function("() => document.querySelectorAll('#moves li[data-ply]').length === 2")
    # The move list and the board redraw separately: wait for the board too.
    expect(page.locator('.board .tower[data-square="5-6"] .piece')).to_have_count(0)
    assert tower(page, "5-6") == []
    assert tower(page, "5-7") == [("pawn", "white")]
    expect(page.locator("#status")).to_contain_text("White")
    # Kanji or English labels.
    label = page.locator('.tower[data-square="5-9"] .piece-text')
    expect(label).to_have_text("帥")
    page.click("#labels-toggle")
    expect(label).to_have_text("Mar")
    shot(page, "gungi-hot-seat-english-1280")
    page.click("#labels-toggle")
    expect(label).to_have_text("帥")
    # Resign, then a rematch: a new game at this device, from the start.
    first_url = page.url
    page.click("#resign")
    page.click(".dialog button.danger")
    expect(page.locator(".end-panel")).to_contain_text("Black wins")
    page.locator(".end-panel button", has_text="Rematch").click()
    page.wait_for_function("u => location.href !== u", arg=first_url)
    page.wait_for_selector('.board-area[data-interactive="true"]')
    assert page.locator("#moves li[data-ply]").count() == 0
    assert tower(page, "5-7") == [("pawn", "white")]


def test_invite_a_friend_by_link(new_page: Any) -> None:
    host: Page = new_page(1280, 900)
    start_game(host, "gungi", "invite")
    link = host.locator("input.invite-url").input_value()
    assert "#invite=" in link and "/play/" in link
    expect(host.locator("#status")).to_contain_text("Waiting")
    # The friend opens the link in another browser (its own storage: no token of the host).
    friend: Page = new_page(390, 844)
    friend.goto(link)
    friend.fill("#join-name", "Killua")
    friend.click("#join-button")
    friend.wait_for_selector(".board .tower")
    assert "invite" not in friend.url  # the secret leaves the address bar once exchanged
    expect(friend.locator("#status")).to_contain_text("White")
    expect(friend.locator('.player[data-seat="1"]')).to_contain_text("Killua")
    # The host sees the friend arrive, and plays.
    expect(host.locator("#status")).to_have_text("Your move")
    click_move(host, "5-7", "5-6")
    # The friend's board follows over the WebSocket; now it is their move (board flipped).
    wait_moves(friend, 1)
    expect(friend.locator("#status")).to_have_text("Your move")
    assert tower(friend, "5-6") == [("pawn", "white")]
    click_move(friend, "5-3", "5-4")
    wait_moves(host, 2)
    assert tower(host, "5-4") == [("pawn", "black")]
    expect(host.locator("#status")).to_have_text("Your move")
    shot(friend, "gungi-invited-friend-390")
    no_horizontal_overflow(friend)


def test_layouts_at_360_and_1920_have_no_horizontal_overflow(new_page: Any) -> None:
    for width, height in ((360, 740), (1920, 1080)):
        page: Page = new_page(width, height)
        page.goto("/")
        page.wait_for_selector(".game-card")
        no_horizontal_overflow(page)
        shot(page, f"home-{width}")
        page.click('.game-card[data-game="gungi"] a.button')
        page.wait_for_selector("#start")
        no_horizontal_overflow(page)
        shot(page, f"gungi-new-{width}")
        page.click('.presets button[data-preset="hotseat"]')
        page.click("#start")
        page.wait_for_selector(".board .tower")
        click_move(page, "7-7", "6-7", "付")
        page.wait_for_selector('.board-area[data-interactive="true"]')
        page.click('[data-sq="5-3"]')
        page.wait_for_selector("[data-target]")
        # The board fits the window and its squares are big enough to tap.
        box = page.locator(".board").bounding_box()
        assert box is not None and box["width"] <= width
        square = page.locator('[data-sq="5-5"]').bounding_box()
        assert square is not None and square["width"] >= 32
        no_horizontal_overflow(page)
        shot(page, f"gungi-play-{width}")
        # The CJK font ships with the client and is loaded from this server.
        page.evaluate("document.fonts.ready")
        loaded = page.evaluate(
            "[...document.fonts].filter(f => f.family.includes('Sengoku Serif')).map(f => f.status)"
        )
        assert loaded == ["loaded"]
        page.goto("/records")
        page.wait_for_selector("#import")
        no_horizontal_overflow(page)
        shot(page, f"records-{width}")
        # The full rules, from docs/rules.
        page.goto("/rules/gungi")
        expect(page.locator(".markdown h2").first).to_be_visible()
        no_horizontal_overflow(page)
        shot(page, f"gungi-rules-{width}")


def test_two_moves_to_one_square_ask_which(new_page: Any) -> None:
    """Capture or stack onto the same enemy piece: the page names both and plays the choice."""
    page: Page = new_page(1280, 900)
    start_game(page, "gungi", "hotseat")
    for origin, target in (("5-7", "5-6"), ("5-3", "5-4"), ("5-6", "5-5"), ("9-3", "9-4")):
        click_move(page, origin, target)
    page.wait_for_selector('.board-area[data-interactive="true"]')
    page.click('[data-sq="5-5"]')
    expect(page.locator('[data-target="5-4"]')).to_have_class(re.compile(r"capture"))
    page.click('[data-sq="5-4"]')
    chooser = page.locator(".chooser")
    expect(chooser).to_be_visible()
    actions = chooser.locator("button.choice").evaluate_all("els => els.map(e => e.dataset.action)")
    assert sorted(actions) == ["5-4-1 兵(5-5)取", "5-4-2 兵(5-5)付"]
    # Each choice is headed by what tells them apart, then the server's sentence.
    expect(chooser).to_contain_text("Capture (取), landing on tier 1")
    expect(chooser).to_contain_text("Stack on top (付), tier 2")
    expect(chooser).to_contain_text("Move your Pawn (兵) from 5-5-1 to 5-4-1, capturing (取).")
    shot(page, "gungi-chooser-1280")
    chooser.locator('button.choice[data-action="5-4-2 兵(5-5)付"]').click()
    page.wait_for_function("() => Number(document.getElementById('status').dataset.ply) === 5")
    assert tower(page, "5-4") == [("pawn", "black"), ("pawn", "white")]
    assert page.locator('.tower[data-square="5-4"] .pip').count() == 2


def test_open_seat_taken_from_the_lobby(new_page: Any) -> None:
    host: Page = new_page(1280, 900)
    host.goto("/new/gungi")
    host.click('.presets button[data-preset="ai"]')
    host.select_option('.seat-kind[data-seat="1"]', "open")
    host.click("#start")
    host.wait_for_url("**/play/*")
    match_id = host.url.rsplit("/", 1)[1]
    expect(host.locator(".invites")).to_contain_text("Open seat")
    guest: Page = new_page(360, 740)
    guest.goto("/")
    row = guest.locator(f'.lobby .record-row[data-id="{match_id}"]')
    expect(row).to_contain_text("open seat")
    no_horizontal_overflow(guest)
    shot(guest, "lobby-360")
    row.locator("button.join-open").click()
    guest.wait_for_url(f"**/play/{match_id}")
    guest.wait_for_selector(".board .tower")
    expect(guest.locator('.player[data-seat="1"]')).to_contain_text("you")
    expect(host.locator("#status")).to_have_text("Your move")
    click_move(host, "5-7", "5-6")
    expect(guest.locator("#status")).to_have_text("Your move")


def test_the_computers_thinking_time_is_shown(new_page: Any) -> None:
    """The server says how long the computer took over its move (its wall clock, a queue for
    a worker included); the computer's panel shows it."""
    page: Page = new_page(1280, 900)
    start_game(page, "gungi", "ai")
    click_move(page, "5-7", "5-6")
    wait_moves(page, 2)
    thought = page.locator('.player[data-seat="1"] .thought')
    expect(thought).to_have_text(re.compile(r"thought \d+\.\d s$"))
    expect(page.locator('.player[data-seat="0"] .thought')).to_have_count(0)
