"""rate_game: the system by game and number of players, Plackett-Luce against openskill's own
reference data, draws, the display scale and the provisional flag (docs/ratings.md)."""

from __future__ import annotations

import math

import pytest
from openskill.models import PlackettLuce

from sengoku.ratings import (
    POINTS_PER_MU,
    Glicko2Rating,
    PlackettLuceRating,
    glicko2,
    new_rating,
    rate_game,
    system_for,
)


def test_the_system_is_chosen_by_game_and_number_of_players() -> None:
    assert [system_for(g, 2) for g in ("gungi", "gunshi", "sashimono", "gunkimono")] == [
        "glicko2"
    ] * 4
    assert [system_for("gunkimono", n) for n in (3, 4, 5)] == ["plackett_luce"] * 3
    with pytest.raises(ValueError, match="sashimono is rated with 2-2 players, not 1"):
        system_for("sashimono", 1)
    with pytest.raises(ValueError, match="game 'chess' is not rated"):
        system_for("chess", 2)


def test_a_two_player_game_is_one_glicko2_period_for_each_player() -> None:
    a, b = Glicko2Rating(1500, 200, 0.06), Glicko2Rating(1400, 30, 0.06)
    ca, cb = rate_game("gungi", [(a, 1), (b, 2)])
    assert (ca.before, cb.before) == (a, b)
    assert (ca.after.rating, ca.after.deviation, ca.after.volatility) == glicko2.update(
        1500, 200, 0.06, [(1400, 30, 1.0)], 0.5
    )
    assert (cb.after.rating, cb.after.deviation, cb.after.volatility) == glicko2.update(
        1400, 30, 0.06, [(1500, 200, 0.0)], 0.5
    )
    assert ca.delta > 0 > cb.delta


def test_a_draw_moves_two_equal_players_by_nothing_and_unequal_ones_together() -> None:
    a = Glicko2Rating(1600, 80, 0.06)
    same = rate_game("gunshi", [(a, 1), (a, 1)])
    assert same[0].after.rating == pytest.approx(1600) and same[0].after == same[1].after
    low = Glicko2Rating(1400, 80, 0.06)
    up, down = rate_game("sashimono", [(low, 1), (a, 1)])
    assert up.after.rating > 1400 and down.after.rating < 1600
    win = rate_game("sashimono", [(low, 1), (a, 2)])[0]
    assert win.after.rating > up.after.rating


def _openskill_reference_model() -> PlackettLuce:
    # tests/models/data/plackettluce.json of openskill.py (its reference data for 6.x)
    return PlackettLuce(30.9227929079249, 6.478417585666653)


def test_the_installed_openskill_reproduces_its_own_reference_data() -> None:
    """Guards the version: rate_game's Plackett-Luce numbers are the library's, and the
    library's are its published reference ("normal" and "ranks" cases)."""
    model = _openskill_reference_model()
    r = model.rating
    normal = model.rate([[r()], [r(), r()]])
    assert (normal[0][0].mu, normal[0][0].sigma) == pytest.approx(
        (33.969011487326654, 6.446958847986065), rel=1e-6
    )
    assert (normal[1][0].mu, normal[1][0].sigma) == pytest.approx(
        (27.876574328523148, 6.433659614219379), rel=1e-6
    )
    ranked = model.rate([[r()], [r(), r()], [r()], [r(), r()]], ranks=[2, 1, 4, 3])
    expected = [
        (32.77994443000071, 6.450747134006956),
        (32.2707505138986, 6.425889055872058),
        (30.08402921805331, 6.430997477977663),
        (28.556447469746985, 6.355257645226833),
    ]
    for team, (mu, sigma) in zip(ranked, expected, strict=True):
        assert (team[0].mu, team[0].sigma) == pytest.approx((mu, sigma), rel=1e-6)


def test_three_to_five_players_are_rated_by_openskills_plackett_luce() -> None:
    players = [PlackettLuceRating(30, 5), PlackettLuceRating(25, 6), PlackettLuceRating(20, 7)]
    ranks = [2, 1, 3]
    changes = rate_game("gunkimono", list(zip(players, ranks, strict=True)))
    model = PlackettLuce()  # rate_game's parameters are openskill 6's defaults
    direct = model.rate([[model.rating(p.mu, p.sigma)] for p in players], ranks=ranks)
    for change, team in zip(changes, direct, strict=True):
        assert isinstance(change.after, PlackettLuceRating)
        assert (change.after.mu, change.after.sigma) == (team[0].mu, team[0].sigma)
    assert changes[1].after.mu > 25 and changes[2].after.mu < 20


def test_a_multiplayer_draw_is_equal_ranks() -> None:
    same = PlackettLuceRating()
    changes = rate_game("gunkimono", [(same, 1), (same, 1), (same, 1), (same, 4)])
    assert changes[0].after == changes[1].after == changes[2].after
    assert changes[0].after.mu > 25 > changes[3].after.mu


def test_ratings_of_the_wrong_system_or_bad_ranks_are_refused() -> None:
    g, p = Glicko2Rating(), PlackettLuceRating()
    with pytest.raises(ValueError, match="seat 1: a plackett_luce rating, but gungi with 2"):
        rate_game("gungi", [(g, 1), (p, 2)])
    with pytest.raises(ValueError, match="seat 0: a glicko2 rating, but gunkimono with 3"):
        rate_game("gunkimono", [(g, 1), (p, 2), (p, 3)])
    with pytest.raises(ValueError, match="seat 1: rank must be a whole number from 1, not 0"):
        rate_game("gungi", [(g, 1), (g, 0)])
    with pytest.raises(ValueError, match="deviation must be positive"):
        Glicko2Rating(1500, -1, 0.06)
    with pytest.raises(ValueError, match="mu must be a finite number"):
        PlackettLuceRating(math.nan, 1)


def test_the_display_scale_and_the_provisional_flag() -> None:
    assert new_rating("glicko2").display == 1500 and new_rating("plackett_luce").display == 1500
    # one unit of mu is worth POINTS_PER_MU points: at small sigmas, Plackett-Luce's chance
    # to win with a lead of one mu is Elo's (and Glicko's) with a lead of POINTS_PER_MU
    c = math.sqrt(2) * 25 / 6
    elo_chance = 1 / (1 + 10 ** (-POINTS_PER_MU / 400))
    assert 1 / (1 + math.exp(-1 / c)) == pytest.approx(elo_chance)
    assert PlackettLuceRating(26, 25 / 3).display == 1500 + round(POINTS_PER_MU)
    assert Glicko2Rating(1500, 350).provisional and not Glicko2Rating(1500, 100).provisional
    assert Glicko2Rating(1500, 111).provisional and not Glicko2Rating(1500, 110).provisional
    assert PlackettLuceRating(25, 25 / 3).provisional
    assert not PlackettLuceRating(25, 100 / POINTS_PER_MU).provisional
