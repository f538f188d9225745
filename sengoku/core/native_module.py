"""A game's compiled C++ core, where it is built: how the games' ``native_core.py`` load it.

Each core is a pybind11 extension beside its game (``sengoku.games.<game>._<game>_native``),
built by every wheel and ``make install``; a pure-Python build has none, and
``SENGOKU_PURE_PYTHON=1`` sets a built one aside (differential tests, debugging). Without
it, the game's Python engine plays everything; importing the game's ``native_core`` then
warns once (a RuntimeWarning) that the batches run slower, unless the environment asked.
"""

from __future__ import annotations

import importlib
import os
import warnings
from collections.abc import Callable, Mapping
from typing import Any

from sengoku.core.game import Game

#: The environment variable that sets the built cores aside (sengoku/compiled.py reads it too).
PURE_PYTHON = "SENGOKU_PURE_PYTHON"


class NativeCore:
    """The core ``module_name`` of the game ``title`` (its name in messages): the module,
    or why it is not in use; and its ``Rules``, made once per options and length limit."""

    def __init__(self, module_name: str, title: str) -> None:
        self.title = title
        self.module: Any = None
        #: Why the core is not in use (None when it is).
        self.unavailable_reason: str | None = None
        self._rules: dict[tuple[int, tuple[tuple[str, Any], ...]], Any] = {}
        if os.environ.get(PURE_PYTHON, "") not in ("", "0"):
            self.unavailable_reason = f"{PURE_PYTHON} is set"
            return
        try:
            self.module = importlib.import_module(module_name)
        except ImportError as exc:  # the extension was not built (a pure-Python build)
            self.unavailable_reason = f"the extension is not built ({exc})"
            warnings.warn(
                f"{title}'s native core is not available ({self.unavailable_reason}); its "
                "Python engine plays instead (batches run slower). Reinstall with a C++17 "
                "compiler (`pip install -e .`) to build it.",
                RuntimeWarning,
                stacklevel=3,
            )

    def available(self) -> bool:
        """Whether the core is built and in use."""
        return self.module is not None

    def loaded(self) -> Any:
        """The extension module (a RuntimeError saying why where it is not in use)."""
        if self.module is None:
            raise RuntimeError(
                f"{self.title}'s native core is not available: {self.unavailable_reason}"
            )
        return self.module

    def rules(
        self,
        spec: Callable[[Mapping[str, Any], int], dict[str, Any]],
        options: Mapping[str, Any],
        length_limit: int,
    ) -> Any:
        """The core's ``Rules`` of ``spec(options, length_limit)`` (made once each)."""
        key = (length_limit, tuple(sorted(options.items())))
        made = self._rules.get(key)
        if made is None:
            made = self._rules[key] = self.loaded().Rules(spec(options, length_limit))
        return made


def length_limit(game: Game, options: Mapping[str, Any]) -> int:
    """The length guard's limit for a match of ``game`` (as ``State._end_if_too_long`` reads
    it: the game's ``length_limit``, which a test may set on the game, else its
    ``max_game_length``)."""
    limit = game.length_limit
    return int(limit if limit is not None else game.max_game_length(**options))


__all__ = ["PURE_PYTHON", "NativeCore", "length_limit"]
