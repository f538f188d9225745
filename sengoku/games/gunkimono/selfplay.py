"""Gunkimono's part of the self-play report (``sengoku selfplay gunkimono``).

The report itself is generic (:mod:`sengoku.arena.selfplay`); the game declares, through
``Gunkimono.scripted_players`` and ``Gunkimono.selfplay_figures``, its scripted ``balanced``
player (mixes honor and victory points) and its figures: game length in turns, when
strongholds are built (as a fraction of the game) and banners claimed. The honor-track rows
are reconstructed values; this report is how they are checked against the spec's target (a
balanced player builds the first stronghold around mid-game).
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Sequence
from typing import Any, cast

from sengoku.core.game import State
from sengoku.games.gunkimono.actions import BuildStronghold, GunkimonoAction, Score
from sengoku.games.gunkimono.state import GunkimonoState


def balanced_choice(state: GunkimonoState, rng: random.Random) -> GunkimonoAction:
    """A scripted "balanced" player for the report: random placements and draws; honor for
    a troop whose formation is small (under 3), victory points otherwise; strongholds on
    the largest free formation."""
    legal = state.legal_actions()
    if state.sequence.phase == "score":
        vp = state.scoring.pending[0][3]
        honor = [a for a in legal if isinstance(a, Score) and a.honor]
        points = [a for a in legal if isinstance(a, Score) and not a.honor]
        if honor and (vp < 3 or not points):
            return honor[0]
        return points[0] if points else legal[0]
    if state.sequence.phase == "stronghold":
        builds = [a for a in legal if isinstance(a, BuildStronghold)]
        if builds:
            return max(builds, key=lambda a: (len(state.formation(a.cell)), -a.cell))
    return rng.choice(legal)


def figures(finals: Sequence[State]) -> dict[str, Any]:
    """Gunkimono's figures for a self-play report (``Gunkimono.selfplay_figures``): game
    length in turns, scores with claimed banners, when strongholds are built (as a fraction
    of the game) and banners claimed."""
    states = [cast(GunkimonoState, st) for st in finals]
    players = states[0].num_players
    first_built: list[float] = []  # turn of each seat's first stronghold / game turns
    for st in states:
        firsts: dict[int, int] = {}
        for seat, turn in st.fortresses.built_at:
            firsts.setdefault(seat, turn)
        first_built.extend(t / max(st.sequence.turns, 1) for t in firsts.values())
    finals_scores = [st.final_scores() for st in states]
    return {
        "mean_final_score_by_seat": [
            round(statistics.mean(f[s] for f in finals_scores), 1) for s in range(players)
        ],
        "mean_turns": round(statistics.mean(st.sequence.turns for st in states), 1),
        "strongholds_built_per_game": round(
            statistics.mean(len(st.fortresses.built_at) for st in states), 2
        ),
        "players_with_a_stronghold": round(len(first_built) / (len(states) * players), 3),
        "first_stronghold_at_fraction_of_game": (
            round(statistics.median(first_built), 2) if first_built else None
        ),
        "banners_claimed_per_game": round(
            statistics.mean(sum(len(b) for b in st.war_banners.banners) for st in states), 2
        ),
    }
