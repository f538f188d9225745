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

All of these are visible or sampled in a determinization. The weights of the terms are an
:class:`Evaluation`: the hand-made one below, or one tuned on self-play games
(``sengoku train sashimono --texel``; the agents' option ``eval=learned``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, fields
from typing import cast

from sengoku.core.features import Features, Level, NamedEvaluations, evaluation_from_file
from sengoku.core.game import Action, Game, State, package_file
from sengoku.games.sashimono.decisions import K_DONE, Act, Question
from sengoku.games.sashimono.state import KAGE, LINES, SashimonoState, attack_of, defence_of

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
#: The heuristic per victory point of lead (``evaluate`` squashes it with tanh).
SCALE = 0.4
#: Level 5's playouts: shorter than ``rollout_depth`` (30), so that the tuned evaluation, not
#: the random plies before it, sets most of a leaf's value, and a playout costs a third.
LEVEL5_ROLLOUT_DEPTH = 10
#: Level 5's prior knowledge: a new node's evaluation counts in its mean as this many
#: playouts (the search agents' ``prior_visits``; docs/ai.md, *Prior knowledge*).
LEVEL5_PRIOR_VISITS = 3
#: The ``informed`` playout policy: how often it takes the answer a player would, where a
#: uniform playout wastes its plies. Uniform play takes 2-3 times the turns a searching
#: player does (233 plies a game against 92 for level 3: it takes Score turns with nothing
#: bowed, ends its actions and Kumi placement early and takes its Sashimono back to hand),
#: so 10 uniform plies say little of what the next turn brings. The rest stays random, so
#: playouts still differ.
INFORMED_TURN = 0.8  # a Score turn exactly when a Sashimono of the seat's is bowed
INFORMED_GO_ON = 0.9  # perform an action, place a Kumi, rather than ``done``
INFORMED_KEEP = 0.75  # keep a Sashimono in play on a Score turn rather than return it
#: The playout policies besides the game's own uniform one (the agents' option ``rollout``).
ROLLOUT_POLICIES = ("informed",)
#: The tuned evaluation (``ismcts:...:eval=learned``; ``sengoku train sashimono --texel``).
LEARNED_PATH = package_file("sengoku.games.sashimono", "data", "weights", "sashimono_eval.json")


@dataclass(frozen=True)
class Evaluation:
    """The weight of each term of a side's value, in victory points, and the ``scale`` of
    the heuristic per point of lead (a seat's value less its enemy's)."""

    name: str
    vp: float = 1.0
    bowed: float = BOWED
    standing: float = STANDING
    line_attack: float = LINE_ATTACK
    line_defence: float = LINE_DEFENCE
    hand_kumi: float = HAND_KUMI
    hand_sashimono: float = HAND_SASHIMONO
    scale: float = SCALE


#: The weights' names, in the order of :func:`side_terms`.
TERMS = tuple(f.name for f in fields(Evaluation) if f.name not in ("name", "scale"))
#: The hand-made evaluation (every level plays it).
HAND_MADE = Evaluation("default")


def _read_evaluation(name: str) -> Evaluation:
    return evaluation_from_file("Sashimono", name, LEARNED_PATH, TERMS, Evaluation)


#: The evaluation an ``eval`` option names: ``default`` (hand-made), ``learned`` (the shipped
#: tuned weights, ``LEARNED_PATH``) or a weights file written by ``sengoku train sashimono --texel``.
evaluation_named = NamedEvaluations(HAND_MADE, _read_evaluation)


def bowed_count(state: SashimonoState, seat: int) -> int:
    """How many of ``seat``'s Sashimono in play are bowed (they score at its Score turn)."""
    side = state.sides[seat]
    return sum(1 for c, b in zip(side.slots, side.bowed, strict=True) if c is not None and b)


def informed_action(state: State, rng: random.Random) -> Action:
    """One ply of the ``informed`` playout: with the probabilities above, a Score turn
    exactly when something is bowed, an action or a Kumi placed rather than ``done``, and
    Sashimono kept in play; every other question (and the rest of the time) uniformly."""
    state = cast("SashimonoState", state)  # the rollout of the Sashimono features only
    legal = state.legal_acts()
    wanted: list[Act] = []
    prompt = state.prompt
    if len(legal) > 1 and prompt is not None:
        question = prompt.kind
        if question is Question.TURN and rng.random() < INFORMED_TURN:
            score = 1 if bowed_count(state, prompt.seat) else 0
            wanted = [a for a in legal if a.arg == score]
        elif question in (Question.DO, Question.PLACE) and rng.random() < INFORMED_GO_ON:
            wanted = [a for a in legal if a.kind != K_DONE]
        elif question is Question.RETURN_SAS and rng.random() < INFORMED_KEEP:
            wanted = [a for a in legal if a.kind == K_DONE]
    action: Action = rng.choice(wanted or legal)
    return action


def line_power(cells: list[str | None], lines: tuple[tuple[int, ...], ...]) -> tuple[int, int]:
    """The best attack and the best defence over ``lines`` of a Sonae."""
    attack = defence = 0
    size = len(cells)
    for line in lines:
        line_attack = line_defence = 0
        for i in line:
            if i < size:
                stack = cells[i]
                if stack:
                    line_attack += attack_of(stack)
                    line_defence += defence_of(stack)
        attack = max(attack, line_attack)
        defence = max(defence, line_defence)
    return attack, defence


def side_terms(state: SashimonoState, index: int) -> tuple[float, ...]:
    """The terms of side ``index``'s value, in the order of :data:`TERMS`: victory points,
    bowed and standing Sashimono, the best line's attack and defence, Kumi and Sashimono
    cards in hand (each up to ``HAND_CAP``)."""
    side = state.sides[index]
    if index == KAGE:
        bowed = sum(1 for b in side.sbowed if b)
        standing = len(side.sbowed) - bowed
        lines: tuple[tuple[int, ...], ...] = (tuple(range(len(side.cells))),)
    else:
        bowed = bowed_count(state, index)
        standing = sum(1 for c in side.slots if c is not None) - bowed
        lines = LINES
    attack, defence = line_power(side.cells, lines)
    return (
        float(side.vp),
        float(bowed),
        float(standing),
        float(attack),
        float(defence),
        float(min(len(side.hand), HAND_CAP)),
        float(min(len(side.shand), HAND_CAP)),
    )


class SashimonoFeatures(Features):
    hidden_information = True
    rollout_depth = 30
    # Greedy play on this evaluation beats random play (86-14), and 8 IS-MCTS iterations
    # beat greedy (33-7): levels 1-2 greedy, 3-4 IS-MCTS 8 and 32 iterations (4x apart, so
    # each level is clearly stronger than the one below; docs/ai.md, Strength).
    level_iterations = (8, 32)

    #: The terms of a side's value, and where the tuned weights ship
    #: (``sengoku train sashimono --texel``: :mod:`sengoku.arena.texel_terms`).
    terms = TERMS
    learned_path = LEARNED_PATH
    #: ``sengoku train sashimono --texel`` fits the terms' weights (arena/texel_terms.py).
    texel = "terms"

    rollout_policies = ROLLOUT_POLICIES

    def __init__(self, evaluation: Evaluation = HAND_MADE, rollout: str = "default") -> None:
        self.evaluation = evaluation
        self.weights: tuple[float, ...] = tuple(float(getattr(evaluation, t)) for t in TERMS)
        self.rollout = rollout
        if rollout == "informed":
            self.rollout_action = informed_action  # type: ignore[method-assign]

    def with_evaluation(self, name: str) -> SashimonoFeatures:
        """These features with another evaluation (see :func:`evaluation_named`): the
        search agents' ``eval`` option."""
        evaluation = evaluation_named(name)
        if evaluation is self.evaluation:
            return self
        return SashimonoFeatures(evaluation, self.rollout)

    def with_rollout(self, name: str) -> SashimonoFeatures:
        """These features with the playout policy ``name``: ``default`` (uniform) or
        ``informed`` (:func:`informed_action`): the search agents' ``rollout`` option."""
        self.check_rollout(name)
        return self if name == self.rollout else SashimonoFeatures(self.evaluation, name)

    def lead_terms(self, state: State, seat: int) -> tuple[float, ...]:
        """Each term of ``seat``'s side less its enemy's (the evaluation is their weighted
        sum times the scale)."""
        s = cast("SashimonoState", state)
        mine, theirs = side_terms(s, seat), side_terms(s, s.enemy(seat))
        return tuple(m - t for m, t in zip(mine, theirs, strict=True))

    @staticmethod
    def hand_made_weights() -> tuple[tuple[float, ...], float]:
        """The hand-made evaluation's weights (in the order of ``terms``) and scale."""
        return tuple(float(getattr(HAND_MADE, t)) for t in TERMS), HAND_MADE.scale

    def side_value(self, state: SashimonoState, index: int) -> float:
        return sum(w * t for w, t in zip(self.weights, side_terms(state, index), strict=True))

    def heuristic(self, state: State, seat: int) -> float:
        s = cast("SashimonoState", state)
        mine = self.side_value(s, seat)
        theirs = self.side_value(s, s.enemy(seat))
        scale: float = self.evaluation.scale
        return scale * (mine - theirs)

    def levels(self, game: Game) -> dict[int, Level]:
        levels = super().levels(game)
        name, options = levels[5]
        # Level 5 reads the tuned evaluation (``eval=learned``: the hand-made weights with
        # their scale fitted to self-play results) at the end of 10-ply playouts: at level
        # 5's own time it beat the level 5 of 30-ply playouts on the hand-made evaluation,
        # where neither change alone did (docs/ai.md). Since 28 November 2026 a new node's
        # evaluation also counts as three playouts in its mean (``prior_visits``), which beat
        # that level 5 in a pre-registered 200-game run. Levels 1-4 are as they were.
        tuned = {
            **options,
            "eval": "learned",
            "rollout_depth": LEVEL5_ROLLOUT_DEPTH,
            "prior_visits": LEVEL5_PRIOR_VISITS,
        }
        return {**levels, 5: (name, tuned)}


FEATURES = SashimonoFeatures()
