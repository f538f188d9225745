"""Winning the Game: capture the enemy Shogun, or have 3 units on the Invader Spot.

Rulebook, "Setup & Winning the Game". Surrendering is the contract's ``concede``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import sengoku.games.gunshi.words as words
from sengoku.core.game import Outcome
from sengoku.core.sentence import say
from sengoku.games.gunshi.data import INVADERS_TO_WIN, LETTERS
from sengoku.games.gunshi.shogun_and_card_order import reveal

if TYPE_CHECKING:
    from sengoku.games.gunshi.state import GunshiState


def check_shogun_captured(st: GunshiState, target: int, owner: int, attacker: int) -> None:
    """A unit of ``owner`` left the Field: if it was the Shogun, ``attacker`` wins."""
    if st.shoguns.shogun[owner] != target:
        return
    reveal(st, owner)
    st.result = Outcome.win(attacker, 2, "shogun_captured")
    st.emit(
        None,
        "game_over",
        say(
            "{unit} {letter} was {owner}'s Shogun: {winner} wins!",
            unit=words.unit_type(target),
            letter=LETTERS[target],
            owner=words.colour(owner),
            winner=words.colour(attacker),
        ),
        reason="shogun_captured",
        winner=attacker,
        shogun=LETTERS[target],
    )


def check_invasion_win(st: GunshiState, p: int) -> None:
    """``INVADERS_TO_WIN`` (3) on the Invader Spot, a shielded Infantry counting 2, win for p."""
    if st.invader_spot.invaders[p] >= INVADERS_TO_WIN:
        st.result = Outcome.win(p, 2, "invasion")
        st.emit(
            None,
            "game_over",
            say("{colour} wins by invasion!", colour=words.colour(p)),
            reason="invasion",
            winner=p,
        )
