"""The long texts in every language (issue 41 "Languages", docs/i18n-texts.md):
every heading, paragraph, list item and table cell of the rules panels and every visible
string of the tutorials has a Japanese and a French translation in the ``texts`` catalogs;
a translated document keeps the English one's Markdown structure; GET /api/rules/<game> and
GET /api/tutorials/<game> answer in the language of ``?lang=``, the cookie or
Accept-Language, English otherwise."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient

from sengoku.core.registry import list_games, load_game
from sengoku.server import texts

ROOT = Path(__file__).resolve().parents[2]
RULES = sorted(p.name for p in texts.RULES_DIR.glob("*.md"))
TUTORIALS = sorted(p.name for p in texts.TUTORIALS_DIR.glob("*.json") if p.stem != "index")
PHASES = sorted(p.name for p in texts.PHASES_DIR.glob("*.json"))
DOCUMENTS = (
    [f"rules/{n}" for n in RULES]
    + [f"tutorials/{n}" for n in TUTORIALS]
    + [f"phases/{n}" for n in PHASES]
)
LANGS = ("ja", "fr")
#: The games whose catalog's words (GET /api/games/<game>) are in the texts domain.
CATALOGS = sorted(g for g in list_games() if load_game(g).game_type.catalog_words)
CODE = re.compile(r"`[^`]*`")
#: A table's cell separator ("\\|" is a pipe inside a cell).
CELL = re.compile(r"(?<!\\)\|")


def units(name: str) -> list[str]:
    """The units of a shipped document (``rules/gungi.md``, ``tutorials/gungi.json``,
    ``phases/gungi.json``) as the extraction methods cut it."""
    path = texts.WEB_DIR / name
    if path.suffix == ".md":
        return [u.text for u in texts.markdown_units(path.read_text())]
    keys = texts.PHASE_KEYS if path.parent == texts.PHASES_DIR else texts.TUTORIAL_KEYS
    return texts.json_units(json.loads(path.read_text()), keys)


def extracted() -> set[str]:
    """What ``pybabel extract -F babel-texts.cfg`` finds (the Makefile's ``make i18n-texts``)."""
    with (ROOT / "babel-texts.cfg").open() as f:
        method_map, options_map = parse_mapping_cfg(f)  # type: ignore[no-untyped-call]
    found = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
        str(ROOT), method_map, options_map
    ):
        assert isinstance(message, str)
        found.add(message)
    return found


def test_the_extraction_cuts_markdown_as_the_client_draws_it() -> None:
    source = "\n".join(
        [
            "# Title `x`",
            "",
            "A paragraph over",
            "3. lines, wrapped.",
            "* an item",
            "  going on",
            "- another",
            "1. **Place** a tile",
            "   from the hand",
            "2. Score",
            "",
            "| piece | moves |",
            "|---|---|",
            "| 帥 Marshal | `7-6-1` |",
            "| `a\\|b` | a or b |",
            "```",
            "code stays",
            "```",
        ]
    )
    assert [(u.text, u.lineno) for u in texts.markdown_units(source)] == [
        ("Title `x`", 1),
        ("A paragraph over 3. lines, wrapped.", 3),
        ("an item going on", 5),
        ("another", 7),
        ("**Place** a tile from the hand", 8),
        ("Score", 10),
        ("piece", 12),
        ("moves", 12),
        ("帥 Marshal", 14),
        ("a or b", 15),
    ]
    rendered = texts.render_markdown(source, lambda s: f"<{s}>")
    assert rendered.split("\n") == [
        "# <Title `x`>",
        "",
        "<A paragraph over 3. lines, wrapped.>",
        "* <an item going on>",
        "- <another>",
        "1. <**Place** a tile from the hand>",
        "2. <Score>",
        "",
        "| <piece> | <moves> |",
        "|---|---|",
        "| <帥 Marshal> | `7-6-1` |",
        "| `a\\|b` | <a or b> |",
        "```",
        "code stays",
        "```",
    ]


def test_the_pot_and_the_catalogs_are_the_documents_units() -> None:
    """texts.pot holds what the extraction finds now (run `make i18n-texts` after editing a
    rules document or a tutorial), and the catalogs hold nothing else."""
    found = extracted()
    wanted = {u for name in DOCUMENTS for u in units(name)}
    wanted |= {u for game in CATALOGS for u in texts.catalog_units(game)}
    assert found == wanted
    assert "Logistical Review" in found and "Lieutenant General" in found  # catalogs' words
    # Sashimono's card names are the rulebook's Japanese terms: never a message
    assert "Tokugawa Ieyasu" not in found
    assert "Capturing and stacking (tsuke)" in found  # a heading of gungi.md
    assert "Your first move in Gungi" in found  # a tutorial's title
    assert "Play: move or drop" in found  # a phase's title (the panel's "Now" section)
    with (texts.po_path("ja").parent.parent.parent / "texts.pot").open("rb") as f:
        pot = {m.id for m in read_po(f) if m.id}
    assert pot == found, f"run `make i18n-texts`: {sorted(pot ^ found)[:5]}"
    for lang in LANGS:
        held = {m.id for m in texts.catalog(lang) if m.id}
        assert held == found, f"{lang}: run `make i18n-texts`: {sorted(held ^ found)[:5]}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", DOCUMENTS)
def test_every_unit_is_translated(name: str, lang: str) -> None:
    catalog = texts.catalog(lang)
    problems: list[str] = []
    for unit in units(name):
        entry = catalog.get(unit)
        if entry is None:
            problems.append(f"missing (run `make i18n-texts`): {unit[:70]!r}")
        elif entry.fuzzy:
            problems.append(f"fuzzy: {unit[:70]!r}")
        elif not isinstance(entry.string, str) or not entry.string.strip():
            problems.append(f"untranslated: {unit[:70]!r}")
    assert not problems, f"{lang} {name}: {len(problems)} problems:\n" + "\n".join(problems)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", CATALOGS)
def test_every_catalog_word_is_translated(game: str, lang: str) -> None:
    """Each card text, action, ongoing ability, piece, unit and troop name of the game's
    catalog has a translation that is not fuzzy."""
    catalog = texts.catalog(lang)
    found = texts.catalog_units(game)
    assert found, game
    problems = []
    for unit in found:
        entry = catalog.get(unit)
        if entry is None or entry.fuzzy or not isinstance(entry.string, str):
            problems.append(f"missing or fuzzy (run `make i18n-texts`): {unit[:70]!r}")
        elif not entry.string.strip():
            problems.append(f"untranslated: {unit[:70]!r}")
    assert not problems, f"{lang} {game}: {len(problems)} problems:\n" + "\n".join(problems)


@pytest.mark.parametrize("lang", LANGS)
def test_translations_keep_the_code_and_the_markdown(lang: str) -> None:
    """Code spans (option names, notation, commands) are the same in every language, and a
    translation is one line that starts no Markdown block of its own."""
    problems = []
    cells = {
        c.strip()
        for name in RULES
        for line in (texts.RULES_DIR / name).read_text().splitlines()
        if line.startswith("|")
        for c in CELL.split(line)
    }
    for m in texts.catalog(lang):
        if not m.id or not isinstance(m.string, str) or not m.string:
            continue
        assert isinstance(m.id, str)
        if sorted(CODE.findall(m.id)) != sorted(CODE.findall(m.string)):
            problems.append(f"code spans differ: {m.id[:60]!r} -> {m.string[:60]!r}")
        if "\n" in m.string or re.match(r"\s*([-*] |\d+\. |#|\||```)", m.string):
            problems.append(f"starts a Markdown block or breaks the line: {m.string[:60]!r}")
        if m.id in cells and "|" in CODE.sub("", m.string):
            problems.append(f"a table cell with a '|': {m.string[:60]!r}")
    assert not problems, "\n".join(problems)


def blocks(markdown: str) -> list[tuple[Any, ...]]:
    """The blocks sengoku/web/js/markdown.js draws from ``markdown``: headings, lists (with
    their item count), tables (with each row's cell count) and paragraphs, in order."""
    lines = markdown.split("\n")
    out: list[tuple[Any, ...]] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if re.match(r"^(#{1,4}) (.*)$", line):
            out.append(("heading", len(line) - len(line.lstrip("#"))))
            i += 1
        elif re.match(r"^\s*[-*] ", line):
            items = 0
            while i < len(lines) and re.match(r"^\s*([-*] |\s{2,}\S)", lines[i]):
                items += bool(re.match(r"^\s*[-*] ", lines[i]))
                i += 1
            out.append(("list", items))
        elif line.startswith("|"):
            rows = []
            while i < len(lines) and lines[i].startswith("|"):
                if not re.match(r"^\|[\s:|-]+\|$", lines[i]):
                    rows.append(len(CELL.split(lines[i])) - 2)
                i += 1
            out.append(("table", tuple(rows)))
        elif not line.strip() or line.startswith("```"):
            i += 1
        else:
            while (
                i < len(lines) and lines[i].strip() and not re.match(r"^(#|\||\s*[-*] )", lines[i])
            ):
                i += 1
            out.append(("paragraph",))
    return out


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", RULES)
def test_a_translated_rules_document_keeps_the_structure(name: str, lang: str) -> None:
    english = (texts.RULES_DIR / name).read_text()
    translated = texts.rules(name.removesuffix(".md"), lang)
    assert translated is not None and translated != english
    assert blocks(translated) == blocks(english)
    assert sum(b[0] == "heading" for b in blocks(english)) > 3


@pytest.fixture
def one_catalog(monkeypatch: pytest.MonkeyPatch) -> Iterator[Catalog]:
    """``ja``'s texts catalog replaced by a small one the test fills."""
    small = Catalog(locale="ja", domain="texts")
    texts.translations.cache_clear()
    texts._rules.cache_clear()
    monkeypatch.setattr(texts, "catalog", lambda lang: small)
    yield small
    texts.translations.cache_clear()
    texts._rules.cache_clear()


def test_untranslated_and_fuzzy_units_stay_english(one_catalog: Catalog) -> None:
    one_catalog.add("The board and the sides", "盤と両陣営")
    one_catalog.add("Pieces and reach", "駒と利き", flags=["fuzzy"])
    doc = texts.rules("gungi", "ja")
    assert doc is not None
    assert "## 盤と両陣営" in doc.splitlines()
    assert "## Pieces and reach" in doc.splitlines()  # fuzzy: not shown
    assert "## Capturing and stacking (tsuke)" in doc.splitlines()  # untranslated


def check(r: Any, status: int = 200) -> Any:
    assert r.status_code == status, r.text
    return r.json()


def first_heading(lang: str, game: str = "gungi") -> str:
    english = next(u for u in units(f"rules/{game}.md"))
    return texts.translator(lang)(english)


def test_the_rules_route_answers_in_the_asked_language(
    make_client: Callable[..., TestClient],
) -> None:
    english = (texts.RULES_DIR / "gungi.md").read_text()
    assert first_heading("ja") != first_heading("fr") != first_heading("en")
    with make_client() as client:
        body = check(client.get("/api/rules/gungi"))
        assert body["lang"] == "en" and body["markdown"] == english
        r = client.get("/api/rules/gungi?lang=ja")
        assert check(r)["markdown"].startswith("# " + first_heading("ja"))
        assert r.headers["content-language"] == "ja"
        assert "Accept-Language" in r.headers["vary"]
        # Accept-Language: the first language we speak, by its language part
        r = client.get("/api/rules/gungi", headers={"Accept-Language": "de, fr-CA;q=0.8, ja;q=0.5"})
        assert check(r)["lang"] == "fr"
        assert r.json()["markdown"].startswith("# " + first_heading("fr"))
        r = client.get("/api/rules/gungi", headers={"Accept-Language": "de, es"})
        assert check(r)["markdown"] == english
        # the cookie (the header switch's) wins over Accept-Language, ?lang= over both
        client.cookies.set("sengoku_lang", "ja")
        r = client.get("/api/rules/gungi", headers={"Accept-Language": "fr"})
        assert check(r)["lang"] == "ja"
        r = client.get("/api/rules/gungi?lang=en", headers={"Accept-Language": "fr"})
        assert check(r)["markdown"] == english
        client.cookies.set("sengoku_lang", "xx")
        r = client.get("/api/rules/gungi")
        assert check(r)["lang"] == "en"
        # bad input: a clear error naming the field
        body = check(client.get("/api/rules/gungi?lang=de"), 400)
        assert body["error"]["code"] == "unknown_language" and "lang" in body["error"]["message"]
        assert check(client.get("/api/rules/chess?lang=ja"), 404)["error"] == {
            "code": "no_rules",
            "message": "このサーバーには 'chess' のルール文書がありません",
        }
        # a bad ?lang= is answered in the cookie's language
        client.cookies.set("sengoku_lang", "fr")
        body = check(client.get("/api/rules/gungi?lang=de"), 400)
        assert body["error"]["message"] == "lang : langue inconnue 'de' ; une parmi en, ja, fr"
        client.cookies.clear()
        # the card language document has a name with a hyphen
        cards = check(client.get("/api/rules/sashimono-cards?lang=fr"))["markdown"]
        assert cards.startswith("# " + first_heading("fr", "sashimono-cards"))


def test_the_tutorial_route_translates_only_the_coachs_words(
    make_client: Callable[..., TestClient],
) -> None:
    english = json.loads((texts.TUTORIALS_DIR / "gunshi.json").read_text())
    with make_client() as client:
        assert check(client.get("/api/tutorials/gunshi")) == {**english, "lang": "en"}
        for lang in LANGS:
            r = client.get("/api/tutorials/gunshi", headers={"Accept-Language": lang})
            body = check(r)
            assert body["lang"] == lang
            say = texts.translator(lang)
            assert body["title"] == say(english["title"]) != english["title"]
            assert body["waitText"] == say(english["waitText"]) != english["waitText"]
            for step, source in zip(body["steps"], english["steps"], strict=True):
                assert step["title"] == say(source["title"]) != source["title"]
                assert step["text"] == say(source["text"]) != source["text"]
                # what the client acts on is the same in every language
                assert {k: v for k, v in step.items() if k not in texts.TUTORIAL_KEYS} == {
                    k: v for k, v in source.items() if k not in texts.TUTORIAL_KEYS
                }
            assert body["options"] == english["options"] and body["seats"] == english["seats"]
        assert check(client.get("/api/tutorials/index"), 404)["error"]["code"] == "no_tutorial"
        assert check(client.get("/api/tutorials/gunshi?lang=xx"), 400)["error"]["code"] == (
            "unknown_language"
        )


def test_the_phase_reference_route_translates_titles_and_lines(
    make_client: Callable[..., TestClient],
) -> None:
    """The rules panel's "Now" section: each phase's title and lines in the language; the
    keys the client looks phases up by stay as they are."""
    english = json.loads((texts.PHASES_DIR / "sashimono.json").read_text())
    with make_client() as client:
        assert check(client.get("/api/phases/sashimono")) == {**english, "lang": "en"}
        for lang in LANGS:
            say = texts.translator(lang)
            client.cookies.set("sengoku_lang", lang)
            body = check(client.get("/api/phases/sashimono"))
            assert body["lang"] == lang and body["key"] == english["key"]
            assert set(body["phases"]) == set(english["phases"])
            for name, phase in english["phases"].items():
                got = body["phases"][name]
                # (a title may read the same: "Sashimono" in French)
                assert got["title"] == say(phase["title"])
                assert got["lines"] == [say(line) for line in phase["lines"]]
                assert all(a != b for a, b in zip(got["lines"], phase["lines"], strict=True))
        assert check(client.get("/api/phases/chess"), 404)["error"]["code"] == "no_phases"


def test_the_game_route_sends_its_catalog_in_the_language(
    make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    """GET /api/games/<game>: the catalog's words in the language of ?lang=, the cookie or
    Accept-Language; ids, codes, counts and the Japanese card names as they are; a word
    with no translation stays English."""
    from sengoku import load_game

    english = load_game("gunshi").catalog()
    move = next(c for c in english["cards"] if c["id"] == "M")
    with make_client() as client:
        body = check(client.get("/api/games/gunshi"))
        assert body["catalog"] == english
        for lang in LANGS:
            say = texts.translator(lang)
            r = client.get(f"/api/games/gunshi?lang={lang}")
            got = check(r)["catalog"]
            assert r.headers["content-language"] == lang and "Cookie" in r.headers["vary"]
            card = next(c for c in got["cards"] if c["id"] == "M")
            assert card["name"] == say("Move") != "Move"
            assert card["text"] == say(move["text"]) != move["text"]
            assert {k: v for k, v in card.items() if k not in ("name", "text")} == {
                k: v for k, v in move.items() if k not in ("name", "text")
            }
            assert [u["letters"] for u in got["units"]] == [u["letters"] for u in english["units"]]
        # Sashimono: the card texts translated, the names (Japanese terms) kept
        r = client.get("/api/games/sashimono", headers={"Accept-Language": "fr-CA, en;q=0.5"})
        cards = check(r)["catalog"]["cards"]
        source = load_game("sashimono").catalog()["cards"]
        assert [c["name"] for c in cards] == [c["name"] for c in source]
        assert cards[0]["text"] == texts.translator("fr")(source[0]["text"]) != source[0]["text"]
        assert cards[0]["actions"][0]["name"] == source[0]["actions"][0]["name"]
        assert cards[0]["actions"][0]["text"] != source[0]["actions"][0]["text"]
        # the cookie
        client.cookies.set("sengoku_lang", "ja")
        pieces = check(client.get("/api/games/gungi"))["catalog"]["pieces"]
        assert pieces[0]["name"] == "帥" and pieces[0]["id"] == "marshal"
        client.cookies.clear()
        # a language we do not speak: English; a bad ?lang=: an error naming the field
        r = client.get("/api/games/gunshi", headers={"Accept-Language": "de"})
        assert check(r)["catalog"] == english
        body = check(client.get("/api/games/gunshi?lang=de"), 400)
        assert body["error"]["code"] == "unknown_language" and "lang" in body["error"]["message"]
        # a word without a translation (a card text added to the data files) stays English
        table = dict(texts.translations("fr"))
        del table[move["text"]]
        monkeypatch.setattr(texts, "translations", lambda lang: table)
        card = next(c for c in check(client.get("/api/games/gunshi?lang=fr"))["catalog"]["cards"])
        # (the name's soft hyphens are where it breaks on a small card face, docs/i18n.md)
        assert card["text"] == move["text"] and card["name"] == "Dépla\u00adce\u00adment"
