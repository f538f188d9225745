"""Gunkimono knowledge: the score race (victory points and banners), strongholds, honor.

Reads ``final_scores()`` (victory points plus claimed banner values; other players' banner
values are hidden, so agents see sampled ones), ``strongholds`` and ``honor`` (each troop
type's row on the honor track; a removed marker is negative).
"""

from __future__ import annotations

from typing import Any

from sengoku.ai.eval import Knowledge
from sengoku.core.game import State


class GunkimonoKnowledge(Knowledge):
    hidden_information = True
    rollout_depth = 12
    # IS-MCTS ran 1500 / 1100 / 900 iterations a second here on an idle machine, 370 / 210 / 70
    # under heavy load (gunshi / sashimono / gunkimono): see docs/ai.md, Speed.
    search_ladder = (3, 8, 15, 50)

    def seat_value(self, state: Any, seat: int, finals: list[int]) -> float:
        honor = sum(max(row, 0) for row in state.honor[seat])
        return float(finals[seat]) + 2.0 * len(state.strongholds[seat]) + 0.3 * honor

    def heuristic(self, state: State, seat: int) -> float:
        s: Any = state
        finals = s.final_scores()
        values = [self.seat_value(s, i, finals) for i in range(s.num_players)]
        others = [v for i, v in enumerate(values) if i != seat]
        return 0.1 * (values[seat] - max(others))


KNOWLEDGE = GunkimonoKnowledge()
