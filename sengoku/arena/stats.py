"""Arena statistics: per-agent tallies, Elo with a 95% interval, a GSPRT, OpenSkill ratings.

A game's *score* for a seat is its return mapped to [0, 1] (two players: win 1, draw 0.5,
loss 0; more players: by rank, see ``Outcome.ranked``). A *win* is a sole win; a *draw* is
a win shared with others, or a game with no winner where the seat's return is 0 (a negative
return with no winner, as in a solo game lost to the game, is a loss).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

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


#: Pseudo-games added, one win and one loss, when the per-game variance is estimated (see
#: :func:`elo_estimate`): a handful of draws cannot claim a near-certain score.
PSEUDO_GAMES = (0.0, 1.0)


def elo_estimate(scores: Sequence[float]) -> EloEstimate:
    """Elo difference of a player from its per-game scores against one opponent.

    The 95% interval on the mean score ``m`` of ``n`` games is the Wilson score interval on
    an *effective* number of games ``n_eff = n / r``::

        r = min(1, (sum (x - m)^2 + sum over {0, 1} of (p - m)^2) / ((n + 2) m (1 - m)))
        center = (m + z^2 / (2 n_eff)) / (1 + z^2 / n_eff)
        half = z / (1 + z^2 / n_eff) * sqrt(m (1 - m) / n_eff + z^2 / (4 n_eff^2))

    ``r`` is the ratio of the per-game variance to a win/loss coin's of the same mean (1 - the
    draw rate in a win/draw/loss match): draws make the interval narrower than a coin's. The
    variance is estimated with one win and one loss added (``PSEUDO_GAMES``, as Agresti-Coull
    adds pseudo-outcomes), so a sample of draws alone keeps the interval wide (2 draws: score
    0.15-0.85; before, 0.499-0.501) while 200 games stay within a hair of the normal
    approximation; capped at 1, the interval is never narrower than plain Wilson's would be
    on a win/loss coin (10-0: 0.72-1). ``r = 1`` where ``m`` is 0 or 1 (all losses or all
    wins). The interval is mapped through the logistic Elo curve. LOS uses the same
    regularised variance.
    """
    n = len(scores)
    if n == 0:
        raise SengokuError("no games to estimate an Elo difference from")
    mean = sum(scores) / n
    spread = sum((x - mean) ** 2 for x in scores) + sum((p - mean) ** 2 for p in PSEUDO_GAMES)
    var = spread / (n + len(PSEUDO_GAMES))
    coin = mean * (1.0 - mean)
    ratio = min(var / coin, 1.0) if coin > 1e-12 else 1.0
    n_eff = n / ratio
    z2 = Z95 * Z95
    denom = 1.0 + z2 / n_eff
    center = (mean + z2 / (2 * n_eff)) / denom
    half = Z95 / denom * math.sqrt(coin / n_eff + z2 / (4 * n_eff * n_eff))
    low = center - half
    high = center + half
    low = 0.0 if low < 1e-9 else low
    high = 1.0 if high > 1.0 - 1e-9 else high
    se = math.sqrt(var / n)
    los = 0.5 * (1.0 + math.erf((mean - 0.5) / (se * math.sqrt(2.0))))
    return EloEstimate(n, mean, low, high, elo_of(mean), elo_of(low), elo_of(high), los)


#: The pseudo-count given to each possible result never observed (as fishtest regularises
#: its pentanomial frequencies): the likelihood is then defined for every mean in (0, 1).
_PRIOR = 1e-3


def _mle_shift(values: Sequence[float], probs: Sequence[float], s: float) -> float:
    """The ``x`` with ``sum p (a - s) / (1 + x (a - s)) = 0``: the distribution nearest the
    empirical one (in likelihood) whose mean is ``s`` is ``q = p / (1 + x (a - s))``."""
    d = [a - s for a in values]
    hi_d, lo_d = max(d), min(d)
    # 1 + x d > 0 for every d: x lies in (-1 / max d, -1 / min d).
    lo = -1.0 / hi_d if hi_d > 0 else -1e12
    hi = -1.0 / lo_d if lo_d < 0 else 1e12
    x = 0.0
    for _ in range(200):
        f = sum(p * di / (1.0 + x * di) for p, di in zip(probs, d, strict=True))
        if f > 0:
            lo = x
        else:
            hi = x
        slope = -sum(p * di * di / (1.0 + x * di) ** 2 for p, di in zip(probs, d, strict=True))
        step = x - f / slope if slope < 0 else (lo + hi) / 2
        if not lo < step < hi:  # Newton left the bracket: bisect instead
            step = (lo + hi) / 2
        if abs(step - x) < 1e-12:
            return step
        x = step
    return x


def gsprt_llr(results: Sequence[float], s0: float, s1: float) -> float:
    """Generalised log-likelihood ratio of mean ``s1`` against mean ``s0`` for results in [0, 1].

    The results' distribution is left free (a multinomial over the values seen, plus 0 and 1):
    each hypothesis takes the most likely distribution with its mean, and the LLR compares
    the two (as fishtest does on pentanomial frequencies). Values never seen among 0, 1 and the
    observed ones get a tiny pseudo-count, so that both means are reachable.
    """
    if not results:
        return 0.0
    counts: dict[float, float] = {0.0: _PRIOR, 1.0: _PRIOR}
    for r in results:
        if not 0.0 <= r <= 1.0:
            raise SengokuError(f"SPRT results are scores in [0, 1], got {r}")
        counts[r] = counts.get(r, 0.0) + 1.0
    values = sorted(counts)
    n = sum(counts.values())
    probs = [counts[v] / n for v in values]
    x0 = _mle_shift(values, probs, s0)
    x1 = _mle_shift(values, probs, s1)
    return n * sum(
        p * (math.log(1.0 + x0 * (a - s0)) - math.log(1.0 + x1 * (a - s1)))
        for a, p in zip(values, probs, strict=True)
    )


@dataclass(frozen=True)
class SPRT:
    """Sequential probability ratio test of H0: Elo = elo0 against H1: Elo = elo1.

    A generalised SPRT (GSPRT) on the results of *units*: a unit is one block of the arena's
    schedule (two agents in a two-player game: a game pair, the same opening with colours
    swapped, so the results are pentanomial, 0, 1/4, 1/2, 3/4 or 1), scored as the first
    agent's mean score in it. The LLR is the exact multinomial one (:func:`gsprt_llr`), not a
    normal approximation, and a decision needs at least ``min_units`` units (the Wald bounds
    assume many small steps; a handful of results cannot carry that). The error rates are
    checked by simulation in ``tests/arena/test_arena_sprt.py``.
    """

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    min_units: int = 10

    def __post_init__(self) -> None:
        if not self.elo1 > self.elo0:
            raise SengokuError(f"SPRT needs elo1 > elo0, got {self.elo0}, {self.elo1}")
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not 0.0 < value < 0.5:
                raise SengokuError(f"SPRT {name} must be between 0 and 0.5, got {value}")
        if self.min_units < 1:
            raise SengokuError(f"SPRT min_units must be at least 1, got {self.min_units}")

    @property
    def bounds(self) -> tuple[float, float]:
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    @property
    def expected_scores(self) -> tuple[float, float]:
        """The mean scores the two hypotheses stand for (the logistic Elo curve)."""
        s0 = 1.0 / (1.0 + 10 ** (-self.elo0 / 400.0))
        s1 = 1.0 / (1.0 + 10 ** (-self.elo1 / 400.0))
        return s0, s1

    def llr(self, results: Sequence[float]) -> float:
        """The log-likelihood ratio of H1 against H0 for the units' results."""
        s0, s1 = self.expected_scores
        return gsprt_llr(results, s0, s1)

    def decide(self, results: Sequence[float]) -> str | None:
        """``H1`` (stronger by elo1), ``H0`` (not stronger than elo0), or None: go on."""
        if len(results) < self.min_units:
            return None
        lower, upper = self.bounds
        value = self.llr(results)
        if value >= upper:
            return "H1"
        if value <= lower:
            return "H0"
        return None

    def to_json(self, results: Sequence[float]) -> dict[str, Any]:
        lower, upper = self.bounds
        return {
            "elo0": self.elo0,
            "elo1": self.elo1,
            "alpha": self.alpha,
            "beta": self.beta,
            "units": len(results),
            "min_units": self.min_units,
            "llr": round(self.llr(results), 4),
            "bounds": [round(lower, 4), round(upper, 4)],
            "decision": self.decide(results),
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
        # (its annotation says floats; the integers are what it is given at run time).
        rated = model.rate(teams, ranks=cast(list[float], ranks))
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
