"""Players' ratings per game: the values, the systems and one game's changes.

Two-player games are rated with Glicko-2 (Glickman's paper: :mod:`sengoku.ratings.glicko2`),
games of three to five players with OpenSkill's Plackett-Luce model (the ``openskill``
package). Each game is its own rating period, as on lichess: the ratings are updated once
per game, from that game alone. A rating pool is a game and a system: a Gunkimono player has
one Glicko-2 rating for two-player games and one Plackett-Luce rating for three to five.

Both systems show one number on the Glicko scale (docs/ratings.md, *The display scale*):
Glicko-2 its rating; Plackett-Luce its ordinal ``mu - 3 sigma`` mapped so that one unit of
mu is worth as many rating points as it is in a two-player game
(:data:`POINTS_PER_MU`), a new player at 1500.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from sengoku.ratings import glicko2

System = Literal["glicko2", "plackett_luce"]

#: Glicko-2's system constant tau (the paper suggests 0.3 to 1.2; 0.5 is its example's).
TAU = 0.5
#: A new player's Glicko-2 rating, deviation and volatility (the paper's step 1).
NEW_RATING, NEW_DEVIATION, NEW_VOLATILITY = 1500.0, 350.0, 0.06
#: Above this deviation (rating points) a rating is provisional: lichess's threshold,
#: where its players' ratings are shown with a question mark.
PROVISIONAL_DEVIATION = 110.0

#: OpenSkill's defaults (openskill 6: ``PlackettLuce()``), kept explicit so an upgrade of the
#: library that changed them would not move every stored rating.
MU, SIGMA, BETA, DYNAMICS = 25.0, 25.0 / 3.0, 25.0 / 6.0, 25.0 / 300.0
#: Rating points per unit of mu: between two players whose sigmas are small, Plackett-Luce
#: expects the first to win with probability 1 / (1 + exp(-(mu1 - mu2) / c)), c =
#: sqrt(2) beta; Elo and Glicko with 1 / (1 + 10 ** (-(r1 - r2) / 400)). Equal chances for
#: equal differences: r1 - r2 = (mu1 - mu2) * 400 / (ln 10 * sqrt(2) * beta), about 29.5.
POINTS_PER_MU = 400.0 / (math.log(10.0) * math.sqrt(2.0) * BETA)

#: The games rated, and the numbers of players each system rates in them. Sashimono's solo
#: game (against the Kagemusha) is not rated: nobody to be rated against.
RATED: dict[str, dict[System, range]] = {
    "gungi": {"glicko2": range(2, 3)},
    "gunshi": {"glicko2": range(2, 3)},
    "sashimono": {"glicko2": range(2, 3)},
    "gunkimono": {"glicko2": range(2, 3), "plackett_luce": range(3, 6)},
}


@dataclass(frozen=True, slots=True)
class Glicko2Rating:
    """A Glicko-2 rating on the Glicko scale: rating, deviation (RD), volatility."""

    rating: float = NEW_RATING
    deviation: float = NEW_DEVIATION
    volatility: float = NEW_VOLATILITY

    def __post_init__(self) -> None:
        _finite("rating", self.rating)
        _positive("deviation", self.deviation)
        _positive("volatility", self.volatility)

    @property
    def system(self) -> System:
        return "glicko2"

    @property
    def display(self) -> int:
        """The number shown: the rating, rounded."""
        return round(self.rating)

    @property
    def display_deviation(self) -> float:
        return self.deviation

    @property
    def provisional(self) -> bool:
        return self.deviation > PROVISIONAL_DEVIATION


@dataclass(frozen=True, slots=True)
class PlackettLuceRating:
    """An OpenSkill Plackett-Luce rating: the skill's mean mu and deviation sigma."""

    mu: float = MU
    sigma: float = SIGMA

    def __post_init__(self) -> None:
        _finite("mu", self.mu)
        _positive("sigma", self.sigma)

    @property
    def system(self) -> System:
        return "plackett_luce"

    @property
    def ordinal(self) -> float:
        """OpenSkill's ordinal: the skill the player has with 99.7% confidence."""
        return self.mu - 3.0 * self.sigma

    @property
    def display(self) -> int:
        """The number shown: 1500 + (ordinal - new player's ordinal) * POINTS_PER_MU."""
        return round(1500.0 + (self.ordinal - (MU - 3.0 * SIGMA)) * POINTS_PER_MU)

    @property
    def display_deviation(self) -> float:
        """sigma in rating points, comparable with a Glicko-2 deviation."""
        return self.sigma * POINTS_PER_MU

    @property
    def provisional(self) -> bool:
        return self.display_deviation > PROVISIONAL_DEVIATION


Rating = Glicko2Rating | PlackettLuceRating


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One player's rating before and after a game."""

    before: Rating
    after: Rating

    @property
    def delta(self) -> int:
        """The change of the number shown."""
        return self.after.display - self.before.display


def new_rating(system: System) -> Rating:
    """A new player's rating in ``system``."""
    return Glicko2Rating() if system == "glicko2" else PlackettLuceRating()


def system_for(game: str, players: int) -> System:
    """The system that rates ``game`` played by ``players`` players; ValueError when the game
    or that number of players is not rated."""
    systems = RATED.get(game)
    if systems is None:
        raise ValueError(f"game {game!r} is not rated; rated games: {', '.join(sorted(RATED))}")
    for system, counts in systems.items():
        if players in counts:
            return system
    counts_rated = sorted({n for c in systems.values() for n in c})
    raise ValueError(
        f"{game} is rated with {counts_rated[0]}-{counts_rated[-1]} players, not {players}"
    )


def rate_game(game: str, players: Sequence[tuple[Rating, int]]) -> list[RatingChange]:
    """Every player's rating change after one game of ``game``: ``players`` in seat order,
    each (rating before the game, rank: 1 first, higher worse; equal ranks drew). The system
    is chosen by the game and the number of players (:func:`system_for`); every rating must
    be of that system. Nothing is changed on bad input: ValueError names what was wrong."""
    system = system_for(game, len(players))
    for seat, (rating, rank) in enumerate(players):
        if rating.system != system:
            raise ValueError(
                f"seat {seat}: a {rating.system} rating, but {game} with {len(players)} "
                f"players is rated with {system}"
            )
        if isinstance(rank, bool) or not isinstance(rank, int) or rank < 1:
            raise ValueError(f"seat {seat}: rank must be a whole number from 1, not {rank!r}")
    if system == "glicko2":
        return _rate_glicko2(players)
    return _rate_plackett_luce(players)


def _rate_glicko2(players: Sequence[tuple[Rating, int]]) -> list[RatingChange]:
    (a, rank_a), (b, rank_b) = players
    assert isinstance(a, Glicko2Rating) and isinstance(b, Glicko2Rating)
    score_a = 1.0 if rank_a < rank_b else 0.0 if rank_a > rank_b else 0.5
    changes = []
    # Each game is its own rating period; both use the other's rating from before the game.
    for me, other, score in ((a, b, score_a), (b, a, 1.0 - score_a)):
        r, d, v = glicko2.update(
            me.rating, me.deviation, me.volatility, [(other.rating, other.deviation, score)], TAU
        )
        changes.append(RatingChange(me, Glicko2Rating(r, d, v)))
    return changes


def _rate_plackett_luce(players: Sequence[tuple[Rating, int]]) -> list[RatingChange]:
    from openskill.models import PlackettLuce  # the arena and the server load it only here

    model = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=DYNAMICS)
    before = [r for r, _ in players]
    teams = [
        [model.rating(mu=r.mu, sigma=r.sigma)] for r in before if isinstance(r, PlackettLuceRating)
    ]
    # Equal ranks are a draw between those players (all equal: everyone drew).
    rated = model.rate(teams, ranks=[float(rank) for _, rank in players])
    return [
        RatingChange(b, PlackettLuceRating(team[0].mu, team[0].sigma))
        for b, team in zip(before, rated, strict=True)
    ]


def _finite(name: str, value: float) -> None:
    if not isinstance(value, int | float) or isinstance(value, bool) or not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number, not {value!r}")


def _positive(name: str, value: float) -> None:
    _finite(name, value)
    if value <= 0:
        raise ValueError(f"{name} must be positive, not {value!r}")
