"""The rules panel and the tutorial in the page's language (issue 41 "Languages",
docs/i18n-texts.md): a player who chose Japanese or French reads the coach's words, the
panel's "Now" section and the rules in that language, with the same headings, lists and
tables as the English panel."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from sengoku.server import i18n, texts
from tests.server.test_texts_i18n import blocks


def english_tutorial(game: str) -> dict[str, Any]:
    return dict(json.loads((texts.TUTORIALS_DIR / f"{game}.json").read_text(encoding="utf-8")))


@pytest.mark.parametrize("lang", ["ja", "fr"])
def test_the_tutorial_and_the_rules_panel_in_the_chosen_language(new_page: Any, lang: str) -> None:
    say = texts.translator(lang)
    page: Page = new_page(1280, 900)
    page.goto("/")
    # the player's choice, as the header's language switch keeps it (js/i18n.js)
    page.evaluate("lang => localStorage.setItem('sengoku.lang', lang)", lang)
    page.reload()
    page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)
    page.click('.game-card[data-game="gungi"] button[data-learn="gungi"]')
    page.wait_for_url("**/play/*")
    welcome = english_tutorial("gungi")["steps"][0]
    expect(page.locator("#coach")).to_have_attribute("data-step", welcome["id"])
    coach_text = page.locator("#coach-text")
    expect(coach_text).to_have_text(say(welcome["text"]))
    assert say(welcome["text"]) != welcome["text"]
    expect(page.locator("#coach-title")).to_have_text(say(welcome["title"]))

    # the coach stands over the page's buttons: close it, then open the panel
    page.click("#coach-close")
    expect(page.locator("#coach")).to_have_count(0)
    page.click("#rules-open")
    rules = page.locator('#rules-dialog [data-part="rules"]')
    expect(rules).to_be_visible()
    # "Now": the phase the game is in, its title and lines translated too
    phase = json.loads((texts.PHASES_DIR / "gungi.json").read_text(encoding="utf-8"))
    play = phase["phases"]["play"]
    now = page.locator('#rules-dialog [data-part="now"]')
    expect(now.locator("h2")).to_contain_text(say(play["title"]))
    expect(now.locator("li")).to_have_text([say(line) for line in play["lines"]])
    english = (texts.RULES_DIR / "gungi.md").read_text(encoding="utf-8")
    headings = [ln.lstrip("#").strip() for ln in english.splitlines() if ln.startswith("#")]
    # the panel's headings are the translations, in order (# is h2, ## is h3)
    expect(rules.locator("h2, h3")).to_have_text([say(h) for h in headings])
    shown = rules.inner_text()
    assert "Capturing and stacking" not in shown  # no English heading left
    # the same Markdown structure as the English panel: lists, items and tables
    drawn = blocks(english)
    expect(rules.locator("ul")).to_have_count(sum(b[0] == "list" for b in drawn))
    expect(rules.locator("li")).to_have_count(sum(b[1] for b in drawn if b[0] == "list"))
    expect(rules.locator("table")).to_have_count(sum(b[0] == "table" for b in drawn))
    expect(rules.locator("p")).to_have_count(sum(b[0] == "paragraph" for b in drawn))
    # a table cell and a list item read as translated
    expect(rules.locator("td").first).to_have_text(say("帥 Marshal"))
    item = "Capturing the opposing Marshal wins (`marshal_captured`)."
    assert say(item) != item
    expect(rules.locator("li").first).to_have_text(say(item).replace("`", ""))
    # the Reference: the catalog's piece names and its field names in the language
    reference = page.locator('#rules-dialog [data-part="reference"]')
    words = i18n.translations(lang).gettext
    expect(reference.locator("h3").first).to_have_text(words("Pieces"))
    first = reference.locator('[data-catalog="pieces"] li').first
    expect(first.locator("strong")).to_have_text(f"帥 {say('Marshal')}")
    expect(first).to_contain_text(f"{words('Count')}: 1")
    expect(first).to_contain_text(f"{words('Special')}: {words('no')}")
    assert "Lieutenant General" not in reference.inner_text()


def test_a_table_cell_may_hold_an_escaped_pipe(new_page: Any) -> None:
    """js/markdown.js reads "\\|" as a pipe inside a cell, as the extraction does
    (sengoku/server/texts.py): the Sashimono card language writes `stat='attack'\\|'defence'`."""
    page: Page = new_page(1280, 900)
    page.goto("/")
    cells = page.evaluate(
        """async (md) => {
            const { renderMarkdown } = await import("/js/markdown.js");
            return [...renderMarkdown(md).querySelectorAll("tr")].map(
                (tr) => [...tr.children].map((c) => c.textContent));
        }""",
        "| function | value |\n|---|---|\n| `power(side, stat='attack'\\|'defence')` | power |",
    )
    assert cells == [["function", "value"], ["power(side, stat='attack'|'defence')", "power"]]
