"""The self-play report runs for any game and its figures are consistent; a game adds its
own figures and scripted players through its declared hooks (Gunkimono: milestones)."""

from __future__ import annotations

import json

import sengoku
from sengoku.arena.selfplay import selfplay
from sengoku.cli import main


def test_selfplay_report() -> None:
    game = sengoku.load_game("gunkimono")
    for agent in ("random", "balanced"):
        report = selfplay(game, 4, agent, seed=1, options={"players": 3})
        assert report["games"] == 4 and len(report["mean_final_score_by_seat"]) == 3
        assert abs(sum(report["win_share_by_seat"]) - 1.0) < 1e-6
        assert report["mean_turns"] > 20
        assert sum(report["endings"].values()) == 4


def test_selfplay_command(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["selfplay", "gunkimono", "--players", "2", "--games", "2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["players"] == 2 and report["games"] == 2
    assert "strongholds_built_per_game" in report  # the game's own figures


def test_selfplay_names_unknown_agents(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["selfplay", "gungi", "--games", "1", "--agent", "nosuch"]) == 2
    assert "unknown agent" in capsys.readouterr().err
