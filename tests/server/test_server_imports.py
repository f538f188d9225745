"""The server and the web packages import without cycles, and their plain modules lazily.

rulebook of the architecture (docs/architecture.md, issue 18): "No cycles. The server
package imports lazily, and clocks do not pull in FastAPI."
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import sengoku

ROOT = Path(sengoku.__file__).resolve().parent
PACKAGES = ("sengoku.server", "sengoku.web")


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in PACKAGES:
        folder = ROOT.parent.joinpath(*package.split("."))
        for path in folder.rglob("*.py"):
            found[_module_name(path)] = path
    return found


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_time_nodes(tree: ast.Module) -> list[ast.stmt]:
    """The statements run when the module is imported (not functions, not TYPE_CHECKING)."""
    out: list[ast.stmt] = []
    todo: list[ast.stmt] = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            out.append(node)
        elif isinstance(node, ast.If):
            if not _is_type_checking(node):
                todo.extend(node.body)
            todo.extend(node.orelse)
        elif isinstance(node, ast.Try):
            todo.extend(node.body + node.orelse + node.finalbody)
            for handler in node.handlers:
                todo.extend(handler.body)
        elif isinstance(node, ast.ClassDef):
            todo.extend(node.body)
    return out


def import_graph() -> dict[str, set[str]]:
    """Module -> the modules of PACKAGES it imports when it is imported."""
    modules = _modules()
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in _import_time_nodes(tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")
                    anchor = anchor[: len(anchor) - (node.level - 1)]
                    base = ".".join(anchor + ([base] if base else []))
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    targets.append(sub if sub in modules else base)
                if base in modules and base != name:
                    # ``from package import x`` runs the package's __init__ first, even
                    # from inside the package: an __init__ that imports eagerly cycles
                    graph[name].add(base)
            for target in targets:
                # importing a.b.c runs a, a.b and a.b.c
                parts = target.split(".")
                for i in range(1, len(parts) + 1):
                    prefix = ".".join(parts[:i])
                    if prefix in modules and prefix != name and not name.startswith(prefix + "."):
                        graph[name].add(prefix)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a path of modules, or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt) :] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_the_graph_sees_the_modules() -> None:
    graph = import_graph()
    assert "sengoku.server.service" in graph["sengoku.server.app"]
    assert "sengoku.server.clocks" in graph["sengoku.server.turns"]
    assert "sengoku.web" in graph


def test_the_finder_finds_a_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_server_and_web_import_without_cycles() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def _fresh(code: str) -> str:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT.parent)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_clocks_do_not_import_fastapi() -> None:
    out = _fresh(
        "import sys, sengoku.server.clocks\n"
        "print(sorted(m for m in ('fastapi', 'starlette', 'sengoku.server.app',"
        " 'sengoku.server.service') if m in sys.modules))"
    )
    assert out == "[]"


def test_the_package_names_resolve_on_use() -> None:
    out = _fresh(
        "import sys, sengoku.server as s\n"
        "print('fastapi' in sys.modules)\n"
        "print(s.create_app.__module__, s.MatchService.__module__, s.Settings.__module__,"
        " s.ApiError.__module__)\n"
        "print('fastapi' in sys.modules)"
    )
    assert out.splitlines() == [
        "False",
        "sengoku.server.app sengoku.server.service sengoku.server.settings sengoku.server.errors",
        "True",
    ]
