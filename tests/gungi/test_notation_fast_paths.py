"""Gungi's notation fast paths give what a plain scan of the legal list gives.

``format_action`` reads per-position counts and ``parse_action`` compares each legal move's
spellings, normalised once per move; here both are checked, over random games, against a
reference computed in the test from the legal list alone.
"""

from __future__ import annotations

import random

import pytest

from sengoku.core.game import ParseError
from sengoku.games.gungi import Gungi, GungiState, Move
from sengoku.games.gungi import game as gungi_game
from sengoku.games.gungi.game import SETUP, normalize
from sengoku.games.gungi.move import DONE_TEXT, NEW


def reference_format(legal: list[Move], move: Move) -> str:
    """The shortest official form that no other legal move shares, else the canonical."""
    short = move.official()
    if sum(m.official() == short for m in legal) <= 1:
        return short
    with_origin = move.official(with_origin=True)
    if sum(m.official(with_origin=True) == with_origin for m in legal) <= 1:
        return with_origin
    return str(move)


def spellings(legal: list[Move]) -> dict[Move, set[str]]:
    """Each legal move's accepted spellings, normalised."""
    return {
        m: {
            normalize(s)
            for s in (
                str(m),
                m.official(),
                m.official(with_origin=True),
                m.official(betrayal_tiers=True),
                m.official(with_origin=True, betrayal_tiers=False).rstrip("付取"),
            )
        }
        for m in legal
    }


def reference_parse(state: GungiState, forms: dict[Move, set[str]], text: str) -> list[Move]:
    """Every legal move one of whose accepted spellings reads as ``text``."""
    key = normalize(text)
    keys = {key}
    if state.phase == SETUP and key != DONE_TEXT and not key.endswith(NEW):
        keys.add(key + NEW)
    return [m for m in state.legal_actions() if keys & forms[m]]


def texts_for(move: Move) -> list[str]:
    return [
        str(move),
        move.official(),
        move.official(with_origin=True),
        "  " + move.official(betrayal_tiers=True).replace(" ", "  ") + " ",
        str(move).replace("-", " "),
    ]


@pytest.mark.parametrize("seed", [0, 1])
def test_format_and_parse_equal_a_scan_of_the_legal_list(gungi: Gungi, seed: int) -> None:
    rng = random.Random(seed)
    state = gungi.new_state(seed=seed)
    assert isinstance(state, GungiState)
    for _ply in range(100):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        for move in legal:
            assert gungi.format_action(state, move) == reference_format(legal, move)
        forms = spellings(legal)
        for move in rng.sample(legal, min(4, len(legal))):
            for text in [*texts_for(move), gungi.format_action(state, move)]:
                expected = reference_parse(state, forms, text)
                if len(expected) == 1:
                    assert gungi.parse_action(state, text) == expected[0]
                else:
                    with pytest.raises(ParseError):
                        gungi.parse_action(state, text)
        with pytest.raises(ParseError):
            gungi.parse_action(state, "9-9-3 兵(1-1)")  # no legal move reads so
        state.apply(rng.choice(legal))


def test_parsing_normalises_each_move_once(gungi: Gungi, monkeypatch: pytest.MonkeyPatch) -> None:
    """A move's spellings are normalised once, not on every parse (the server parses
    one action per position, and late in a game a scan of the legal list cost ~11 ms)."""
    state = gungi.new_state(seed=3)
    rng = random.Random(3)
    for _ in range(30):
        state.apply(rng.choice(state.legal_actions()))
    move = state.legal_actions()[-1]
    gungi.parse_action(state, str(move))
    calls = 0

    def counting(text: str) -> str:
        nonlocal calls
        calls += 1
        return normalize(text)

    monkeypatch.setattr(gungi_game, "normalize", counting)
    for m in state.legal_actions()[:5]:
        assert gungi.parse_action(state, str(m)) == m
    assert calls <= 5  # the texts sent, at most; none for the legal moves
