"""IS-MCTS plays each world's own action (sengoku/ai/tree.py, ``descend_available``).

An IS-MCTS node is an action sequence; its children's actions were made in whichever
determinization first met them. Two worlds may hold *equal* actions (equal by the game's
``==``: what ``action_to_int`` numbers) that still differ in what else they carry, and a
game may take only its own: Sashimono's "done" (finish a card's actions) and "end" (place no
more Kumi) are both action 369, and which question is asked after the same moves depends on
the hidden cards. The search used to apply the node's action, made in another world, and a
level-5 Sashimono game stopped on "action number 369 is 'done', but the action's text is
'end'". This toy game makes every action carry a note that depends on the opponent's hidden
hand, and refuses an action whose note is not the position's own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sengoku.ai import make_agent
from sengoku.ai.base import Budget
from sengoku.core.game import Event, IllegalAction
from tests.toygames import HighTrick, HighTrickState, Play


@dataclass(frozen=True, order=True)
class NotedPlay:
    """A card played; ``note`` (not part of equality) depends on hidden cards."""

    card: int
    note: str = field(compare=False, default="")

    def __str__(self) -> str:
        return f"play {self.card}"


class NotedState(HighTrickState):
    def note(self) -> str:
        # What the opponents hold: hidden from the seat to act, so it differs between the
        # worlds a search deals.
        return str(sum(sum(h) for s, h in enumerate(self.hands) if s != self.player))

    def legal_actions(self) -> list[Any]:
        note = self.note()
        return [NotedPlay(p.card, note) for p in super().legal_actions()]

    def apply(self, action: Any) -> list[Event]:
        if not isinstance(action, NotedPlay) or action.note != self.note():
            raise IllegalAction(f"{action!r} is not this position's action")
        return super().apply(Play(action.card))

    def clone(self) -> NotedState:
        st = NotedState.__new__(NotedState)
        st.__dict__.update(super().clone().__dict__)
        return st


class NotedTrick(HighTrick):
    def new_state(self, seed: int = 0, **options: Any) -> NotedState:
        plain = super().new_state(seed, **options)
        st = NotedState.__new__(NotedState)
        st.__dict__.update(plain.__dict__)
        return st


def test_ismcts_applies_the_worlds_own_action_of_a_node() -> None:
    game = NotedTrick()
    for seed in range(4):
        state = game.new_state(seed, hand=4)
        for spec in ("ismcts", "level5"):
            agent = make_agent(game, spec, seed=seed)
            # Many iterations from the root: every root child is expanded in one world and
            # then chosen again in others, whose notes differ.
            action = agent.choose(state, 0, Budget(iterations=200))
            assert action in state.legal_actions()
            assert action.note == state.note()  # the real position's own action
            state.clone().apply(action)
