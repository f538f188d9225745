"""Advanced Variant 2: Custom Deck Construction (``variant=custom``).

Rulebook, "Advanced Variant 2" and "Custom Deck Construction Examples": each player gets one
Move (step 2), then the players pick cards alternately, Red first, until each deck holds 7;
both decks hold every card picked. Optional Rule 1 (``move_up_for_selection``): the Move is
picked too and Blue starts; Optional Rule 2 (``custom_selection=agreed``): a deck agreed on;
Optional Rule 3 (``custom_selection=secret``): each deck chosen in secret.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from mypy_extensions import mypyc_attr

import sengoku.games.gunshi.cards as cards
import sengoku.games.gunshi.knowledge as knowledge
import sengoku.games.gunshi.words as words
from sengoku.core.sentence import say
from sengoku.core.substate import INTS, LIST, ROWS, SCALAR, Part, part_field
from sengoku.games.gunshi.actions import A
from sengoku.games.gunshi.cards import card_order
from sengoku.games.gunshi.data import BLUE, CARDS, RED

if TYPE_CHECKING:
    from sengoku.games.gunshi.actions import GunshiAction
    from sengoku.games.gunshi.state import GunshiState


@mypyc_attr(native_class=False)
@dataclass(slots=True)
class DeckConstruction(Part):
    """Custom Deck Construction: each player's picks, the seats still to pick in order (also
    Modification 2's preparing order), the cards step 2 gives each player, and whether each
    player knows the other's deck composition (not under Optional Rule 3)."""

    picks: list[list[str]] = part_field(ROWS, default_factory=lambda: [[], []])
    pick_order: list[int] = part_field(INTS, default_factory=list)
    pre_taken: list[str] = part_field(LIST, default_factory=list)
    deck_public: bool = part_field(SCALAR, default=True)


def start_picks(st: GunshiState, order: list[int]) -> None:
    """The seats choose one card at a time in this order; the first is to choose."""
    st.deck_construction.pick_order = order
    st.player = order[0]


def picks_made(st: GunshiState) -> bool:
    """Every choice of the pick order is made: the phase is over (the flow's ``end``)."""
    return not st.deck_construction.pick_order


def next_picker(st: GunshiState) -> bool:
    """A seat has chosen: the next one is to choose (False: every choice is made)."""
    order = st.deck_construction.pick_order
    order.pop(0)
    if order:
        st.player = order[0]
    return bool(order)


def setup(st: GunshiState) -> None:
    """The pick order of the chosen selection rule; the game starts in phase ``build``."""
    sel = st.options["custom_selection"]
    rule_1 = st.options["move_up_for_selection"]
    for p in (RED, BLUE):
        cards.set_stock(st, p, [])
    if sel == "alternate":
        # Step 2: one Move each; step 3: three picks each, Red first.
        st.deck_construction.pre_taken = ["M"]
        st.deck_construction.pick_order = [RED, BLUE] * 3
    elif sel == "alternate_all":
        # Optional Rule 1: the Move is up for selection too and Blue starts.
        st.deck_construction.pick_order = [BLUE, RED] * 3 + [BLUE]
    else:
        # Optional Rule 3: each deck chosen in secret; the decks may differ. Without
        # Optional Rule 1 step 2 still gives each player a Move, and 6 are chosen.
        st.deck_construction.pre_taken = [] if rule_1 else ["M"]
        n = 7 - len(st.deck_construction.pre_taken)
        st.deck_construction.pick_order = [RED] * n + [BLUE] * n
        st.deck_construction.deck_public = False
    st.phase = "build"
    st.player = st.deck_construction.pick_order[0]


def deck_pool(st: GunshiState) -> list[str]:
    """The cards a custom deck may hold: basic and Rikutoh, and Sanryaku if chosen."""
    sets = {"basic", "rikutoh"} | ({"sanryaku"} if st.options["sanryaku"] else set())
    return [c.code for c in CARDS.values() if c.set in sets]


def legal(st: GunshiState) -> list[GunshiAction]:
    p = st.player
    if st.options["custom_selection"] == "secret":
        mine = st.deck_construction.pre_taken + st.deck_construction.picks[p]
        return [A("pick", c) for c in deck_pool(st) if mine.count(c) < CARDS[c].copies]
    # Both decks hold the chosen cards: a card can be chosen while a colour still has one.
    chosen = (
        st.deck_construction.pre_taken
        + st.deck_construction.picks[RED]
        + st.deck_construction.picks[BLUE]
    )
    return [A("pick", c) for c in deck_pool(st) if chosen.count(c) < CARDS[c].copies]


def do(st: GunshiState, a: GunshiAction) -> None:
    p = st.player
    st.deck_construction.picks[p].append(a.arg)
    secret = st.options["custom_selection"] == "secret"
    if secret:
        st.emit(
            [p],
            "pick",
            say("You choose {card} for your deck.", card=words.card(a.arg)),
            card=a.arg,
        )
        st.emit(
            None,
            "pick_made",
            say("{colour} chooses a card in secret.", colour=words.colour(p)),
            seat=p,
        )
    else:
        st.emit(
            None,
            "pick",
            say("{colour} chooses {card}.", colour=words.colour(p), card=words.card(a.arg)),
            card=a.arg,
        )
    if next_picker(st):
        return
    if secret:
        decks = [
            st.deck_construction.pre_taken + st.deck_construction.picks[RED],
            st.deck_construction.pre_taken + st.deck_construction.picks[BLUE],
        ]
    else:
        both = (
            st.deck_construction.pre_taken
            + st.deck_construction.picks[RED]
            + st.deck_construction.picks[BLUE]
        )
        decks = [list(both), list(both)]
    for q in (RED, BLUE):
        cards.set_stock(st, q, [(c, False, False) for c in sorted(decks[q], key=card_order)])
        if secret:
            # The opponent knows only the step 2 Move and one colour's copy limits.
            bid = knowledge.new_bag(
                st,
                q,
                list(st.deck_construction.pre_taken),
                free=len(st.deck_construction.picks[q]),
                pool=deck_pool(st),
            )
            cards.set_stock(st, q, [(c[0], False, False, bid) for c in st.cards.stock[q]])
        else:
            st.reset_knowledge(q)
    st.emit(None, "decks_built", say("The decks are built."))
