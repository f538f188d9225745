"""Sashimono in the browser: a whole duel against the AI and a whole solo game against the
Kagemusha, played to the end panel by clicks only (cards, slots, cells and the buttons that
say what they do; never typed notation), with screenshots at 1920x1080 and 390x844."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from tests.waiting import GENEROUS_MS, NEXT_FRAME
from tests.web.helpers import (
    PageWatch,
    assert_clean_text,
    assert_within_window,
    key_press,
    no_horizontal_overflow,
    shot,
    start_game,
    wait_for_page,
)

#: Marks one thing to click: a choice button, else a highlighted card or space (the renderer
#: puts ``data-target`` on whatever a legal choice points at), chosen at random by the test.
PICK = """seed => {
  let x = seed;
  const rnd = n => { x = (x * 1103515245 + 12345) % 2147483648; return x % n; };
  for (const e of document.querySelectorAll('[data-test-pick]')) e.removeAttribute('data-test-pick');
  const area = document.querySelector('.board-area[data-interactive="true"]');
  if (!area) return null;
  const mark = (e, what) => { e.setAttribute('data-test-pick', '1'); return what + ': ' + (e.dataset.choice || e.textContent.trim().slice(0, 60)); };
  const focused = [...area.querySelectorAll('.s-choices button.s-choice.primary')];
  if (focused.length) return mark(focused[rnd(focused.length)], 'then');
  const buttons = [...area.querySelectorAll('.s-choices button.s-choice')];
  const targets = [...area.querySelectorAll('[data-target]')];
  // Prefer finishing a turn now and then, so that a game of random choices ends in time.
  const score = buttons.find(b => b.dataset.kind === 'turn' && /Scor/.test(b.textContent));
  if (score && rnd(2)) return mark(score, 'button');
  const all = [...buttons, ...targets];
  if (!all.length) return null;
  const e = all[rnd(all.length)];
  return mark(e, e.tagName === 'BUTTON' ? 'button' : 'click');
}"""

READY = """() => {
  const s = document.getElementById('status');
  if (!s) return false;
  if (s.dataset.state === 'finished') return true;
  return !!document.querySelector('.board-area[data-interactive="true"] [data-target],'
    + ' .board-area[data-interactive="true"] .s-choices button');
}"""


def status(page: Page) -> tuple[str, int]:
    node = page.locator("#status")
    return node.get_attribute("data-state") or "", int(node.get_attribute("data-ply") or 0)


def has_casualty(page: Page) -> bool:
    """A Sonae cell left empty (a casualty) is on screen."""
    return bool(page.locator(".s-sonae .s-cell.is-empty").count())


def look(page: Page, name: str) -> None:
    """Screenshots of the position at both sizes, with the hand and the choices in view."""
    page.mouse.move(0, 0)  # no card under the pointer: its explanation would hide the table
    for width, height in ((1920, 1080), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate(NEXT_FRAME)  # laid out at the new size
        shot(page, f"{name}-{width}")  # first, so that a failure below leaves it to look at
        no_horizontal_overflow(page)
        assert_clean_text(page)
        if page.locator(".board-area[data-interactive='true'] .s-choices").count():
            assert_within_window(page, ".s-choices")
        assert_within_window(page, ".s-hands")
    page.set_viewport_size({"width": 1920, "height": 1080})


def play_to_the_end(
    page: Page,
    name: str,
    seed: int,
    keyboard: bool = False,
    each: Callable[[Page], None] | None = None,
) -> dict[str, int]:
    """Click random legal choices until the end panel (or, with ``keyboard``, reach each with
    Tab and press Enter); screenshots (and layout checks) of the first position showing a
    casualty, and of one a few decisions in. ``each`` checks every position before its
    decision."""
    rng = random.Random(seed)
    counts = {"click": 0, "button": 0, "then": 0, "casualties": 0}
    seen_casualty = False
    seen_mid = False
    steps = 0
    while True:
        # A safety net against a game that never ends, counted in decisions, not seconds.
        steps += 1
        assert steps < 5000, f"{name}: no end after {counts}"
        wait_for_page(page, READY, what="our turn or the end")
        state, before = status(page)
        if state == "finished":
            break
        if not seen_casualty and has_casualty(page):
            seen_casualty = True
            counts["casualties"] += 1
            look(page, f"{name}-casualty")
        bowed = page.locator('.s-slot[data-bowed="true"] .s-slotcard')
        if "bowed" not in counts and bowed.count():
            # A bowed Sashimono is turned a quarter: its matrix is (0, s, -s, 0).
            # Read from a card in the document: a redraw may replace it while it is read.
            matrix = page.wait_for_function(
                """() => {
                  const e = document.querySelector('.s-slot[data-bowed="true"] .s-slotcard');
                  const t = e && e.isConnected ? getComputedStyle(e).transform : "";
                  return t && t !== "none" ? t : null;
                }"""
            ).json_value()
            a, b = (float(x) for x in re.findall(r"-?[\d.e-]+", matrix)[:2])
            assert abs(a) < 1e-6 and b > 0, matrix
            counts["bowed"] = 1
            page.mouse.move(0, 0)
            shot(page, f"{name}-bowed-1920")
        if not seen_mid and before >= 8:
            seen_mid = True
            look(page, f"{name}-mid")
        if each is not None:
            each(page)
        picked = page.evaluate(PICK, rng.randrange(1, 2**30))
        if picked is None:  # redrawn between the two looks: look again at the next frame
            page.evaluate(NEXT_FRAME)
            continue
        try:
            if keyboard:
                key_press(page, "[data-test-pick]")
            else:
                page.click("[data-test-pick]", timeout=5_000)
        except (PlaywrightError, AssertionError):  # the page was redrawn meanwhile: pick again
            continue
        counts[picked.split(":")[0]] += 1
        # The choice is in once the page shows the next ply, or the clicked thing asks which
        # of its choices (a cell: face up or Hidden).
        wait_for_page(
            page,
            "n => { const s = document.getElementById('status');"
            " return Number(s.dataset.ply) > n || s.dataset.state !== 'active'"
            " || document.querySelector('.s-choices button.s-choice.primary'); }",
            before,
            what=f"the position after {picked}",
        )
    return counts


#: Records, the moment the page marks the slot as the last move (``s-changed``), the card
#: there, the mark's ring and the table's colour behind it, and the mark's animation.
RECORD_MARK = """slot => {
  window.__mark = null;
  const look = () => {
    const e = document.querySelector(`.s-side.mine .s-slot[data-slot="${slot}"].s-changed`);
    const table = document.querySelector('.s-side.mine .s-sonae');
    if (!e || !table || window.__mark !== null) return;
    const style = getComputedStyle(e);
    window.__mark = { card: e.dataset.card, ring: style.boxShadow,
      table: getComputedStyle(table).backgroundColor, animation: style.animationName };
  };
  new MutationObserver(look).observe(document.body,
    { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
}"""

#: The animation of the last-move mark on an element (the mark put on for the question when
#: a later move has taken it elsewhere, then taken off again).
MARKED_ANIMATION = """e => { const had = e.classList.contains('s-changed');
  e.classList.add('s-changed'); const name = getComputedStyle(e).animationName;
  if (!had) e.classList.remove('s-changed'); return name; }"""


def click_and_wait(page: Page, selector: str) -> None:
    """Click the first element matching ``selector`` and wait for the next decision."""
    _, before = status(page)
    page.locator(selector).first.click()
    page.wait_for_function(
        "n => Number(document.getElementById('status').dataset.ply) > n", arg=before
    )


def luminance(rgb: str) -> float:
    r, g, b = (int(x) / 255 for x in re.findall(r"\d+", rgb)[:3])
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def setup_then_action_turn(page: Page) -> None:
    """Click through the setup (two looked-at Sashimono go back), then take an Action turn."""
    interactive = '.board-area[data-interactive="true"]'
    for _ in range(2):  # two of the five Sashimono looked at go back under the deck
        page.wait_for_selector(f"{interactive} .s-hand-group.looking [data-target]")
        click_and_wait(page, ".s-hand-group.looking [data-target]")
    page.wait_for_selector(f'{interactive} button.s-choice[data-kind="turn"]')
    expect(page.locator(".s-prompt")).to_contain_text("Action turn or a Score turn")
    click_and_wait(page, 'button.s-choice[data-kind="turn"]:has-text("Action")')


def pick_then_place(page: Page) -> None:
    """The setup by clicking the looked-at cards, then an Action turn: a card from the hand,
    then one of the slots it may go to; the card shows there, marked as the last move."""
    setup_then_action_turn(page)
    card = page.locator(".s-hands .s-hand-card.s-target").first
    card_id = card.get_attribute("data-card")
    click_and_wait(page, f'.s-hand-card[data-card="{card_id}"]')
    # Now only the slots this card may take are lit, and the prompt says so in words.
    expect(page.locator(".s-prompt")).to_contain_text("next to one line of your Sonae")
    slots = page.locator(".s-side.mine .s-slot.s-target")
    assert 0 < slots.count() <= 12
    slot = slots.first.get_attribute("data-slot")
    # The placement may end the turn, and the AI's answer is then the last move: what the
    # page shows of the placement is recorded as it is drawn, not looked for afterwards.
    page.evaluate(RECORD_MARK, slot)
    click_and_wait(page, f'.s-side.mine .s-slot[data-slot="{slot}"]')
    placed = page.locator(f'.s-side.mine .s-slot[data-slot="{slot}"]')
    expect(placed).to_have_attribute("data-card", card_id or "")
    assert page.locator(".s-hands .s-hand-card").count() == 2
    # The last move is marked at 3:1 contrast or more against the table, and its short
    # animation is off for those who ask for less motion.
    page.wait_for_function("() => window.__mark !== null")
    mark = page.evaluate("window.__mark")
    assert mark["card"] == card_id, mark
    assert contrast(mark["ring"], mark["table"]) >= 3, mark
    assert mark["animation"] == "s-pop", mark
    page.emulate_media(reduced_motion="reduce")
    assert placed.evaluate(MARKED_ANIMATION) == "none"
    page.emulate_media(reduced_motion="no-preference")


def new_game(page: Page, mode: str, vp: int, keyboard: bool = False) -> None:
    """From the setup page, by clicks (or keys): the mode, the VP to win, the AI seat."""
    page.goto("/new/sashimono")
    page.select_option("#opt-mode", '"' + mode + '"')
    page.fill("#opt-vp", str(vp))  # a game option, not a move
    press = (lambda sel: key_press(page, sel)) if keyboard else page.click
    press('.presets button[data-preset="ai"]')
    expect(page.locator(".seat-row")).to_have_count(1 if mode == "solo" else 2)
    press("#start")
    page.wait_for_url("**/play/*")
    page.wait_for_selector(".s-sonae")


def check_end(page: Page, watch: PageWatch, name: str) -> str:
    panel = page.locator(".end-panel")
    expect(panel).to_be_visible()
    reason = panel.locator(".end-reason").inner_text()
    headline = panel.locator("h2").inner_text()
    assert re.search(r"\b(win|wins|lose|defeat)\b", f"{headline} {reason}", re.I), reason
    assert_clean_text(page)
    assert not watch.failed, watch.failed
    page.mouse.move(0, 0)
    for width, height in ((1920, 1080), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate(NEXT_FRAME)  # laid out at the new size
        shot(page, f"{name}-end-{width}")
    # The board stays readable behind the panel: see it.
    page.click("#end-close")
    page.set_viewport_size({"width": 1920, "height": 1080})
    assert_clean_text(page)
    shot(page, f"{name}-final-board-1920")
    return f"{headline} — {reason}"


def test_a_whole_duel_against_the_ai_by_clicks(new_page: Any) -> None:
    page: Page = new_page(1920, 1080)
    watch = PageWatch(page)
    new_game(page, "duel", vp=1)  # a short game
    # Card faces in your hand: names, the Kumi each action needs, and its text.
    first_card = page.locator(".s-hands .s-hand-card").first
    expect(first_card.locator(".s-face-name")).not_to_be_empty()
    expect(first_card.locator(".s-act-text").first).not_to_be_empty()
    # The enemy's hand is backs only; your Sonae has nine cells and twelve slots.
    assert page.locator(".s-side.mine .s-cell").count() == 9
    assert page.locator(".s-side.mine .s-slot").count() == 12
    assert page.locator(".s-side.theirs .s-hand-card").count() == 0
    # Hovering a card says what it does.
    first_card.hover()
    expect(page.locator(".s-info")).to_be_visible()
    expect(page.locator(".s-info")).to_contain_text("needs")
    pick_then_place(page)
    counts = play_to_the_end(page, "sashimono-duel", seed=16)
    assert counts["click"] > 0  # cards, slots or cells were clicked, not only buttons
    check_end(page, watch, "sashimono-duel")


def test_a_whole_duel_by_keyboard_alone(new_page: Any) -> None:
    """No mouse: cards, spaces, cells and buttons reached with Tab, picked with Enter."""
    page: Page = new_page(1280, 900)
    watch = PageWatch(page)
    new_game(page, "duel", vp=1, keyboard=True)
    counts = play_to_the_end(page, "sashimono-keyboard", seed=16, keyboard=True)
    assert counts["click"] > 0  # cards, slots or cells, not only buttons
    check_end(page, watch, "sashimono-keyboard")


def hand_in_view_on_a_phone(page: Page) -> None:
    """At 390x844, your hand is wholly in the window whatever the choices above it (the
    screenshots' sizes change it back now and then: set it again)."""
    if page.viewport_size != {"width": 390, "height": 844}:
        page.set_viewport_size({"width": 390, "height": 844})
        page.evaluate(NEXT_FRAME)
    assert_within_window(page, ".s-hands")


def test_a_whole_solo_game_on_a_phone_keeps_the_hand_in_view(new_page: Any) -> None:
    """A long list of choices (a card's actions, the bonus actions) pushed the hand below a
    phone's window: it stays at the window's foot now, in every position of a whole game."""
    page: Page = new_page(390, 844)
    watch = PageWatch(page)
    new_game(page, "solo", vp=3)
    counts = play_to_the_end(page, "sashimono-solo-phone", seed=11, each=hand_in_view_on_a_phone)
    assert counts["button"] > 0
    check_end(page, watch, "sashimono-solo-phone")


def test_a_whole_solo_game_against_the_kagemusha_by_clicks(new_page: Any) -> None:
    page: Page = new_page(1920, 1080)
    watch = PageWatch(page)
    new_game(page, "solo", vp=3)
    kage = page.locator(".s-side.kagemusha")
    expect(kage).to_contain_text("Its Army stands on space")
    expect(kage).to_contain_text("Its next turn")
    # The Army is drawn on its path round your Sonae (spaces numbered 1 to 12).
    assert page.locator(".s-side.mine .s-slot .s-path").count() == 12
    assert page.locator('.s-side.mine .s-slot[data-army="true"]').count() == 1
    counts = play_to_the_end(page, "sashimono-solo", seed=7)
    assert counts["click"] > 0
    result = check_end(page, watch, "sashimono-solo")
    assert "Kagemusha" in result or "defeat" in result


def test_hot_seat_on_a_phone_passes_the_device_then_replays(new_page: Any) -> None:
    """Two players at one phone: the table hides while the device changes hands, choices are
    clicks, and the replay draws the game with the same renderer."""
    page: Page = new_page(390, 844)
    watch = PageWatch(page)
    start_game(page, "sashimono", "hotseat")
    rng = random.Random(3)
    passes = 0
    for _ in range(40):
        page.wait_for_function(
            "() => document.querySelector('.pass-screen:not([hidden]),"
            ' .board-area[data-interactive="true"] [data-target],'
            ' .board-area[data-interactive="true"] .s-choices button\')'
        )
        if page.locator(".pass-screen:not([hidden])").count():
            passes += 1
            expect(page.locator(".board-area")).to_have_class(re.compile(r"\bcovered\b"))
            expect(page.locator("#moves")).to_have_text("Hidden while the device is passed.")
            page.click("#pass-ready")
            if passes >= 2:
                break
            continue
        _, before = status(page)
        if page.evaluate(PICK, rng.randrange(1, 2**30)) is None:
            page.evaluate(NEXT_FRAME)  # redrawn between the two looks: look again
            continue
        try:
            page.click("[data-test-pick]", timeout=5_000)
        except PlaywrightError:  # the page was redrawn meanwhile: pick again
            continue
        page.wait_for_function(
            "n => { const s = document.getElementById('status');"
            " return Number(s.dataset.ply) > n || document.querySelector("
            "'.s-choices button.s-choice.primary, .pass-screen:not([hidden])'); }",
            arg=before,
        )
    assert passes >= 2
    # The seat on screen sees its own hand and only backs of the other's.
    page.wait_for_selector(".s-hands")
    assert page.locator(".s-side.theirs .s-back").count() > 0
    assert page.locator(".s-side.theirs .s-hand-card").count() == 0
    no_horizontal_overflow(page)
    assert_clean_text(page)
    page.mouse.move(0, 0)
    shot(page, "sashimono-hot-seat-390")
    # A long press on a card (a touch held) explains it; a touch elsewhere puts that away.
    card = page.locator(".s-hands .s-hand-card, .s-hands .s-hand-kumi").first
    card.dispatch_event("pointerdown", {"pointerType": "touch", "isPrimary": True})
    info = page.locator(".s-info")
    expect(info).to_be_visible()
    expect(info).to_contain_text(re.compile(r"needs|attack"))
    card.dispatch_event("pointerup", {"pointerType": "touch", "isPrimary": True})
    shot(page, "sashimono-long-press-390")
    page.locator(".s-side-head").first.dispatch_event(
        "pointerdown", {"pointerType": "touch", "isPrimary": True}
    )
    expect(info).to_be_hidden()
    page.click("#resign")
    page.click(".dialog button.danger")
    panel = page.locator(".end-panel")
    expect(panel.locator(".end-reason")).to_contain_text("resignation")
    panel.locator("a", has_text="Replay").click()
    page.wait_for_url("**/replay/*")
    counter = page.locator("#replay-counter")
    expect(counter).to_have_text(re.compile(r"^\d+ / \d+$"), timeout=GENEROUS_MS)
    page.click("#replay-first")
    page.click("#replay-next")
    expect(counter).to_have_text(re.compile(r"^1 / "))
    assert page.locator(".s-sonae").count() >= 2
    assert_clean_text(page)
    assert not watch.failed, watch.failed
    shot(page, "sashimono-replay-390")


def test_a_card_dragged_onto_a_space_is_played_there(new_page: Any) -> None:
    page: Page = new_page(1920, 1080)
    watch = PageWatch(page)
    new_game(page, "duel", vp=3)
    setup_then_action_turn(page)
    card = page.locator('.s-hands .s-hand-card[draggable="true"]').first
    card_id = card.get_attribute("data-card")
    # an empty space of your Sonae that is not the corner one the test might miss
    target = page.locator(".s-side.mine .s-slot.s-drop").nth(4)
    slot = target.get_attribute("data-slot")
    card.drag_to(target)
    placed = page.locator(f'.s-side.mine .s-slot[data-slot="{slot}"]')
    expect(placed).to_have_attribute("data-card", card_id or "")
    assert page.locator(".s-hands .s-hand-card").count() == 2
    assert not watch.failed, watch.failed
