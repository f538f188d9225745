"""No module of ``sengoku`` touches another's private names (issue 42, item 1).

A name with one leading underscore is its owner's to change: a module that reads
``state._cache`` or imports ``_helper`` from a sibling breaks when the owner renames it, and
hides a dependency the owner cannot see. This test walks every module's syntax tree, as
``test_import_graph.py`` walks its imports, and fails on

* an attribute ``x._name`` (dunders aside) on anything but ``self``/``cls``, in a module that
  does not itself define ``_name`` (a class of the module assigns ``self._name``, declares it
  in its body or its ``__slots__``): a module may touch its own classes' privates on any
  instance (``clone`` copying ``other._cache``), a subclass its inherited ones through
  ``self``, and nobody else may;
* ``from m import _name`` (and ``import m._name``) of a private name from another module;
* ``getattr``/``setattr``/``hasattr`` naming such a private attribute in a string.

What the rule cannot see stays small and explicit below, each entry with its reason.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "sengoku"

#: Underscored names that are a library's documented public API, not a private member:
#: allowed on any object.
PUBLIC_BY_CONTRACT = {
    # SQLAlchemy's Row: ``row._mapping`` is the documented dict-like view of a result row.
    "_mapping",
    # os._exit: the documented way for a forked child to leave without running the parent's
    # atexit handlers and flushing its buffers twice.
    "_exit",
}

#: (module, attribute) pairs allowed in one module only, each for its reason.
ALLOWED: set[tuple[str, str]] = {
    # PettingZoo's AECEnv documents these members for wrappers and environment authors
    # (the "dead step" protocol and the reward accumulator): the wrapper is such an author.
    ("sengoku/interop/pettingzoo.py", "_was_dead_step"),
    ("sengoku/interop/pettingzoo.py", "_accumulate_rewards"),
    ("sengoku/interop/pettingzoo.py", "_deads_step_first"),
    # The turn machine's template runs the state's length guard after every decision; the
    # protocol that declares it (``Flowing``) sits in core/flowing.py, kept plain Python
    # beside the compiled core/flow.py (docs/architecture.md, "The core compiled").
    ("sengoku/core/flow.py", "_end_if_too_long"),
}


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _own_names(tree: ast.Module) -> set[str]:
    """The private names a module's classes define: ``self._x``/``cls._x`` targets in their
    methods, names assigned or defined in their bodies, and their ``__slots__`` entries."""
    names: set[str] = set()
    for cls in ast.walk(tree):
        if isinstance(cls, ast.ClassDef):
            names.update(_class_names(cls))
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.ctx, ast.Store)
            and isinstance(node.value, ast.Name)
            and node.value.id in {"self", "cls"}
        ):
            names.add(node.attr)
    return {n for n in names if _private(n)}


def _class_names(cls: ast.ClassDef) -> set[str]:
    names: set[str] = set()
    for node in cls.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    names.add(target.id)
                    if target.id == "__slots__" and node.value is not None:
                        names.update(
                            e.value
                            for e in ast.walk(node.value)
                            if isinstance(e, ast.Constant) and isinstance(e.value, str)
                        )
    return names


def _violations(path: Path) -> list[tuple[int, str, str]]:
    """(line, attribute, what) for each private name ``path`` touches that is not its own."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    own = _own_names(tree)
    found: list[tuple[int, str, str]] = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and _private(node.attr)
            and not (isinstance(node.value, ast.Name) and node.value.id in {"self", "cls"})
            and node.attr not in own
            and node.attr not in PUBLIC_BY_CONTRACT
        ):
            found.append((node.lineno, node.attr, ast.unparse(node)))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in {"getattr", "setattr", "hasattr"}
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
            and _private(node.args[1].value)
            and node.args[1].value not in own
        ):
            found.append((node.lineno, node.args[1].value, ast.unparse(node)))
        elif isinstance(node, ast.ImportFrom):
            found.extend(
                (node.lineno, a.name, f"from {'.' * node.level}{node.module} import {a.name}")
                for a in node.names
                if _private(a.name)
            )
        elif isinstance(node, ast.Import):
            found.extend(
                (node.lineno, a.name, f"import {a.name}")
                for a in node.names
                if any(_private(part) for part in a.name.split("."))
            )
    return sorted(found)


def _all_violations() -> list[str]:
    wrong = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT.parent).as_posix()
        for line, attr, what in _violations(path):
            if (rel, attr) in ALLOWED:
                continue
            wrong.append(f"{rel}:{line}: {what}")
    return wrong


def test_the_rule_sees_a_foreign_private_name(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text(
        "from .other import _helper, public\n"
        "class Own:\n"
        "    def __init__(self):\n"
        "        self._cache = 1\n"
        "    def clone(self, other):\n"
        "        other._cache = self._cache\n"  # its own private, on another instance: fine
        "        self._inherited()\n"  # through self: a subclass may
        "        return other._theirs\n"  # a private this module does not define
        "def outside(state):\n"
        "    state.__dict__\n"  # a dunder: fine
        "    getattr(state, '_secret', None)\n"  # by its name in a string: not fine either
        "    return state._cache, state._parent_thing\n",  # _cache: this module's own
        encoding="utf-8",
    )
    assert [(line, attr) for line, attr, _ in _violations(source)] == [
        (1, "_helper"),
        (8, "_theirs"),
        (11, "_secret"),
        (12, "_parent_thing"),
    ]


def test_no_module_touches_another_modules_private_names() -> None:
    wrong = _all_violations()
    assert not wrong, "private names touched outside their owner:\n" + "\n".join(wrong)


def test_the_allow_lists_name_only_what_is_still_there() -> None:
    """An entry whose use is gone is removed, so the list never grows stale."""
    seen = {
        (path.relative_to(ROOT.parent).as_posix(), attr)
        for path in sorted(ROOT.rglob("*.py"))
        for _, attr, _ in _violations(path)
    }
    stale = sorted(ALLOWED - seen)
    assert not stale, f"allow-list entries no longer used: {stale}"
    used = {
        node.attr
        for path in sorted(ROOT.rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute)
    }
    assert not PUBLIC_BY_CONTRACT - used, sorted(PUBLIC_BY_CONTRACT - used)
