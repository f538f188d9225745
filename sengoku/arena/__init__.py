"""Matches, tournaments and ratings: ``sengoku arena`` and :func:`arena`."""

from sengoku.arena.backends import Backend, LocalBackend, RayBackend, make_backend
from sengoku.arena.match import game_ref, play_game
from sengoku.arena.stats import SPRT, elo_estimate, openskill_ratings
from sengoku.arena.tournament import ArenaConfig, arena, format_report, run_arena, schedule

__all__ = [
    "SPRT",
    "ArenaConfig",
    "Backend",
    "LocalBackend",
    "RayBackend",
    "arena",
    "elo_estimate",
    "format_report",
    "game_ref",
    "make_backend",
    "openskill_ratings",
    "play_game",
    "run_arena",
    "schedule",
]
