"""Sashimono's evaluation features for the AI: the victory point race, bowed Sashimono, line power and hand.

Reads, for the seat's side and its enemy (``state.enemy``: the other player in a duel, the
Kagemusha in the solo game, whose unused side 1 is never read):

* ``vp``: victory points;
* bowed Sashimono (``slots``/``bowed``; the Kagemusha's ``sline``/``sbowed``): a bowed one
  scores at its owner's next Score turn, so it is worth most of a point; an unbowed one in a
  slot only a little;
* line power: the best line's attack and defence (face-down stacks count their rank), from
  the Sonae ``cells``;
* the hand: Kumi cards (``hand``), very little each (Sashimono cards in hand, ``shand``,
  count nothing: rewarding them made greedy play keep them instead of placing them).

All of these are visible or sampled in a determinization.
"""

from __future__ import annotations

from typing import Any

from sengoku.core.features import Features
from sengoku.core.game import State
from sengoku.games.sashimono.state import KAGE, LINES, attack_of, defence_of

#: Weights of the terms, in victory points.
BOWED = 0.6
STANDING = 0.1
LINE_ATTACK = 0.05
LINE_DEFENCE = 0.04
#: Kumi in hand, up to HAND_CAP: small, since a card kept is a card not played (at 0.04 a
#: card, and 0.02 a Sashimono card, one-ply greedy play hoarded and lost to random: measured).
HAND_KUMI = 0.01
HAND_SASHIMONO = 0.0
HAND_CAP = 3


def line_power(cells: list[str | None], lines: tuple[tuple[int, ...], ...]) -> tuple[int, int]:
    """The best attack and the best defence over ``lines`` of a Sonae."""
    attack = defence = 0
    for line in lines:
        stacks = [cells[i] for i in line if i < len(cells) and cells[i]]
        attack = max(attack, sum(attack_of(st) for st in stacks if st))
        defence = max(defence, sum(defence_of(st) for st in stacks if st))
    return attack, defence


class SashimonoFeatures(Features):
    hidden_information = True
    rollout_depth = 30
    # Greedy play on this evaluation beats random play (86-14), and 8 IS-MCTS iterations
    # beat greedy (33-7): levels 1-2 greedy, 3-4 IS-MCTS 8 and 32 iterations (4x apart, so
    # each level is clearly stronger than the one below; docs/ai.md, Strength).
    level_iterations = (8, 32)

    def side_value(self, state: Any, index: int) -> float:
        side = state.sides[index]
        if index == KAGE:
            bowed = sum(1 for b in side.sbowed if b)
            standing = len(side.sbowed) - bowed
            lines: tuple[tuple[int, ...], ...] = (tuple(range(len(side.cells))),)
        else:
            bowed = sum(
                1 for c, b in zip(side.slots, side.bowed, strict=True) if c is not None and b
            )
            standing = sum(1 for c in side.slots if c is not None) - bowed
            lines = LINES
        attack, defence = line_power(side.cells, lines)
        hand = min(len(side.hand), HAND_CAP) * HAND_KUMI
        hand += min(len(side.shand), HAND_CAP) * HAND_SASHIMONO
        return (
            float(side.vp)
            + BOWED * bowed
            + STANDING * standing
            + LINE_ATTACK * attack
            + LINE_DEFENCE * defence
            + hand
        )

    def heuristic(self, state: State, seat: int) -> float:
        s: Any = state
        mine = self.side_value(s, seat)
        theirs = self.side_value(s, s.enemy(seat))
        return 0.4 * (mine - theirs)


FEATURES = SashimonoFeatures()
