"""Game analysis and puzzles (issue 38): above ``ai``, beside ``arena``.

``analyse(record, budget)`` gives every ply's winning chances before and after the move
played, the engine's preferred move and a classification (:mod:`.analyse`); the puzzles are
mined from records by :mod:`.puzzles`. See docs/analysis.md.
"""

from __future__ import annotations

from sengoku.analysis.analyse import (
    THRESHOLDS,
    AnalysisBudget,
    Candidate,
    GameAnalysis,
    PlayerSummary,
    PlyAnalysis,
    analyse,
    analyse_position,
    classify,
    format_table,
    game_accuracy,
    move_accuracy,
)

__all__ = [
    "THRESHOLDS",
    "AnalysisBudget",
    "Candidate",
    "GameAnalysis",
    "PlayerSummary",
    "PlyAnalysis",
    "analyse",
    "analyse_position",
    "classify",
    "format_table",
    "game_accuracy",
    "move_accuracy",
]
