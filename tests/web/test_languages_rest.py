"""Gungi's moves in the page's language (docs/i18n.md): the client words a described move
from its data (``describeMove`` of js/games/gungi.js: the analysis board's and the puzzles'
lists, the chooser, the last move's announcement), the same words as the engine's in English;
an engine's sentence with a reason inside (Gungi's refusals) is translated as a whole by the
client's ``said`` as by the server's."""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import Page

from sengoku import load_game
from sengoku.core.game import SengokuError
from sengoku.server import i18n


def described_moves() -> list[dict[str, Any]]:
    """One described move of each kind Gungi has: a setup placement and Done (advanced), a
    move, a stack, a drop and a capture (an intro game played at random until each shows)."""
    game = load_game("gungi")
    found: dict[str, dict[str, Any]] = {}
    setup = game.new_state(mode="advanced")
    for d in game.describe_actions(setup, setup.legal_actions()):
        found.setdefault(d.kind, d.to_json())
    rng = random.Random(7)
    state = game.new_state(mode="intro")
    for _ in range(400):
        if state.is_terminal() or {"move", "capture", "drop", "stack"} <= found.keys():
            break
        legal = state.legal_actions()
        for d in game.describe_actions(state, legal):
            key = "stack" if d.kind == "move" and d.objects.get("tier", 1) > 1 else d.kind
            found.setdefault(key, d.to_json())
        state.apply(rng.choice(legal))
    assert {"place", "move", "stack", "drop", "capture"} <= found.keys(), found.keys()
    return list(found.values())


def open_in(page: Page, lang: str) -> None:
    page.goto("/")
    page.evaluate("lang => localStorage.setItem('sengoku.lang', lang)", lang)
    page.reload()
    page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)


WORDS = """async (moves) => {
  const { describeMove } = await import("/js/games/gungi.js");
  return moves.map((m) => describeMove(m));
}"""


def test_the_english_words_are_the_engines(new_page: Any) -> None:
    page: Page = new_page(1280, 900)
    open_in(page, "en")
    moves = [m for m in described_moves() if not m.get("betrayal")]
    words = page.evaluate(WORDS, moves)
    for move, said in zip(moves, words, strict=True):
        assert said == {"label": move["label"], "text": move["text"]}, move


@pytest.mark.parametrize("lang", ["fr", "ja"])
def test_the_moves_and_a_refusal_in_the_pages_language(new_page: Any, lang: str) -> None:
    page: Page = new_page(1280, 900)
    open_in(page, lang)
    moves = described_moves()
    words = page.evaluate(WORDS, moves)
    for move, said in zip(moves, words, strict=True):
        assert said["label"] != move["label"] and said["text"] != move["text"], (move, said)
        piece = move.get("piece")
        if piece:  # the piece as the language names it (the catalog's word)
            name = i18n.gettext_(lang, piece.replace("_", " ").title())
            assert name in said["label"] and name in said["text"], (name, said)
    # a refusal with a reason inside it: the client's said() as the server's sentence_()
    game = load_game("gungi")
    state = game.new_state(mode="intro")
    with pytest.raises(SengokuError) as err:
        game.parse_action(state, "7-6-1 砲")
    assert err.value.say is not None
    wire = err.value.say.wire()
    client = page.evaluate(
        """async (say) => (await import("/js/i18n.js")).said(say)""",
        wire,
    )
    assert client == i18n.sentence_(lang, wire) != str(err.value)


def test_the_puzzles_index_names_the_games_in_the_pages_language(new_page: Any) -> None:
    """The games' titles on /puzzles are the client's (its renderers'), not the English of
    ``Game.describe()`` that GET /api/puzzles sends."""
    page: Page = new_page(1280, 900)
    open_in(page, "ja")
    page.goto("/puzzles")
    link = page.locator('#puzzles-index a[data-game="gungi"]')
    link.wait_for()
    assert link.inner_text().startswith(i18n.gettext_("ja", "Gungi")), link.inner_text()
    assert "HUNTER" not in page.locator("#puzzles-index").inner_text()
    assert page.title() == i18n.gettext_("ja", "Puzzles — Sengoku") != "Puzzles — Sengoku"


def test_every_option_of_the_games_has_the_clients_words() -> None:
    """The setup page words each option of the four games itself (js/setup_words.js, in the
    page's language): the server's English ``doc`` is shown only for an option the client
    does not know (a plugin's)."""
    import re
    from pathlib import Path

    import sengoku.web
    from sengoku.core.registry import list_games

    source = (Path(sengoku.web.__file__).parent / "js" / "setup_words.js").read_text("utf-8")
    missing = [
        f"{game}.{option['name']}"
        for game in list_games()
        if game in {"gungi", "gunshi", "gunkimono", "sashimono"}
        for option in load_game(game).describe().get("options", [])
        if not re.search(r"^\s+" + re.escape(option["name"]) + r": \{", source, re.M)
    ]
    assert not missing, f"options without the client's words (js/setup_words.js): {missing}"


@pytest.mark.parametrize("lang", ["en", "ja", "fr"])
def test_the_header_is_two_rows_on_a_phone(new_page: Any, lang: str) -> None:
    """At 390 px the header is the brand and the tools (labels, language, account) on one
    row and the five links on the next, in every language (French's links once took a row
    and a half, pushing the account to a third)."""
    page: Page = new_page(390, 844)
    open_in(page, lang)
    page.wait_for_selector(".topbar-tools .lang-switch")
    rows = page.evaluate(
        """() => {
          const box = (e) => e.getBoundingClientRect();
          const links = [...document.querySelectorAll('.topbar nav a')].map(box);
          const tools = [...document.querySelector('.topbar-tools').children].map(box);
          const brand = box(document.querySelector('.topbar .brand'));
          return { links: links.map((b) => [b.top, b.bottom, b.right]), tools: tools.map((b) => [b.top, b.bottom, b.right]), brand: [brand.top, brand.bottom], width: innerWidth };
        }"""
    )
    link_tops = [top for top, _bottom, _right in rows["links"]]
    assert len(link_tops) == 5 and max(link_tops) - min(link_tops) < 2, rows  # one row
    first_row_bottom = max([b for _t, b, _r in rows["tools"]] + [rows["brand"][1]])
    assert first_row_bottom <= min(link_tops), rows  # the tools and the brand above them
    assert max(r for *_rest, r in rows["links"] + rows["tools"]) <= rows["width"], rows


def test_long_french_card_names_break_with_a_hyphen() -> None:
    """A Gunshi card's face is narrow on a phone and Chromium has no French hyphenation
    dictionary offline (``hyphens: auto`` does nothing there): the French names mark where
    their long words break (U+00AD, shown as a hyphen only at a break). Inside a sentence a
    name is a plain word (``i18n.game_words``)."""
    from sengoku.server import texts

    table = texts.translations("fr")
    for card in load_game("gunshi").catalog()["cards"]:
        french = table.get(card["name"], card["name"])
        for word in french.split():
            if len(word.replace(i18n.SOFT_HYPHEN, "")) >= 10:
                assert i18n.SOFT_HYPHEN in word, (card["name"], french)
        if i18n.SOFT_HYPHEN in french:
            assert i18n.game_words("fr")[card["name"]] == french.replace(i18n.SOFT_HYPHEN, "")
