"""The client in Japanese and French (docs/i18n.md, issue 41 "Languages"): whole games played
by clicks in each language show no English sentence of the catalog; the header's switch
changes the page's language and keeps it; the client's plural forms follow the language's
rule (French counts 0 as singular, Japanese has one form)."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file
from playwright.sync_api import Page, expect

from sengoku import load_game
from sengoku.core.registry import list_games
from sengoku.server import i18n, texts
from tests.web.helpers import PageWatch, assert_clean_text, said, shot
from tests.web.test_gungi_full_games import play_to_the_end as play_gungi
from tests.web.test_gunkimono_web import play_whole_game as play_gunkimono
from tests.web.test_gunshi_web import play_to_the_end as play_gunshi
from tests.web.test_sashimono_web import click_and_wait, hand_in_view_on_a_phone
from tests.web.test_sashimono_web import new_game as new_sashimono
from tests.web.test_sashimono_web import play_to_the_end as play_sashimono
from tests.web.test_tutorial import follow_by_clicks, open_from_home

#: English phrases of the catalog that may show in another language for a reason: none yet.
ALLOWED: set[str] = set()
ROOT = Path(__file__).resolve().parents[2]


@cache
def engine_text(lang: str) -> str:
    """The words the game engines send themselves in ``lang`` (action labels and
    descriptions, log sentences: English only for now, docs/i18n.md "Not translated yet"),
    so a catalog phrase they also use may show in English through them. The words of the
    games' catalogs (card texts, names) come translated (GET /api/games/<game>, the texts
    domain): those the language has are no longer left out."""
    files = "\n".join(
        p.read_text(encoding="utf-8", errors="ignore")
        for p in sorted((ROOT / "sengoku" / "games").rglob("*"))
        if p.suffix in {".py", ".toml", ".json"} and p.is_file()
    )
    say = texts.translator(lang)
    # a card's text in the data files (cards.json, cards/*.toml) reaches the page translated;
    # a short name ("Move") is left in, as an engine's sentence may use it
    sent = {u for game in list_games() for u in texts.catalog_units(game)}
    for unit in sorted(sent, key=len, reverse=True):
        if len(unit.split()) >= 3 and say(unit) != unit:
            files = files.replace(unit, "")
    # and what GET /api/games/<name> sends, in the language; the short English names too
    # (Gungi's "Major General"), which the engines' move labels still use (docs/i18n.md)
    served = [
        json.dumps(
            [
                load_game(name).describe(),
                texts.translate_catalog(name, load_game(name).catalog(), lang),
                [u for u in texts.catalog_units(name) if len(u.split()) < 3],
            ],
            ensure_ascii=False,
        )
        for name in list_games()
    ]
    return "\n".join([files, *served])


@cache
def english_phrases(lang: str) -> tuple[str, ...]:
    """The English of every catalog message, cut at its {places} into phrases of two words
    or more, less those the language's own translations contain (a name kept as it is)."""
    translated = " ".join(
        " ".join(m.string) if isinstance(m.string, tuple) else m.string
        for m in i18n.catalog(lang)
        if m.id
    )
    phrases = set()
    for message in i18n.catalog("en"):
        for msgid in message.id if isinstance(message.id, tuple) else (message.id,):
            for part in re.split(r"\{\w+\}|%\(\w+\)s", msgid or ""):
                part = part.strip(" .,:;!?—·()“”\"'")
                if len(re.findall(r"[A-Za-z]{2,}", part)) >= 2 and len(part) >= 10:
                    phrases.add(part)
    shared = engine_text(lang)
    return tuple(
        sorted(p for p in phrases if p not in translated and p not in ALLOWED and p not in shared)
    )


def assert_no_english(page: Page, lang: str, where: str) -> None:
    """No English phrase of the catalog is visible on the page."""
    text = page.evaluate("() => document.body.innerText")
    found = [p for p in english_phrases(lang) if p in text]
    assert not found, f"{lang}, {where}: English shows: {found}"


@cache
def engine_sentences(game: str, lang: str) -> tuple[str, ...]:
    """The English of a game engine's sentences (its ``say`` templates and ``N_`` words,
    docs/i18n.md "The engines' sentences"), cut at their {places} into phrases of two words
    or more, less those the language's translation of the sentence keeps (a name)."""
    from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir

    keywords = {**DEFAULT_KEYWORDS, "say": None}
    folder = ROOT / "sengoku" / "games" / game
    phrases = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
        str(folder), keywords=keywords
    ):
        if not isinstance(message, str):
            continue
        translation = i18n.gettext_(lang, message)
        for part in re.split(r"\{\w+\}", message):
            part = part.strip(" .,:;!?()'")
            if len(re.findall(r"[A-Za-z]{2,}", part)) >= 2 and part not in translation:
                phrases.add(part)
    return tuple(sorted(phrases))


def assert_log_in_language(page: Page, game: str, lang: str) -> int:
    """The game log's lines and headings (the engine's sentences, ``said(ev.say)``) show no
    English phrase of the game's sentences; returns how many lines the log has."""
    lines = page.locator(".log-entry").all_text_contents()
    text = "\n".join(page.locator(".log-heading").all_text_contents() + lines)
    found = [p for p in engine_sentences(game, lang) if p in text]
    assert not found, f"{lang}, the {game} log shows English: {found}"
    return len(lines)


def in_language(page: Page, lang: str) -> None:
    """The player's choice of ``lang``, as the header's switch keeps it."""
    page.goto("/")
    page.evaluate("l => localStorage.setItem('sengoku.lang', l)", lang)


def test_the_phrases_checked_are_the_catalogs() -> None:
    phrases = english_phrases("fr")
    assert "Start the game" in phrases and "your opponent has moved" in phrases
    assert "Gungi board" in phrases  # "Plateau de Gungi": the translation differs
    assert len(phrases) > 400


@pytest.mark.parametrize("lang", ["ja", "fr"])
def test_a_whole_gungi_game_in_the_language(new_page: Any, lang: str) -> None:
    page: Page = new_page(1920, 1080)
    in_language(page, lang)
    # play_gungi checks the setup prompt and the end panel in the language's words, and
    # calls the check every few moves and at the end.
    played = play_gungi(
        page,
        "advanced",
        1920,
        1080,
        lang=lang,
        check=lambda p: assert_no_english(
            p, lang, f"gungi, ply {p.locator('#status').get_attribute('data-ply')}"
        ),
    )
    assert len(played) >= 7
    expect(page.locator("html")).to_have_attribute("lang", lang)
    shot(page, f"gungi-{lang}-end-390")


def test_a_sashimono_duel_on_a_phone_in_french(new_page: Any) -> None:
    """At 390x844 in French, every position: the hand in the window (below a long list of
    choices too), and an empty part of it says so in French."""
    page: Page = new_page(390, 844)
    in_language(page, "fr")
    new_sashimono(page, "duel", vp=1)
    empties: list[str] = []

    def each(p: Page) -> None:
        hand_in_view_on_a_phone(p)
        empties.extend(p.locator(".s-hands .s-none").all_inner_texts())

    play_sashimono(page, "sashimono-duel-fr-phone", seed=2, each=each)
    assert empties, "no position showed an empty part of the hand"
    assert set(empties) == {i18n.gettext_("fr", "none")}, empties
    assert_no_english(page, "fr", "sashimono on a phone, the end panel")


@pytest.mark.parametrize("lang", ["ja", "fr"])
def test_a_whole_sashimono_duel_in_the_language(new_page: Any, lang: str) -> None:
    page: Page = new_page(1920, 1080)
    watch = PageWatch(page)
    in_language(page, lang)
    new_sashimono(page, "duel", vp=1)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    assert_no_english(page, lang, "sashimono, the first position")
    # the choices in the page's words, not the engine's English labels
    # the setup's two looked-at Sashimono go back, then the turn's choice: in the page's
    # words (sashimono.js choiceWords), not the engine's English labels
    interactive = '.board-area[data-interactive="true"]'
    for _ in range(2):
        page.wait_for_selector(f"{interactive} .s-hand-group.looking [data-target]")
        click_and_wait(page, ".s-hand-group.looking [data-target]")
    expect(page.locator(f'{interactive} button.s-choice[data-kind="turn"]')).to_have_text(
        [i18n.gettext_(lang, "Action turn"), i18n.gettext_(lang, "Scoring turn")]
    )
    counts = play_sashimono(page, f"sashimono-duel-{lang}", seed=16)
    assert counts["click"] > 0
    assert_no_english(page, lang, "sashimono, the end panel")
    panel = page.locator(".end-panel")
    expect(panel).to_be_visible()
    headline = panel.locator("h2").inner_text()
    assert headline in {
        i18n.gettext_(lang, "You win!"),
        i18n.gettext_(lang, "You lose"),
    }, headline
    assert_clean_text(page)
    assert not watch.failed, watch.failed
    page.click("#end-close")
    assert_no_english(page, lang, "sashimono, the final board")
    assert assert_log_in_language(page, "sashimono", lang) > 20  # a whole game's log
    shot(page, f"sashimono-duel-{lang}-final-board-1920")


@pytest.mark.parametrize("lang", ["ja", "fr"])
def test_a_whole_gunshi_game_in_the_language(new_page: Any, lang: str) -> None:
    page: Page = new_page(1920, 1080)
    in_language(page, lang)

    # play_gunshi reads the battle's turn and checks the end panel in the language's words.
    def check(p: Page) -> None:
        assert_no_english(p, lang, "gunshi")
        assert_log_in_language(p, "gunshi", lang)

    kinds = play_gunshi(page, {}, f"gunshi-{lang}", (390, 844), check=check)
    assert kinds.get("send")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    # the log's lines are the engine's sentences in the language (their words too)
    assert assert_log_in_language(page, "gunshi", lang) > 20
    # and their headings: "Tour 3 — Rouge"
    log = "\n".join(page.locator(".log-heading, .log-entry").all_text_contents())
    assert i18n.word_(lang, "Red") in log and i18n.word_(lang, "Blue") in log, log[:400]
    assert "Red" not in log and "Blue" not in log, log[:400]


@pytest.mark.parametrize("lang", ["ja", "fr"])
def test_gunshis_choices_are_in_the_language(new_page: Any, lang: str) -> None:
    """The formation's choices are worded by the page (gunshi.js choiceWords) from each
    choice's kind and data, not the engine's English labels."""
    page: Page = new_page(1920, 1080)
    in_language(page, lang)
    page.goto("/new/gunshi")
    page.click('[data-option-preset="standard"]')
    page.click('.presets button[data-preset="ai"]')
    page.click("#start")
    page.wait_for_url("**/play/*")
    places = page.locator('.board-area button.action[data-kind="place"]')
    say = i18n.translations(lang).gettext
    unit = {"I": "Infantry unit", "A": "Archer unit", "C": "Cavalry unit", "F": "Fence"}
    expect(places.first).to_be_visible()
    for button in places.all():
        piece = button.get_attribute("data-piece") or ""
        # (after the piece icon)
        expect(button).to_contain_text(say("Place {piece}").replace("{piece}", say(unit[piece])))


@cache
def gunkimono_english(lang: str) -> tuple[str, ...]:
    """The English phrases of Gunkimono's own catalog messages (the engine's sentences and
    words, the client's labels: what ``make i18n`` extracts from its files), which
    ``english_phrases`` leaves out as the engine's text: none may show in ``lang``."""
    keywords = {**DEFAULT_KEYWORDS, "say": None}
    found: list[str] = []
    for path in sorted((ROOT / "sengoku" / "games" / "gunkimono").glob("*.py")):
        found += [m for _n, m, _c, _x in extract_from_file("python", path, keywords=keywords)]
    client = ROOT / "sengoku" / "web" / "js" / "games" / "gunkimono.js"
    options = {"parse_template_string": "true"}
    found += [m for _n, m, _c, _x in extract_from_file("javascript", client, options=options)]
    translated = " ".join(
        " ".join(m.string) if isinstance(m.string, tuple) else m.string
        for m in i18n.catalog(lang)
        if m.id
    )
    phrases = set()
    for message in found:
        for msgid in message if isinstance(message, tuple) else (message,):
            for part in re.split(r"\{\w+\}", msgid or ""):
                part = part.strip(" .,:;!?—·()“”\"'+-/")
                if (
                    len(re.findall(r"[A-Za-z]{2,}", part)) >= 2
                    and len(part) >= 10
                    and part not in translated
                ):
                    phrases.add(part)
    return tuple(sorted(phrases))


def assert_gunkimono_in_the_language(page: Page, lang: str, where: str) -> None:
    """No English sentence of the engine (the announcement of the others' moves, the move
    list's placements) nor label of the client shows: the page's text, its choices' titles."""
    text = page.evaluate(
        """() => [document.body.innerText, document.getElementById('announce')?.textContent || '',
            ...[...document.querySelectorAll('.kimono-decide button.choice')].map((b) => b.title)]
            .join('\\n')"""
    )
    found = [p for p in gunkimono_english(lang) if p in text]
    assert not found, f"{lang}, {where}: English shows: {found}"
    moves = page.locator("#moves .notation").all_inner_texts()
    assert not [m for m in moves if re.search(r" on [a-j]\d+ and ", m)], moves


@pytest.mark.parametrize("lang", ["ja", "fr"])
def test_a_whole_gunkimono_game_in_the_language(new_page: Any, lang: str) -> None:
    page: Page = new_page(1920, 1080)
    in_language(page, lang)
    assert "Victory points" in " ".join(gunkimono_english(lang))  # the labels are checked
    assert "draws from the stack" in gunkimono_english(lang)  # and the sentences
    choices: list[str] = []

    def check(p: Page) -> None:
        assert_no_english(p, lang, "gunkimono")
        assert_gunkimono_in_the_language(p, lang, "gunkimono")

    def check_choices(p: Page) -> None:
        # The scoring choices and the draw, worded from their data in the language.
        assert_gunkimono_in_the_language(p, lang, "gunkimono's choices")
        labels = p.locator(".kimono-decide button.choice").all_inner_texts()
        choices.extend(labels)
        assert not [c for c in labels if re.search(r"Victory points|Honor \+|Draw from", c)], labels

    # play_gunkimono checks the placement prompts and the end panel in the language's words.
    seen = play_gunkimono(page, 2, check=check, lang=lang, check_choices=check_choices)
    assert seen.get("place_tile")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    # Both scorings were offered, in the language's words ("Points de victoire +1 : ...").
    vp = i18n.gettext_(lang, "Victory points +{points}: {troop} formation of {points}")
    honor = i18n.gettext_(lang, "Honor +{points}: {troop} marker to row {row}")
    assert [c for c in choices if c.startswith(vp.split("{")[0].strip())], choices
    assert [c for c in choices if c.startswith(honor.split("{")[0].strip())], choices
    # The move list words the placements in the language ("Samouraï en a1 et ...").
    halves = i18n.gettext_(lang, "{first} on {a} and {second} on {b}")
    pattern = re.escape(halves).replace(r"\{first\}", ".+").replace(r"\{second\}", ".+")
    pattern = pattern.replace(r"\{a\}", r"[a-j]\d+").replace(r"\{b\}", r"[a-j]\d+")
    moves = page.locator("#moves .notation").all_inner_texts()
    assert [m for m in moves if re.fullmatch(pattern, m, flags=re.IGNORECASE)], (pattern, moves)


@pytest.mark.parametrize("lang", ["ja", "fr"])
def test_the_gungi_tutorial_and_the_rules_phase_in_the_language(new_page: Any, lang: str) -> None:
    page: Page = new_page(1280, 900)
    in_language(page, lang)
    open_from_home(page, "gungi")
    # The tutorials are the "texts" domain's, translated by the server (docs/i18n-texts.md).
    expect(page.locator("#coach-title")).to_have_text(texts.translator(lang)("Welcome to Gungi"))
    assert_no_english(page, lang, "the tutorial's first step")
    follow_by_clicks(page, "gungi")
    expect(page.locator("#coach-title")).to_have_text(
        texts.translator(lang)("That was your first turn")
    )
    assert_no_english(page, lang, "the tutorial's last step")
    # The Rules panel's phase ("Now: ...") in the language.
    page.click("#coach-rules")
    now = page.locator('#rules-dialog [data-part="now"]')
    expect(now.locator("h2")).to_have_text(said(page, "Now: {title}", whole=True))
    expect(now.locator("h2")).not_to_contain_text("Now")
    assert not [p for p in english_phrases(lang) if p in now.inner_text()], now.inner_text()


def test_the_header_switch_changes_the_language_and_keeps_it(new_page: Any) -> None:
    page: Page = new_page(1280, 900)
    page.goto("/")
    hero = page.locator(".hero h1")
    expect(hero).to_have_text("Four games of the warring states")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator('.lang-switch button[data-lang="en"]')).to_have_attribute(
        "aria-pressed", "true"
    )
    page.click('.lang-switch button[data-lang="fr"]')
    expect(hero).to_have_text("Quatre jeux des provinces en guerre")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator(".topbar nav")).to_contain_text("Jouer")
    assert_no_english(page, "fr", "the home page")
    # Kept: in this browser, and in the cookie that the server's messages follow.
    assert page.evaluate("() => localStorage.getItem('sengoku.lang')") == "fr"
    cookies = {c["name"]: c["value"] for c in page.context.cookies()}
    assert cookies.get("sengoku_lang") == "fr"
    answer = page.evaluate(
        "() => fetch('/api/matches/bad!id').then(async r => [r.status, await r.json()])"
    )
    assert answer[0] == 404, answer
    assert answer[1]["error"]["message"] == i18n.gettext_(
        "fr", "match ids are 1-32 letters, digits, - or _"
    )
    page.goto("/new/gungi")
    expect(page.locator("#start")).to_have_text("Commencer la partie")
    page.click('.lang-switch button[data-lang="ja"]')
    expect(page.locator("#start")).to_have_text("対局開始")
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    assert_no_english(page, "ja", "the new game page")
    page.click('.lang-switch button[data-lang="en"]')
    expect(page.locator("#start")).to_have_text("Start the game")


def test_the_language_comes_from_the_browser_when_none_is_chosen(
    browser: Any, base_url: str
) -> None:
    context = browser.new_context(base_url=base_url, locale="fr-FR")
    try:
        page = context.new_page()
        page.goto("/")
        expect(page.locator(".hero h1")).to_have_text("Quatre jeux des provinces en guerre")
        expect(page.locator("html")).to_have_attribute("lang", "fr")
    finally:
        context.close()


# The client's plural forms (i18n.js): the catalog's forms, picked by the browser's CLDR
# rule (Intl.PluralRules) through the server's table. French: 0 and 1 are singular.
PLURALS = """async ([lang, counts]) => {
  const m = await import('/js/i18n.js');
  await m.loadLanguage(lang);
  return counts.map((n) => m.fmt(m.ngettext('{n} day per move', '{n} days per move', n), { n }));
}"""


def test_the_client_plural_forms_follow_the_language(new_page: Any) -> None:
    page: Page = new_page(1280, 900)
    page.goto("/")
    counts = [0, 1, 2, 7, 1000000]
    assert page.evaluate(PLURALS, ["fr", counts]) == [
        "0 jour par coup",
        "1 jour par coup",
        "2 jours par coup",
        "7 jours par coup",
        "1000000 jours par coup",
    ]
    assert page.evaluate(PLURALS, ["en", counts]) == [
        "0 days per move",
        "1 day per move",
        "2 days per move",
        "7 days per move",
        "1000000 days per move",
    ]
    assert page.evaluate(PLURALS, ["ja", counts]) == [f"1手 {n} 日" for n in counts]
