"""The terminal game: hot seat with hidden information hides the screen between players."""

from __future__ import annotations

import io

import sengoku
from sengoku.terminal import play_terminal


def test_hot_seat_hides_the_screen_between_players() -> None:
    game = sengoku.load_game("gunshi")
    assert not game.perfect_information
    shadow = game.new_state()  # the same game, advanced beside the terminal's own
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        if "press Enter" in prompt:
            return ""
        if any("[seat 1] press Enter" in p for p in prompts):
            return "quit"
        action = shadow.legal_actions()[0]
        text = game.format_action(shadow, action)
        shadow.apply(action)
        return text

    out = io.StringIO()
    play_terminal(game, {}, {0, 1}, read=read, out=out)
    text = out.getvalue()
    assert text.count("Pass the device to seat") == 2
    assert "Pass the device to seat 0" in text and "Pass the device to seat 1" in text


def test_perfect_information_game_needs_no_pass_screen() -> None:
    game = sengoku.load_game("gungi")
    inputs = iter(["9-6-1 兵", "9-4-1 兵", "quit"])
    out = io.StringIO()
    play_terminal(game, {}, {0, 1}, read=lambda _: next(inputs), out=out)
    assert "Pass the device" not in out.getvalue()
    assert "Black plays 9-4-1 兵(9-3)" in out.getvalue()


def test_cli_flags_map_to_options() -> None:
    from sengoku.cli import build_parser, game_options

    args = build_parser().parse_args(["play", "sashimono", "--solo", "--vp", "2"])
    options = game_options(sengoku.load_game("sashimono"), args)
    assert options == {"mode": "solo", "vp": 2}
    state = sengoku.load_game("sashimono").new_state(**options)
    assert state.num_players == 1
    args = build_parser().parse_args(["play", "gungi", "--solo"])
    import pytest

    with pytest.raises(sengoku.SengokuError, match="no solo mode"):
        game_options(sengoku.load_game("gungi"), args)


def test_selfplay_report_command(capsys) -> None:  # type: ignore[no-untyped-def]
    import json

    from sengoku.cli import main

    assert main(["selfplay", "gunkimono", "--players", "2", "--games", "2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["players"] == 2 and report["games"] == 2
    assert len(report["mean_final_score_by_seat"]) == 2
    assert main(["selfplay", "gungi", "--games", "1"]) == 2
    assert "no self-play report" in capsys.readouterr().err
