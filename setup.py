"""Build the native cores (C++ through pybind11: Gungi's and Gunkimono's) and compile the
modules listed under ``[tool.sengoku] compiled`` in pyproject.toml with mypyc; metadata is in
pyproject.toml.

A wheel (and ``make install``'s build in place) always contains them all: without a C++17
compiler, pybind11 or mypy (mypyc), or when mypyc refuses a module, the build stops with an
error that says why. A builder who wants a pure-Python wheel (no cores: Gungi then runs its
Python engine, Gunkimono's batches their contract states; nothing compiled: every module runs
as Python) asks for one explicitly::

    SENGOKU_PURE_PYTHON_BUILD=1 python -m build

(``SENGOKU_PURE_PYTHON``, without ``_BUILD``, is the run-time switch that makes an installed
core stand aside and the compiled modules run their Python source (sengoku/compiled.py); it
does not change what a build makes, so a shell that sets it for a differential test never
builds a wheel without the core by accident.)

The build records, in ``sengoku/compiled.json``, each compiled module with the SHA-256 of its
source: a source edited after the build runs as Python, never the stale compiled code.
"""

from __future__ import annotations

import hashlib
import json
import os
import tomllib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

#: The environment variable that asks for a wheel without the native core.
PURE_PYTHON_BUILD = "SENGOKU_PURE_PYTHON_BUILD"
#: The environment variable that sets the C compiler's optimisation level of the mypyc modules:
#: 3 (the default, what every release and `make install` build) unless a builder asks for less
#: (0 compiles in a fraction of the time, for a build that checks packaging, not speed:
#: tests/core/test_wheel.py).
OPT_LEVEL = "SENGOKU_MYPYC_OPT_LEVEL"
#: The same for the native cores' C++ (3 by default; 0 for a build that checks packaging).
NATIVE_OPT_LEVEL = "SENGOKU_NATIVE_OPT_LEVEL"
#: The environment variable that narrows the mypyc modules to some of the listed ones
#: (comma-separated paths): every listed module (the default, what every release and `make
#: install` build) unless a builder asks for fewer. A packaging check compiles two instead
#: of all of them (tests/core/test_wheel.py: the mypyc step was two thirds of its build);
#: the modules left out run as Python (sengoku/compiled.py), as a module whose source
#: changed after the build does.
ONLY_MODULES = "SENGOKU_MYPYC_MODULES"
NATIVE_NAME = "sengoku.games.gungi._gungi_native"
NATIVE_SOURCES = ["sengoku/games/gungi/native/core.cpp"]
#: Gunkimono's native core (sengoku/games/gunkimono/native_core.py loads it).
GUNKIMONO_NATIVE_NAME = "sengoku.games.gunkimono._gunkimono_native"
GUNKIMONO_NATIVE_SOURCES = ["sengoku/games/gunkimono/native/core.cpp"]
#: Sashimono's native core (sengoku/games/sashimono/native_core.py loads it).
SASHIMONO_NATIVE_NAME = "sengoku.games.sashimono._sashimono_native"
SASHIMONO_NATIVE_SOURCES = ["sengoku/games/sashimono/native/core.cpp"]
#: Gunshi's native core (sengoku/games/gunshi/native_core.py loads it).
GUNSHI_NATIVE_NAME = "sengoku.games.gunshi._gunshi_native"
GUNSHI_NATIVE_SOURCES = ["sengoku/games/gunshi/native/core.cpp"]
#: Each native core's extension name and its C++ sources.
NATIVE_CORES = {
    NATIVE_NAME: NATIVE_SOURCES,
    GUNKIMONO_NATIVE_NAME: GUNKIMONO_NATIVE_SOURCES,
    SASHIMONO_NATIVE_NAME: SASHIMONO_NATIVE_SOURCES,
    GUNSHI_NATIVE_NAME: GUNSHI_NATIVE_SOURCES,
}
ROOT = Path(__file__).resolve().parent
#: The build's record of what it compiled (sengoku/compiled.py reads it).
COMPILED_RECORD = ROOT / "sengoku" / "compiled.json"
#: What this build compiles: each module's name and the SHA-256 of its source.
COMPILED: dict[str, str] = {}
#: mypycify's extensions, once made (:func:`mypyc_extensions`).
MYPYC_EXTENSIONS: list[Extension] = []
#: The commands that only write metadata or list sources (what a build frontend asks for
#: before the build itself): a run of setup.py for them alone compiles nothing, and never
#: makes mypyc's extensions (egg_info and sdist finalize build_ext to list its sources).
METADATA_COMMANDS = {"egg_info", "dist_info", "sdist"}

HINT = (
    "A native core ({source}) could not be built ({cause}). "
    "Install a C++17 compiler (Debian: apt-get install g++) and pybind11>=2.11, or build a "
    f"pure-Python wheel on purpose with {PURE_PYTHON_BUILD}=1."
)


MYPYC_HINT = (
    "mypyc could not compile {modules} ({cause}). Install mypy>=1.16 (it brings mypyc) and a "
    f"C compiler, or build a pure-Python wheel on purpose with {PURE_PYTHON_BUILD}=1."
)


def pure_build() -> bool:
    """Whether the builder asked for a pure-Python wheel."""
    return os.environ.get(PURE_PYTHON_BUILD, "") not in ("", "0")


class BuildNativeCore(build_ext):
    """``build_ext`` whose failure names what failed and the way out (setuptools' own
    message is only the compiler's exit code), building its extensions side by side."""

    def finalize_options(self) -> None:
        # mypyc's extensions join here, when a build is about to compile, not when setup.py
        # is read: type-checking the listed modules takes mypycify 10-20 s, and a build's
        # frontend reads setup.py up to four times (the requirements and the metadata of the
        # sdist and of the wheel) where only the build compiles.
        if set(self.distribution.commands) - METADATA_COMMANDS:
            present = {ext.name for ext in self.distribution.ext_modules or []}
            self.distribution.ext_modules = [
                *(self.distribution.ext_modules or []),
                *(ext for ext in mypyc_extensions() if ext.name not in present),
            ]
        super().finalize_options()
        # One compiler a core (unless `-j N` said otherwise): the extensions side by side, and
        # the C files of one extension too (:meth:`build_extensions`).
        if not self.parallel:
            self.parallel = os.cpu_count() or 1

    def build_extensions(self) -> None:
        # mypyc writes a C file per compiled module (``multi_file``), all linked into one
        # library; setuptools compiles an extension's files one after another. Compile them
        # side by side, each through the compiler's own (public) ``compile``, the largest
        # first so that no long file starts last.
        compile_files = self.compiler.compile
        jobs = int(self.parallel)

        def compile_side_by_side(sources: list[str], *args: Any, **kwargs: Any) -> list[str]:
            if jobs < 2 or len(sources) < 2:
                return list(compile_files(sources, *args, **kwargs))
            order = sorted(sources, key=lambda s: -os.path.getsize(s))
            with ThreadPoolExecutor(jobs) as pool:
                work = {s: pool.submit(compile_files, [s], *args, **kwargs) for s in order}
            return [obj for source in sources for obj in work[source].result()]

        self.compiler.compile = compile_side_by_side  # type: ignore[method-assign]
        super().build_extensions()

    def run(self) -> None:
        super().run()
        if not COMPILED:
            return
        # The record goes where the compiled modules went: the wheel's tree, and the
        # checkout's for a build in place (pip install -e .).
        text = json.dumps(COMPILED, indent=1, sort_keys=True) + "\n"
        places = [Path(self.build_lib) / "sengoku"]
        if self.inplace or getattr(self, "editable_mode", False):
            places.append(COMPILED_RECORD.parent)
        for place in places:
            place.mkdir(parents=True, exist_ok=True)
            (place / COMPILED_RECORD.name).write_text(text, encoding="utf-8")

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:
            cause = f"{type(exc).__name__}: {exc}"
            if ext.name in NATIVE_CORES:
                hint = HINT.format(source=", ".join(NATIVE_CORES[ext.name]), cause=cause)
            else:
                hint = MYPYC_HINT.format(modules=", ".join(compiled_modules()), cause=cause)
            raise SystemExit("error: " + hint) from exc


def native_extensions() -> list[Extension]:
    """The cores' extensions, or none when the builder asked for a pure-Python wheel."""
    if pure_build():
        return []
    try:
        from pybind11.setup_helpers import Pybind11Extension
    except ImportError as exc:  # only a build without isolation can lack it
        cause = f"pybind11 is not installed ({exc})"
        every = ", ".join(s for listed in NATIVE_CORES.values() for s in listed)
        raise SystemExit("error: " + HINT.format(source=every, cause=cause)) from exc
    extensions: list[Extension] = []
    for name, sources in NATIVE_CORES.items():
        ext = Pybind11Extension(
            name,
            sources,
            cxx_std=17,
            # No FMA contraction: Gungi's evaluation must add up exactly as the Python one
            # does (and Gunkimono's returns as Outcome.ranked's).
            # No debug information (-g0, after the interpreter's own -g): it was a third of
            # a core's compile time (a core is debugged built by hand: docs/architecture.md,
            # "Compiled modules").
            extra_compile_args=[
                f"-O{opt_level(NATIVE_OPT_LEVEL)}",
                "-ffp-contract=off",
                "-g0",
            ],
        )
        # Not optional: a wheel without a core would be a silently slower game.
        ext.optional = False
        extensions.append(ext)
    return extensions


def opt_level(variable: str) -> str:
    """The optimisation level ``variable`` asks for, "3" by default."""
    level = os.environ.get(variable, "") or "3"
    if level not in ("0", "1", "2", "3"):
        raise SystemExit(f"error: {variable} must be 0, 1, 2 or 3, not {level!r}")
    return level


def mypyc_opt_level() -> str:
    """The mypyc modules' optimisation level (``OPT_LEVEL``), "3" by default."""
    return opt_level(OPT_LEVEL)


def compiled_modules() -> list[str]:
    """The sources mypyc compiles: ``[tool.sengoku] compiled`` in pyproject.toml, the one
    list (the plain Python stays the fallback: tests/ai/test_mcts_compiled.py), or the part
    of it that ``ONLY_MODULES`` names."""
    with open(ROOT / "pyproject.toml", "rb") as f:
        listed = [str(path) for path in tomllib.load(f)["tool"]["sengoku"]["compiled"]]
    asked = [m.strip() for m in os.environ.get(ONLY_MODULES, "").split(",") if m.strip()]
    unknown = [m for m in asked if m not in listed]
    if unknown:
        raise SystemExit(
            f"error: {ONLY_MODULES} names modules that [tool.sengoku] compiled in "
            f"pyproject.toml does not list: {', '.join(unknown)}"
        )
    return [m for m in listed if m in asked] if asked else listed


def module_name(path: str) -> str:
    """``sengoku/ai/tree.py`` -> ``sengoku.ai.tree``; a package's ``__init__.py`` -> the
    package's name (the name its compiled ``__init__`` is imported by)."""
    return path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")


def mypyc_extensions() -> list[Extension]:
    """The listed modules compiled by mypyc (with the record of their sources' hashes), or
    none when the builder asked for a pure-Python wheel; made once (a frontend may finalize
    build_ext again)."""
    if pure_build():
        return []
    if MYPYC_EXTENSIONS:
        return MYPYC_EXTENSIONS
    modules = compiled_modules()
    opt_level = mypyc_opt_level()
    try:
        from mypyc.build import mypycify
    except ImportError as exc:  # only a build without isolation can lack it
        cause = f"mypy is not installed ({exc})"
        hint = MYPYC_HINT.format(modules=", ".join(modules), cause=cause)
        raise SystemExit("error: " + hint) from exc
    try:
        # mypy reads [tool.mypy] (strict) from pyproject.toml: what it refuses in a compiled
        # module stops the build. The modules they import are read for their types only
        # (their own checking is `make lint`'s): an isolated build environment has mypy and
        # numpy (the encoders import it: [build-system] requires) but none of the package's
        # other dependencies, which are then of type Any.
        # multi_file: a C file per module, compiled side by side (one file of all of them
        # took one core 2x (at -O3) to 3.5x (at -O0) the CPU time of the parts together, and
        # the other core idled).
        # debug_level 0: no debug information, as the cores.
        extensions: list[Extension] = mypycify(
            ["--follow-imports=silent", *modules],
            opt_level=opt_level,
            debug_level="0",
            multi_file=True,
        )
    except SystemExit as exc:  # mypycify exits on a type error or a module it cannot compile
        cause = f"mypy/mypyc said so above (exit status {exc.code})"
        raise SystemExit(
            "error: " + MYPYC_HINT.format(modules=", ".join(modules), cause=cause)
        ) from exc
    for ext in extensions:
        ext.optional = False  # a wheel without them would be a silently slower search
    for path in modules:
        COMPILED[module_name(path)] = hashlib.sha256((ROOT / path).read_bytes()).hexdigest()
    MYPYC_EXTENSIONS.extend(extensions)
    return extensions


cmdclass: dict[str, Any] = {"build_ext": BuildNativeCore}
# The native cores first: a build without a compiler fails on them and names them. The mypyc
# modules join when build_ext is finalized (BuildNativeCore.finalize_options); an unknown
# optimisation level, or a module to compile that is not listed, is refused now, before
# anything is built.
mypyc_opt_level()
opt_level(NATIVE_OPT_LEVEL)
compiled_modules()
setup(ext_modules=native_extensions(), cmdclass=cmdclass)
