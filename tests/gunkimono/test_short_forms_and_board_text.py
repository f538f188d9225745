"""Short forms in either order, refusals that name the rule, typed fields, board text."""

from __future__ import annotations

import re

import pytest

from sengoku.core.game import IllegalAction, ParseError
from sengoku.games.gunkimono.actions import BuildStronghold, Draw, Place, Score, SmallTile

from .helpers import GAME, hand, neutral, new, play, sq


def test_short_large_tile_in_either_order() -> None:
    # docs/rules/gunkimono.md: input "accepts a large tile's squares in either order".
    st = neutral(new(2))
    hand(st, 0, ["C1A1", "C2A1", "I2P2"])
    placed = Place(7, sq("d2"), 1, sq("e2"))  # P2 on d2, I2 on e2
    assert GAME.parse_action(st, "Pd2 Ie2") == placed
    assert GAME.parse_action(st, "Ie2 Pd2") == placed
    assert GAME.parse_action(st, " ie2  pd2 ") == placed
    # Reversed, the ambiguity between C1A1 and C2A1 stays an ambiguity.
    with pytest.raises(ParseError, match="ambiguous"):
        GAME.parse_action(st, "Ad3 Cc3")


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("Cc1 Ad1", "Troop Duplication rule"),  # c1 shows a cavalry on the neutral board
        ("Ad1 Cc1", "Troop Duplication rule"),
        ("Sc3 Pd3", "no large tile with samurai and spearman is in your hand"),
        ("Ia1 Ib1", "two different troops"),
        ("vp c3", "scored in step 2"),
        ("honor c3", "scored in step 2"),
    ],
)
def test_refused_short_form_names_the_rule(text: str, rule: str) -> None:
    st = neutral(new(2))
    hand(st, 0, ["C1A1", "C2A1", "I2P2"])
    before = st.to_json()
    with pytest.raises(ParseError, match=rule):
        GAME.parse_action(st, text)
    assert st.to_json() == before


def test_refused_short_score_names_the_troop_to_score() -> None:
    st = neutral(new(2))
    play(st, "small A@b1")
    with pytest.raises(ParseError, match="score the troop just placed"):
        GAME.parse_action(st, "vp c3")


@pytest.mark.parametrize(
    "build",
    [
        lambda: Place(1.5, 0, 2, 1),  # type: ignore[arg-type]
        lambda: Place(1, 0, 2, "b1"),  # type: ignore[arg-type]
        lambda: Place(True, 0, 2, 1),
        lambda: SmallTile(1, 0.0, False),  # type: ignore[arg-type]
        lambda: SmallTile(1, 0, 2),  # type: ignore[arg-type]
        lambda: Score("yes", 0, 0),  # type: ignore[arg-type]
        lambda: BuildStronghold("c3"),  # type: ignore[arg-type]
        lambda: Draw(2.0),  # type: ignore[arg-type]
    ],
)
def test_fields_that_are_not_whole_numbers_are_illegal_actions(build: object) -> None:
    with pytest.raises(IllegalAction, match="must be"):
        build()  # type: ignore[operator]


def test_non_string_notation_is_a_parse_error() -> None:
    st = new(2)
    with pytest.raises(ParseError, match="is a string"):
        GAME.parse_action(st, 12)  # type: ignore[arg-type]


def test_board_levels_never_read_like_notation_symbols() -> None:
    # In notation "S1" is a samurai with one stronghold symbol; the board must not write a
    # samurai on level 1 the same way.
    st = neutral(new(2))
    play(st, "small A@b1", "vp A@b1")
    text = GAME.render_text(st, 0)
    board = text.split("Largest free formations")[0].splitlines()[2:]
    assert any("A:1" in line for line in board)  # the archer on level 1
    assert any("s:0" in line.lower() for line in board)
    for line in board:
        assert not re.search(r"\b[ISCPAiscpa][12]\b", line), line
