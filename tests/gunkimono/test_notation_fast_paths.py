"""Gunkimono's notation fast paths give what a plain scan of the legal list gives.

Each action's texts are made once and each position's written forms once (the server
formats the whole legal list of every position); here ``format_action`` and
``parse_action`` are checked, over random games, against a reference computed in the test
from the legal list alone.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from sengoku.core.game import IllegalAction, ParseError, normalize_notation
from sengoku.games.gunkimono import Place, actions
from sengoku.games.gunkimono import game as game_module
from sengoku.games.gunkimono.actions import (
    CELLS,
    LETTERS,
    NUM_ACTIONS,
    PLACE_BASE,
    SMALL_BASE,
    WIDTH,
    cell_name,
    int_to_action,
)
from tests.gunkimono.helpers import GAME, new


def short_of(action: Any) -> str:
    return action.short() if hasattr(action, "short") else str(action)


def norm(text: str) -> str:
    return normalize_notation(text).replace("@", "")


def reference_format(legal: list[Any]) -> list[str]:
    """Each legal action's short form when no other legal action shares it, else its
    canonical form."""
    shorts = Counter(short_of(a) for a in legal)
    return [short_of(a) if shorts[short_of(a)] <= 1 else str(a) for a in legal]


def reference_parse(legal: list[Any], text: str) -> list[Any]:
    """The legal actions ``text`` names: canonical first, else short (as the rules say)."""
    exact = [a for a in legal if norm(str(a)) == norm(text)]
    if len(exact) == 1:
        return exact
    return exact or [a for a in legal if norm(short_of(a)) == norm(text)]


@pytest.mark.parametrize("players", [2, 3])
def test_format_and_parse_equal_a_scan_of_the_legal_list(players: int) -> None:
    rng = random.Random(players)
    state = new(players=players, seed=players)
    while not state.is_terminal():
        legal = state.legal_actions()
        written = [GAME.format_action(state, a) for a in legal]
        assert written == reference_format(legal)
        for action in rng.sample(legal, min(2, len(legal))):
            for text in (
                str(action),
                GAME.format_action(state, action),
                short_of(action),
                " " + str(action).upper().replace(" ", "  "),
            ):
                expected = reference_parse(legal, text)
                if len(expected) == 1:
                    assert GAME.parse_action(state, text) == expected[0]
                elif expected:
                    with pytest.raises(ParseError, match="ambiguous"):
                        GAME.parse_action(state, text)
        state.apply(rng.choice(legal))


def test_an_action_that_is_not_legal_is_still_formatted() -> None:
    state = new()
    tile = Place(0, 0, 2, 1)
    legal = state.legal_actions()
    assert tile not in legal
    sharing = sum(short_of(a) == tile.short() for a in legal)
    assert GAME.format_action(state, tile) == (tile.short() if sharing <= 1 else str(tile))
    # a placement whose lower half falls off the board (numbered, never legal) is formatted
    # too; one off the action space is refused when built (issue 40), naming the field
    odd = Place(0, CELLS - 1, 2, CELLS - 1 + WIDTH)
    assert GAME.format_action(state, odd) == odd.short()
    with pytest.raises(IllegalAction, match="Place.a"):
        Place(0, -7, 2, -100)
    assert all(0 <= key < NUM_ACTIONS for key in game_module._TEXTS)


def test_a_position_is_formatted_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Formatting the legal list again (the next state message, a spectator's) and parsing
    make no notation: it was made once for the position."""
    state = new(seed=5)
    rng = random.Random(5)
    for _ in range(6):
        state.apply(rng.choice(state.legal_actions()))
    first = [GAME.format_action(state, a) for a in state.legal_actions()]
    assert any(isinstance(a, Place) for a in state.legal_actions())
    calls = 0
    plain_str, plain_short = Place.__str__, Place.short

    def counting_str(self: Place) -> str:
        nonlocal calls
        calls += 1
        return plain_str(self)

    def counting_short(self: Place) -> str:
        nonlocal calls
        calls += 1
        return plain_short(self)

    monkeypatch.setattr(Place, "__str__", counting_str)
    monkeypatch.setattr(Place, "short", counting_short)
    assert [GAME.format_action(state, a) for a in state.legal_actions()] == first
    for text in first[:5]:
        GAME.parse_action(state, text)
    assert calls == 0


def plain_square(cell: int) -> str:
    y, x = divmod(cell, WIDTH)
    return f"{chr(ord('a') + x)}{y + 1}"


def plain_troop(code: int) -> str:
    return f"{LETTERS[code // 2]}{code % 2 + 1}"


def test_every_placement_reads_as_the_formulas_say() -> None:
    """``A1@c3 C2@d3`` / ``Ac3 Cd3`` from the precomputed halves, for every placement of the
    action space (and the plain formulas for fields off the board)."""
    for n in range(PLACE_BASE, SMALL_BASE):
        p = int_to_action(n)
        assert isinstance(p, Place)
        assert str(p) == (
            f"{plain_troop(p.first)}@{plain_square(p.a)} {plain_troop(p.second)}@{plain_square(p.b)}"
        )
        assert p.short() == (
            f"{LETTERS[p.first // 2]}{plain_square(p.a)} {LETTERS[p.second // 2]}{plain_square(p.b)}"
        )
    # fields off the action space are refused when built (issue 40): their number would be
    # another action's
    with pytest.raises(IllegalAction, match="Place.a"):
        Place(3, CELLS + WIDTH, 4, -1)
    assert [cell_name(c) for c in range(-3, CELLS + 3)] == [
        plain_square(c) for c in range(-3, CELLS + 3)
    ]


def test_placements_are_written_from_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(_code: int) -> str:
        raise AssertionError("written from the tables, not computed")

    monkeypatch.setattr(actions, "troop_name", refuse)
    monkeypatch.setattr(actions, "cell_name", refuse)
    assert str(Place(0, 0, 2, 1)) == "I1@a1 S1@b1"
    assert Place(0, 0, 2, 1).short() == "Ia1 Sb1"
