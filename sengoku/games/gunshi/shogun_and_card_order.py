"""Phase 2: Choosing Your Shogun and Card Order.

Rulebook, "Phase 2": each player secretly names one unit of the formation as the Shogun,
then takes 3 cards into the hand and stacks the rest as the deck in the order chosen. The
secret simultaneous choice is played as sequential hidden decisions, Red first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from mypy_extensions import mypyc_attr

import sengoku.games.gunshi.cards as cards
import sengoku.games.gunshi.words as words
from sengoku.core.sentence import say
from sengoku.core.substate import INTS, LIST, ROWS, Part, part_field
from sengoku.games.gunshi.actions import A
from sengoku.games.gunshi.data import BLUE, HAND_SIZE, LETTERS, RED

if TYPE_CHECKING:
    from sengoku.games.gunshi.actions import GunshiAction
    from sengoku.games.gunshi.state import GunshiState


@mypyc_attr(native_class=False)
@dataclass(slots=True)
class Shoguns(Part):
    """Each player's Shogun (a token id, -1: not chosen yet), whether it has been revealed
    (captured or scouted), and the units that may still be it as the opponent sees it."""

    shogun: list[int] = part_field(INTS, default_factory=lambda: [-1, -1])
    revealed: list[bool] = part_field(LIST, default_factory=lambda: [False, False])
    candidates: list[list[int]] = part_field(ROWS, default_factory=lambda: [[], []])


def set_candidates(st: GunshiState, p: int) -> None:
    """Every unit of p on the Field may be the Shogun (the formation is complete)."""
    uown = st.field.uown
    st.shoguns.candidates[p] = sorted(u for u in range(len(uown)) if uown[u] == p)


def rule_out(st: GunshiState, p: int, u: int) -> None:
    """The opponent knows unit u of p is not the Shogun (it left the Field alive, invaded, or
    a Scout asked about it)."""
    if u in st.shoguns.candidates[p]:
        st.shoguns.candidates[p].remove(u)


def reveal(st: GunshiState, p: int) -> None:
    """p's Shogun is known to the opponent (captured or scouted)."""
    st.shoguns.revealed[p] = True


def narrow_to(st: GunshiState, p: int, u: int) -> None:
    """The opponent knows unit u is p's Shogun (a Scout's yes)."""
    st.shoguns.candidates[p] = [u]


def begin(st: GunshiState) -> None:
    """Phase 2 begins: Red chooses first, the Shogun first."""
    st.player = RED
    st.step = "shogun"


def chosen(st: GunshiState) -> bool:
    """Both players have chosen a Shogun and card order (Blue, who chooses second, has no
    decision left): the phase is over (the flow's ``end``)."""
    return st.player == BLUE and st.step != "shogun" and not (st.step and st.cards.stock[BLUE])


def legal(st: GunshiState) -> list[GunshiAction]:
    p = st.player
    if st.step == "shogun":
        return [A("shogun", LETTERS[u]) for u in st.shoguns.candidates[p]]
    kind = st.step
    return [A(kind, c[0]) for c in st.cards.stock[p]]


def do(st: GunshiState, a: GunshiAction) -> None:
    p = st.player
    if a.kind == "shogun":
        st.shoguns.shogun[p] = LETTERS.index(a.arg)
        shogun = LETTERS.index(a.arg)
        st.emit(
            [p],
            "shogun",
            say("Your Shogun is {unit} {letter}.", unit=words.unit_type(shogun), letter=a.arg),
            unit=a.arg,
        )
        st.emit(
            None,
            "shogun_chosen",
            say("{colour} chooses a Shogun in secret.", colour=words.colour(p)),
            seat=p,
        )
    else:
        cards.arrange(st, p, a.arg, to_hand=a.kind == "hand")
        card = words.card(a.arg)
        if a.kind == "hand":
            st.emit([p], "hand", say("{card} goes to your hand.", card=card), card=a.arg)
        else:
            st.emit([p], "deck", say("{card} goes to your deck.", card=card), card=a.arg)
    if st.step == "shogun":
        st.step = "hand" if st.cards.stock[p] else ""
    elif st.step == "hand" and len(st.cards.hand[p]) >= HAND_SIZE:
        st.step = "deck"
    if st.step == "deck" and len(st.cards.stock[p]) <= 1:
        # The last card of the deck is forced: no decision to make. Only the count of cards
        # left decides this, never their kinds: the opponent sees how many decisions a
        # player makes, so that number must not depend on the secret choices (filling in
        # a run of one kind would tell the opponent that all of that kind is in the deck).
        cards.stack_rest(st, p)
    if st.step and st.cards.stock[p]:
        return
    st.emit(
        None,
        "ready",
        say("{colour} has chosen a Shogun and card order.", colour=words.colour(p)),
        seat=p,
    )
    if p == RED:
        st.player = BLUE
        st.step = "shogun"
