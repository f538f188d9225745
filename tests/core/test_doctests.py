"""The examples in docstrings are run, so they stay true."""

from __future__ import annotations

import doctest

import sengoku


def test_package_docstring_examples() -> None:
    result = doctest.testmod(sengoku, verbose=False)
    assert result.attempted >= 3 and result.failed == 0


def test_readme_examples() -> None:
    from pathlib import Path

    readme = Path(__file__).resolve().parents[2] / "README.md"
    result = doctest.testfile(str(readme), module_relative=False, verbose=False)
    assert result.attempted >= 10 and result.failed == 0
