"""Arena statistics: per-agent tallies, Elo with a 95% interval, SPRT, OpenSkill ratings.

A game's *score* for a seat is its return mapped to [0, 1] (two players: win 1, draw 0.5,
loss 0; more players: by rank, see ``Outcome.ranked``). A *win* is a sole win; a *draw* is
a win shared with others, or a game with no winner where the seat's return is 0 (a negative
return with no winner, as in a solo game lost to the game, is a loss).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sengoku.core.game import SengokuError

Z95 = 1.959963984540054


def seat_result(outcome: dict[str, Any], seat: int) -> str:
    """``win``, ``draw`` or ``loss`` for one seat of one finished game."""
    winners = list(outcome["winners"])
    if winners == [seat]:
        return "win"
    if seat in winners:
        return "draw"
    if not winners:
        # No winning seat: a draw, unless the returns say otherwise (a solo game lost to
        # the game itself, e.g. Sashimono against the Kagemusha).
        value = float(outcome["returns"][seat])
        return "draw" if value == 0 else "loss" if value < 0 else "win"
    return "loss"


def seat_score(outcome: dict[str, Any], seat: int) -> float:
    return (float(outcome["returns"][seat]) + 1.0) / 2.0


def elo_of(score: float) -> float | None:
    """Elo difference for an expected score; None where it is unbounded (0 or 1)."""
    if score <= 0.0 or score >= 1.0:
        return None
    return -400.0 * math.log10(1.0 / score - 1.0)


@dataclass
class EloEstimate:
    games: int
    score: float
    score_low: float
    score_high: float
    elo: float | None
    elo_low: float | None
    elo_high: float | None
    #: Likelihood of superiority: the chance the first player is truly stronger.
    los: float

    def to_json(self) -> dict[str, Any]:
        def r(x: float | None, d: int = 1) -> float | None:
            return None if x is None else round(x, d)

        return {
            "games": self.games,
            "score": round(self.score, 4),
            "score_ci95": [round(self.score_low, 4), round(self.score_high, 4)],
            "elo": r(self.elo),
            "elo_ci95": [r(self.elo_low), r(self.elo_high)],
            "los": round(self.los, 4),
        }

    def describe(self) -> str:
        def fmt(x: float | None, low: bool) -> str:
            if x is None:
                return "-inf" if low else "+inf"
            return f"{int(round(x)):+d}"

        return (
            f"Elo {fmt(self.elo, self.score <= 0)} "
            f"[{fmt(self.elo_low, True)}, {fmt(self.elo_high, False)}] (95%), "
            f"score {self.score:.3f} [{self.score_low:.3f}, {self.score_high:.3f}], "
            f"LOS {100 * self.los:.1f}%"
        )


def elo_estimate(scores: Sequence[float]) -> EloEstimate:
    """Elo difference of a player from its per-game scores against one opponent.

    The 95% interval on the mean score is a Wilson score interval whose variance is the
    observed per-game variance (draws make it smaller than a win/loss coin's), so it stays
    meaningful at 0% and 100%; it is mapped through the logistic Elo curve.
    """
    n = len(scores)
    if n == 0:
        raise SengokuError("no games to estimate an Elo difference from")
    mean = sum(scores) / n
    var = sum((x - mean) ** 2 for x in scores) / n
    coin = mean * (1.0 - mean)
    ratio = var / coin if coin > 1e-12 else 1.0
    z2 = Z95 * Z95 * min(max(ratio, 1e-6), 1.0)
    denom = 1.0 + z2 / n
    center = (mean + z2 / (2 * n)) / denom
    half = math.sqrt(z2) / denom * math.sqrt(coin / n + z2 / (4 * n * n))
    low = center - half
    high = center + half
    low = 0.0 if low < 1e-9 else low
    high = 1.0 if high > 1.0 - 1e-9 else high
    se = math.sqrt(var / n)
    if se > 0:
        los = 0.5 * (1.0 + math.erf((mean - 0.5) / (se * math.sqrt(2.0))))
    else:
        los = 1.0 if mean > 0.5 else 0.0 if mean < 0.5 else 0.5
    return EloEstimate(n, mean, low, high, elo_of(mean), elo_of(low), elo_of(high), los)


@dataclass(frozen=True)
class SPRT:
    """Sequential probability ratio test of H0: Elo = elo0 against H1: Elo = elo1.

    Uses the normal approximation of the generalised SPRT on per-game scores (as chess
    engine testing does): LLR = n (s1 - s0) (2 mean - s0 - s1) / (2 var).
    """

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not self.elo1 > self.elo0:
            raise SengokuError(f"SPRT needs elo1 > elo0, got {self.elo0}, {self.elo1}")
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not 0.0 < value < 0.5:
                raise SengokuError(f"SPRT {name} must be between 0 and 0.5, got {value}")

    @property
    def bounds(self) -> tuple[float, float]:
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def llr(self, scores: Sequence[float]) -> float:
        n = len(scores)
        if n == 0:
            return 0.0
        s0 = 1.0 / (1.0 + 10 ** (-self.elo0 / 400.0))
        s1 = 1.0 / (1.0 + 10 ** (-self.elo1 / 400.0))
        # Half a pseudo-game each of a loss, a draw and a win: a short run of identical
        # results then has a believable variance instead of none, and cannot decide at once.
        values = [*scores, 0.0, 0.5, 1.0]
        weights = [1.0] * n + [0.5, 0.5, 0.5]
        total = sum(weights)
        mean = sum(w * x for w, x in zip(weights, values, strict=True)) / total
        var = sum(w * (x - mean) ** 2 for w, x in zip(weights, values, strict=True)) / total
        return total * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)

    def decide(self, scores: Sequence[float]) -> str | None:
        """``H1`` (stronger by elo1), ``H0`` (not stronger than elo0), or None: go on."""
        lower, upper = self.bounds
        value = self.llr(scores)
        if value >= upper:
            return "H1"
        if value <= lower:
            return "H0"
        return None

    def to_json(self, scores: Sequence[float]) -> dict[str, Any]:
        lower, upper = self.bounds
        return {
            "elo0": self.elo0,
            "elo1": self.elo1,
            "alpha": self.alpha,
            "beta": self.beta,
            "llr": round(self.llr(scores), 4),
            "bounds": [round(lower, 4), round(upper, 4)],
            "decision": self.decide(scores),
        }


def openskill_ratings(
    games: Sequence[tuple[Sequence[str], Sequence[float]]], names: Sequence[str]
) -> dict[str, dict[str, float]]:
    """Plackett-Luce OpenSkill ratings from games given as (agent per seat, score per seat).

    Each seat is its own team; an agent that sits at several seats of one game (three
    ``random`` seats, say) is rated from its one rating, and its updates are averaged.
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {name: model.rating(name=name) for name in names}
    for seats, scores in games:
        teams = [[model.rating(mu=ratings[a].mu, sigma=ratings[a].sigma, name=a)] for a in seats]
        # openskill wants integer ranks, lower = better: count the seats that scored more.
        ranks = [sum(1 for o in scores if o > s) for s in scores]
        rated = model.rate(teams, ranks=ranks)
        updates: dict[str, list[tuple[float, float]]] = {}
        for agent, team in zip(seats, rated, strict=True):
            updates.setdefault(agent, []).append((team[0].mu, team[0].sigma))
        for agent, values in updates.items():
            mu = sum(v[0] for v in values) / len(values)
            sigma = sum(v[1] for v in values) / len(values)
            ratings[agent] = model.rating(mu=mu, sigma=sigma, name=agent)
    return {
        name: {
            "mu": round(r.mu, 3),
            "sigma": round(r.sigma, 3),
            "ordinal": round(r.ordinal(), 3),
        }
        for name, r in ratings.items()
    }
