"""Helpers for the browser tests: screenshots kept as artifacts, layout checks, moves."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from sengoku.server import i18n
from tests.waiting import GENEROUS_MS, wait_until
from tests.web.api import API
from tests.web.labels_setup import play_until

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("SENGOKU_WEB_ARTIFACTS", ROOT / "build" / "web-screenshots"))


def shot(page: Page, name: str, timeout: float | None = None) -> Path:
    """Keep a full-page screenshot as a test artifact (``timeout``: ms, the page's default
    when None)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True, timeout=timeout)
    return path


#: Elements sticking out past the window's right edge, outside any clipping or scrolling box
#: (the page's body hides horizontal overflow, so the page's own width alone cannot tell).
_OVERFLOWING = """() => {
  const out = [];
  for (const e of document.querySelectorAll("body *")) {
    const r = e.getBoundingClientRect();
    if (!r.width || r.right <= window.innerWidth + 1) continue;
    let clipped = false;
    for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
      const st = getComputedStyle(a);
      if (st.overflowX !== "visible" || st.position === "fixed") { clipped = true; break; }
    }
    if (!clipped && getComputedStyle(e).position !== "fixed") {
      out.push(`${e.tagName.toLowerCase()}.${e.className.baseVal ?? e.className} ${Math.round(r.right)}px`);
    }
  }
  return out.slice(0, 10);
}"""


def no_horizontal_overflow(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    inner = page.evaluate("window.innerWidth")
    sticking_out = page.evaluate(_OVERFLOWING)
    assert width <= inner, f"the page is {width}px wide in a {inner}px window: {sticking_out}"
    assert not sticking_out, f"past the right edge of a {inner}px window: {sticking_out}"


def tower(page: Page, square: str) -> list[tuple[str, str]]:
    """(piece, colour) of each tier the board draws at ``square``, bottom first."""
    return [
        (str(p[0]), str(p[1]))
        for p in page.eval_on_selector_all(
            f'.board .tower[data-square="{square}"] .piece',
            "els => els.map(e => [e.dataset.piece, e.dataset.color])",
        )
    ]


def moves_shown(page: Page) -> list[str]:
    return [t.strip() for t in page.locator("#moves li[data-ply] .notation").all_inner_texts()]


def wait_moves(page: Page, count: int) -> list[str]:
    page.wait_for_function(
        "n => document.querySelectorAll('#moves li[data-ply]').length >= n", arg=count
    )
    return moves_shown(page)


def click_move(page: Page, origin: str, target: str, mark: str | None = None) -> None:
    """Select ``origin`` (a square, or ``hand:piece``), then play onto ``target`` by clicks.

    When several moves reach the target the page asks which one: ``mark`` picks the choice
    whose notation contains it.
    """
    page.wait_for_selector('.board-area[data-interactive="true"]')
    select = (
        f'.hand button.hand-piece.droppable[data-piece="{origin[5:]}"]'
        if origin.startswith("hand:")
        else f'[data-sq="{origin}"]'
    )
    # What the page draws for a selection (the click's handler draws it before the click
    # returns): the selected hand piece, or the tint of the selected square.
    selection = (
        ".hand button.hand-piece.selected" if origin.startswith("hand:") else ".board rect.selected"
    )
    page.click(select)

    # A snapshot of another position or other legal moves clears the selection (the board's
    # update). One that lands between the click and the targets' drawing (a busy machine
    # widens that window at a game's start) leaves no selection and no target: select again.
    def targets_shown() -> bool:
        if page.locator(f'[data-target="{target}"]').count():
            return True
        if not page.locator(selection).count():
            page.wait_for_selector('.board-area[data-interactive="true"]')
            page.click(select)
        return False

    wait_until(targets_shown, f"the move's target {target} after selecting {origin}")
    before = int(page.locator("#status").get_attribute("data-ply") or 0)
    page.click(f'[data-sq="{target}"]')
    if page.locator(".chooser:not([hidden])").count():
        choices = page.locator(".chooser button.choice")
        if mark is None:
            choices.first.click()
        else:
            page.locator(f'.chooser button.choice[data-action*="{mark}"]').first.click()
    # The move is in once the page shows the next ply (in hot seat, behind the pass screen).
    page.wait_for_function(
        "n => Number(document.getElementById('status').dataset.ply) > n", arg=before
    )


def start_game(page: Page, game: str, preset: str) -> None:
    """From the home page: pick ``game``, the seats ``preset`` (ai, hotseat, invite), start."""
    page.goto("/")
    page.click(f'.game-card[data-game="{game}"] a.button')
    page.wait_for_selector("#start")
    # A game with ready-made choices (Gunshi opens on its first battle): the standard game.
    standard = page.locator('[data-option-preset="standard"]')
    if standard.count():
        standard.click()
    page.click(f'.presets button[data-preset="{preset}"]')
    page.click("#start")
    page.wait_for_url("**/play/*")


class PageWatch:
    """Failed requests seen by a page (HTTP status >= 400, or no answer at all)."""

    def __init__(self, page: Page) -> None:
        self.failed: list[str] = []
        page.on(
            "response",
            lambda r: self.failed.append(f"{r.status} {r.url}") if r.status >= 400 else None,
        )
        # A request the browser itself abandons (the page moved on, a poll cut short by a
        # navigation) is no failure of the server or the page.
        page.on(
            "requestfailed",
            lambda r: (
                self.failed.append(f"failed {r.url}: {r.failure}")
                if "ERR_ABORTED" not in (r.failure or "")
                else None
            ),
        )


#: Words that betray a rendering bug when a player can read them.
JUNK = ("[object Object]", "undefined", "NaN")


def assert_clean_text(page: Page) -> None:
    """No text on the page (nor in a title or label a player can read) shows a rendering bug."""
    text = page.evaluate(
        """() => [document.body.innerText,
            ...[...document.querySelectorAll('[title],[aria-label]')].map(
              e => (e.getAttribute('title') || '') + ' ' + (e.getAttribute('aria-label') || ''))
          ].join('\\n')"""
    )
    for junk in JUNK:
        assert junk not in text, f"the page shows {junk!r}: ...{_around(text, junk)}..."


def _around(text: str, word: str) -> str:
    i = text.find(word)
    return text[max(0, i - 80) : i + 80].replace("\n", " | ")


def assert_within_window(page: Page, selector: str) -> None:
    """The first element matching ``selector`` is wholly inside the window, unscrolled."""
    page.evaluate("window.scrollTo(0, 0)")
    box = None
    for _ in range(3):  # a page that redraws may swap the element between two reads
        page.locator(selector).first.wait_for(state="visible")
        box = page.locator(selector).first.bounding_box()
        if box is not None:
            break
    assert box is not None, f"{selector} is not shown"
    size = page.viewport_size or {"width": 0, "height": 0}
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"] + 1, (
        f"{selector} spans y={box['y']:.0f}..{box['y'] + box['height']:.0f} "
        f"in a {size['height']}px window"
    )
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 1, (
        f"{selector} spans x={box['x']:.0f}..{box['x'] + box['width']:.0f}"
    )


#: Which element has the focus: its data-pick name, or a selector-like description.
_ACTIVE = """() => { const a = document.activeElement; if (!a) return null;
  return {pick: a.dataset ? a.dataset.pick || null : null, grid: a.dataset ? a.dataset.grid || null : null,
          row: a.dataset && a.dataset.row !== undefined ? Number(a.dataset.row) : null,
          col: a.dataset && a.dataset.col !== undefined ? Number(a.dataset.col) : null}; }"""


def key_to(page: Page, selector: str, limit: int = 400) -> None:
    """Move the keyboard focus to the element ``selector`` names, with keys only, as a
    keyboard user does: Tab (one stop a board), then the arrow keys within a board."""
    target = page.locator(selector).first
    target.wait_for()
    info = target.evaluate(
        "e => ({grid: e.dataset.grid || null, row: e.dataset.row !== undefined ?"
        " Number(e.dataset.row) : null, col: e.dataset.col !== undefined ? Number(e.dataset.col)"
        " : null})"
    )
    for _ in range(limit):
        if target.evaluate("e => e === document.activeElement"):
            return
        active = page.evaluate(_ACTIVE) or {}
        if info["grid"] is not None and active.get("grid") == info["grid"]:
            # On the same board: the arrows, one square at a time.
            dr = info["row"] - active["row"]
            dc = info["col"] - active["col"]
            if dr:
                page.keyboard.press("ArrowDown" if dr > 0 else "ArrowUp")
            elif dc:
                page.keyboard.press("ArrowRight" if dc > 0 else "ArrowLeft")
            continue
        page.keyboard.press("Tab")
    raise AssertionError(f"{selector} could not be reached with the keyboard")


def key_press(page: Page, selector: str) -> None:
    """Reach ``selector`` with the keyboard (:func:`key_to`), then pick it with Enter."""
    key_to(page, selector)
    page.keyboard.press("Enter")


def finished_by_api(base_url: str, game: str, plies: int, seed: int) -> str:
    """A match of two local seats (``seed``) whose seats to act play their first legal
    choice ``plies`` times through the API (``labels_setup.play_until``), then seat 1
    resigns: a finished game, made quickly. Its id."""
    r = API.post(
        f"{base_url}/api/matches",
        json={"game": game, "seed": seed, "seats": [{"kind": "local"}, {"kind": "local"}]},
    )
    assert r.status_code == 201, r.text
    match = dict(r.json())
    looks = iter(range(plies + 1))  # play_until looks once before each choice
    play_until(base_url, match, lambda _view: next(looks) >= plies, limit=plies + 1)
    r = API.post(
        f"{base_url}/api/matches/{match['id']}/resign",
        headers={"Authorization": f"Bearer {match['tokens']['1']}"},
    )
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "finished", r.text
    return str(match["id"])


def analysed_replay(page: Page, match_id: str) -> list[dict[str, Any]]:
    """The replay of a finished match with its analysis asked for by the page's "Analyse"
    button and waited for (its graph drawn); the stored analysis's plies."""
    page.goto(f"/replay/{match_id}")
    page.click("#analyse")
    expect(page.locator("#analysis-graph")).to_be_visible(timeout=300_000)
    stored = page.request.get(f"/api/matches/{match_id}/analysis")
    assert stored.status == 200, stored.text()
    plies: list[dict[str, Any]] = stored.json()["result"]["plies"]
    return plies


def pick_analysed_ply(page: Page, ply: int) -> None:
    """Click move ``ply``'s bar in the analysis graph: the position before it is shown."""
    page.locator(f'#analysis-graph .bar[data-ply="{ply}"]').click()
    expect(page.locator("#replay-counter")).to_have_text(re.compile(rf"^{ply - 1} / "))


def show_replay_as(page: Page, seat: int | None) -> None:
    """Ask for the replay as ``seat`` sees it (None: a spectator); the page loads that
    seat's views and draws the board again (the caller waits for what it expects there)."""
    page.select_option("#replay-seat", "" if seat is None else str(seat))


def said(page: Page, *messages: str | tuple[str, str], whole: bool = False) -> re.Pattern[str]:
    """What the page says for any of ``messages`` (English msgids of the catalog; a plural
    one as ``(singular, plural)``), in the page's language (``<html lang>``, docs/i18n.md):
    a pattern with each ``{place}`` matching any text. ``whole``: the text is only that."""
    lang = page.evaluate("() => document.documentElement.lang") or "en"
    texts: list[str] = []
    for message in messages:
        if isinstance(message, tuple):
            texts += [i18n.ngettext(lang, *message, n) for n in (0, 1, 2, 10**6)]
        else:
            texts.append(i18n.gettext_(lang, message))
    alternatives = [".*?".join(re.escape(p) for p in re.split(r"\{\w+\}", t)) for t in texts]
    body = "|".join(f"(?:{a})" for a in alternatives)
    return re.compile(f"^(?:{body})$" if whole else body)


#: What the page shows of the game and its connection, and what the server says of it: the
#: report of a wait that timed out (a stall tells apart a click the server never got, a
#: position the page never fetched, and a page with nothing left to click).
_PAGE_STATE = """async () => {
  const status = document.getElementById('status');
  const board = document.querySelector('.board-area');
  const id = (location.pathname.match(/\\/play\\/([^/]+)/) || [])[1];
  let server = null;
  if (id) {
    try {
      const r = await fetch(`/api/matches/${id}?short=true`);
      const s = await r.json();
      server = {http: r.status, ply: s.ply, status: s.status, to_act: s.to_act};
    } catch (e) { server = String(e); }
  }
  return {
    url: location.pathname,
    status: status ? {...status.dataset, text: status.textContent.trim().slice(0, 120)} : null,
    interactive: board ? board.dataset.interactive : null,
    actions: document.querySelectorAll('.board-area [data-action]').length,
    connection: document.querySelector('.connection')?.dataset.status ?? null,
    toast: document.getElementById('toast')?.textContent.trim() ?? null,
    visibility: document.visibilityState,
    server,
  };
}"""


def wait_for_page(page: Page, expression: str, arg: Any = None, *, what: str) -> Any:
    """``page.wait_for_function(expression, arg)`` with the generous safety net; a timeout
    fails naming ``what`` was awaited, with the page's and the server's state and a
    screenshot (``stalled-*.png`` among the artifacts)."""
    try:
        return page.wait_for_function(expression, arg=arg, timeout=GENEROUS_MS)
    except PlaywrightTimeoutError:
        try:
            state: Any = page.evaluate(_PAGE_STATE)
            picture = shot(page, f"stalled-{re.sub(r'[^a-z0-9]+', '-', what.lower())}")
        except PlaywrightError as exc:  # the page itself is gone
            state, picture = f"(no page state: {exc})", None
        raise AssertionError(
            f"timed out after {GENEROUS_MS // 1000} s waiting for {what}; the page: {state}"
            + (f"; screenshot {picture}" if picture else "")
        ) from None
