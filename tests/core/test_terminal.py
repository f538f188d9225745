"""The terminal game: hot seat with hidden information hides the screen between players."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest

import sengoku
from sengoku.terminal import play_terminal


def test_hot_seat_hides_the_screen_between_players() -> None:
    game = sengoku.load_game("gunshi")
    assert not game.game_type.perfect_information
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
    assert main(["selfplay", "gunkimono", "--games", "0"]) == 2
    assert "at least 1" in capsys.readouterr().err


def _private_lines(game: sengoku.Game, state: sengoku.State, seat: int) -> set[str]:
    """Lines of ``seat``'s own drawing that neither a spectator nor another seat is shown."""
    others = set(game.render_text(state, None).splitlines())
    for other in range(state.num_players):
        if other != seat:
            others |= set(game.render_text(state, other).splitlines())
    return {line for line in game.render_text(state, seat).splitlines() if line.strip()} - others


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("gunshi", {}),
        ("sashimono", {}),
        ("gunkimono", {"players": 2}),
        ("gunkimono", {"players": 3}),
    ],
)
def test_hot_seat_draws_nothing_private_before_the_next_player_confirms(
    name: str, options: dict[str, Any]
) -> None:
    # issue 15 item 6: the next player's hand, deck order and Shogun were printed before the
    # pass screen (60 blank lines only pushed them into the scrollback).
    game = sengoku.load_game(name)
    shadow = game.new_state(0, **options)  # the terminal's game, advanced beside it
    out = io.StringIO()
    rng = random.Random(7)
    since = 0  # where the output not yet checked begins
    passes = 0
    checked: list[int] = []

    def read(prompt: str) -> str:
        nonlocal since, passes
        if "press Enter" in prompt:
            seat = int(prompt.split("]")[0].removeprefix("[seat "))
            before = out.getvalue()[since:]
            secrets = _private_lines(game, shadow, seat)
            leaked = sorted(line for line in secrets if line in before.splitlines())
            assert not leaked, f"seat {seat}'s screen drawn before it confirmed: {leaked}"
            checked.append(len(secrets))
            passes += 1
            return ""
        if passes >= 8:
            return "quit"
        since = len(out.getvalue())  # what the seat at the screen types and sees is its own
        action = rng.choice(shadow.legal_actions())
        text = game.format_action(shadow, action)
        shadow.apply(action)
        return text

    play_terminal(game, options, set(range(shadow.num_players)), read=read, out=out)
    assert passes >= 8 and sum(checked) > 0  # the check saw private lines to look for


def test_hot_seat_clears_a_real_terminal_before_the_pass_screen() -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    game = sengoku.load_game("sashimono")
    out = Tty()
    inputs = iter(["", "quit"])
    play_terminal(game, {}, {0, 1}, read=lambda _: next(inputs), out=out)
    text = out.getvalue()
    assert "\x1b[3J" in text and text.index("\x1b[3J") < text.index("Pass the device to seat 0")
