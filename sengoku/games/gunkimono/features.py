"""Gunkimono's evaluation features for the AI: the score race, stronghold income and potential, the honor races.

Reads, per seat, against the best other seat:

* ``final_scores()``: victory points plus claimed banner values (other players' banner
  values are hidden, so agents see sampled ones);
* stronghold income: every turn a stronghold scores the size of its formation
  (``strongholds``, ``formation``), so a built one is worth its formation's size a few times;
* stronghold potential: while a seat has a stronghold left to build, how near its honor
  markers are to the next stronghold row (``honor``, the rows in the game's components),
  times the largest formation it could then build on (``strongholds.stronghold_cells``);
* the honor races: each column's marker progress towards the banner row, weighted by the
  lead over the best other seat in that column (the first there claims the best banner).

Everything read is visible, or sampled in a determinization (banner values, hands).
"""

from __future__ import annotations

import random
from typing import Final, cast

from sengoku.core.features import Features
from sengoku.core.game import Action, State
from sengoku.games.gunkimono.data import components
from sengoku.games.gunkimono.formations import formations
from sengoku.games.gunkimono.honor_track import REMOVED
from sengoku.games.gunkimono.state import GunkimonoState
from sengoku.games.gunkimono.strongholds import stronghold_cells

_C: Final = components()
#: The mean value of a banner (all kinds and columns): what a finished honor race is worth.
BANNER_MEAN: Final = sum(sum(v) for v in _C.banner_values) / sum(len(v) for v in _C.banner_values)

#: Weights, in victory points.
INCOME: Final = 2.0  # per square of a formation that holds one of the seat's strongholds
POTENTIAL: Final = 1.0  # per square of the best formation to build on, times readiness (0..1)
HONOR: Final = 0.6  # times BANNER_MEAN, per column at the banner row (progress squared)
RACE: Final = 0.3  # per row of lead over the best other seat, in a column still open


class GunkimonoFeatures(Features):
    hidden_information = True
    rollout_depth = 12
    # Greedy play reads the whole board for every placement (0.025 s a move) and is as
    # strong as IS-MCTS with 10-30 iterations, so all four levels are IS-MCTS searches, 3x
    # apart (about 1 ms an iteration here; docs/ai.md, Strength).
    search_ladder = (3, 9, 27, 81)

    def rollout_action(self, state: State, rng: random.Random) -> Action:
        """Uniformly random, as the core's policy, with the same draw; a Gunkimono state's
        from its kept legal list (``rollout_choice``: not copied, and not checked again by
        ``apply``: a playout ply's legal list is some 650 placements)."""
        if isinstance(state, GunkimonoState):
            return state.rollout_choice(rng)
        return super().rollout_action(state, rng)

    def income(self, state: GunkimonoState, seat: int) -> int:
        return sum(state.formation_size(c) for c in state.fortresses.strongholds[seat])

    def readiness(self, state: GunkimonoState, seat: int) -> float:
        """1 when the next stronghold is due, falling with the honor rows still missing."""
        built = len(state.fortresses.strongholds[seat])
        if built >= 2:
            return 0.0
        row = _C.stronghold_rows[state.num_players][built]
        removed_ok = state.options["removed_marker_counts"]
        missing = 0
        for r in state.honor_track.honor[seat]:
            if r == REMOVED:
                missing += 0 if removed_ok else row
            else:
                missing += max(0, row - r)
        return 1.0 / (1.0 + 0.5 * missing)

    def best_site(self, state: GunkimonoState, seat: int) -> int:
        """The largest formation the seat could build a stronghold on now."""
        cells = stronghold_cells(state, seat)
        if not cells:
            return 0
        board = formations(state)  # sizes of every formation, computed once per board
        comp: list[int] = board.comp
        size: list[int] = board.size
        # A loop (compiled with mypyc, ``max`` over ``map`` of bound methods is generic).
        best = 0
        for c in cells:
            n = size[comp[c]]
            if n > best:
                best = n
        return best

    def honor_value(self, state: GunkimonoState, seat: int) -> float:
        end = _C.ending_row[state.num_players]
        value = 0.0
        for troop, r in enumerate(state.honor_track.honor[seat]):
            if r == REMOVED or not state.war_banners.banner_stacks[troop]:
                continue
            value += HONOR * BANNER_MEAN * (r / end) ** 2
            others = [
                state.honor_track.honor[o][troop]
                for o in range(state.num_players)
                if o != seat and state.honor_track.honor[o][troop] != REMOVED
            ]
            lead = r - max(others) if others else r
            value += RACE * max(-3, min(3, lead))
        return value

    def seat_value(self, state: GunkimonoState, seat: int, finals: list[int]) -> float:
        value = float(finals[seat]) + INCOME * self.income(state, seat)
        ready = self.readiness(state, seat)
        if ready > 0.0:
            value += POTENTIAL * ready * self.best_site(state, seat)
        return value + self.honor_value(state, seat)

    def heuristic(self, state: State, seat: int) -> float:
        s = cast("GunkimonoState", state)
        finals = s.final_scores()
        values = [self.seat_value(s, i, finals) for i in range(s.num_players)]
        others = [v for i, v in enumerate(values) if i != seat]
        return 0.05 * (values[seat] - max(others))


FEATURES: Final = GunkimonoFeatures()
