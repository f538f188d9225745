"""Gunshi: The Art of Strategy (designer Satochika Daimon; Grandoor Games, BigGate Inc.)."""

from sengoku.games.gunshi.actions import GunshiAction
from sengoku.games.gunshi.game import TOURNAMENT_SECONDS, Gunshi
from sengoku.games.gunshi.state import GunshiState

__all__ = ["Gunshi", "GunshiAction", "GunshiState", "TOURNAMENT_SECONDS"]
