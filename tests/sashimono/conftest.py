"""Helpers for building Sashimono positions by hand."""

from __future__ import annotations

from typing import Any

import pytest

from sengoku.games.sashimono import Sashimono
from sengoku.games.sashimono.state import SLOTS, SashimonoState


@pytest.fixture(scope="session")
def game() -> Sashimono:
    return Sashimono()


def at_turn(st: SashimonoState, seat: int) -> list[dict[str, Any]]:
    """Finish the setup choices (the first two cards go back) and start ``seat``'s turn."""
    while st.prompt is not None and st.prompt["op"] == "look_bottom":
        st.apply(st.legal_actions()[0])
    st.prompt = None
    st.tasks = [{"t": "turn", "seat": seat}]
    st.drop_events()
    return st._run()


def play(game: Sashimono, st: SashimonoState, *texts: str) -> list[dict[str, Any]]:
    """Apply each text in turn; the events of all of them."""
    events: list[dict[str, Any]] = []
    for text in texts:
        events += st.apply(game.parse_action(st, text))
    return events


def card_index(st: SashimonoState, card_id: str) -> int:
    return st.cs.index[card_id]


def give_sashimono(st: SashimonoState, seat: int, card_id: str) -> int:
    """Put a card in ``seat``'s hand (taken from wherever it is)."""
    c = card_index(st, card_id)
    for s in st.sides:
        for pile in (s.shand, s.sdeck, s.sline):
            if c in pile:
                if pile is s.sline:
                    s.sbowed.pop(pile.index(c))
                pile.remove(c)
    st.sides[seat].shand.append(c)
    return c


def slot(name: str) -> int:
    return SLOTS.index(name)


def messages(events: list[dict[str, Any]]) -> list[str]:
    return [e.get("message", "") for e in events]
