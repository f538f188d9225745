"""The browser client's modules: one entry, nothing run at import, no cycle, no game named.

Issue 18: "The JS client has one entry module, with no side effects at import", and the
client finds each game's renderer through /api/games, never through a list of its own.
"""

from __future__ import annotations

import re
from pathlib import Path

import sengoku.web

JS = Path(sengoku.web.__file__).resolve().parent / "js"
STATIC_IMPORT = re.compile(r"^\s*import\b[^;]*?\bfrom\s+\"(\.[^\"]+)\"\s*;", re.M | re.S)
#: ``import("./x.js")`` with a literal path (a page loaded on demand) counts as an edge too.
DYNAMIC_IMPORT = re.compile(r"\bimport\(\"(\.[^\"]+)\"\)")
#: Top-level lines a module may have: declarations, imports, exports, comments, closers.
DECLARATION = re.compile(
    r"^(import|export|const|let|var|function|async function|class|//|/\*|\*|\}|\]|\))"
)


def modules() -> dict[str, Path]:
    return {p.relative_to(JS).as_posix(): p for p in JS.rglob("*.js")}


def imports_of(path: Path) -> set[str]:
    found = set()
    text = path.read_text(encoding="utf-8")
    for target in STATIC_IMPORT.findall(text) + DYNAMIC_IMPORT.findall(text):
        found.add((path.parent / target).resolve().relative_to(JS).as_posix())
    return found


def test_index_loads_only_the_entry_module() -> None:
    html = (JS.parent / "index.html").read_text(encoding="utf-8")
    assert re.findall(r"<script[^>]*>", html) == ['<script type="module" src="/js/main.js">']


def test_only_the_entry_module_runs_code_at_import() -> None:
    for name, path in modules().items():
        top = [
            line
            for line in path.read_text(encoding="utf-8").splitlines()
            if line and not line[0].isspace() and not DECLARATION.match(line)
        ]
        if name == "main.js":
            assert top == ["start();"]
        else:
            assert top == [], f"{name} runs code at import: {top}"


def test_imports_have_no_cycle() -> None:
    graph = {name: imports_of(path) for name, path in modules().items()}
    # main.js starts boot.js, which loads the language's catalog before it loads app.js
    # (docs/i18n.md): every module's words are made in that language.
    assert graph["main.js"] == {"boot.js"}
    assert graph["boot.js"] == {"i18n.js", "app.js"}
    for name, targets in graph.items():
        assert targets <= set(graph), f"{name} imports a missing module: {targets - set(graph)}"
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        if name in path:
            raise AssertionError("import cycle: " + " -> ".join([*path, name]))
        if name in done:
            return
        for target in sorted(graph[name]):
            visit(target, [*path, name])
        done.add(name)

    for name in sorted(graph):
        visit(name, [])


def test_the_client_names_no_game() -> None:
    for name in ("app.js", "games/index.js", "main.js", "nav.js"):
        text = (JS / name).read_text(encoding="utf-8")
        for game in ("gungi", "gunshi", "gunkimono", "sashimono"):
            assert f'"{game}' not in text and f"./{game}" not in text, (name, game)
