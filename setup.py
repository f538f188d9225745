"""Build Gungi's optional native core (C++ through pybind11); metadata is in pyproject.toml.

The extension is optional: when it cannot be built (no compiler, no pybind11), installation
still succeeds and ``sengoku.games.gungi`` uses its pure-Python engine, with a warning.
"""

from __future__ import annotations

from setuptools import setup

ext_modules = []
try:
    from pybind11.setup_helpers import Pybind11Extension

    ext = Pybind11Extension(
        "sengoku.games.gungi._gungi_native",
        ["sengoku/games/gungi/native/core.cpp"],
        cxx_std=17,
        # No FMA contraction: the evaluation must add up exactly as the Python one does.
        extra_compile_args=["-O3", "-ffp-contract=off"],
    )
    ext.optional = True
    ext_modules.append(ext)
except ImportError:  # pragma: no cover - pybind11 is a build requirement
    pass

setup(ext_modules=ext_modules)
