"""The contract every game keeps; nothing game-specific lives here."""

from sengoku.core.describe import ActionDescription
from sengoku.core.game import (
    TERMINAL,
    Action,
    Event,
    Game,
    IllegalAction,
    InvalidOption,
    Option,
    Outcome,
    ParseError,
    SengokuError,
    State,
    event,
)
from sengoku.core.game_type import GameType
from sengoku.core.record import GameRecord, InvalidRecord
from sengoku.core.registry import list_games, load_game

__all__ = [
    "TERMINAL",
    "Action",
    "ActionDescription",
    "Event",
    "Game",
    "GameRecord",
    "GameType",
    "IllegalAction",
    "InvalidOption",
    "InvalidRecord",
    "Option",
    "Outcome",
    "ParseError",
    "SengokuError",
    "State",
    "event",
    "list_games",
    "load_game",
]
