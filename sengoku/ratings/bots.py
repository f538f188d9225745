"""The AI levels' fixed ratings, as opponents of rated players (``data/bots.json``).

A level's rating never changes: it was measured once, by the arena, and a player who meets
it is rated against that number. The data file keeps the measurements (each level against the
one below: the arena's Elo difference and its 95% interval, docs/ai.md *Strength*) next to
the ratings derived from them; :func:`derive` is the derivation, and a test checks that the
file's ratings are what it derives from the file's measurements. docs/ratings.md, *The AI
levels*.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Literal

from sengoku.ratings.rating import (
    MU,
    POINTS_PER_MU,
    Glicko2Rating,
    PlackettLuceRating,
    Rating,
    System,
    system_for,
)

DATA = "bots.json"
LEVELS = range(1, 6)
#: z of a two-sided 95% interval: an interval's half width over Z is its standard error.
Z95 = 1.959964

Status = Literal["measured", "provisional"]


@dataclass(frozen=True, slots=True)
class BotRating:
    """An AI level's fixed rating in one game's pool, and how far to trust it."""

    game: str
    level: int
    rating: Rating
    status: Status
    #: How it was measured, or why it is provisional.
    note: str


def derive(data: dict[str, Any], links: list[dict[str, Any]]) -> dict[int, tuple[float, float]]:
    """Level -> (rating, deviation) on the Glicko scale from ``links``, each level against
    the level below (level 1 against ``random``): the anchor level's rating is fixed, every
    other level's is the anchor's plus the measured Elo differences in between, and its
    deviation the root sum of squares of those differences' standard errors (the anchor's
    own and the floor: ``min_deviation``)."""
    anchor = int(data["anchor"]["level"])
    rating0 = float(data["anchor"]["rating"])
    floor = float(data["min_deviation"])
    step: dict[int, tuple[float, float]] = {}  # level k -> (elo over level k-1, its SE)
    for link in links:
        level = int(str(link["stronger"]).removeprefix("level"))
        low, high = (float(x) for x in link["interval"])
        step[level] = (float(link["elo"]), (high - low) / (2 * Z95))
    out: dict[int, tuple[float, float]] = {}
    for level in LEVELS:
        between = range(anchor + 1, level + 1) if level > anchor else range(level + 1, anchor + 1)
        sign = 1.0 if level > anchor else -1.0
        rating = rating0 + sign * sum(step[k][0] for k in between)
        deviation = math.sqrt(floor * floor + sum(step[k][1] ** 2 for k in between))
        out[level] = (rating, deviation)
    return out


def _where(game: str, system: str, field: str) -> str:
    return f"sengoku/ratings/data/{DATA}: games.{game}.{system}.{field}"


@cache
def _load() -> dict[tuple[str, System], dict[int, BotRating]]:
    text = resources.files("sengoku.ratings").joinpath("data", DATA).read_text(encoding="utf-8")
    data = json.loads(text)
    out: dict[tuple[str, System], dict[int, BotRating]] = {}
    for game, systems in data["games"].items():
        for system, entry in systems.items():
            if system not in ("glicko2", "plackett_luce"):
                raise ValueError(f"{_where(game, system, '')}: unknown system {system!r}")
            status = entry.get("status")
            if status not in ("measured", "provisional"):
                raise ValueError(f"{_where(game, system, 'status')}: measured or provisional")
            note = str(entry.get("provisional_reason") or entry.get("source") or "")
            levels: dict[int, BotRating] = {}
            for level in LEVELS:
                row = entry["levels"].get(str(level))
                if row is None:
                    raise ValueError(f"{_where(game, system, f'levels.{level}')}: missing")
                rating: Rating
                if system == "glicko2":
                    rating = Glicko2Rating(float(row["rating"]), float(row["deviation"]))
                else:
                    rating = PlackettLuceRating(float(row["mu"]), float(row["sigma"]))
                levels[level] = BotRating(game, level, rating, status, note)
            out[(game, system)] = levels
    return out


def bot_ratings() -> dict[tuple[str, System], dict[int, BotRating]]:
    """Every pool's AI levels: (game, system) -> level -> its fixed rating."""
    return dict(_load())


def bot_rating(game: str, level: int, players: int) -> BotRating:
    """AI level ``level``'s fixed rating in ``game`` played by ``players`` players."""
    system = system_for(game, players)
    levels = _load().get((game, system))
    if levels is None:
        raise ValueError(f"no AI ratings for {game} ({system})")
    if level not in levels:
        raise ValueError(f"AI level must be 1-5, not {level!r}")
    return levels[level]


def plackett_luce_from_glicko(rating: float, deviation: float) -> tuple[float, float]:
    """A Glicko-scale rating and deviation as Plackett-Luce (mu, sigma): 1500 is the
    default mu, and POINTS_PER_MU rating points are one unit of mu (rating.py)."""
    return MU + (rating - 1500.0) / POINTS_PER_MU, deviation / POINTS_PER_MU
