"""Make the client's kanji font again: a subset of Noto Serif CJK JP Bold (SIL Open Font
License 1.1, sengoku/web/fonts/OFL.txt) holding ASCII and every CJK character the client can
show: its own files, its message catalogs (sengoku/locale), the rules it ships (sengoku/web/rules) and the games' code and data files
(pieces, cards, action descriptions such as "Betrayal (寝返り)").

Needs Debian's fonts-noto-cjk (the source font, offline) and fontTools with brotli (dev
dependencies). ``python tools/make_font.py`` writes sengoku/web/fonts/sengoku-serif-jp.woff2;
tests/web/test_table_font.py checks the font covers every such character.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE = Path("/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc")
OUT = ROOT / "sengoku" / "web" / "fonts" / "sengoku-serif-jp.woff2"
#: CJK radicals to ideographs, compatibility ideographs, full and half width forms.
CJK = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]")
#: Where the text the client shows comes from, and the kinds of file that hold it.
SOURCES = (
    (ROOT / "sengoku" / "web", {".js", ".html", ".css", ".md"}),
    (ROOT / "sengoku" / "games", {".py", ".toml", ".json", ".js", ".css"}),
    # the catalogs of both domains (messages, texts: the rules panels and tutorials): the
    # Japanese client's every word (docs/i18n.md)
    (ROOT / "sengoku" / "locale", {".po"}),
)


def client_characters() -> str:
    """Every CJK character in the client's files, its rules and the games' code and data."""
    found: set[str] = set()
    for folder, suffixes in SOURCES:
        for path in folder.rglob("*"):
            if path.suffix in suffixes and path.is_file():
                found.update(CJK.findall(path.read_text(encoding="utf-8", errors="ignore")))
    return "".join(sorted(found))


def main() -> int:
    from fontTools import subset

    if not SOURCE.is_file():
        print(f"{SOURCE} is missing: apt-get install fonts-noto-cjk", file=sys.stderr)
        return 1
    # The characters the font has now stay: a glyph another branch's client uses is never
    # dropped by a regeneration (remove one by hand if it is really unused).
    from fontTools.ttLib import TTFont

    kept = {chr(c) for c in TTFont(str(OUT)).getBestCmap() if CJK.match(chr(c))}
    chars = "".join(sorted(set(client_characters()) | kept))
    subset.main(
        [
            str(SOURCE),
            "--font-number=0",
            f"--text={chars}",
            "--unicodes=U+0020-007E",
            "--flavor=woff2",
            "--no-hinting",
            "--desubroutinize",
            f"--output-file={OUT}",
        ]
    )
    print(f"{OUT}: {len(chars)} CJK characters, {OUT.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
