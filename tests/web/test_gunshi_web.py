"""Gunshi in the browser: whole games against the level-1 AI, from the formation to the end
panel, by clicks only (units, cells, arrows, edges, cards and buttons; never typed notation),
for the basic rules and The Gunshi's Inspiration (Modification 3), at 1920x1080 and 390x844.

The clicks follow a simple plan that makes progress (attack, invade, move forward, send Move
cards), so a game ends in a few dozen of our decisions; every click is on what the page draws.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from sengoku.server import i18n
from tests.web.helpers import (
    PageWatch,
    assert_clean_text,
    assert_within_window,
    key_press,
    no_horizontal_overflow,
    said,
    shot,
    start_game,
    wait_for_page,
)

#: Everything a player can click to make a decision: the renderer marks each with the choice
#: it plays (``data-action``) and its kind (``data-kind``), plus the object clicked.
CLICKABLE = """() => [...document.querySelectorAll('.board-area [data-action]')].map(e => ({
  action: e.dataset.action, kind: e.dataset.kind || '', sq: e.dataset.sq || '',
  dir: e.dataset.dir || '', card: e.dataset.card || '', piece: e.dataset.piece || '',
  unit: (e.dataset.sq && document.querySelector(`.gunit[data-cell="${e.dataset.sq}"]`)
    ?.dataset.type) || ''}))"""

#: Our turn (the board takes clicks) or the game is over.
READY = """n => { const s = document.getElementById('status');
  if (!s || !s.dataset.state) return false;
  if (s.dataset.state !== 'active') return true;
  return Number(s.dataset.ply) > n
    && !!document.querySelector('.board-area[data-interactive="true"] [data-action]'); }"""

#: The order of preference among kinds: attack, invade, then the rest.
KIND_RANK = {"hit": 0, "invade": 1, "chain": 2, "to": 3, "dir": 3, "send": 4, "unit": 5}
MOVE_CARDS = {"M", "Rapid", "Light"}


def score(choice: dict[str, str], north: bool, fence_first: bool = False) -> float:
    """Lower is better: a plan that ends a game quickly against a beginner."""
    kind = choice["kind"]
    rank = float(KIND_RANK.get(kind, 6))
    if kind in ("to", "at") and choice["sq"]:
        row = int(choice["sq"][1])
        rank -= (row if north else 8 - row) / 10
    if kind in ("dir", "face"):
        rank += 0 if choice["dir"] == ("n" if north else "s") else 3
    if kind == "send":
        rank += 0 if choice["card"] in MOVE_CARDS else 1
    if kind == "lightning":
        rank += 3  # ending the turn keeps the logistics points
    if kind == "place":  # Cavalry charge, so they reach the Invader Spot soonest
        rank += {"C": 0, "I": 0.5, "A": 0.7}.get(choice["piece"], 1)
        if fence_first and choice["piece"] == "F":
            rank = -1  # one Fence first, so an edge is clicked in every game

    if kind == "unit" and choice["unit"] == "C":
        rank -= 0.5
    if kind == "mode" and "shoot" in choice["action"]:
        rank -= 1
    return rank


def ply(page: Page) -> int:
    return int(page.locator("#status").get_attribute("data-ply") or 0)


def decide(
    page: Page, rng: random.Random, fence_first: bool = False, keyboard: bool = False
) -> dict[str, str]:
    """Click one choice the page offers (or reach it with Tab and the arrows and press
    Enter, with ``keyboard``); return what was chosen."""
    for _attempt in range(3):
        options = page.evaluate(CLICKABLE)
        assert options, "our turn, but nothing to click"
        ranks = [score(o, north=True, fence_first=fence_first) for o in options]
        choice = rng.choice([o for o, r in zip(options, ranks, strict=True) if r == min(ranks)])
        before = ply(page)
        selector = f'.board-area [data-action="{choice["action"]}"]'
        try:
            page.locator(selector).first.wait_for(timeout=5_000)
            break
        except PlaywrightTimeoutError:
            # A message that arrived after the choices were read re-drew the board (seen
            # once on a loaded machine): read them again, as a player would look again.
            continue
    else:
        raise AssertionError(f"{selector} never became visible")
    if keyboard:
        key_press(page, selector)
    else:
        page.locator(selector).first.click()
    wait_for_page(page, READY, before, what=f"our next turn after {choice['action']}")
    return choice


#: The contrast of the last move's frame against the cell under it (WCAG relative luminance).
CONTRAST = """() => {
  const lum = (c) => {
    const [r, g, b] = c.match(/[\\d.]+/g).slice(0, 3).map(Number).map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  return [...document.querySelectorAll('.gs-last, .gs-last-edge')].map((e) => {
    const cell = document.querySelector(`.gcell[data-cell="${e.dataset.last}"]`);
    const a = lum(getComputedStyle(e).stroke);
    const b = lum(getComputedStyle(cell).fill);
    return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  });
}"""

#: The animation a unit that just moved gets (a probe element carries the class).
SLIDE = """() => {
  const g = document.createElementNS('http://www.w3.org/2000/svg', 'g');
  g.setAttribute('class', 'gs-arrived');
  document.querySelector('.gunshi-board').append(g);
  const name = getComputedStyle(g).animationName;
  g.remove();
  return name;
}"""


def check_layout(page: Page, name: str, last: bool = True) -> None:
    """Your hand and what you decide are on screen unscrolled, nothing reads as a bug."""
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, name)
    # The last move (the opponent's) is framed at 3:1 or more against its cells.
    if last:
        ratios = page.evaluate(CONTRAST)
        assert ratios and min(ratios) >= 3, ratios
    assert_clean_text(page)
    no_horizontal_overflow(page)
    assert_within_window(page, ".gs-side.mine [data-zone='hand']")
    assert_within_window(page, "#gs-prompt")
    if page.locator(".gs-choices").count():
        assert_within_window(page, ".gs-choices")


#: Far more loop turns than a game of random choices takes to end.
MAX_STEPS = 5000


def battle_turn(page: Page, note: str) -> int | None:
    """The battle's turn in the status note ("Phase 3: Battle, turn 4"), in the page's
    language (helpers.said), or None before the battle."""
    lang = page.evaluate("() => document.documentElement.lang") or "en"
    template = i18n.gettext_(lang, "{phase}, turn {turn}")
    battle = re.escape(i18n.gettext_(lang, "Phase 3: Battle"))
    pattern = re.escape(template).replace(re.escape("{phase}"), battle)
    found = re.search(pattern.replace(re.escape("{turn}"), r"(\d+)"), note)
    return int(found.group(1)) if found else None


def play_to_the_end(
    page: Page,
    options: dict[str, str],
    name: str,
    other: tuple[int, int],
    reduced_motion: bool = False,
    keyboard: bool = False,
    check: Callable[[Page], None] | None = None,
) -> dict[str, Any]:
    """A game against the computer by clicks (or keys) to its end; ``check`` looks at the
    page in the battle and at the end."""
    watch = PageWatch(page)
    page.emulate_media(reduced_motion="reduce" if reduced_motion else "no-preference")
    page.goto("/new/gunshi")
    # The page opens on the rulebook's first battle; these games set up their own formation.
    page.click('[data-option-preset="standard"]')
    if keyboard:
        key_press(page, '.presets button[data-preset="ai"]')
    else:
        page.click('.presets button[data-preset="ai"]')
    for field, value in options.items():
        page.select_option(f"#opt-{field}", value)
    if keyboard:
        key_press(page, "#start")
    else:
        page.click("#start")
    page.wait_for_url("**/play/*")
    page.wait_for_function(READY, arg=-1)
    rng = random.Random(7)
    kinds: dict[str, int] = {}
    started = time.monotonic()
    size = page.viewport_size or {"width": 0, "height": 0}
    seen_battle = seen_later = False
    steps = 0
    while page.locator("#status").get_attribute("data-state") == "active":
        # A safety net against a game that never ends, counted in decisions, not seconds.
        steps += 1
        assert steps < MAX_STEPS, f"no end after {kinds}"
        sending = page.locator(".gs-side.mine .gs-card.playable").count()
        note = page.locator(".status-note").inner_text() if sending else ""
        turn = battle_turn(page, note)
        if turn and seen_battle and not seen_later and turn >= 4:
            # Later, with a fuller Command Row: still all on screen.
            seen_later = True
            check_layout(page, f"{name}-turn{turn}-{size['width']}")
        if turn and not seen_battle:
            # Mid-game, at the first card to send: both sizes, as a player sees them.
            seen_battle = True
            check_layout(page, f"{name}-battle-{size['width']}")
            if check:
                check(page)
            # A unit that moves slides in, unless the player asks for less motion.
            assert page.evaluate(SLIDE) == ("none" if reduced_motion else "gs-slide")
            page.set_viewport_size({"width": other[0], "height": other[1]})
            check_layout(page, f"{name}-battle-{other[0]}")
            page.set_viewport_size(size)
        choice = decide(page, rng, fence_first=not kinds.get("fence"), keyboard=keyboard)
        kinds[choice["kind"]] = kinds.get(choice["kind"], 0) + 1
    assert seen_battle
    # The end panel states the result in words.
    panel = page.locator(".end-panel")
    expect(panel).to_be_visible()
    expect(panel.locator(".end-reason")).to_have_text(
        said(page, ("{names} wins — {reason}", "{names} win — {reason}"), whole=True)
    )
    expect(panel.locator("h2")).to_have_text(said(page, "You win!", "You lose", whole=True))
    expect(page.locator(".status-note")).to_have_text(
        said(
            page,
            "{when}: {name}'s Shogun was removed from the field.",
            "{when}: {name} brought 3 units onto {name2}'s Invader Spot.",
            whole=True,
        )
    )
    assert_clean_text(page)
    if check:
        check(page)
    shot(page, f"{name}-end-{size['width']}")
    page.set_viewport_size({"width": other[0], "height": other[1]})
    assert_clean_text(page)
    shot(page, f"{name}-end-{other[0]}")
    assert not watch.failed, watch.failed
    kinds["seconds"] = round(time.monotonic() - started)  # printed, never asserted
    return kinds


def test_basic_game_to_the_end_by_clicks(new_page: Any) -> None:
    page: Page = new_page(1920, 1080)
    kinds = play_to_the_end(page, {}, "gunshi-basic", (390, 844))
    # The formation, the secret Shogun, the hand, the deck order and the battle were all
    # played on the objects themselves: cells, arrows, units and cards.
    for kind in ("place", "at", "face", "fence", "shogun", "hand", "deck", "send", "unit"):
        assert kinds.get(kind), (kind, kinds)
    # The replay draws the same field, as Blue saw it: Red's Shogun is not marked there.
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.locator(".end-panel a", has_text="Replay").click()
    page.wait_for_url("**/replay/*")
    expect(page.locator("#replay-counter")).to_have_text(re.compile(r"^\d+ / \d+$"))
    page.select_option("#replay-seat", "1")
    page.click("#replay-last")
    page.click("#replay-prev")
    page.wait_for_selector(".gunshi-board .gunit")
    assert page.locator('.gunit.shogun[data-owner="0"]').count() == 0
    assert_clean_text(page)
    shot(page, "gunshi-replay-1920")


def test_basic_game_to_the_end_by_keyboard_alone(new_page: Any) -> None:
    """The same game with no mouse: Tab to the field (one stop), the arrows to a cell, Tab
    to an arrow, an edge, a card or a button, and Enter; the focus is drawn all along."""
    page: Page = new_page(1280, 900)
    kinds = play_to_the_end(page, {}, "gunshi-keyboard", (390, 844), keyboard=True)
    for kind in ("place", "at", "face", "fence", "send"):
        assert kinds.get(kind), (kind, kinds)


def test_inspiration_game_to_the_end_by_clicks_on_a_phone(new_page: Any) -> None:
    page: Page = new_page(390, 844)
    kinds = play_to_the_end(
        page,
        {"variant": '"inspiration"', "modification": "3"},
        "gunshi-inspiration",
        (1920, 1080),
        reduced_motion=True,
    )
    # Modification 3: each player picks Advanced cards, drawn as cards to click.
    assert kinds.get("pick"), kinds


def api_json(
    page: Page, method: str, path: str, token: str, data: dict[str, Any] | None = None
) -> Any:
    """One API call as a seat; a 429 (the server's per-client rate limit, shared with the
    page's own requests) is waited out as its Retry-After says, as a client should."""
    for _ in range(20):
        headers = {"Authorization": f"Bearer {token}"}
        if method == "get":
            response = page.request.get(path, headers=headers)
        else:
            response = page.request.post(path, headers=headers, data=data)
        if response.status != 429:
            assert response.ok, (response.status, response.text())
            return response.json()
        # The server's own Retry-After: the time the limit needs to refill, under test.
        time.sleep(float(response.headers.get("retry-after", "1")))
    raise AssertionError(f"{path}: still rate-limited")


def test_hot_seat_late_battle_fits_and_shows_each_player_only_their_shogun(
    new_page: Any,
) -> None:
    """A hot-seat battle led (through the API, quickly) to turn 6 with full Command Rows:
    at 1920x1080 and 390x844 your hand and your choices are on screen, the pass-the-device
    screen hides the board, and each player sees their own Shogun's mark and not the other's.
    """
    page: Page = new_page(1920, 1080)
    watch = PageWatch(page)
    page.goto("/new/gunshi")
    page.click('[data-option-preset="standard"]')
    page.click('.presets button[data-preset="hotseat"]')
    page.click("#start")
    page.wait_for_url("**/play/*")
    match = page.url.rsplit("/", 1)[1]
    tokens = page.evaluate(f"JSON.parse(localStorage.getItem('sengoku.tokens'))['{match}']")
    rank = {"send": 0, "shogun": 1, "chain": 1, "end": 3, "lightning": 4, "hit": 5, "invade": 5}
    for _ in range(1500):
        snap = api_json(page, "get", f"/api/matches/{match}", tokens["0"])
        if snap["view"]["turn"] >= 6 and snap["view"]["step"] == "send":
            if not snap["view"]["command"] and snap["to_act"] == 0:
                break
        seat = str(snap["to_act"])
        mine = api_json(page, "get", f"/api/matches/{match}", tokens[seat])
        # Keep the battle going (no attacks), and fill the Command Rows.
        choice = min(mine["legal"], key=lambda c: rank.get(c["kind"], 2))
        api_json(
            page,
            "post",
            f"/api/matches/{match}/actions",
            tokens[seat],
            {"action": choice["action"], "ply": mine["ply"]},
        )
    else:
        raise AssertionError("turn 6 never came")
    page.reload()
    page.wait_for_selector('.board-area[data-interactive="true"] .gunshi-board')
    expect(page.locator(".status-note")).to_contain_text(re.compile(r"Phase 3: Battle, turn \d"))
    assert page.locator(".gs-side.mine [data-zone='row'] .gs-card").count() >= 2
    check_layout(page, "gunshi-hotseat-turn6-1920", last=False)
    # Only Red's Shogun is marked while Red is on screen.
    marked = page.locator(".gunit.shogun")
    expect(marked).to_have_count(1)
    assert marked.get_attribute("data-owner") == "0"
    # Flipped, Red's back line is at the top and the arrows, edges and spots follow it.
    page.click("#flip")
    top = page.locator('[data-sq="a1"]').bounding_box()
    bottom = page.locator('[data-sq="g7"]').bounding_box()
    assert top and bottom and top["y"] < bottom["y"] and top["x"] > bottom["x"]
    shot(page, "gunshi-hotseat-flipped-1920")
    page.click("#flip")
    page.set_viewport_size({"width": 390, "height": 844})
    check_layout(page, "gunshi-hotseat-turn6-390", last=False)
    # Red sends a card by clicking it, then ends the turn; the device passes to Blue.
    for _ in range(12):
        if page.locator(".pass-screen:not([hidden])").count():
            break
        before = ply(page)
        ending = page.locator('.board-area button.action[data-kind="end"]')
        if ending.count():
            ending.click()
        else:
            page.locator(".board-area [data-action]").first.click()
        page.wait_for_function(
            "n => Number(document.getElementById('status').dataset.ply) > n", arg=before
        )
    expect(page.locator(".pass-screen")).to_contain_text("Pass the device to Blue")
    expect(page.locator(".board-area")).to_have_class(re.compile(r"\bcovered\b"))
    page.click("#pass-ready")
    page.wait_for_selector('.board-area[data-interactive="true"] .gunshi-board')
    expect(marked).to_have_count(1)
    assert marked.get_attribute("data-owner") == "1"
    shot(page, "gunshi-hotseat-blue-390")
    assert_clean_text(page)
    assert not watch.failed, watch.failed


def test_a_unit_is_placed_with_the_keyboard(new_page: Any) -> None:
    """The field's cells, arrows and edges are buttons too: Tab to them, press Enter."""
    page: Page = new_page(1280, 900)
    page.goto("/new/gunshi")
    page.click('[data-option-preset="standard"]')
    page.click('.presets button[data-preset="ai"]')
    page.click("#start")
    page.wait_for_url("**/play/*")
    page.wait_for_function(READY, arg=-1)

    def ply() -> int:
        return int(page.get_attribute("#status", "data-ply") or 0)

    # Each pick is sent to the server; its answer draws the field again. Waiting for the
    # answer (the ply moves on) keeps the next key from going to an element being replaced.
    before = ply()
    page.focus('button.action[data-action="place C"]')
    # A snapshot that changes nothing (the socket's first message repeats the fetched one)
    # draws the choices anew: the focus stays on the same choice, so Enter still plays it.
    page.evaluate("window.dispatchEvent(new Event('sengoku:prefs'))")
    assert page.evaluate("document.activeElement.dataset.action") == "place C"
    # So does a redraw of the renderer's own (as when the card catalog arrives late): a card
    # tapped for its text (a click that moves no focus).
    page.evaluate("document.querySelector('.board-area .gs-card:not(.playable)').click()")
    expect(page.locator(".gs-info")).not_to_be_empty()
    assert page.evaluate("document.activeElement.dataset.action") == "place C"
    page.keyboard.press("Enter")
    page.wait_for_function(READY, arg=before)
    # The field is one Tab stop; its cells are reached with the arrows (keyboard.js).
    page.wait_for_selector('[data-pick="sq:d3"][role="button"]')
    before = ply()
    key_press(page, '[data-pick="sq:d3"]')
    page.wait_for_function(READY, arg=before)
    page.wait_for_selector('.gs-arrow[data-action="face n"]')
    expect(page.locator("#gs-prompt")).to_have_text(
        "Click an arrow: which way the new Cavalry faces."
    )
    page.focus('.gs-arrow[data-action="face n"]')
    # An arrow is an SVG shape: a redraw keeps its focus as well (it once went to nothing, and
    # the keyboard game below waited for an Enter that had gone nowhere).
    page.evaluate("window.dispatchEvent(new Event('sengoku:prefs'))")
    assert page.evaluate("document.activeElement.dataset.action") == "face n"
    assert page.evaluate("document.activeElement.isConnected")
    page.keyboard.press(" ")
    unit = page.locator('.gunit[data-cell="d3"]:not(.ghost)')
    expect(unit).to_have_attribute("data-type", "C")
    expect(unit).to_have_attribute("data-facing", "n")


def test_gunshi_field_shows_a_unit_placed_by_clicks(new_page: Any) -> None:
    page: Page = new_page(1280, 900)
    start_game(page, "gunshi", "ai")
    page.wait_for_selector('.board-area[data-interactive="true"] .gunshi-board')
    page.click('button.action[data-action="place I"]')
    # Every cell the Infantry may go to is outlined; clicking one plays "at <cell>".
    page.wait_for_selector('[data-target="d2"]')
    targets = page.eval_on_selector_all("[data-target]", "els => els.map(e => e.dataset.target)")
    assert "d2" in targets and all(t[1] in "123" for t in targets)  # Red's side of the field
    page.click('[data-sq="d2"]')
    # Then an arrow on the new unit's cell for each way it may face.
    page.click('.gs-arrow[data-action="face e"]')
    unit = page.locator('.gunit[data-cell="d2"]')
    expect(unit).to_have_attribute("data-owner", "0")
    expect(unit).to_have_attribute("data-type", "I")
    expect(unit).to_have_attribute("data-facing", "e")
    shot(page, "gunshi-placed-1280")
