"""The arena's SPRT: its error rates by simulation (no real games), and tables of 3+ seats."""

from __future__ import annotations

import math
import random

import pytest

from sengoku.arena import SPRT, ArenaConfig, run_arena
from sengoku.arena.stats import gsprt_llr
from sengoku.arena.tournament import format_report, sprt_units
from sengoku.core.game import Outcome
from tests.toygames import HighTrick

HT = HighTrick()


def _pair(rng: random.Random, elo: float, draw: float = 0.2) -> float:
    """One game pair (colours swapped) between players ``elo`` apart: the pentanomial score."""
    win = 1.0 / (1.0 + 10 ** (-elo / 400.0)) - draw / 2
    total = 0.0
    for _ in range(2):
        r = rng.random()
        total += 1.0 if r < win else 0.5 if r < win + draw else 0.0
    return total / 2


def _run(test: SPRT, elo: float, rng: random.Random, limit: int = 3000) -> tuple[str | None, int]:
    units: list[float] = []
    while len(units) < limit:
        units.append(_pair(rng, elo))
        decision = test.decide(units)
        if decision:
            return decision, len(units)
    return None, len(units)


@pytest.mark.parametrize("truth", ["H0", "H1"])
def test_sprt_error_rates_match_alpha_and_beta_by_simulation(truth: str) -> None:
    # issue 15 item 15: the old normal-approximation SPRT, checked after every block,
    # accepted H1 in 7.5-8.5% of runs at elo = elo0 with alpha 5%, after as few as 4 games.
    # Wald's bounds give at most alpha / (1 - beta) = 5.3%; 1000 seeded runs have a
    # standard error of 0.7%, so 6.5% is a little over 2 standard errors above it.
    test = SPRT(0, 150, alpha=0.05, beta=0.05)
    rng = random.Random(20261126)
    runs = [_run(test, 0.0 if truth == "H0" else 150.0, rng) for _ in range(1000)]
    wrong = sum(1 for decision, _ in runs if decision is not None and decision != truth)
    undecided = sum(1 for decision, _ in runs if decision is None)
    assert undecided == 0
    assert wrong / len(runs) <= 0.065, f"{truth} true: the wrong decision in {wrong} of 1000 runs"
    assert min(n for _, n in runs) >= test.min_units


def test_a_short_sweep_decides_nothing() -> None:
    test = SPRT(0, 50)
    for n in range(1, test.min_units):
        assert test.decide([1.0] * n) is None  # even a sweep of 2 n games is no evidence yet
    assert test.decide([1.0] * 30) == "H1"
    assert test.decide([0.0, 0.25] * 15) == "H0"
    assert test.decide([0.5, 0.75, 0.25, 0.5] * 5) is None


def test_gsprt_llr_is_the_multinomial_likelihood_ratio() -> None:
    # With results 0 and 1 only, the constrained MLEs are Bernoulli(s0) and Bernoulli(s1)
    # (up to the tiny pseudo-counts), so the LLR is the plain binomial one.
    wins, losses = 30, 20
    s0, s1 = 0.5, 0.6
    expected = wins * math.log(s1 / s0) + losses * math.log((1 - s1) / (1 - s0))
    got = gsprt_llr([1.0] * wins + [0.0] * losses, s0, s1)
    assert got == pytest.approx(expected, abs=1e-2)
    assert gsprt_llr([], s0, s1) == 0.0
    with pytest.raises(ValueError, match=r"scores in \[0, 1\]"):
        gsprt_llr([1.5], s0, s1)


def test_sprt_units_are_whole_blocks_and_seat_means() -> None:
    def game(block: int, seats: list[str], winner: int) -> dict[str, object]:
        n = len(seats)
        return {"block": block, "seats": seats, "outcome": Outcome.win(winner, n, "x").to_json()}

    pairs = [game(0, ["a", "b"], 0), game(0, ["b", "a"], 0), game(1, ["a", "b"], 0)]
    assert sprt_units(pairs, "a", "b", 2) == [0.5]  # block 1 is not complete yet
    table = [game(0, ["a", "b", "b"], 0), game(0, ["b", "a", "b"], 0), game(0, ["b", "b", "a"], 2)]
    # a wins game 1 (score 1), loses game 2 (0) and wins game 3 (1)
    assert sprt_units(table, "a", "b", 3) == [pytest.approx(2 / 3)]


def test_sprt_on_a_three_seat_table_reports_instead_of_crashing() -> None:
    # issue 15 item 15: KeyError 'sprt' after all games with 3+ seats.
    config = ArenaConfig(
        HT,
        ["ismcts:iterations=20", "random", "random"],
        6,
        options={"players": 3},
        seed=2,
        sprt=SPRT(0, 100),
    )
    report = run_arena(config)
    assert report["games"] == 6 and report["sprt"]["units"] == 2
    assert report["sprt"]["decision"] is None and report["sprt"]["stopped_early"] is False
    assert "SPRT elo0=0 elo1=100" in format_report(report)
