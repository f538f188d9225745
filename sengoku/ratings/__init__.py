"""Players' ratings per game (issue 37): Glicko-2 for two players, OpenSkill's Plackett-Luce
for three to five, the AI levels' fixed ratings. Pure: no server, no database; the server
stores what :func:`rate_game` computes (sengoku/server/ratings.py). docs/ratings.md."""

from sengoku.ratings.bots import BotRating, bot_rating, bot_ratings
from sengoku.ratings.rating import (
    POINTS_PER_MU,
    PROVISIONAL_DEVIATION,
    RATED,
    Glicko2Rating,
    PlackettLuceRating,
    Rating,
    RatingChange,
    System,
    new_rating,
    rate_game,
    system_for,
)

__all__ = [
    "POINTS_PER_MU",
    "PROVISIONAL_DEVIATION",
    "RATED",
    "BotRating",
    "Glicko2Rating",
    "PlackettLuceRating",
    "Rating",
    "RatingChange",
    "System",
    "bot_rating",
    "bot_ratings",
    "new_rating",
    "rate_game",
    "system_for",
]
