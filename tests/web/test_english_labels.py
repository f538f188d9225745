"""The header's English toggle (issue 17): every game's labels on its board, hands, cards,
tiles and pieces switch between kanji and short English words, live (no reload), and back;
on the play page, the replay page and the setup page's seat icons.

What may keep its kanji: the games' names beside their English titles (軍師 Gunshi), the brand
and the decorative end and pass screens, none of them inside the regions checked here.
"""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page

from tests.web.api import API
from tests.web.helpers import PageWatch, assert_clean_text, shot
from tests.web.labels_setup import create, open_as, play_until

#: Chinese characters and Japanese kana (and their full-width forms).
CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")

#: The text a player reads on the board, the hands, the cards and tiles, and the players' icons:
#: the HTML's rendered text and every SVG text drawn (not the <title> tooltips).
SHOWN = """() => {
  const out = [];
  for (const root of document.querySelectorAll('.board-area, #dock, .players, .seats')) {
    out.push(root.innerText);
    for (const t of root.querySelectorAll('svg text')) if (t.getClientRects().length) out.push(t.textContent);
  }
  return out.join('\\n');
}"""


def shown(page: Page) -> str:
    return str(page.evaluate(SHOWN))


def toggle(page: Page, to: str) -> None:
    page.click("#labels-toggle")
    pressed = "true" if to == "english" else "false"
    page.wait_for_selector(f'#labels-toggle[aria-pressed="{pressed}"]')


def check_both_ways(page: Page, kanji: set[str], english: set[str], name: str) -> None:
    """Kanji first; English after a click, with no CJK character left; kanji again after."""
    page.wait_for_function(
        "ks => { const t = document.querySelector('.board-area').textContent;"
        " return ks.every(k => t.includes(k)); }",
        arg=sorted(kanji),
    )
    before = shown(page)
    assert kanji <= set(CJK.findall(before)), (kanji, before[:300])
    toggle(page, "english")
    page.wait_for_function(
        "re => !new RegExp(re).test([...document.querySelectorAll('.board-area svg text')]"
        ".map(t => t.textContent).join(''))",
        arg=CJK.pattern,
    )
    text = shown(page)
    left = sorted(set(CJK.findall(text)))
    assert not left, f"kanji left in English mode: {left}: {text[:400]}"
    for word in english:
        assert word in text, f"{word!r} is not shown in English mode"
    assert_clean_text(page)
    shot(page, f"english-{name}-{page.viewport_size['width'] if page.viewport_size else 0}")
    toggle(page, "kanji")
    page.wait_for_function(
        "ks => { const t = document.querySelector('.board-area').textContent;"
        " return ks.every(k => t.includes(k)); }",
        arg=sorted(kanji),
    )
    assert kanji <= set(CJK.findall(shown(page)))


def test_gungi_pieces_and_setup_icons(new_page: Any, base_url: str) -> None:
    m = create(base_url, "gungi")
    for width, height in ((1920, 1080), (390, 844)):
        page = new_page(width, height)
        watch = PageWatch(page)
        open_as(page, m, 0)
        check_both_ways(page, {"帥", "兵"}, {"Mar", "Paw"}, "gungi")
        assert not watch.failed, watch.failed
    # The setup page's seat icons (the Marshals) follow the toggle too.
    page = new_page(1280, 900)
    page.goto("/new/gungi")
    page.wait_for_selector(".seats .seat-row .piece-icon")
    assert "帥" in shown(page)
    toggle(page, "english")
    page.wait_for_function("() => !document.querySelector('.seats').textContent.includes('帥')")
    assert "Mar" in shown(page)


def test_gunshi_units_shogun_and_card_backs_also_in_the_replay(
    new_page: Any, base_url: str
) -> None:
    m = create(base_url, "gunshi")
    play_until(base_url, m, lambda v: v["phase"] == "battle" and v.get("turn", 0) >= 1)
    for width, height in ((1920, 1080), (390, 844)):
        page = new_page(width, height)
        open_as(page, m, 0)
        # Units by type, your own Shogun's mark and the backs of the opponent's cards.
        check_both_ways(page, {"歩", "将", "軍"}, {"Inf", "Shogun", "Cmd"}, "gunshi")
    # The formation's buttons: a kanji icon beside each unit type, the words alone in English.
    fresh = create(base_url, "gunshi")
    page = new_page(1280, 900)
    open_as(page, fresh, 0)
    page.wait_for_selector('.gs-choices button[data-kind="place"]')
    check_both_ways(page, {"歩", "弓", "騎"}, {"Place Infantry"}, "gunshi-formation")
    # The replay page redraws with the toggle as well.
    r = API.post(
        f"{base_url}/api/matches/{m['id']}/resign",
        headers={"Authorization": f"Bearer {m['tokens']['1']}"},
    )
    assert r.status_code == 200, r.text
    page = new_page(1280, 900)
    page.goto(f"/replay/{m['id']}")
    page.wait_for_selector(".board-area .board")
    page.keyboard.press("End")
    page.wait_for_selector(".board-area .gunit")
    check_both_ways(page, {"歩", "弓"}, {"Inf", "Arc"}, "gunshi-replay")


def test_gunkimono_troops_on_the_battlefield_hand_and_honor_track(
    new_page: Any, base_url: str
) -> None:
    m = create(base_url, "gunkimono")
    for width, height in ((1920, 1080), (390, 844)):
        page = new_page(width, height)
        open_as(page, m, 0)
        check_both_ways(
            page, {"歩", "侍", "騎", "槍", "弓"}, {"Inf", "Sam", "Cav", "Spr", "Arc"}, "gunkimono"
        )


def test_sashimono_backs_and_the_kagemusha_army(new_page: Any, base_url: str) -> None:
    duel = create(base_url, "sashimono")
    play_until(base_url, duel, lambda v: v.get("turn", 0) >= 1)
    for width, height in ((1920, 1080), (390, 844)):
        page = new_page(width, height)
        open_as(page, duel, 0)
        # The opponent's Hidden Kumi and the backs of its hand.
        check_both_ways(page, {"兵", "指"}, {"Kumi", "Sash."}, "sashimono")
    solo = create(base_url, "sashimono", seats=1, mode="solo")
    play_until(base_url, solo, lambda v: v.get("turn", 0) >= 1)
    page = new_page(1280, 900)
    open_as(page, solo, 0)
    check_both_ways(page, {"影"}, {"Army"}, "sashimono-solo")
