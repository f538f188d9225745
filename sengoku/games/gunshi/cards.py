"""Command cards as the state holds them, and who may see each.

A card is a ``(code, known, up)`` tuple: ``known`` means the opponent knows this card is here
(it was seen face up, resolved, scouted or is public by the variant); ``up`` means it lies
face up in the Command Row. A card the opponent does not know carries a fourth element, the
id of its bag in the opponent's exact knowledge (see ``knowledge.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mypy_extensions import mypyc_attr

from sengoku.core.game import IllegalAction
from sengoku.core.substate import LIST, TUPLE_ROWS, TUPLES, Part, part_field
from sengoku.games.gunshi.data import CARDS

if TYPE_CHECKING:
    from sengoku.games.gunshi.state import GunshiState

Card = tuple[Any, ...]  # (code, known, up) or (code, known, up, bag id)
SCOUTED = 2  # a card's "known" flag when only the opponent's Scout has seen it


@mypyc_attr(native_class=False)
@dataclass(slots=True)
class CommandCards(Part):
    """Each player's Command cards: hand, deck (top first), Command Row (1st position first),
    the cards not yet dealt (``stock``: Phase 2, deck construction), the card in the Lightning
    position, an active Chain Trap beside the row, and whether the next card sent goes face
    down (cards are sent face down and face up alternately)."""

    hand: list[list[Card]] = part_field(TUPLE_ROWS, default_factory=lambda: [[], []])
    deck: list[list[Card]] = part_field(TUPLE_ROWS, default_factory=lambda: [[], []])
    row: list[list[Card]] = part_field(TUPLE_ROWS, default_factory=lambda: [[], []])
    stock: list[list[Card]] = part_field(TUPLE_ROWS, default_factory=lambda: [[], []])
    lightning: list[Card | None] = part_field(TUPLES, default_factory=lambda: [None, None])
    beside: list[Card | None] = part_field(TUPLES, default_factory=lambda: [None, None])
    face_down_next: list[bool] = part_field(LIST, default_factory=lambda: [True, True])


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


# ---------------------------------------------------------------- moving cards (CommandCards)
# Every change to a player's Command cards goes through these (the rules that move cards call
# them); the knowledge bag ids on unknown cards are set by ``knowledge.py`` (``reset``, ``sample``).


def set_stock(st: GunshiState, p: int, cards: list[Card]) -> None:
    """p's cards not yet arranged (Phase 2) or built into a deck."""
    st.cards.stock[p] = cards


def deal(st: GunshiState, p: int, hand: list[Card], deck: list[Card]) -> None:
    """A preset's hand and deck for p (no Phase 2 choices)."""
    st.cards.hand[p] = hand
    st.cards.deck[p] = deck
    st.cards.stock[p] = []


def arrange(st: GunshiState, p: int, code: str, to_hand: bool) -> None:
    """Phase 2: a card of p's stock goes to the hand, or under the deck's cards so far."""
    card = take_card(st.cards.stock[p], code)
    (st.cards.hand if to_hand else st.cards.deck)[p].append(card)


def stack_rest(st: GunshiState, p: int) -> None:
    """Phase 2: the stock's last cards go under the deck (the forced last choice)."""
    st.cards.deck[p].extend(st.cards.stock[p])
    st.cards.stock[p] = []


def mix_hand(st: GunshiState, p: int, bid: int) -> list[Card]:
    """A card left p's hand face down: every card in it is now of bag ``bid`` (the opponent
    cannot tell which one left); returns the hand."""
    hand = st.cards.hand[p]
    hand[:] = [(c[0], False, False, bid) for c in hand]
    return hand


def to_row(st: GunshiState, p: int, card: Card) -> None:
    """Send New Commands: a card to the end of p's Command Row; the next goes the other way up."""
    st.cards.row[p].append(card)
    st.cards.face_down_next[p] = not st.cards.face_down_next[p]


def mix_unknown(st: GunshiState, p: int, indices: list[int], bid: int) -> None:
    """The unknown cards of p's hand at these indices are now of bag ``bid``."""
    hand = st.cards.hand[p]
    for i in indices:
        hand[i] = (hand[i][0], False, False, bid)


def play_from_hand(st: GunshiState, p: int, i: int) -> Card:
    """The card at index i leaves p's hand."""
    return st.cards.hand[p].pop(i)


def to_hand(st: GunshiState, p: int, card: Card) -> None:
    """A card into p's hand (the Gunshi's Inspiration)."""
    st.cards.hand[p].append(card)


def draw(st: GunshiState, p: int) -> Card:
    """Re-Supply: p draws the top card of the deck."""
    card = st.cards.deck[p].pop(0)
    st.cards.hand[p].append(card)
    return card


def to_deck_bottom(st: GunshiState, p: int, code: str) -> None:
    """A resolved card (or a sprung Chain Trap) goes face down, known, under p's deck."""
    st.cards.deck[p].append((code, True, False))


def lightning_command(st: GunshiState, p: int) -> None:
    """The 1st card of p's Command Row moves to the Lightning position."""
    st.cards.lightning[p] = st.cards.row[p].pop(0)


def orders_of_turn(st: GunshiState, p: int) -> list[Card]:
    """Units Follow Orders: the Lightning card, then the 1st card of the row, leave them to
    resolve."""
    out = []
    lt = st.cards.lightning[p]
    if lt is not None:
        out.append(lt)
        st.cards.lightning[p] = None
    if st.cards.row[p]:
        out.append(st.cards.row[p].pop(0))
    return out


def lay_trap(st: GunshiState, p: int, card: Card | None) -> None:
    """A Chain Trap lies beside p's row."""
    st.cards.beside[p] = card


def spring_trap(st: GunshiState, p: int) -> Card | None:
    """p's Chain Trap springs (None: none laid) and goes under p's deck."""
    trap = st.cards.beside[p]
    if trap is not None:
        st.cards.beside[p] = None
        to_deck_bottom(st, p, trap[0])
    return trap


def scout(st: GunshiState, p: int, position: str) -> Card:
    """p's opponent's Scout looks at p's card at a row position (``L``: Lightning)."""
    if position == "L":
        card = st.cards.lightning[p]
        assert card is not None
        st.cards.lightning[p] = (card[0], card[1] or SCOUTED, card[2])
        return card
    i = int(position) - 1
    card = st.cards.row[p][i]
    st.cards.row[p][i] = (card[0], card[1] or SCOUTED, card[2])
    return card
