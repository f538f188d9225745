"""The self-play report runs and its figures are consistent."""

from __future__ import annotations

from sengoku.arena.gunkimono_selfplay import main, selfplay


def test_selfplay_report() -> None:
    for agent in ("random", "balanced"):
        report = selfplay(3, 4, agent, seed=1)
        assert report["games"] == 4 and len(report["mean_final_score_by_seat"]) == 3
        assert abs(sum(report["win_share_by_seat"]) - 1.0) < 1e-6
        assert report["mean_turns"] > 20


def test_selfplay_command(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["--players", "2", "--games", "2", "--json"]) == 0
    assert '"players": 2' in capsys.readouterr().out
