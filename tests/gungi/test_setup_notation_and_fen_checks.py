"""Setup placements in official notation, hints that are legal, FEN checks (issue 15)."""

from __future__ import annotations

import random
import re

import pytest

from sengoku.cli import main
from sengoku.core.game import InvalidOption, ParseError
from sengoku.games.gungi import Gungi
from sengoku.games.gungi.fen import FenError
from sengoku.games.gungi.move import NEW
from sengoku.games.gungi.pieces import MODES

from .conftest import fen_of


def test_setup_placements_are_read_without_arata_mark(gungi: Gungi) -> None:
    # Real records write setup placements as '6-9-1-帥' or '4-9-1 兵': every setup action but
    # Done is a placement from the hand, so the 新 is implied.
    state = gungi.new_state(mode="intermediate")
    marshal = gungi.parse_action(state, "6-9-1-帥")
    assert marshal.is_drop and marshal.official() == "6-9-1 帥" + NEW
    state.apply(marshal)
    state.apply(gungi.parse_action(state, "5-1-1 帥"))
    pawn = gungi.parse_action(state, "4-9-1 兵")
    assert pawn.is_drop and pawn.official() == "4-9-1 兵" + NEW
    state.apply(pawn)


def test_without_arata_mark_a_play_move_is_still_a_board_move(gungi: Gungi) -> None:
    state = gungi.new_state(mode="beginner")
    assert state.phase == "play"
    move = gungi.parse_action(state, "9-6-1 兵")
    assert move.is_board_move


def _examples(message: str) -> list[str]:
    return re.findall(r"e\.g\. '([^']+)'|or '([^']+)' to place", message)


@pytest.mark.parametrize("mode", ["beginner", "advanced"])
def test_refusal_hints_are_legal_now(gungi: Gungi, mode: str) -> None:
    rng = random.Random(3)
    state = gungi.new_state(mode=mode)
    for _ in range(12):
        with pytest.raises(ParseError) as err:
            gungi.parse_action(state, "5-5-3 帥")
        hints = [h for pair in _examples(str(err.value)) for h in pair if h]
        assert hints, str(err.value)
        for hint in hints:
            assert gungi.parse_action(state, hint) in state.legal_actions()
        state.apply(rng.choice([m for m in state.legal_actions() if not m.is_done]))


def test_signed_or_doubled_separators_are_refused(gungi: Gungi) -> None:
    state = gungi.new_state(mode="beginner")
    legal = gungi.parse_action(state, "1-6-1 兵")  # the move '-1-6-1' would fold into
    assert legal in state.legal_actions()
    for text in ("-1-6-1 兵", "1--6-1 兵"):
        with pytest.raises(ParseError, match="single hyphens"):
            gungi.parse_action(state, text)


@pytest.mark.parametrize("value", [5, None, b"1-6-1", ["1-6-1 兵"]])
def test_non_string_notation_is_a_parse_error(gungi: Gungi, value: object) -> None:
    state = gungi.new_state(mode="beginner")
    with pytest.raises(ParseError, match="is a string"):
        gungi.parse_action(state, value)  # type: ignore[arg-type]


def test_play_position_without_marshal_is_refused(gungi: Gungi) -> None:
    with pytest.raises(FenError, match="no Marshal"):
        gungi.from_fen(fen_of({"5-5": "D", "5-4": "d"}))
    with pytest.raises(FenError, match="Black has no Marshal"):
        gungi.from_fen(fen_of({"5-9": "M", "5-4": "d"}, side="w"))
    with pytest.raises(FenError, match="Marshal is in hand"):
        gungi.from_fen(fen_of({"5-9": "M"}, hands="-/m1"))
    # A finished game: White just captured Black's Marshal, Black to move.
    done = gungi.from_fen(fen_of({"5-9": "M", "5-4": "d"}, side="b"))
    assert done.is_terminal()
    # During the setup the Marshal is still in hand; a study position may skip the rule.
    assert not gungi.from_fen(MODES["advanced"].setup).is_terminal()
    assert gungi.from_fen(fen_of({"5-5": "D"}), study=True).board


def _gungi_js_move_number(moves: list[tuple[str, bool]]) -> int:
    """gungi.js's count (src/gungi/move_gen.ts, makeMove) over its setup placements.

    Each placement is (colour, final): gungi.js has no Done; the last placement of a
    player's setup is marked final, and Black's final placement ends White's setup too.
    """
    number, drafting = 1, {"w": True, "b": True}
    for turn, final in moves:
        if final:
            drafting[turn] = False
            if turn == "b":
                drafting["w"] = False
        if turn == "b" and (drafting["w"] or not drafting["b"]):
            number += 1
        if turn == "w" and not drafting["b"] and not drafting["w"] and final:
            number += 1
    return number


@pytest.mark.parametrize("alone", [0, 2])
def test_move_number_after_done_done_agrees_with_gungi_js(gungi: Gungi, alone: int) -> None:
    rng = random.Random(alone)
    state = gungi.new_state(mode="intermediate")
    rounds = 5
    for _ in range(2 * rounds):
        state.apply(rng.choice([m for m in state.legal_actions() if not m.is_done]))
    state.apply(gungi.parse_action(state, "done"))  # White is done; Black places alone
    for _ in range(alone):
        state.apply(rng.choice([m for m in state.legal_actions() if not m.is_done]))
    state.apply(gungi.parse_action(state, "done"))
    assert state.phase == "play"
    # The same setup in gungi.js: White's last placement is final, then Black places alone
    # and marks its last placement final (its one before White's Done when alone == 0).
    js = [("w", False), ("b", False)] * (rounds - 1) + [("w", True)]
    js += [("b", False)] * alone + [("b", True)]
    expected = _gungi_js_move_number(js)
    assert int(gungi.to_fen(state).split()[-1]) == expected == rounds + 1


def test_perft_refuses_a_negative_depth(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "gungi", "--depth", "-1"]) == 2
    assert "--depth" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("options", "piece"),
    [
        ({"mode": "intro", "archer_blockers": "wing"}, "Archer"),
        ({"mode": "intro", "betrayal": "all_or_nothing"}, "Captain"),
        ({"mode": "beginner", "betrayal": "all_or_nothing"}, "Captain"),
    ],
)
def test_options_for_pieces_the_mode_lacks_are_refused(
    gungi: Gungi, options: dict[str, str], piece: str
) -> None:
    with pytest.raises(InvalidOption, match=f"rules the {piece}"):
        gungi.new_state(**options)


def test_options_at_default_or_for_present_pieces_are_accepted(gungi: Gungi) -> None:
    gungi.new_state(mode="intro", archer_blockers="front_and_wing", betrayal="any_subset")
    assert gungi.new_state(mode="beginner", archer_blockers="wing").options["archer_blockers"]
    assert gungi.new_state(mode="advanced", betrayal="all_or_nothing")
