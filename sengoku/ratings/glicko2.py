"""Glicko-2, one rating period, exactly as Glickman's paper states it.

Mark E. Glickman, "Example of the Glicko-2 system" (Boston University, revised
2013-2022, http://www.glicko.net/glicko/glicko2.pdf), steps 1-8, with the Illinois
algorithm of step 5.1 for the new volatility.

Why by hand (DESIGN.md, "Infrastructure is maintained software"): the PyPI package
``glicko2`` 2.1.0 (the one with users) computes the paper's own example right, but only
because that example's player is rated 1500: its volatility function ``_f`` uses the
player's rating mu where the paper has the deviation phi, so every other player's
volatility comes out wrong (measured in docs/ratings.md). ``glicko2-py`` 0.1.0 is correct
but a single beta release of 2026 that installs under the same import name. No
maintained library is left, so this module is the paper's algorithm and nothing else
(about forty lines), checked against the paper's example and against the paper's own
equation for the volatility in tests/ratings/test_glicko2.py.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

#: The paper's scale factor between the Glicko scale and Glicko-2's (400 / ln 10).
SCALE = 173.7178
#: Convergence tolerance of step 5.4 (the paper's epsilon).
EPSILON = 0.000001


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def volatility_equation(
    x: float, delta: float, phi: float, v: float, a: float, tau: float
) -> float:
    """The paper's f(x) of step 5.1, whose root is ln(sigma'^2)."""
    ex = math.exp(x)
    return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (
        x - a
    ) / (tau * tau)


def update(
    rating: float,
    deviation: float,
    volatility: float,
    games: Sequence[tuple[float, float, float]],
    tau: float,
) -> tuple[float, float, float]:
    """The player's (rating, deviation, volatility) after one rating period of ``games``,
    each (opponent's rating, opponent's deviation, score: 1 win, 0.5 draw, 0 loss), on the
    Glicko scale (1500 / 350). No games: only the deviation grows (step 6)."""
    if not deviation > 0 or not volatility > 0 or not tau > 0:
        raise ValueError("Glicko-2: deviation, volatility and tau must be positive")
    # Step 2: to the Glicko-2 scale.
    mu = (rating - 1500.0) / SCALE
    phi = deviation / SCALE
    if not games:
        return rating, SCALE * math.sqrt(phi * phi + volatility * volatility), volatility
    opponents = [((r - 1500.0) / SCALE, d / SCALE, s) for r, d, s in games]
    # Steps 3 and 4: the estimated variance v and the estimated improvement delta.
    v_inv = 0.0
    improvement = 0.0
    for mu_j, phi_j, score in opponents:
        g, e = _g(phi_j), _e(mu, mu_j, phi_j)
        v_inv += g * g * e * (1.0 - e)
        improvement += g * (score - e)
    v = 1.0 / v_inv
    delta = v * improvement
    # Step 5: the new volatility, the root of f by the Illinois algorithm.
    a = math.log(volatility * volatility)

    def f(x: float) -> float:
        return volatility_equation(x, delta, phi, v, a, tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    new_volatility = math.exp(big_a / 2.0)
    # Steps 6 and 7: the pre-period deviation, then the new deviation and rating.
    phi_star = math.sqrt(phi * phi + new_volatility * new_volatility)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * improvement
    # Step 8: back to the Glicko scale.
    return SCALE * new_mu + 1500.0, SCALE * new_phi, new_volatility
