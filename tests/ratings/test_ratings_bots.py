"""The AI levels' fixed ratings (sengoku/ratings/data/bots.json, docs/ratings.md)."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

from sengoku.ratings import Glicko2Rating, PlackettLuceRating, bot_rating, bot_ratings
from sengoku.ratings.bots import derive, plackett_luce_from_glicko

DATA = json.loads(
    resources.files("sengoku.ratings").joinpath("data", "bots.json").read_text(encoding="utf-8")
)
AI_DOC = (Path(__file__).resolve().parents[2] / "docs" / "ai.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("game", ["gungi", "gunshi", "sashimono", "gunkimono"])
def test_the_files_ratings_are_derived_from_its_measurements(game: str) -> None:
    entry = DATA["games"][game]["glicko2"]
    derived = derive(DATA, entry["links"])
    for level in range(1, 6):
        row = entry["levels"][str(level)]
        rating, deviation = derived[level]
        assert row["rating"] == pytest.approx(rating, abs=0.05), (game, level)
        assert row["deviation"] == pytest.approx(deviation, abs=0.05), (game, level)
    assert derived[3] == (1500.0, 45.0)  # the anchor, at the floor deviation
    ratings = [derived[k][0] for k in range(1, 6)]
    assert ratings == sorted(ratings), "each level beat the one below"


@pytest.mark.parametrize("game", ["gungi", "gunshi", "sashimono", "gunkimono"])
def test_every_measurement_is_a_row_of_the_ai_docs_strength_tables(game: str) -> None:
    for link in DATA["games"][game]["glicko2"]["links"]:
        low, high = link["interval"]
        row = f"| {link['games']} | {link['wins_draws_losses']} |"
        elo = f"| +{link['elo']} (+{low} to +{high}) |"
        assert row in AI_DOC and elo in AI_DOC, (game, link["row"])


def test_the_derivation_chains_differences_from_the_anchor() -> None:
    data = {"anchor": {"level": 3, "rating": 1500}, "min_deviation": 45}
    links = [
        {"stronger": f"level{k}", "elo": 100 * k, "interval": [100 * k - 39.2, 100 * k + 39.2]}
        for k in range(1, 6)
    ]
    out = derive(data, links)
    assert [round(out[k][0]) for k in range(1, 6)] == [1500 - 300 - 200, 1200, 1500, 1900, 2400]
    # a link's standard error is 20 (39.2 / 1.96): two links away, sqrt(45^2 + 2 * 20^2)
    assert out[5][1] == pytest.approx((45**2 + 2 * 20.0**2) ** 0.5, abs=0.01)


def test_bot_ratings_by_game_and_players() -> None:
    five = bot_rating("gungi", 5, 2)
    assert isinstance(five.rating, Glicko2Rating) and five.status == "measured"
    assert five.rating.rating == DATA["games"]["gungi"]["glicko2"]["levels"]["5"]["rating"]
    four_players = bot_rating("gunkimono", 3, 4)
    assert isinstance(four_players.rating, PlackettLuceRating)
    assert four_players.status == "provisional" and "two-player" in four_players.note
    two = bot_rating("gunkimono", 3, 2).rating
    assert isinstance(two, Glicko2Rating)
    mu, sigma = plackett_luce_from_glicko(two.rating, two.deviation)
    assert four_players.rating.mu == pytest.approx(mu, abs=0.001)
    assert four_players.rating.sigma == pytest.approx(sigma, abs=0.001)
    assert len(bot_ratings()) == 5
    with pytest.raises(ValueError, match="AI level must be 1-5, not 6"):
        bot_rating("gunshi", 6, 2)
    with pytest.raises(ValueError, match="not 1"):
        bot_rating("sashimono", 1, 1)
