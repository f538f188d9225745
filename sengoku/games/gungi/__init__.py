"""Gungi (軍儀): 9x9 stacking chess. See docs/rules/gungi.md."""

from sengoku.games.gungi.game import Gungi
from sengoku.games.gungi.move import Move
from sengoku.games.gungi.native_core import native_available
from sengoku.games.gungi.state import GungiState

__all__ = ["Gungi", "GungiState", "Move", "native_available"]
