"""Sashimono: the two-player duel and the solo game against the Kagemusha, cards as data."""

from sengoku.games.sashimono.game import Sashimono

__all__ = ["Sashimono"]
