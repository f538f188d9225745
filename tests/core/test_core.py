"""The core contract's own pieces: options, outcomes, the registry."""

from __future__ import annotations

import pytest

import sengoku
from sengoku.core.game import Game, InvalidOption, Option, Outcome, SengokuError


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


def test_every_game_declares_its_facts_as_one_game_type() -> None:
    """A game's static facts are one frozen GameType value; ``name`` and ``version`` (the
    identity records carry) are read from it, and ``describe()`` lists it."""
    import dataclasses

    from sengoku.core.game_type import GameType

    for name in sengoku.list_games():
        game = sengoku.load_game(name)
        facts = type(game).game_type
        assert isinstance(facts, GameType)
        assert (game.name, game.version) == (facts.name, facts.version) == (name, facts.version)
        assert game.describe()["renderer"] == facts.renderer
        assert facts.min_players <= facts.max_players
        with pytest.raises(dataclasses.FrozenInstanceError):
            facts.renderer = "other"  # type: ignore[misc]


def test_a_game_type_names_the_field_it_refuses() -> None:
    from sengoku.core.game_type import GameType

    with pytest.raises(ValueError, match="players"):
        GameType(name="x", title="x", version=1, min_players=3, max_players=2)
    with pytest.raises(ValueError, match="renderer"):
        GameType(name="x", title="x", version=1, min_players=1, max_players=2, renderer="../x")
    with pytest.raises(ValueError, match="name"):
        GameType(name="Gungi", title="x", version=1, min_players=1, max_players=2)
    with pytest.raises(TypeError, match="GameType"):

        class Broken(Game):  # noqa: F841 - refused when the class is made
            game_type = {"name": "broken"}  # type: ignore[assignment]


def test_why_illegal_by_default_reads_the_legal_list() -> None:
    """The contract's default ``why_illegal``: None for a legal action, the reason (with the
    legal ones) for another, and the game's end once it is over; it changes nothing."""
    from tests.toygames import Mark, TicTacToe

    state = TicTacToe().new_state()
    assert state.why_illegal(Mark(4)) is None
    state.apply(Mark(4))
    why = state.why_illegal(Mark(4))
    assert why is not None and "not a legal action here" in why and "legal here:" in why
    assert state.why_illegal(Mark(0)) is None
    for square in (0, 3, 1, 6, 2):  # O takes the top row: O wins
        state.apply(Mark(square))
    assert state.is_terminal()
    why = state.why_illegal(Mark(8))
    assert why is not None and "the game is over" in why
