"""Gunkimono (Jeffrey D. Allers, Renegade Game Studios 2018) for 2-5 players."""

from sengoku.games.gunkimono.actions import (
    BuildStronghold,
    Draw,
    Place,
    Score,
    SmallTile,
)
from sengoku.games.gunkimono.game import Gunkimono
from sengoku.games.gunkimono.state import GunkimonoState

__all__ = ["BuildStronghold", "Draw", "Gunkimono", "GunkimonoState", "Place", "Score", "SmallTile"]
