"""The first-game tutorial (issue 17, "Rules in the game"): for each game a "Learn to play"
entry opens a match against the computer and a coach that walks a new player through their
first turn. The steps are data (sengoku/web/tutorials/<game>.json); these tests follow every
step as a player does, by clicking what the coach points at (Gungi also by keyboard alone),
to the final message."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

import sengoku.web
from tests.waiting import GENEROUS_MS, NEXT_FRAME
from tests.web.api import API
from tests.web.helpers import (
    PageWatch,
    assert_clean_text,
    key_press,
    key_to,
    no_horizontal_overflow,
    shot,
)
from tests.web.test_accessibility import violations

ROOT = Path(__file__).resolve().parents[2]
WEB = Path(sengoku.web.__file__).resolve().parent
GAMES = ("gungi", "gunshi", "gunkimono", "sashimono")
ADVANCE = {"next", "exists", "played", "phase", "notPhase", "turnOver"}


def tutorial(game: str) -> dict[str, Any]:
    return dict(json.loads((WEB / "tutorials" / f"{game}.json").read_text(encoding="utf-8")))


def phases(game: str) -> dict[str, Any]:
    path = WEB / "phases" / f"{game}.json"
    return dict(json.loads(path.read_text(encoding="utf-8"))["phases"])


def test_the_tutorials_are_shipped_data(base_url: str) -> None:
    """One file per game, in the package, served to the client; each step says something,
    points at something and knows when it is done; the last one, alone, ends the tutorial;
    the match it opens is one the server accepts."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    shipped = data["tool"]["setuptools"]["package-data"]["sengoku.web"]
    assert "tutorials/*.json" in shipped and "phases/*.json" in shipped
    # The index names exactly the games with a file: no page asks for a missing one.
    files = {p.stem for p in (WEB / "tutorials").glob("*.json")} - {"index"}
    index = json.loads((WEB / "tutorials" / "index.json").read_text(encoding="utf-8"))
    assert set(index["games"]) == files == set(GAMES)
    for game in GAMES:
        t = tutorial(game)
        steps = t["steps"]
        assert len(steps) >= 3, game
        assert [bool(s.get("final")) for s in steps] == [False] * (len(steps) - 1) + [True]
        assert "Rules panel" in steps[-1]["text"]
        for step in steps:
            assert step["title"] and len(step["text"]) > 20, (game, step)
            if not step.get("final"):
                assert step["target"], (game, step["id"])
                assert step["advance"] and set(step["advance"]) <= ADVANCE, (game, step["id"])
            assert set(step.get("when", [])) <= set(phases(game)), (game, step["id"])
        assert len({s["id"] for s in steps}) == len(steps)
        served = API.get(f"{base_url}/tutorials/{game}.json")
        assert served.status_code == 200 and served.json() == t
        r = API.post(
            f"{base_url}/api/matches",
            json={"game": game, "options": t["options"], "seats": t["seats"]},
        )
        assert r.status_code == 201, (game, r.text)
        assert [s["kind"] for s in t["seats"]] == ["local", "ai"]
    # Serving data files opened no door to the package's source.
    assert API.get(f"{base_url}/__init__.py").status_code == 404


#: The coach's targets, checked on screen: each is visible, and the coach panel leaves at
#: least one of them uncovered (its centre not under the panel).
TARGETS = """() => {
  const marked = [...document.querySelectorAll('.tutorial-target')];
  const coach = document.getElementById('coach').getBoundingClientRect();
  const inside = (x, y) => x >= coach.left && x <= coach.right && y >= coach.top && y <= coach.bottom;
  const seen = marked.filter((e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; });
  const clear = seen.filter((e) => { const r = e.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    return x >= 0 && y >= 0 && x <= innerWidth && y <= innerHeight && !inside(x, y); });
  return {marked: marked.length, seen: seen.length, clear: clear.length};
}"""


def coach_step(page: Page) -> str:
    return page.locator("#coach").get_attribute("data-step") or ""


def ply(page: Page) -> int:
    return int(page.locator("#status").get_attribute("data-ply") or 0)


def check_targets(page: Page, game: str, step: str) -> None:
    """The step points at something visible, and the coach does not hide all of it."""
    page.wait_for_function("() => document.querySelector('.tutorial-target')")
    found = page.evaluate(TARGETS)
    assert found["seen"] == found["marked"] > 0, (game, step, found)
    assert found["clear"] > 0, f"{game} {step}: the coach covers what it points at: {found}"


def look(page: Page, name: str) -> None:
    """Screenshots at both sizes, with the targets still in view beside the coach."""
    step = coach_step(page)
    for width, height in ((1920, 1080), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate(NEXT_FRAME)  # laid out at the new size
        shot(page, f"{name}-{width}")
        check_targets(page, name, step)
        assert_clean_text(page)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.evaluate(NEXT_FRAME)  # laid out at the new size


def wait_for_change(page: Page, step: str, before: int) -> None:
    """Until the coach moves on or the game does (a click that needs another one: a piece
    that cannot move, a question answered that asks the next)."""
    try:
        page.wait_for_function(
            "([step, n]) => { const c = document.getElementById('coach');"
            " return !c || c.dataset.step !== step"
            " || Number(document.getElementById('status').dataset.ply) > n; }",
            arg=[step, before],
            timeout=4_000,
        )
    except Exception:  # noqa: BLE001  (nothing changed: the caller tries another target)
        pass


def click_target(page: Page, index: int) -> None:
    """Click the ``index``-th thing the coach points at, where a player's pointer would (the
    board's squares lie over the pieces drawn on them: a click at the spot, not on the node)."""
    box = page.locator(".tutorial-target").nth(index).bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def follow_by_clicks(page: Page, game: str) -> list[str]:
    """Do what each step says, clicking what it points at, until the final message."""
    seen: list[str] = []
    tries = steps = 0
    while True:
        # A safety net against a loop that never ends, counted in turns, not seconds.
        steps += 1
        assert steps < 2000, f"{game}: stuck at {seen}"
        page.wait_for_selector("#coach")
        step = coach_step(page)
        if not seen or seen[-1] != step:
            seen.append(step)
            tries = 0
        if page.locator("#coach-rules").count():
            # The coach's own record of its path: a step that a click finished between two
            # of these polls (a busy machine) was still shown.
            return (page.locator("#coach").get_attribute("data-shown") or "").split()
        if page.locator("#coach-next").count():
            page.click("#coach-next")
            continue
        if page.locator(".coach-wait").inner_text():
            # the computer's move: until the coach stops waiting for it
            page.wait_for_function(
                "() => !(document.querySelector('.coach-wait')?.innerText ?? '').trim()"
            )
            continue
        check_targets(page, game, step)
        if tries == 0:  # each step, once: screenshots at both sizes
            look(page, f"tutorial-{game}-{step}")
        count = page.locator(".tutorial-target").count()
        before = ply(page)
        click_target(page, tries % count)
        tries += 1
        wait_for_change(page, step, before)


#: The game log's entries, each with the ply it came at (a turn's heading holds entries).
LOG_ENTRIES = """() => [...document.querySelectorAll('#moves li[data-ply]:not(:has(li))')]
  .map((li) => [Number(li.dataset.ply), li.innerText.trim()])"""


END = "West ends the turn."


def turn_ended_when_the_card_was_placed(page: Page) -> bool:
    """Whether the player's first Sashimono turn ended on the same ply as its card's placing:
    no question came between them (action_turn.step_actions asks none when no action can be
    performed). Its end must be in the log (or come, with nobody clicking)."""
    page.wait_for_function(f"() => ({LOG_ENTRIES})().some(([n, text]) => text === {END!r})")
    entries = page.evaluate(LOG_ENTRIES)
    placed = [n for n, text in entries if re.match(r"West plays .+ (above|below|left|right)", text)]
    ended = [n for n, text in entries if text == END]
    assert placed and ended, "\n".join(text for _, text in entries)
    return bool(placed[0] == ended[0])


def open_from_home(page: Page, game: str) -> None:
    page.goto("/")
    page.click(f'.game-card[data-game="{game}"] button[data-learn="{game}"]')
    page.wait_for_url("**/play/*")
    expect(page.locator("#coach")).to_be_visible()


@pytest.mark.parametrize("game", GAMES)
def test_a_first_turn_by_following_the_coach(new_page: Any, game: str) -> None:
    page: Page = new_page(1280, 900)
    watch = PageWatch(page)
    open_from_home(page, game)
    # The coach speaks first: the focus is on its words, for a screen reader too.
    assert page.evaluate("document.activeElement.id") == "coach-text"
    expect(page.locator(".player").nth(1)).to_contain_text("computer, level 1")
    page.wait_for_load_state("networkidle")
    assert violations(page) == [], "the coach"
    steps = follow_by_clicks(page, game)
    expected = [s["id"] for s in tutorial(game)["steps"]]
    # The last word comes once the turn has ended (not while the other seat answers in its
    # midst, as a battle's defender does); where nothing was left to do in it after the card
    # was placed (no action could be performed, no space to fill), the game ended it at once,
    # and "Finish your turn" had nothing to point at.
    if game == "sashimono" and turn_ended_when_the_card_was_placed(page):
        expected.remove("act")
    assert steps == expected, steps
    expect(page.locator("#coach-text")).to_contain_text("You played your first turn")
    assert not page.locator(".tutorial-target").count()
    shot(page, f"tutorial-{game}-final-1280")
    # Its last button opens the Rules panel, with the phase of the game on top.
    page.click("#coach-rules")
    expect(page.locator("#coach")).to_have_count(0)
    expect(page.locator("#rules-dialog")).to_be_visible()
    expect(page.locator('#rules-dialog [data-part="now"] h2')).to_contain_text("Now: ")
    page.wait_for_selector('#rules-dialog [data-part="rules"]')
    assert violations(page) == [], "the Rules panel with its phase"
    page.keyboard.press("Escape")
    # Done: a reload does not bring the coach back; the Tutorial button starts a new one.
    page.reload()
    page.wait_for_selector("#tutorial-open")
    # Everything the page loads has come (the tutorial's data too): a coach would be up now.
    page.wait_for_load_state("networkidle")
    expect(page.locator("#coach")).to_have_count(0)
    assert_clean_text(page)
    assert not watch.failed, watch.failed


def test_the_gungi_tutorial_by_keyboard_alone(new_page: Any) -> None:
    """From the setup page's "Learn to play", with Tab, the arrows, Enter and Escape only."""
    page: Page = new_page(1280, 900)
    watch = PageWatch(page)
    page.goto("/new/gungi")
    key_press(page, 'button[data-learn="gungi"]')
    page.wait_for_url("**/play/*")
    page.wait_for_selector("#coach")
    assert page.evaluate("document.activeElement.id") == "coach-text"
    key_press(page, "#coach-next")
    expect(page.locator("#coach")).to_have_attribute("data-step", "pick")
    assert page.evaluate("document.activeElement.id") == "coach-text"
    # The Pawn at 9-7 goes to 9-6 (the intro mode's fixed setup).
    assert page.locator('.tower[data-square="9-7"] .piece.white.tutorial-target').count() == 1
    key_press(page, '[data-sq="9-7"]')
    expect(page.locator("#coach")).to_have_attribute("data-step", "destination")
    assert page.locator('[data-target="9-6"].tutorial-target').count() == 1
    key_press(page, '[data-sq="9-6"]')
    expect(page.locator("#coach")).to_have_attribute("data-step", "done")
    expect(page.locator("#coach-text")).to_contain_text("You played your first turn")
    assert page.evaluate("document.activeElement.id") == "coach-text"
    assert page.locator("#moves li[data-ply] .notation").first.inner_text().startswith("9-6")
    # Escape closes the coach; the focus goes to the button that opens it again.
    page.keyboard.press("Escape")
    expect(page.locator("#coach")).to_have_count(0)
    assert page.evaluate("document.activeElement.id") == "tutorial-open"
    # Every button of the coach has a name in words.
    page.keyboard.press("Enter")  # a finished tutorial: the button starts a new one
    page.wait_for_function("id => !location.pathname.endsWith(id)", arg=page.url.split("/")[-1])
    page.wait_for_selector("#coach")
    for name in page.locator("#coach button").all():
        assert (name.get_attribute("aria-label") or name.inner_text()).strip()
    key_to(page, "#coach-close")
    page.keyboard.press("Enter")
    expect(page.locator("#coach")).to_have_count(0)
    assert not watch.failed, watch.failed


def test_the_tutorial_button_on_a_game_page(new_page: Any, base_url: str) -> None:
    """On any game page the "Tutorial" button opens a new guided match of that game."""
    r = API.post(
        f"{base_url}/api/matches",
        json={"game": "gunkimono", "seats": [{"kind": "local"}, {"kind": "ai", "level": 1}]},
    )
    m = r.json()
    page: Page = new_page(390, 844)
    page.goto("/")
    page.evaluate(
        "t => localStorage.setItem('sengoku.tokens', t)",
        json.dumps({m["id"]: {"0": m["tokens"]["0"]}}),
    )
    page.goto(f"/play/{m['id']}")
    page.wait_for_selector("#tutorial-open")
    expect(page.locator("#coach")).to_have_count(0)  # not a tutorial: no coach
    # This game is under way: the player is asked first, and may stay.
    page.click("#tutorial-open")
    page.click(".dialog button:has-text('Stay here')")
    assert page.url.endswith(m["id"])
    page.click("#tutorial-open")
    page.click(".dialog button:has-text('Start the tutorial')")
    page.wait_for_function("id => !location.pathname.endsWith(id)", arg=m["id"])
    expect(page.locator("#coach")).to_have_attribute("data-step", "welcome")
    shot(page, "tutorial-gunkimono-welcome-390")


def test_learn_to_play_on_the_home_and_setup_pages(new_page: Any) -> None:
    """Each game's card, and its setup page, offer the tutorial; nothing overflows."""
    page: Page = new_page(1920, 1080)
    for width, height in ((1920, 1080), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto("/")
        for game in GAMES:
            expect(
                page.locator(f'.game-card[data-game="{game}"] [data-learn="{game}"]')
            ).to_be_visible()
        # Only where there is a tutorial (a game added by a plugin may have none).
        shown = page.eval_on_selector_all(
            "[data-learn]", "els => els.filter(e => e.offsetParent).map(e => e.dataset.learn)"
        )
        assert sorted(shown) == sorted(GAMES), shown
        no_horizontal_overflow(page)
        shot(page, f"tutorial-home-{width}")
        page.goto("/new/sashimono")
        expect(page.locator('.how-to [data-learn="sashimono"]')).to_be_visible()
        no_horizontal_overflow(page)
        shot(page, f"tutorial-setup-{width}")


def test_a_score_turn_skips_the_action_turn_steps(new_page: Any) -> None:
    """A player who takes a Score turn where the coach suggests an Action turn is not left
    with steps about a card to play: those steps are for the Action turn's questions only."""
    page: Page = new_page(1280, 900)
    open_from_home(page, "sashimono")
    page.click("#coach-next")
    for _ in range(2):  # two of the five Sashimono go back under the deck
        expect(page.locator("#coach")).to_have_attribute("data-step", "look")
        page.wait_for_selector(".s-hand-group.looking [data-target].tutorial-target")
        before = ply(page)
        click_target(page, 0)
        page.wait_for_function(
            "n => Number(document.getElementById('status').dataset.ply) > n", arg=before
        )
    expect(page.locator("#coach")).to_have_attribute("data-step", "turn", timeout=GENEROUS_MS)
    page.click('button.s-choice[data-action="score"]')
    expect(page.locator("#coach")).to_have_attribute("data-step", "act")
    steps = follow_by_clicks(page, "sashimono")
    assert steps[-1] == "done"
