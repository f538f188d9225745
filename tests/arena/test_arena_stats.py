"""Arena statistics: results per seat, Elo and its interval, SPRT, OpenSkill."""

from __future__ import annotations

import math

import pytest

from sengoku.arena.stats import (
    SPRT,
    elo_estimate,
    elo_of,
    openskill_ratings,
    seat_result,
    seat_score,
)
from sengoku.core.game import Outcome, SengokuError


def test_seat_results_and_scores() -> None:
    win = Outcome.win(1, 2, "mate").to_json()
    assert [seat_result(win, s) for s in (0, 1)] == ["loss", "win"]
    assert [seat_score(win, s) for s in (0, 1)] == [0.0, 1.0]
    draw = Outcome.no_winner(2, "repetition").to_json()
    assert seat_result(draw, 0) == "draw" and seat_score(draw, 0) == 0.5
    solo_loss = Outcome("kagemusha", (), (2.0,), (-1.0,)).to_json()
    assert seat_result(solo_loss, 0) == "loss" and seat_score(solo_loss, 0) == 0.0
    ranked = Outcome.ranked([5, 3, 5], "points", [0, 2, 0]).to_json()
    assert [seat_result(ranked, s) for s in range(3)] == ["draw", "loss", "draw"]
    assert [seat_score(ranked, s) for s in range(3)] == [0.75, 0.0, 0.75]


def test_elo_of_known_scores() -> None:
    assert elo_of(0.5) == 0.0
    assert elo_of(0.75) == pytest.approx(190.85, abs=0.01)
    assert elo_of(1 / (1 + 10 ** (-100 / 400))) == pytest.approx(100.0)
    assert elo_of(1.0) is None and elo_of(0.0) is None


def test_elo_interval_narrows_with_games_and_handles_sweeps() -> None:
    few = elo_estimate([1.0, 0.0] * 10 + [1.0] * 10)
    many = elo_estimate([1.0, 0.0] * 100 + [1.0] * 100)
    assert few.score == pytest.approx(many.score)
    assert few.score_low < many.score_low < many.score < many.score_high < few.score_high
    assert few.elo_low is not None and few.elo_high is not None
    assert few.elo_low < few.elo < few.elo_high  # type: ignore[operator]
    sweep = elo_estimate([1.0] * 30)
    assert sweep.elo is None and sweep.elo_high is None
    assert sweep.score_high == 1.0 and 0.85 < sweep.score_low < 1.0
    assert sweep.elo_low is not None and sweep.elo_low > 250
    even = elo_estimate([0.5] * 10)
    assert even.elo == 0.0 and even.los == 0.5
    with pytest.raises(SengokuError):
        elo_estimate([])


def test_draws_narrow_the_interval() -> None:
    decisive = elo_estimate([1.0, 1.0, 1.0, 0.0] * 25)  # mean 0.75
    drawish = elo_estimate([1.0, 0.5] * 50)  # mean 0.75
    assert drawish.score_high - drawish.score_low < decisive.score_high - decisive.score_low


def test_sprt_decides_both_ways_and_waits_when_unclear() -> None:
    test = SPRT(0, 50)
    lower, upper = test.bounds
    assert lower == pytest.approx(math.log(0.05 / 0.95))
    assert upper == pytest.approx(math.log(0.95 / 0.05))
    assert test.decide([1.0] * 4) is None  # too few games to tell
    assert test.decide([1.0, 1.0, 0.5, 1.0] * 30) == "H1"
    assert test.decide([0.0, 0.5, 0.0, 1.0] * 30) == "H0"
    assert test.decide([1.0, 0.0] * 5) is None
    report = test.to_json([1.0] * 200)
    assert report["decision"] == "H1" and report["llr"] > upper
    with pytest.raises(SengokuError, match="elo1 > elo0"):
        SPRT(10, 0)
    with pytest.raises(SengokuError, match="alpha"):
        SPRT(0, 10, alpha=0.7)


def test_openskill_orders_by_results() -> None:
    games = [(["a", "b", "c"], [1.0, 0.0, 0.5])] * 6 + [(["c", "a", "b"], [0.5, 1.0, 0.0])] * 6
    ratings = openskill_ratings(games, ["a", "b", "c"])
    assert ratings["a"]["ordinal"] > ratings["c"]["ordinal"] > ratings["b"]["ordinal"]
    assert ratings["a"]["sigma"] < 25 / 3
    shared = openskill_ratings([(["a", "b", "b", "b"], [1.0, 0.0, 0.0, 0.0])] * 5, ["a", "b"])
    assert shared["a"]["mu"] > 25 > shared["b"]["mu"]


def test_two_draws_leave_the_interval_wide() -> None:
    # Before: variance 0 made the interval 0.499-0.501 and "Elo +0 [+0, +0]" after 2 games.
    two = elo_estimate([0.5, 0.5])
    assert two.score == 0.5 and two.los == 0.5
    assert two.score_low < 0.25 and two.score_high > 0.75
    assert two.elo_low is not None and two.elo_low < -150
    assert "[+0, +0]" not in two.describe()
    # More draws narrow it, but never to nothing.
    many = elo_estimate([0.5] * 100)
    assert two.score_low < many.score_low < 0.5 - 0.005
    assert 0.5 + 0.005 < many.score_high < two.score_high


def test_two_hundred_games_match_the_normal_approximation() -> None:
    scores = [1.0] * 80 + [0.5] * 60 + [0.0] * 60
    n = len(scores)
    mean = sum(scores) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in scores) / n)
    half = 1.959964 * sd / math.sqrt(n)
    est = elo_estimate(scores)
    assert est.score == pytest.approx(0.55)
    assert est.score_low == pytest.approx(mean - half, abs=0.002)
    assert est.score_high == pytest.approx(mean + half, abs=0.002)
    assert est.los == pytest.approx(
        0.5 * (1 + math.erf((mean - 0.5) / (sd / n**0.5) / 2**0.5)), abs=0.01
    )


def test_a_ten_nil_sweep_is_not_certainty() -> None:
    sweep = elo_estimate([1.0] * 10)
    # Wilson's lower bound for 10 wins in 10: 10 / (10 + 1.96^2) = 0.722.
    assert sweep.score_low == pytest.approx(10 / (10 + 1.959964**2), abs=1e-4)
    assert sweep.score_high == 1.0 and sweep.elo_high is None
    one = elo_estimate([1.0])
    assert one.score_low < 0.25 and one.los < 0.9  # before: LOS 100% after one win
