"""A game's traits: what research tools are told about it (OpenSpiel's game type).

A game declares them with :meth:`sengoku.core.game.Game.traits` for given options. The default
is the description that is always safe: stochastic (the setup may draw from the seed) and
general-sum, with the game's declared ``perfect_information``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Traits:
    """The game type of one configuration of a game.

    ``stochastic``: the setup draws from the seed (a shuffle, a random first player), so an
    adapter models the seed as chance. ``zero_sum``: the returns of every finished game sum
    to zero (concessions included). ``perfect_information``: every seat sees everything.
    Dynamics are always sequential and the reward terminal (the contract's returns).
    """

    stochastic: bool = True
    zero_sum: bool = False
    perfect_information: bool = True
