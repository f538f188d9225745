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
