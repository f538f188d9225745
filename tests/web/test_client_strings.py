"""Every English sentence the web client shows goes through its catalog (docs/i18n.md): a
heuristic scan of sengoku/web/js for string literals that read as English words and are not
inside ``_()``, ``ngettext()`` or a comment. A new unwrapped string fails here; the few
literals that are not shown text (or are names) are in ALLOWED, each for a reason."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
JS = ROOT / "sengoku" / "web" / "js"

#: Files whose shown text is still English only (docs/i18n.md "Not translated yet"): the
#: long texts of the tutorials and the rules panel, the analysis and puzzle pages.
NOT_YET: set[str] = set()
#: Files whose literals are regular expressions, not text.
NO_TEXT = {"markdown.js"}

#: Literals that read as English but are not shown as text: DOM and CSS words, MIME types,
#: names. Kept short on purpose.
ALLOWED: set[str] = {
    "Sengoku — Gungi, Gunshi, Gunkimono, Sashimono",  # the tab title: the games' names
    "Sengoku",  # the site's name
    "Notification",  # the browser's API: "Notification" in window
    "castle row-castle",  # CSS classes given to gunkimono.js's castle()
    "castle stronghold-castle",
    "ante done",  # sashimono.js: an action's notation (DONE_LABELS' key), sent as it is
    "no bonus",  # sashimono.js: actions' notation (PASS_LABELS' keys), sent as they are
    "no training",
}

_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
# a string literal: "...", '...' or `...` (template literals with ${} parts included)
_LITERAL = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|`(?:[^`\\]|\\.)*`', re.S)
#: Calls whose string arguments are the translation's own (or not shown at all).
_WRAPPED_CALL = re.compile(
    r"(?:\b_|\bN_|\bngettext|console\.\w+|querySelector(?:All)?|closest|matches|"
    r"addEventListener|removeEventListener|getItem|setItem|removeItem|new Event|"
    r"CustomEvent|getAttribute|setAttribute|toggleAttribute|hasAttribute|import|api|fetch|"
    r"classList\.\w+|Error|dispatchEvent)\s*\(\s*$"
)
# ngettext("one", "many", n): the second literal
_PLURAL_SECOND = re.compile(r'ngettext\(\s*"(?:[^"\\]|\\.)*"\s*,\s*$')
# An English word: a run of letters. A literal reads as English when it has two words
# separated by a space (selectors, CSS classes and event names have none), or is a
# capitalised word given as a title, a placeholder or an aria-label.
_SENTENCE = re.compile(
    r"[A-Za-z]{2,}[,.:;!?’']?(?:\s+[A-Za-z])?\s+[A-Za-z]{2,}|\b[A-Z][a-z]+\s+\d+:?\s+[A-Za-z]{2,}"
)
# assigned to what is no text: a class list, a data attribute, a type
_CODE = re.compile(
    r"(?:cssText\s*=|style\s*:|Authorization\s*=|(?:className|dataset\.\w+|\.type|\.kind)\s*(?:=|===|!==)|(?:className|cls)\s*=[^;\n]*[?:]|"
    r"\bclass\s*:[^,{}\n]*[?:]|"
    r"\b(?:class|transform|d|points|viewBox|fill|stroke)\s*:|matchMedia\(|\.test\(|"
    r"\bcase|\.startsWith\(|\.endsWith\(|\.includes\(|\.replace\()\s*$"
)
_WORD = re.compile(r"^[A-Z][a-z]{2,}[.!…]?$")
_TEXT_PLACE = re.compile(r"(?:\}\s*,|[?:(\[,]|\|\|)\s*$")
_SHOWN_ATTR = re.compile(r'(?:title|placeholder|"aria-label"|label|alt)\s*:\s*$')
# A CSS selector ("div.field select, input"): every word is a tag or has . # [ : > in it.
_SELECTOR_WORD = re.compile(
    r"^(?:[a-z0-9_\-]*[.#\[:>][^\s]*|[>+~,]|(?:a|p|li|ul|ol|div|span|button|input|select|"
    r"option|textarea|svg|g|path|rect|circle|text|td|tr|th|table|img|label|summary|details|"
    r"form|h[1-6]|section|article|header|footer|main|nav|strong|em|small|code|kbd),?)$"
)


def _not_text(words: str) -> bool:
    return all(_SELECTOR_WORD.match(w) for w in words.split())


def findings(source: str) -> Iterator[re.Match[str]]:
    """Each English literal outside a translation call (comments blanked out, so that the
    matches' places are the source's)."""
    code = _COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), source)
    for m in _LITERAL.finditer(code):
        text = m.group()[1:-1]
        before = code[max(0, m.start() - 60) : m.start()]
        wider = code[max(0, m.start() - 240) : m.start()]
        if _WRAPPED_CALL.search(before) or _PLURAL_SECOND.search(wider) or _CODE.search(wider):
            continue
        words = re.sub(r"\$\{[^}]*\}", " ", text)
        english = bool(_SENTENCE.search(words)) and not _not_text(words)
        if not english and _SHOWN_ATTR.search(before) and re.search(r"[A-Z][a-z]+", words):
            english = True
        # a template that puts a word beside its values ("${title} leaderboard")
        outside = re.sub(r"\$\{[^}]*\}", "", text)
        if not english and m.group().startswith("`") and "${" in text and " " in outside:
            english = any(re.fullmatch(r"[A-Za-z]{3,}[.,:;!?]?", w) for w in words.split())
        # a lone capitalised word as an element's text ("Rematch") or a choice ("? 'Draw'")
        if not english and _WORD.match(words) and _TEXT_PLACE.search(before):
            english = True
        if english and text not in ALLOWED and not text.startswith("<"):  # "<svg ...>" markup
            yield m


def unwrapped(source: str) -> list[tuple[int, str]]:
    """(line, literal) of each English literal outside a translation call."""
    return [(source.count("\n", 0, m.start()) + 1, m.group()[1:-1]) for m in findings(source)]


def test_the_scan_finds_an_unwrapped_string() -> None:
    source = 'el("p", {}, "Your move"); el("p", {}, _("Your move")); el("p.a b", {}, x);\n'
    source += 'const t = { title: "Resign" }; // el("p", {}, "a comment here")\n'
    source += 'el("b", {}, ok ? "Draw" : _("Win"), "x");\n'
    assert unwrapped(source) == [(1, "Your move"), (2, "Resign"), (3, "Draw")]


def test_every_shown_english_string_is_wrapped() -> None:
    problems = []
    for path in sorted(JS.rglob("*.js")):
        rel = str(path.relative_to(JS))
        if rel in NOT_YET or rel in NO_TEXT or rel == "i18n.js":
            continue
        for line, text in unwrapped(path.read_text(encoding="utf-8")):
            problems.append(f"{rel}:{line}: {text[:90]!r}")
    assert not problems, (
        f"{len(problems)} shown strings are not wrapped in _() or ngettext() "
        "(docs/i18n.md):\n" + "\n".join(problems)
    )
