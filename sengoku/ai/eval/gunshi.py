"""Gunshi knowledge: invasion progress and the armies left on the field.

Reads ``invaders`` (units that have invaded, per side), and the unit tables ``uown`` /
``uloc`` (owner and cell of each unit token; a cell below ``CELLS`` is on the field). The
Shogun's identity is hidden; agents evaluate determinizations, so a Shogun threat is seen
only as a sampled one, and this evaluation does not try to read it.
"""

from __future__ import annotations

from typing import Any

from sengoku.ai.eval import Knowledge
from sengoku.core.game import State
from sengoku.games.gunshi.data import CELLS, INVADERS_TO_WIN


class GunshiKnowledge(Knowledge):
    hidden_information = True
    rollout_depth = 30
    # IS-MCTS ran 1500 / 1100 / 900 iterations a second here on an idle machine, 370 / 210 / 70
    # under heavy load (gunshi / sashimono / gunkimono): see docs/ai.md, Speed.
    search_ladder = (5, 20, 60, 250)

    def heuristic(self, state: State, seat: int) -> float:
        s: Any = state
        other = 1 - seat
        invasion = (s.invaders[seat] - s.invaders[other]) / max(INVADERS_TO_WIN, 1)
        on_field = [0, 0]
        for owner, cell in zip(s.uown, s.uloc, strict=True):
            if owner in (0, 1) and 0 <= cell < CELLS:
                on_field[owner] += 1
        return 2.0 * invasion + 0.15 * (on_field[seat] - on_field[other])


KNOWLEDGE = GunshiKnowledge()
