"""Modules compiled with mypyc, and the switch back to their plain Python.

A build (setup.py; the list is ``[tool.sengoku] compiled`` in pyproject.toml) compiles some
modules of the package with mypyc: each then has an extension module (``mcts.*.so``) beside
its source (``mcts.py``), and Python's import system prefers the extension. The build also
writes ``compiled.json`` here: each compiled module's name and the SHA-256 of the source it
was compiled from.

:func:`install` (run by ``import sengoku``) puts a finder in front of the import system that
imports a compiled module's source instead of its extension

- when ``SENGOKU_PURE_PYTHON`` is set (not empty, not ``0``): the plain Python runs, as in a
  build without compilation (the same switch sets Gungi's native core aside; the tests
  compare the two, tests/ai/test_mcts_compiled.py);
- when the source is not the one the extension was compiled from (a checkout edited after
  ``make install``): the edit runs, with a warning to rebuild, never the stale compiled code.

Other modules, and extensions without a source beside them (Gungi's C++ core, mypyc's
shared library), are found as usual.
"""

from __future__ import annotations

import os
import sys
from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec, PathFinder

# ``import sengoku`` runs this module: no pathlib, no typing (each would cost more than the
# rest of it; benchmarks/startup.py). Type checkers read the constant by its name.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: The run-time switch to the plain Python (also Gungi's, sengoku/games/gungi/native_core.py).
PURE_PYTHON = "SENGOKU_PURE_PYTHON"
#: What the build records: ``{module name: SHA-256 of its source}``.
RECORD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "compiled.json")


def pure_python_asked() -> bool:
    """Whether the environment asks for the plain Python (``SENGOKU_PURE_PYTHON``)."""
    return os.environ.get(PURE_PYTHON, "") not in ("", "0")


def recorded() -> dict[str, str]:
    """The build's record of compiled modules and their sources' hashes (empty: none)."""
    import json

    try:
        with open(RECORD, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def source_hash(path: str) -> str:
    """The SHA-256 of a source file, as the build records it."""
    import hashlib

    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def source_beside(origin: str) -> str | None:
    """The ``.py`` beside the extension module at ``origin``, or None."""
    for suffix in EXTENSION_SUFFIXES:
        if origin.endswith(suffix):
            source = origin[: -len(suffix)] + ".py"
            return source if os.path.isfile(source) else None
    return None


def why_source(name: str, source: str, record: dict[str, str], pure: bool) -> str | None:
    """Why module ``name`` runs its ``source`` rather than its extension, or None (the
    extension runs): the plain Python asked for, or a source that is not the compiled one."""
    if pure:
        return f"{PURE_PYTHON} is set"
    if record.get(name) != source_hash(source):
        return (
            f"{source} changed since it was compiled; running the source "
            "(rebuild with `make install` or `pip install -e .` to compile it again)"
        )
    return None


class SourceFirst:
    """A meta path finder for the package's modules: a compiled module's source where
    :func:`why_source` says so, every other module exactly as the path finder finds it."""

    def __init__(self) -> None:
        self.record: dict[str, str] | None = None

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> ModuleSpec | None:
        if not name.startswith("sengoku.") or path is None:
            return None
        spec = PathFinder.find_spec(name, path, target)
        if (
            spec is None
            or spec.origin is None
            or not spec.origin.endswith(tuple(EXTENSION_SUFFIXES))
        ):
            return spec
        source = source_beside(spec.origin)
        if source is None:
            return spec  # an extension of its own (Gungi's core, mypyc's shared library)
        if self.record is None:
            self.record = recorded()
        why = why_source(name, source, self.record, pure_python_asked())
        if why is None:
            return spec
        if not pure_python_asked():
            import warnings

            warnings.warn(f"{name}: {why}", RuntimeWarning, stacklevel=2)
        from importlib.util import spec_from_file_location

        return spec_from_file_location(name, source)


def install() -> None:
    """Put :class:`SourceFirst` in front of the import system (once)."""
    if not any(isinstance(f, SourceFirst) for f in sys.meta_path):
        sys.meta_path.insert(0, SourceFirst())


def is_compiled(module: Any) -> bool:
    """Whether ``module`` runs compiled (its file is an extension module)."""
    return str(getattr(module, "__file__", "")).endswith(tuple(EXTENSION_SUFFIXES))
