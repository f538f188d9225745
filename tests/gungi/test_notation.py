"""Notation: canonical (with origin), official short form, English names, FEN."""

from __future__ import annotations

import random

import pytest

from sengoku.core.game import ParseError
from sengoku.games.gungi import Gungi
from sengoku.games.gungi.fen import FenError

from .conftest import fen_of


def test_official_short_form_parses(gungi: Gungi) -> None:
    state = gungi.new_state()
    move = gungi.parse_action(state, "9-6-1 兵")
    assert str(move) == "9-6-1 兵(9-7)"
    assert gungi.format_action(state, move) == "9-6-1 兵"
    for spelling in ("9-6-1兵", "9-6-1-兵", "9-6-1 Pawn", "9-6-1 pawn", "9-6-1 兵(9-7)"):
        assert gungi.parse_action(state, spelling) == move


def test_ambiguous_official_text_lists_candidates(gungi: Gungi) -> None:
    # Both Samurai (6-7 and 4-7) can step to 5-6: the official form names two moves.
    state = gungi.new_state()
    with pytest.raises(
        ParseError, match=r"5-6-1 侍\(6-7\).*5-6-1 侍\(4-7\)|5-6-1 侍\(4-7\).*5-6-1 侍\(6-7\)"
    ):
        gungi.parse_action(state, "5-6-1 侍")
    move = gungi.parse_action(state, "5-6-1 侍(6-7)")
    assert gungi.format_action(state, move) == "5-6-1 侍(6-7)"


def test_drops_in_every_spelling(gungi: Gungi) -> None:
    state = gungi.new_state()
    move = gungi.parse_action(state, "4-7-2 槍新")
    for spelling in ("4-7-2 New Spear", "4-7-2 Spear New", "4-7-2-槍新", "4-7-2 新槍"):
        assert gungi.parse_action(state, spelling) == move


def test_illegal_text_names_the_problem(gungi: Gungi) -> None:
    state = gungi.new_state()
    with pytest.raises(ParseError, match="names no legal move"):
        gungi.parse_action(state, "5-5-1 帥")
    with pytest.raises(ParseError):
        gungi.parse_action(state, "hello")


def test_integer_actions_round_trip(gungi: Gungi) -> None:
    state = gungi.new_state(mode="advanced")
    rng = random.Random(3)
    for _ in range(80):
        legal = state.legal_actions()
        ints = [gungi.action_to_int(state, a) for a in legal]
        assert ints == sorted(ints) and len(set(ints)) == len(ints)
        assert all(0 <= n < gungi.num_distinct_actions() for n in ints)
        for a, n in zip(legal, ints, strict=True):
            assert gungi.int_to_action(state, n) == a
        if state.is_terminal():
            break
        state.apply(rng.choice(legal))


@pytest.mark.parametrize("mode", ["intro", "beginner", "intermediate", "advanced"])
def test_fen_of_the_starting_positions(gungi: Gungi, mode: str) -> None:
    from sengoku.games.gungi.pieces import MODES

    assert gungi.to_fen(gungi.new_state(mode=mode)) == MODES[mode].setup


def test_fen_round_trips_exactly(gungi: Gungi) -> None:
    for fen in (
        "3img3/1ra1n1as1/d1fwdwf1d/9/9/9/D1FWDWF1D/1SA1|N:G|1AR1/4MI3 J2N2S1R1D1/j2n2s1r1d1 b 1 - 1",
        "3img3/1ra3as1/d1fwd|w:n|f1d/9/9/9/D1FWDWF1D/1SA1|N:G|1|A:S|R1/4MI3 J2N2R1D1/j2n2s1r1d1 b 1 - 2",
    ):
        assert gungi.to_fen(gungi.from_fen(fen)) == fen
    study = fen_of({"5-5": "DdT"}, hands="-/g1")  # no Marshals: a study position
    assert gungi.to_fen(gungi.from_fen(study, study=True)) == study


@pytest.mark.parametrize(
    ("fen", "field"),
    [
        ("9/9/9 -/- w 0 - 1", "9 ranks"),
        ("9/9/9/9/9/9/9/9/9 -/- x 0 - 1", "side to move"),
        ("9/9/9/9/9/9/9/9/9 -/- w 7 - 1", "mode"),
        ("9/9/9/9/9/9/9/9/9 Q1/- w 0 - 1", "unknown piece letter"),
        ("9/9/9/9/9/9/9/9/|D:D:D|8 -/- w 0 - 1", "stack limit"),
        ("9/9/9/9/9/9/9/9/|M:D|8 -/- w 3 - 1", "stacked on a Marshal"),
        ("9/9/9/9/9/9/9/9/9 M2/- w 3 - 1", "more than 1"),
        ("9/9/9/9/9/9/9/9/9 -/- w 0 - 1 extra", "6 fields"),
    ],
)
def test_bad_fen_names_the_field(gungi: Gungi, fen: str, field: str) -> None:
    with pytest.raises(FenError, match=field):
        gungi.from_fen(fen)
