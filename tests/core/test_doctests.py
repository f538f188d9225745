"""The examples in docstrings are run, so they stay true."""

from __future__ import annotations

import doctest

import sengoku


def test_package_docstring_examples() -> None:
    result = doctest.testmod(sengoku, verbose=False)
    assert result.attempted >= 3 and result.failed == 0
