"""Gunshi's evaluation features for the AI: invasion progress, threats to the Shogun and to invaders, the armies.

Reads, for each side (a seat's value is its side's minus the other's):

* invasion: ``invaders`` (units on the Invader Spot, over the number that wins);
* threats: units of the side next to a unit that may be the enemy Shogun (the enemy's
  ``candidates`` on the field, each counted by its chance to be the Shogun: one in how many
  remain, or certainly ``shogun`` once ``revealed``), and units next to an enemy unit that
  is more than halfway to its Invasion Zone (an invader to stop; ``uloc``, the zone's
  columns from the ``invasion_zone`` option);
* the army: each unit on the field by its cost.

Two terms were tried and left out, measured with one-ply greedy play against random: each
unit's approach to its zone (0.25 a unit at the zone, progress squared) and logistics
(command ``points`` left, 0.03 a point) lowered its score (40 games, seed 7: 19-21 against
27-13 for the previous evaluation; with 0.04 and 0.01: 133-167 over 300 games, seed 11,
against 184-116), apparently by holding back units and points (see docs/ai.md).

Facing, Fences and Shields are left out: "next to" is orthogonal adjacency. The Shogun's
identity is hidden; the candidates are public, and agents hand over determinizations, in
which a seat's own Shogun is its true one.

The same reads are also the *terms* of a side (:func:`side_terms`), with three the hand-made
evaluation weighs at 0 (each unit's approach to its zone, command points, units on the
field): ``sengoku train gunshi --texel`` fits their weights to self-play results
(:mod:`sengoku.arena.texel_terms`), and the search agents' option ``eval`` plays a fitted
:class:`Evaluation`. The hand-made one keeps its own code below, so every level that does
not ask for another evaluation plays exactly as before.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, fields

from sengoku.core.features import Features, Level, NamedEvaluations, evaluation_from_file
from sengoku.core.game import Game, State, package_file
from sengoku.games.gunshi.data import (
    CELLS,
    INVADERS_TO_WIN,
    NEIGHBOUR,
    RED,
    SIZE,
    TOKEN_TYPE,
    UNITS,
)
from sengoku.games.gunshi.state import GunshiState

#: Pressing for a result (issue 41; docs/ai.md, "Pressing for a result"): a game still
#: running after PRESSURE_FROM plies also counts each unit's approach to its Invasion Zone
#: (``progress``: 0 on its own back row, 1 in the zone; the side's sum minus the other's),
#: at a weight a unit that grows over PRESSURE_RAMP plies to APPROACH_MAX. Early on the
#: term is 0 (it made one-ply play weaker as a fixed term, see above); against a player who
#: waits, it makes every level march on the Invasion Zone.
PRESSURE_FROM = 150
PRESSURE_RAMP = 100
APPROACH_MAX = 0.5


def approach_weight(ply: int, most: float = APPROACH_MAX) -> float:
    """The weight a unit of the approach term after ``ply`` plies (0 until PRESSURE_FROM)."""
    return most * min(1.0, max(0, ply - PRESSURE_FROM) / PRESSURE_RAMP)


#: Weights, in the heuristic's units.
INVASION = 2.0  # per INVADERS_TO_WIN invaders
SHOGUN_THREAT = 1.0  # per enemy Shogun (certain) next to one of the side's units
BLOCK = 0.3  # per advanced enemy unit next to one of the side's units, times its progress
ARMY = 0.05  # per point of cost of each unit on the field


@dataclass(frozen=True)
class Evaluation:
    """The weight of each term of a side (:func:`side_terms`), in invasions (one side's
    full Invader Spot), and the heuristic's ``scale`` per invasion of lead."""

    name: str
    invasion: float = 1.0
    shogun_threat: float = SHOGUN_THREAT / INVASION
    block: float = BLOCK / INVASION
    army: float = ARMY / INVASION
    approach: float = 0.0
    points: float = 0.0
    units: float = 0.0
    shogun_next: float = 0.0
    shogun_close: float = 0.0
    scale: float = INVASION


#: The terms' names, in the order of :func:`side_terms`.
TERMS = tuple(f.name for f in fields(Evaluation) if f.name not in ("name", "scale"))
#: Where the approach term is in a lead (the pressure term adds to its weight).
_APPROACH = TERMS.index("approach")
#: The hand-made evaluation (its weights are the module's constants above).
HAND_MADE = Evaluation("default")
#: The tuned evaluation (``ismcts:...:eval=learned``; ``sengoku train gunshi --texel``).
LEARNED_PATH = package_file("sengoku.games.gunshi", "weights", "gunshi_eval.json")


def _read_evaluation(name: str) -> Evaluation:
    return evaluation_from_file("Gunshi", name, LEARNED_PATH, TERMS, Evaluation)


#: The evaluation an ``eval`` option names: ``default`` (hand-made), ``learned`` (the shipped
#: tuned weights, ``LEARNED_PATH``) or a weights file written by ``sengoku train gunshi --texel``.
evaluation_named = NamedEvaluations(HAND_MADE, _read_evaluation)


def zone_distance(invasion_zone: str, cell: int, seat: int) -> int:
    """Orthogonal steps from ``cell`` to the nearest cell of ``seat``'s Invasion Zone."""
    r, c = divmod(cell, SIZE)
    rows = abs((SIZE - 1 if seat == RED else 0) - r)
    if invasion_zone == "back_line":
        return rows
    return rows + max(0, 2 - c, c - 4)


def progress(invasion_zone: str, cell: int, seat: int) -> float:
    """0 on the side's own back row, 1 in its Invasion Zone."""
    return max(0.0, 1.0 - zone_distance(invasion_zone, cell, seat) / (SIZE - 1))


#: ``progress(zone, cell, seat)`` for each invasion_zone option, seat and cell: the same
#: floats, looked up (the heuristic runs at the end of every rollout).
_PROGRESS: dict[str, tuple[tuple[float, ...], ...]] = {
    zone: tuple(tuple(progress(zone, c, seat) for c in range(CELLS)) for seat in (0, 1))
    for zone in ("back_line", "centre_three")
}
#: Each cell's neighbours on the board.
_NEAR: tuple[tuple[int, ...], ...] = tuple(tuple(n for n in nb if n >= 0) for nb in NEIGHBOUR)
#: Each token's unit cost.
_TOKEN_COST: tuple[int, ...] = tuple(UNITS[t].cost for t in TOKEN_TYPE)


class GunshiFeatures(Features):
    hidden_information = True
    rollout_depth = 30
    #: The terms of a side's value, and where the tuned weights ship
    #: (``sengoku train gunshi --texel``: :mod:`sengoku.arena.texel_terms`).
    terms = TERMS
    learned_path = LEARNED_PATH
    texel = "terms"
    # One-ply greedy play is barely better than random here (a Gunshi turn is several
    # sub-decisions: card, unit, direction), so level 1 is greedy and levels 2-4 are IS-MCTS
    # searches about 2.5x apart; a game is hundreds of sub-decisions, so their budgets stay
    # small (docs/ai.md, Strength).
    ismcts_levels = (5, 12, 30)
    #: The approach term's full weight (``approach_weight``; 0: no pressure, the evaluation
    #: as it was before issue 41, which benchmarks/ai.py compares against).
    approach_max = APPROACH_MAX

    def __init__(self, evaluation: Evaluation = HAND_MADE) -> None:
        self.evaluation = evaluation
        self.weights: tuple[float, ...] = tuple(float(getattr(evaluation, t)) for t in TERMS)

    def with_evaluation(self, name: str) -> GunshiFeatures:
        """These features with another evaluation (:func:`evaluation_named`): the search
        agents' ``eval`` option. The pressure term stays as it is."""
        evaluation = evaluation_named(name)
        if evaluation is self.evaluation:
            return self
        other = copy.copy(self)
        other.evaluation = evaluation
        other.weights = tuple(float(getattr(evaluation, t)) for t in TERMS)
        return other

    @staticmethod
    def hand_made_weights() -> tuple[tuple[float, ...], float]:
        """The hand-made evaluation's weights (in the order of ``terms``) and scale."""
        return tuple(float(getattr(HAND_MADE, t)) for t in TERMS), HAND_MADE.scale

    def side_terms(
        self, state: GunshiState, seat: int, cells: list[list[int]], army: list[float]
    ) -> list[float]:
        """The terms of ``seat``'s side, in the order of :data:`TERMS`: its invaders (in full
        Invader Spots), the enemy Shogun's odds next to its units, the advanced enemy units it
        stands next to (by their progress), its army's cost, its units' approach to its
        Invasion Zone, its command points, its units on the field, and its units one and
        two orthogonal steps from the enemy's Shogun as the state has it."""
        other = 1 - seat
        near: set[int] = set()
        for cell in cells[seat]:
            near.update(_NEAR[cell])
        threat = 0.0
        for u, odds in self.shogun_odds(state, other).items():
            if state.field.uloc[u] in near:
                threat += odds
        zone = state.options["invasion_zone"]
        table = _PROGRESS.get(zone)
        block = 0.0
        for cell in cells[other]:
            if cell in near:
                advance = progress(zone, cell, other) if table is None else table[other][cell]
                if advance > 0.5:
                    block += advance
        # The enemy's Shogun as this state has it (agents evaluate determinizations: the
        # enemy's is a sample of what the seat may believe, its own the true one).
        next_to = close = 0
        shogun = state.shoguns.shogun[other]
        target = state.field.uloc[shogun] if shogun >= 0 else -1
        if 0 <= target < CELLS:
            tr, tc = divmod(target, SIZE)
            for cell in cells[seat]:
                r, c = divmod(cell, SIZE)
                steps = abs(r - tr) + abs(c - tc)
                next_to += steps == 1
                close += steps == 2
        approach = 0.0
        for cell in cells[seat]:
            approach += progress(zone, cell, seat) if table is None else table[seat][cell]
        return [
            state.invader_spot.invaders[seat] / max(INVADERS_TO_WIN, 1),
            threat,
            block,
            army[seat],
            approach,
            float(state.logistics.points[seat]),
            float(len(cells[seat])),
            float(next_to),
            float(close),
        ]

    def lead_terms(self, state: State, seat: int) -> tuple[float, ...]:
        """Each term of ``seat``'s side less its enemy's (the tuned evaluation is their
        weighted sum times the scale, before the pressure term)."""
        assert isinstance(state, GunshiState)
        cells, army = _cells(state)
        mine = self.side_terms(state, seat, cells, army)
        theirs = self.side_terms(state, 1 - seat, cells, army)
        return tuple(m - t for m, t in zip(mine, theirs, strict=True))

    def without_pressure(self) -> GunshiFeatures:
        """The evaluation without the approach term (analysis and puzzles read a position's
        worth, not how to press on)."""
        if not self.approach_max:
            return self
        plain = copy.copy(self)
        plain.approach_max = 0.0
        return plain

    def levels(self, game: Game) -> dict[int, Level]:
        low, mid, high = self.ismcts_levels
        return {
            1: ("greedy", {}),
            2: ("ismcts", {"iterations": low}),
            3: ("ismcts", {"iterations": mid}),
            4: ("ismcts", {"iterations": high}),
            # Level 5 reads the tuned evaluation (docs/ai.md, *Gunshi: a tuned evaluation*):
            # at level 5's own time it beat the level 5 of the hand-made evaluation in two
            # pre-registered 200-game runs. Levels 1-4 play the hand-made one as before.
            5: ("ismcts", {"seconds": 1.0, "eval": "learned"}),
        }

    def shogun_odds(self, state: GunshiState, seat: int) -> dict[int, float]:
        """Each unit of ``seat`` on the field: its chance to be ``seat``'s Shogun, as the
        other side may judge it (only the public candidates, or the revealed Shogun)."""
        if state.shoguns.revealed[seat] and state.shoguns.shogun[seat] >= 0:
            return {state.shoguns.shogun[seat]: 1.0}
        cands = list(state.shoguns.candidates[seat])
        if not cands:
            return {}
        share = 1.0 / len(cands)
        return {u: share for u in cands if 0 <= state.field.uloc[u] < CELLS}

    def side_value(self, state: GunshiState, seat: int, cells: list[list[int]]) -> float:
        other = 1 - seat
        value: float = INVASION * state.invader_spot.invaders[seat] / max(INVADERS_TO_WIN, 1)
        near: set[int] = set()
        for cell in cells[seat]:
            near.update(_NEAR[cell])
        for u, odds in self.shogun_odds(state, other).items():
            if state.field.uloc[u] in near:
                value += SHOGUN_THREAT * odds
        zone = state.options["invasion_zone"]
        advances = _PROGRESS[zone][other] if zone in _PROGRESS else None
        for cell in cells[other]:
            if cell in near:
                advance = progress(zone, cell, other) if advances is None else advances[cell]
                if advance > 0.5:
                    value += BLOCK * advance
        return value

    def heuristic(self, state: State, seat: int) -> float:
        assert isinstance(state, GunshiState)
        if self.evaluation is not HAND_MADE:
            return self.tuned_heuristic(state, seat)
        s = state
        cells: list[list[int]] = [[], []]
        army = [0.0, 0.0]
        for owner, cell, cost in zip(s.field.uown, s.field.uloc, _TOKEN_COST, strict=True):
            if owner in (0, 1) and 0 <= cell < CELLS:
                cells[owner].append(cell)
                army[owner] += cost
        other = 1 - seat
        value = self.side_value(s, seat, cells) - self.side_value(s, other, cells)
        value += ARMY * (army[seat] - army[other])
        weight = approach_weight(s.ply, self.approach_max)
        if weight:
            zone = s.options["invasion_zone"]
            table = _PROGRESS.get(zone)
            approach = [0.0, 0.0]
            for side in (0, 1):
                for cell in cells[side]:
                    approach[side] += (
                        table[side][cell] if table is not None else progress(zone, cell, side)
                    )
            value += weight * (approach[seat] - approach[other])
        return value

    def tuned_heuristic(self, state: GunshiState, seat: int) -> float:
        """A fitted evaluation: the weighted lead in each term times the scale, plus the
        pressure term as the hand-made evaluation adds it (its approach term's weight)."""
        lead = self.lead_terms(state, seat)
        value = self.evaluation.scale * sum(w * t for w, t in zip(self.weights, lead, strict=True))
        weight = approach_weight(state.ply, self.approach_max)
        if weight:
            value += weight * lead[_APPROACH]
        return value


def _cells(state: GunshiState) -> tuple[list[list[int]], list[float]]:
    """Each side's units' cells on the field, and its army there (their costs), in one pass."""
    cells: list[list[int]] = [[], []]
    army = [0.0, 0.0]
    for owner, cell, cost in zip(state.field.uown, state.field.uloc, _TOKEN_COST, strict=True):
        if owner in (0, 1) and 0 <= cell < CELLS:
            cells[owner].append(cell)
            army[owner] += cost
    return cells, army


FEATURES = GunshiFeatures()
