"""Build Gungi's native core (C++ through pybind11); metadata is in pyproject.toml.

A wheel always contains the compiled core: without a C++17 compiler or pybind11 the build
stops with an error that says why. A builder who wants a pure-Python wheel (no core; Gungi
then runs its Python engine) asks for one explicitly::

    SENGOKU_PURE_PYTHON_BUILD=1 python -m build

(``SENGOKU_PURE_PYTHON``, without ``_BUILD``, is the run-time switch that makes an installed
core stand aside; it does not change what a build makes, so a shell that sets it for a
differential test never builds a wheel without the core by accident.)
"""

from __future__ import annotations

import os
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

#: The environment variable that asks for a wheel without the native core.
PURE_PYTHON_BUILD = "SENGOKU_PURE_PYTHON_BUILD"
NATIVE_SOURCES = ["sengoku/games/gungi/native/core.cpp"]

HINT = (
    "Gungi's native core (sengoku/games/gungi/native/core.cpp) could not be built ({cause}). "
    "Install a C++17 compiler (Debian: apt-get install g++) and pybind11>=2.11, or build a "
    f"pure-Python wheel on purpose with {PURE_PYTHON_BUILD}=1."
)


class BuildNativeCore(build_ext):
    """``build_ext`` whose failure names the core and the way out (setuptools' own message
    is only the compiler's exit code)."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:
            raise SystemExit("error: " + HINT.format(cause=f"{type(exc).__name__}: {exc}")) from exc


def native_extensions() -> list[Extension]:
    """The core's extension, or none when the builder asked for a pure-Python wheel."""
    if os.environ.get(PURE_PYTHON_BUILD, "") not in ("", "0"):
        return []
    try:
        from pybind11.setup_helpers import Pybind11Extension
    except ImportError as exc:  # only a build without isolation can lack it
        cause = f"pybind11 is not installed ({exc})"
        raise SystemExit("error: " + HINT.format(cause=cause)) from exc
    ext = Pybind11Extension(
        "sengoku.games.gungi._gungi_native",
        NATIVE_SOURCES,
        cxx_std=17,
        # No FMA contraction: the evaluation must add up exactly as the Python one does.
        extra_compile_args=["-O3", "-ffp-contract=off"],
    )
    # Not optional: a wheel without its core would be a silently slower Gungi.
    ext.optional = False
    return [ext]


cmdclass: dict[str, Any] = {"build_ext": BuildNativeCore}
setup(ext_modules=native_extensions(), cmdclass=cmdclass)
