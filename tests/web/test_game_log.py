"""The game log (issue 17): Gunshi and Sashimono's move list reads in words, one heading per
turn, the whole game from its first line; each seat reads only what it may see; a line
shows the position after it, and ← → step on from there.

The games are played through the API (random legal choices, fixed seeds) by both seats;
the page holds seat 0 only, as a player at a table does.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import httpx
from playwright.sync_api import Page, expect

from tests.waiting import GENEROUS, NEXT_FRAME
from tests.web.api import API
from tests.web.helpers import PageWatch, assert_clean_text, no_horizontal_overflow, shot
from tests.web.test_accessibility import violations

#: What the log must never show: rendering bugs, identifiers, data, notation.
RAW = re.compile(
    r"\[object Object\]|undefined|NaN|\b[a-z]+_[a-z_]+\b|[\[\]{}]"
    r"|\(seat \d\)|\b[a-g][1-7][nesw]\b|\b(?:top|bottom|left|right)-[a-c1-3]\b"
)
META = {"match_created", "player_joined", "match_started"}


def create(base_url: str, game: str, seed: int) -> dict[str, Any]:
    r = API.post(
        f"{base_url}/api/matches",
        json={
            "game": game,
            "seed": seed,
            "seats": [{"kind": "local", "name": "Aki"}, {"kind": "local", "name": "Ben"}],
        },
    )
    assert r.status_code == 201, r.text
    return dict(r.json())


def play(base_url: str, m: dict[str, Any], seed: int, until: Any, limit: int = 400) -> int:
    """Random legal actions by whichever seat is to act, until ``until(snapshot)``."""
    rng = random.Random(seed)
    with httpx.Client(base_url=base_url, timeout=GENEROUS) as client:
        for _ in range(limit):
            snap = client.get(
                f"/api/matches/{m['id']}", headers={"Authorization": f"Bearer {m['tokens']['0']}"}
            ).json()
            if snap["status"] != "active" or until(snap):
                return int(snap["ply"])
            token = m["tokens"][str(snap["to_act"])]
            mine = client.get(
                f"/api/matches/{m['id']}", headers={"Authorization": f"Bearer {token}"}
            ).json()
            action = rng.choice(mine["legal"])["action"]
            r = client.post(
                f"/api/matches/{m['id']}/actions",
                json={"action": action, "ply": mine["ply"]},
                headers={"Authorization": f"Bearer {token}"},
            )
            assert r.status_code == 200, r.text
    raise AssertionError("the game did not get there")


def events_of(base_url: str, m: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    r = API.get(
        f"{base_url}/api/matches/{m['id']}/events",
        headers={"Authorization": f"Bearer {m['tokens'][str(seat)]}"},
    )
    return [e["event"] for e in r.json()["events"]]


def numbered_events(base_url: str, m: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    r = API.get(
        f"{base_url}/api/matches/{m['id']}/events",
        headers={"Authorization": f"Bearer {m['tokens'][str(seat)]}"},
    )
    return list(r.json()["events"])


def open_seat0(new_page: Any, m: dict[str, Any], width: int, height: int) -> Page:
    page: Page = new_page(width, height)
    page.goto("/")
    tokens = json.dumps({m["id"]: {"0": m["tokens"]["0"]}})
    page.evaluate("t => localStorage.setItem('sengoku.tokens', t)", tokens)
    page.goto(f"/play/{m['id']}")
    page.wait_for_selector("#moves.game-log .log-entry")
    return page


def log_text(page: Page) -> str:
    return page.locator("#moves").inner_text()


def check_log(page: Page, base_url: str, m: dict[str, Any], heading: re.Pattern[str]) -> None:
    """Headings, words, every line of the seat's events, none of the other seat's secrets."""
    expect(page.locator(".moves-card h2")).to_have_text("Game log")
    headings = page.locator("#moves .log-heading").all_inner_texts()
    assert headings[0] == "Setting up", headings
    turns = [h for h in headings[1:] if heading.fullmatch(h)]
    assert len(turns) == len(headings) - 1 and len(turns) >= 4, headings
    assert [int(h.split()[1]) for h in turns] == list(range(1, len(turns) + 1)), turns
    text = log_text(page)
    assert not RAW.search(text), RAW.search(text)
    assert_clean_text(page)
    # Every line the seat may read, from the game's first: no cap drops the start.
    mine = [
        e["message"][0].upper() + e["message"][1:]
        for e in events_of(base_url, m, 0)
        if e.get("message") and e["type"] not in META and e["type"] != "turn"
    ]
    entries = page.eval_on_selector_all(
        "#moves .log-entry", "els => els.map(e => e.textContent.trim())"
    )
    entries = [t.removeprefix("Only you see this: ") for t in entries]
    assert entries == mine
    assert len(entries) > 80
    # The other seat's private lines (its hand, its face-down cards) are not on this page.
    theirs = {e["n"] for e in numbered_events(base_url, m, 1) if e["event"].get("audience") == [1]}
    assert theirs
    shown = {
        int(n)
        for n in page.eval_on_selector_all("#moves [data-n]", "els => els.map(e => e.dataset.n)")
    }
    assert shown and not shown & theirs, shown & theirs
    # Own secrets are marked as such (and said so to a screen reader).
    assert page.locator("#moves .log-private").count() > 0
    # Headings inside the list, a button per line: still no accessibility violation.
    assert violations(page) == []


def browse_by_the_log(page: Page) -> None:
    """A line shows the position after it; ← steps back from there; back to the game."""
    bar = page.locator(".browse-bar")
    expect(bar).to_be_hidden()
    entry = page.locator("#moves .log-turn").nth(2).locator(".log-entry[data-ply]").first
    target = int(entry.get_attribute("data-ply") or 0)
    entry.locator("button").click()
    expect(bar).to_contain_text(f"after move {target} of")
    expect(entry).to_have_class(re.compile(r"\bcurrent\b"))
    page.keyboard.press("ArrowLeft")
    expect(bar).to_contain_text(f"after move {target - 1} of")
    assert violations(page) == []  # the marked line's contrast too
    # The entry marked is the last one at or before the position shown.
    marked = page.locator("#moves .log-entry.current").first
    assert int(marked.get_attribute("data-ply") or 0) <= target - 1
    page.click("#browse-live")
    expect(bar).to_be_hidden()
    expect(page.locator("#moves .log-entry.current")).to_have_count(0)


def screenshots(page: Page, name: str) -> None:
    for width, height in ((1920, 1080), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate(NEXT_FRAME)  # laid out at the new size
        no_horizontal_overflow(page)
        if width > 1000:
            # One screen high on a wide screen: the log scrolls inside its card (its lines'
            # screen-reader words once stretched the page by the log's whole height).
            assert page.evaluate("() => document.documentElement.scrollHeight <= innerHeight + 1")
        if width < 600:
            page.locator("#moves").scroll_into_view_if_needed()
        shot(page, f"game-log-{name}-{width}")


def test_a_gunshi_log_in_words_by_turn(new_page: Any, base_url: str) -> None:
    m = create(base_url, "gunshi", 11)
    play(base_url, m, 11, lambda s: (s["view"].get("turn") or 0) >= 14)
    page = open_seat0(new_page, m, 1920, 1080)
    watch = PageWatch(page)
    check_log(page, base_url, m, re.compile(r"Turn \d+ — (Red|Blue)"))
    text = log_text(page)
    # Blue's face-down commands are there as such, never by name.
    assert re.search(r"Blue sends a card face down to position \d\.", text)
    assert "Blue chooses a Shogun in secret." in text
    assert re.search(r"Your Shogun is (Infantry|Archer|Cavalry) [A-X]\.", text)
    # The log grows as the game goes on: the first line stays, the new ones are appended.
    first = page.locator("#moves .log-entry").first.inner_text()
    count = page.locator("#moves .log-entry").count()
    ply = play(base_url, m, 12, lambda s: s["to_act"] == 0 and s["ply"] > 0, limit=60)
    play(base_url, m, 13, lambda s: s["ply"] >= ply + 3, limit=60)
    page.wait_for_function(
        "n => document.querySelectorAll('#moves .log-entry').length > n", arg=count
    )
    assert page.locator("#moves .log-entry").first.inner_text() == first
    browse_by_the_log(page)
    screenshots(page, "gunshi")
    assert not watch.failed, watch.failed


def test_a_sashimono_log_in_words_by_turn(new_page: Any, base_url: str) -> None:
    m = create(base_url, "sashimono", 5)
    play(base_url, m, 5, lambda s: s["ply"] >= 70)
    page = open_seat0(new_page, m, 1920, 1080)
    watch = PageWatch(page)
    check_log(page, base_url, m, re.compile(r"Turn \d+ — (West|East)"))
    text = log_text(page)
    assert re.search(r"East draws \d Kumi\.", text)
    assert "You draw" in text
    browse_by_the_log(page)
    screenshots(page, "sashimono")
    assert not watch.failed, watch.failed


#: A Gunshi-sized log (900 actions, 3,600 lines) built in the page by the log's own module:
#: the time of the first build, of a step that adds three lines, and of marking a position;
#: and whether the step kept the nodes already built.
LONG_LOG = """async () => {
  const { GameLog } = await import("/js/game_log.js");
  const list = document.createElement("ol");
  list.className = "moves game-log";
  document.body.append(list);
  const log = new GameLog({ visible: () => true, skip: () => false, seatName: (s) => ["Red", "Blue"][s],
    onPick: () => {} });
  log.mount(list);
  const events = [];
  let n = 0;
  for (let ply = 1; ply <= 900; ply++) {
    if (ply % 6 === 1) events.push({ n: ++n, event: { type: "turn", audience: null, ply, seat: (ply / 6) % 2 | 0,
      turn: (ply / 6 | 0) + 1, name: "Red", message: "Red's turn." } });
    for (let k = 0; k < 4; k++) events.push({ n: ++n, event: { type: "move", audience: k === 3 ? [0] : null, ply,
      message: `Line ${k} of action ${ply}.` } });
  }
  const head = events.slice(0, events.length - 3);
  // What each call changes in the list, counted by a MutationObserver: the work it does,
  // independent of the machine's speed (the times are printed, not asserted).
  const changes = (fn) => {
    const found = [];
    const observer = new MutationObserver((records) => found.push(...records));
    observer.observe(list, { subtree: true, childList: true, attributes: true, characterData: true });
    const t = performance.now();
    fn();
    const ms = performance.now() - t;
    found.push(...observer.takeRecords());
    observer.disconnect();
    const count = (kind) => found.filter((r) => r.type === kind).length;
    const added = found.reduce((a, r) => a + [...r.addedNodes].filter((x) => x.nodeType === 1).length, 0);
    const removed = found.reduce((a, r) => a + r.removedNodes.length, 0);
    return { ms, added, removed, attributes: count("attributes"), text: count("characterData") };
  };
  const build = changes(() => log.update(head));
  const first = list.querySelector(".log-entry");
  const step = changes(() => log.update(events));
  const mark = changes(() => log.mark(450));
  const kept = list.querySelector(".log-entry") === first;
  const lines = list.querySelectorAll(".log-entry").length;
  const current = [...list.querySelectorAll(".log-entry.current")].map((e) => e.dataset.ply);
  list.remove();
  return { build, step, mark, kept, lines, current };
}"""


def test_a_long_log_is_built_once_then_grows(new_page: Any) -> None:
    page: Page = new_page(1280, 900)
    page.goto("/")
    out = page.evaluate(LONG_LOG)
    build, step, mark = out["build"], out["step"], out["mark"]
    print(
        f"\ngame log of 3,600 lines: build {build['ms']:.1f} ms, step {step['ms']:.2f} ms, "
        f"mark {mark['ms']:.2f} ms; changes: step {step}, mark {mark}"
    )
    assert out["lines"] == 3600
    assert out["kept"], "a step rebuilt the log"
    assert out["current"] == ["450"] * 4
    # A step adds its three new lines and removes nothing (no rebuild of 3,597 lines); a
    # mark adds or removes no line and touches the attributes of a few lines only.
    assert step["removed"] == 0 and 3 <= step["added"] <= 6, step
    assert mark["added"] == 0 and mark["removed"] == 0 and mark["attributes"] <= 24, mark


def private_numbers(base_url: str, m: dict[str, Any], seat: int) -> set[int]:
    return {
        e["n"] for e in numbered_events(base_url, m, seat) if e["event"].get("audience") == [seat]
    }


def shown_numbers(page: Page) -> set[int]:
    return {
        int(n)
        for n in page.eval_on_selector_all("#moves .log-entry", "els => els.map(e => e.dataset.n)")
    }


def test_in_hot_seat_each_seat_reads_its_own_log(new_page: Any, base_url: str) -> None:
    m = create(base_url, "gunshi", 21)
    play(base_url, m, 21, lambda s: (s["view"].get("turn") or 0) >= 3 and s["to_act"] == 0)
    page: Page = new_page(1280, 900)
    page.goto("/")
    tokens = json.dumps({m["id"]: {"0": m["tokens"]["0"], "1": m["tokens"]["1"]}})
    page.evaluate("t => localStorage.setItem('sengoku.tokens', t)", tokens)
    page.goto(f"/play/{m['id']}")
    page.wait_for_selector("#moves.game-log .log-entry")
    red, blue = private_numbers(base_url, m, 0), private_numbers(base_url, m, 1)
    shown = shown_numbers(page)
    assert red <= shown and not shown & blue
    # Red ends the turn (through the API, as if played here): the device is passed to Blue.
    play(base_url, m, 22, lambda s: s["to_act"] == 1, limit=40)
    expect(page.locator("#moves")).to_have_text("Hidden while the device is passed.")
    page.click("#pass-ready")
    page.wait_for_selector("#moves.game-log .log-entry")
    red, blue = private_numbers(base_url, m, 0), private_numbers(base_url, m, 1)
    shown = shown_numbers(page)
    assert blue <= shown and not shown & red
    assert_clean_text(page)
