"""Logistical Review (Rikutoh): gain 2 Military Logistics Points.

Rulebook, "Advanced Card Effects and Clarifications".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import sengoku.games.gunshi.words as words
from sengoku.core.sentence import say
from sengoku.games.gunshi.data import REVIEW_GAIN

if TYPE_CHECKING:
    from sengoku.games.gunshi.state import GunshiState


def start(st: GunshiState) -> None:
    p = st.player
    st.gain(p, REVIEW_GAIN)
    st.emit(
        None,
        "review",
        say("{colour} gains {points} points.", colour=words.colour(p), points=REVIEW_GAIN),
        seat=p,
    )
