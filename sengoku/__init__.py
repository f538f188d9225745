"""Sengoku: Gungi, Gunshi, Gunkimono and Sashimono as exact rules engines.

>>> import sengoku
>>> game = sengoku.load_game("gungi")
>>> state = game.new_state(mode="intro")
>>> len(state.legal_actions())
154

``import sengoku`` imports nothing else: the names below come from :mod:`sengoku.core` on
first use (PEP 562), so the command line and a program that imports one game start fast
(benchmarks/startup.py).
"""

from __future__ import annotations

import importlib

from sengoku import compiled as _compiled

# Before any module that may run compiled (mypyc) is imported: the switch to the plain
# Python, and no stale compiled module (sengoku/compiled.py).
_compiled.install()

# Not typing.TYPE_CHECKING: importing typing alone would cost more than the rest of this
# module (type checkers read the constant by its name).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from sengoku.core import (
        GameRecord,
        IllegalAction,
        InvalidOption,
        InvalidRecord,
        Outcome,
        ParseError,
        SengokuError,
        list_games,
        load_game,
    )

__version__ = "0.1.0"

__all__ = [
    "GameRecord",
    "IllegalAction",
    "InvalidOption",
    "InvalidRecord",
    "Outcome",
    "ParseError",
    "SengokuError",
    "list_games",
    "load_game",
]


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module("sengoku.core"), name)
    globals()[name] = value  # found once; later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
