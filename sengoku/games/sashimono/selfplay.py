"""Sashimono's part of the self-play report, the balance of a card set (``sengoku selfplay
sashimono``).

The report itself is generic (:mod:`sengoku.arena.selfplay`: the same agent on every seat,
any agent ``sengoku.ai`` knows, e.g. ``--agent ismcts:iterations=8``); the game declares,
through ``Sashimono.scripted_players`` and ``Sashimono.selfplay_figures``, its scripted
``greedy`` player (one decision ahead on a plain VP/bow evaluation, choosing from a
determinization: it sees only what its seat may see) and its figures: each army's wins with a
95% Wilson interval (in the solo game the player's against the Kagemusha), and how often each
card was scored (the share of games in which it was scored at least once, over the mean of
all cards: the spec's limit is 2x).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any, cast

from sengoku.core.game import State
from sengoku.games.sashimono.decisions import Act
from sengoku.games.sashimono.state import SashimonoState


def _value(st: SashimonoState, seat: int) -> float:
    result = st.outcome()
    if result is not None:
        return 1000.0 * (result.returns[seat] if seat < len(result.returns) else -1.0)
    me, foe = st.sides[seat], st.sides[st.enemy(seat)]
    mine = sum(1 for c, b in zip(me.slots, me.bowed, strict=True) if c is not None and b)
    theirs = sum(1 for c, b in zip(foe.slots, foe.bowed, strict=True) if c is not None and b)
    return 10.0 * (me.vp - foe.vp) + 4.0 * (mine - theirs) + 0.2 * len(me.hand)


def greedy_choice(st: SashimonoState, seat: int, rng: random.Random) -> Act:
    """The decision whose result is best for ``seat`` on the plain evaluation, one decision
    ahead in a determinization (ties broken at random)."""
    legal = st.legal_acts()
    if len(legal) == 1:
        return legal[0]
    world = st.determinize(seat, rng)
    best: list[Act] = []
    best_value = -1e18
    for action in world.legal_acts():
        child = world.clone()
        child.apply(action)
        v = _value(child, seat)
        if v > best_value + 1e-9:
            best, best_value = [action], v
        elif abs(v - best_value) <= 1e-9:
            best.append(action)
    chosen = rng.choice(best)
    return next(a for a in legal if a == chosen)


def greedy_player(state: State, rng: random.Random) -> Act:
    """The scripted ``greedy`` player: :func:`greedy_choice` for the seat to act."""
    st = cast(SashimonoState, state)
    return greedy_choice(st, st.current_player, rng)


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win share."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return (round(max(0.0, centre - half), 3), round(min(1.0, centre + half), 3))


def figures(finals: Sequence[State]) -> dict[str, Any]:
    """The balance of the card set over these finished games (see the module's text)."""
    states = [cast(SashimonoState, s) for s in finals]
    games = len(states)
    wins: Counter[str] = Counter()
    scored: Counter[str] = Counter()
    solo = states[0].solo
    for st in states:
        result = st.outcome()
        assert result is not None
        if solo:
            wins["player" if result.winners else "kagemusha"] += 1
        elif result.winners:
            wins[st.sides[result.winners[0]].army] += 1
        else:
            wins["none"] += 1
        for seat in (0, 2) if solo else (0, 1):
            for c in set(st.sides[seat].scored):
                scored[st.card(c).id] += 1
    cards = states[0].cs.cards
    mean_share = sum(scored.values()) / len(cards)
    share = {c.id: scored[c.id] / mean_share if mean_share else 0.0 for c in cards}
    top = max(share, key=lambda k: share[k])
    low = min(share, key=lambda k: share[k])
    key = "player" if solo else "west"
    return {
        "wins": dict(wins),
        f"{key}_share": round(wins[key] / games, 3),
        f"{key}_share_ci95": wilson(wins[key], games),
        "mean_decisions": round(sum(st.decisions for st in states) / games, 1),
        "most_scored_over_mean": [top, round(share[top], 2)],
        "least_scored_over_mean": [low, round(share[low], 2)],
        "scored_games": dict(scored.most_common()),
    }
