"""What the agents know about each game, beyond the contract.

A game declares its evaluation features with ``Game.features()`` (the protocol,
:class:`sengoku.core.features.Features`, lives in core so that a game implements it without
importing the AI; each game's own features live in ``sengoku/games/<game>/features.py``).
This module is the agents' side: :func:`knowledge_for` finds a game's features through the
game, and :func:`register_knowledge` lets a caller give other features to a game by name
(tests, experiments). ``Knowledge`` is the same class as ``Features``.
"""

from __future__ import annotations

from sengoku.core.features import GENERIC_FEATURES, Features, Level
from sengoku.core.game import Game, SengokuError
from sengoku.core.registry import load_game

#: The agents' name for a game's features (the same class).
Knowledge = Features
#: The features of a game that declares none: the rules only.
GENERIC = GENERIC_FEATURES
_REGISTERED: dict[str, Features] = {}


def register_knowledge(game_name: str, knowledge: Features) -> None:
    """Use ``knowledge`` for ``game_name`` instead of what the game declares."""
    _REGISTERED[game_name] = knowledge


def knowledge_for(game: Game | str) -> Features:
    """The game's features: registered for its name, else ``game.features()``."""
    name = game if isinstance(game, str) else game.name
    if name in _REGISTERED:
        return _REGISTERED[name]
    return (load_game(game) if isinstance(game, str) else game).features()


def knowledge_with(game: Game, evaluation: object, agent: str) -> Features:
    """The game's features with the evaluation named by an agent's ``eval`` option:
    ``default`` is the game's own; another name (a tuned evaluation: Gungi's and Sashimono's
    ``learned``) must be one the game's features offer (``with_evaluation``)."""
    knowledge = knowledge_for(game)
    if not isinstance(evaluation, str) or not evaluation:
        raise SengokuError(f"agent {agent!r}: eval must be a name")
    if evaluation == "default":
        return knowledge
    other = getattr(knowledge, "with_evaluation", None)
    if other is None:
        raise SengokuError(f"agent {agent!r}: {game.name} has no evaluation but its own")
    chosen: Features = other(evaluation)
    return chosen


__all__ = [
    "GENERIC",
    "Features",
    "Knowledge",
    "Level",
    "knowledge_for",
    "knowledge_with",
    "register_knowledge",
]
