"""The core contract's own pieces: options, outcomes, the registry."""

from __future__ import annotations

import pytest

import sengoku
from sengoku.core.game import InvalidOption, Option, Outcome, SengokuError


def test_list_and_load_games() -> None:
    assert "gungi" in sengoku.list_games()
    assert sengoku.load_game("gungi") is sengoku.load_game("Gungi")
    with pytest.raises(SengokuError, match="unknown game 'chess'; available: .*gungi"):
        sengoku.load_game("chess")


def test_options_are_validated_with_what_is_allowed() -> None:
    game = sengoku.load_game("gungi")
    with pytest.raises(InvalidOption, match="unknown option.*'colour'.*known options: .*mode"):
        game.new_state(colour="red")
    with pytest.raises(InvalidOption, match="'mode': 'expert' is not allowed; allowed: 'intro'"):
        game.new_state(mode="expert")
    state = game.new_state(mode="beginner")
    assert state.options["mode"] == "beginner" and state.options["self_check"] == "allowed"
    assert set(state.options) == set(game.options)


def test_option_ranges() -> None:
    opt = Option("players", 4, range(2, 6), "number of players")
    assert opt.check(5) == 5
    with pytest.raises(InvalidOption, match="integers 2..5"):
        opt.check(6)
    with pytest.raises(InvalidOption):
        opt.check(True)


def test_outcomes() -> None:
    win = Outcome.win(1, 2, "mate")
    assert win.returns == (-1.0, 1.0) and win.scores == (0.0, 1.0)
    assert Outcome.from_json(win.to_json()) == win
    ranked = Outcome.ranked([10, 30, 30, 5], "end", [2, 0, 0, 3])
    assert ranked.winners == (1, 2)
    assert ranked.returns[1] == ranked.returns[2] > ranked.returns[0] > ranked.returns[3]
    assert max(ranked.returns) <= 1 and min(ranked.returns) == -1
    loss = Outcome.loss(0, 3, "resignation")
    assert loss.winners == (1, 2) and loss.returns[0] == -1.0


def test_game_description_is_json_ready() -> None:
    import json

    desc = sengoku.load_game("gungi").describe()
    assert json.loads(json.dumps(desc, ensure_ascii=False))["name"] == "gungi"
    assert {o["name"] for o in desc["options"]} >= {
        "mode",
        "first_player",
        "self_check",
        "archer_blockers",
        "betrayal",
    }
