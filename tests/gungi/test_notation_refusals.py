"""Notation that names an impossible square or piece says what is wrong (audit, issue 42),
and full-width digits read as ASCII ones."""

from __future__ import annotations

import pytest

from sengoku.core.game import ParseError
from sengoku.games.gungi import Gungi


# rulebook: "the moves are read in the order of "Column-Row-Level-Piece."" on a 9x9 board;
# "Introduction ... Stack Limit: 2", the Advanced limit is 3; "Special pieces are not used in
# the intro ruleset. Only Archers are used in the beginner ruleset."
@pytest.mark.parametrize(
    ("mode", "text", "problem"),
    [
        ("advanced", "7-6-4 兵", "tier 4: towers are at most 3 high in this mode (advanced)"),
        ("intro", "7-6-3 兵", "tier 3: towers are at most 2 high in this mode (intro)"),
        ("intro", "7-6-0 兵", "tier 0: tiers count from 1"),
        ("intro", "0-6-1 兵", "column 0 is off the board: columns are 1-9"),
        ("intro", "10-6-1 兵", "column 10 is off the board: columns are 1-9"),
        ("intro", "7-10-1 兵", "row 10 is off the board: rows are 1-9"),
        ("intro", "７-６-０ 兵", "tier 0: tiers count from 1"),
        ("intro", "7-6-1 X", "'X' is not a piece: pieces are 帥 Marshal, 大 General"),
        ("intro", "7-6-1 Xyz(7-7)", "'Xyz' is not a piece: pieces are"),
        ("intro", "7-6-1", "no piece after the square"),
        ("intro", "7-6-1 砲", "the Cannon (砲) is not used in this mode (intro)"),
        ("beginner", "7-6-1 Captain", "the Captain (謀) is not used in this mode (beginner)"),
    ],
)
def test_impossible_square_or_piece_is_named(
    gungi: Gungi, mode: str, text: str, problem: str
) -> None:
    state = gungi.new_state(mode=mode)
    with pytest.raises(ParseError) as err:
        gungi.parse_action(state, text)
    message = str(err.value)
    assert problem in message and "names no legal move" not in message, message
    assert message.startswith(repr(text)), message  # it quotes what the player typed


def test_full_width_digits_read_as_ascii(gungi: Gungi) -> None:
    # A Japanese keyboard's full-width input mode types '９－６－１' for 9-6-1.
    state = gungi.new_state(mode="intro")
    move = gungi.parse_action(state, "9-6-1 兵")
    for text in ("９－６－１ 兵", "９-６-１兵", "９－６－１\u3000兵（９－７）", "9-6-1　Pawn"):
        assert gungi.parse_action(state, text) == move
    # Signs and doubled hyphens stay refused in full width too.
    with pytest.raises(ParseError, match="single hyphens"):
        gungi.parse_action(state, "－９－６－１ 兵")


def test_a_legal_looking_move_that_is_not_legal_still_says_so(gungi: Gungi) -> None:
    state = gungi.new_state(mode="intro")
    with pytest.raises(ParseError, match="names no legal move"):
        gungi.parse_action(state, "5-5-1 帥")
