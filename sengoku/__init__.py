"""Sengoku: Gungi, Gunshi, Gunkimono and Sashimono as exact rules engines.

>>> import sengoku
>>> game = sengoku.load_game("gungi")
>>> state = game.new_state(mode="intro")
>>> len(state.legal_actions())
154
"""

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
