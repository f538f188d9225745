"""Sashimono knowledge: the victory point race.

Reads each side's ``vp``. In the solo game the second side is the Kagemusha.
"""

from __future__ import annotations

from typing import Any

from sengoku.ai.eval import Knowledge
from sengoku.core.game import State


class SashimonoKnowledge(Knowledge):
    hidden_information = True
    rollout_depth = 30
    # IS-MCTS ran 1500 / 1100 / 900 iterations a second here on an idle machine, 370 / 210 / 70
    # under heavy load (gunshi / sashimono / gunkimono): see docs/ai.md, Speed.
    search_ladder = (5, 15, 40, 150)

    def side_value(self, side: Any) -> float:
        # Victory points only: rewarding standing Sashimono or cards kept in hand made
        # one-ply greedy play lose to random play (measured), so they are left out.
        return float(side.vp)

    def heuristic(self, state: State, seat: int) -> float:
        sides: Any = state.sides  # type: ignore[attr-defined]
        mine = self.side_value(sides[seat])
        others = [self.side_value(s) for i, s in enumerate(sides) if i != seat]
        return 0.4 * (mine - max(others)) if others else 0.0


KNOWLEDGE = SashimonoKnowledge()
