"""Command cards as the state holds them, and who may see each.

A card is a ``(code, known, up)`` tuple: ``known`` means the opponent knows this card is here
(it was seen face up, resolved, scouted or is public by the variant); ``up`` means it lies
face up in the Command Row. A card the opponent does not know carries a fourth element, the
id of its bag in the opponent's exact knowledge (see ``knowledge.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sengoku.core.game import IllegalAction
from sengoku.core.substate import part
from sengoku.games.gunshi.data import CARDS

Card = tuple[Any, ...]  # (code, known, up) or (code, known, up, bag id)
SCOUTED = 2  # a card's "known" flag when only the opponent's Scout has seen it


def _zones_from_json(v: list[list[list[Any]]]) -> list[list[Card]]:
    return [[tuple(c) for c in z] for z in v]


def _slots_from_json(v: list[list[Any] | None]) -> list[Card | None]:
    return [tuple(c) if c is not None else None for c in v]


def cards_from_json(v: list[list[Any]]) -> list[Card]:
    """Cards read back from JSON (which keeps tuples as lists)."""
    return [tuple(c) for c in v]


@dataclass(slots=True)
class CommandCards:
    """Each player's Command cards: hand, deck (top first), Command Row (1st position first),
    the cards not yet dealt (``stock``: Phase 2, deck construction), the card in the Lightning
    position, an active Chain Trap beside the row, and whether the next card sent goes face
    down (cards are sent face down and face up alternately)."""

    hand: list[list[Card]] = part(lambda: [[], []], decode=_zones_from_json)
    deck: list[list[Card]] = part(lambda: [[], []], decode=_zones_from_json)
    row: list[list[Card]] = part(lambda: [[], []], decode=_zones_from_json)
    stock: list[list[Card]] = part(lambda: [[], []], decode=_zones_from_json)
    lightning: list[Card | None] = part(lambda: [None, None], decode=_slots_from_json)
    beside: list[Card | None] = part(lambda: [None, None], decode=_slots_from_json)
    face_down_next: list[bool] = part(lambda: [True, True])


_ORDER = {code: i for i, code in enumerate(CARDS)}


def card_order(code: str) -> int:
    """The card's place in the card list (decks are written in this order)."""
    return _ORDER[code]


def find_card(cards: list[Card], code: str, prefer_known: bool) -> int:
    """The index of a card of this code (a known one first if ``prefer_known``)."""
    best = -1
    for i, c in enumerate(cards):
        if c[0] == code:
            if best < 0 or (prefer_known and c[1] and not cards[best][1]):
                best = i
    if best < 0:
        raise IllegalAction(f"no {code!r} card there")
    return best


def take_card(cards: list[Card], code: str) -> Card:
    return cards.pop(find_card(cards, code, prefer_known=False))


def seen(card: Card, show: bool, seat: int | None) -> bool:
    """Whether a seat sees this card (SCOUTED: the opponent's Scout only, not spectators)."""
    known, up = card[1], card[2]
    return bool(show or up or known is True or (known == SCOUTED and seat is not None))
