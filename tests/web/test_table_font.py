"""The kanji font covers every character the client can show (issue 17: "寝 and り are
missing"): its own files, the rules it ships, the games' code and data, and what the API
tells it about each game (titles, options, catalogs)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from fontTools.ttLib import TTFont

from sengoku import load_game
from sengoku.core.registry import list_games

ROOT = Path(__file__).resolve().parents[2]
FONT = ROOT / "sengoku" / "web" / "fonts" / "sengoku-serif-jp.woff2"
#: What the font is there for: CJK characters (the system fonts draw the Latin text).
CJK = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]")
TEXT = {".js", ".html", ".css", ".md", ".py", ".toml", ".json", ".txt", ".po"}


def shown_characters() -> dict[str, str]:
    """Each CJK character the client may show, with one place it comes from."""
    where: dict[str, str] = {}
    # sengoku/locale: the catalogs of both domains (messages, and texts: the rules panels and
    # tutorials), the Japanese ones above all (docs/i18n.md)
    for folder in (
        ROOT / "sengoku" / "web",
        ROOT / "sengoku" / "games",
        ROOT / "docs" / "rules",
        ROOT / "sengoku" / "locale",
    ):
        for path in sorted(folder.rglob("*")):
            if path.suffix in TEXT and path.is_file():
                for ch in CJK.findall(path.read_text(encoding="utf-8", errors="ignore")):
                    where.setdefault(ch, str(path.relative_to(ROOT)))
    for name in list_games():
        game = load_game(name)
        served = json.dumps([game.describe(), game.catalog()], ensure_ascii=False)
        for ch in CJK.findall(served):
            where.setdefault(ch, f"GET /api/games/{name}")
    return where


def test_the_font_covers_every_character_the_client_shows() -> None:
    cmap = TTFont(str(FONT)).getBestCmap()
    shown = shown_characters()
    assert "寝" in shown and "り" in shown  # "Betrayal (寝返り)"
    assert shown.get("遊") == "sengoku/locale/ja/LC_MESSAGES/messages.po"  # "遊び方"
    # the texts catalog: the rules panels and tutorials in Japanese (docs/i18n-texts.md)
    assert shown.get("翼") == "sengoku/locale/ja/LC_MESSAGES/texts.po"  # the Archer's "翼"
    missing = {ch: src for ch, src in shown.items() if ord(ch) not in cmap}
    assert not missing, f"the font lacks {missing}: run `make font` (tools/make_font.py)"
    # ASCII too, for the kanji-only labels that mix in digits and letters.
    assert all(c in cmap for c in range(0x20, 0x7F))
