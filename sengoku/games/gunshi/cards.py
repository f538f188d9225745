"""Command cards as the state holds them, and who may see each.

A card is a ``(code, known, up)`` tuple: ``known`` means the opponent knows this card is here
(it was seen face up, resolved, scouted or is public by the variant); ``up`` means it lies
face up in the Command Row. A card the opponent does not know carries a fourth element, the
id of its bag in the opponent's exact knowledge (see ``knowledge.py``).
"""

from __future__ import annotations

from typing import Any

from sengoku.core.game import IllegalAction
from sengoku.games.gunshi.data import CARDS

Card = tuple[Any, ...]  # (code, known, up) or (code, known, up, bag id)
SCOUTED = 2  # a card's "known" flag when only the opponent's Scout has seen it

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
