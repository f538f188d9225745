"""Sashimono knowledge: victory points, then Sashimono that still stand (not bowed).

Reads each side's ``vp``, ``slots`` (the Sashimono spaces, a card or None) and ``bowed``
flags, and ``hand``. In the solo game the second side is the Kagemusha.
"""

from __future__ import annotations

from typing import Any

from sengoku.ai.eval import Knowledge
from sengoku.core.game import State


class SashimonoKnowledge(Knowledge):
    hidden_information = True
    rollout_depth = 30
    # About 370 / 210 / 70 IS-MCTS iterations a second here (gunshi / sashimono / gunkimono).
    level_iterations = (40, 150)

    def side_value(self, side: Any) -> float:
        standing = sum(
            1
            for card, bowed in zip(side.slots, side.bowed, strict=True)
            if card is not None and not bowed
        )
        return float(side.vp) + 0.3 * standing + 0.05 * len(side.hand)

    def heuristic(self, state: State, seat: int) -> float:
        sides: Any = state.sides  # type: ignore[attr-defined]
        mine = self.side_value(sides[seat])
        others = [self.side_value(s) for i, s in enumerate(sides) if i != seat]
        return 0.4 * (mine - max(others)) if others else 0.0


KNOWLEDGE = SashimonoKnowledge()
