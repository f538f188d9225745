"""Advanced Variant 1: The Gunshi's Inspiration (``variant=inspiration``).

Rulebook, "Advanced Variant 1": once per game, at the start of Send New Commands in a turn in
which one of the player's units invaded, the player takes an Advanced Command card into the
hand, then removes one card of the hand from the game. Modification 1: three Advanced cards
prepared at random, taken blind; Modification 2: three chosen in secret before the battle
(``prepare``); Modification 3: each player names two in secret, and the cards named by only
one player are shared face up (``mod3``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mypy_extensions import mypyc_attr

import sengoku.games.gunshi.cards as cards
import sengoku.games.gunshi.custom_deck as custom_deck
import sengoku.games.gunshi.knowledge as knowledge
import sengoku.games.gunshi.words as words
from sengoku.core.sentence import Sentence, say
from sengoku.core.substate import INTS, LIST, ROWS, Part, part_field
from sengoku.games.gunshi.actions import A
from sengoku.games.gunshi.cards import card_order, take_card
from sengoku.games.gunshi.data import BLUE, RED, advanced_codes

if TYPE_CHECKING:
    from sengoku.games.gunshi.actions import GunshiAction
    from sengoku.games.gunshi.state import GunshiState


@mypyc_attr(native_class=False)
@dataclass(slots=True)
class Inspiration(Part):
    """The Gunshi's Inspiration: each player's prepared Advanced cards (Modifications 1 and
    2), the Advanced cards left in the box, the cards removed from the game, Modification 3's
    shared face-up cards (``pool``) and each player's choices before the reveal (``m3``),
    whether the player has swapped this game, and the knowledge bags of the removed card and of
    the cards in the box (``knowledge.py``; -1: none)."""

    prepared: list[list[str]] = part_field(ROWS, default_factory=lambda: [[], []])
    unused: list[list[str]] = part_field(ROWS, default_factory=lambda: [[], []])
    removed: list[list[str]] = part_field(ROWS, default_factory=lambda: [[], []])
    pool: list[str] = part_field(LIST, default_factory=list)
    m3: list[list[str]] = part_field(ROWS, default_factory=lambda: [[], []])
    swap_done: list[bool] = part_field(LIST, default_factory=lambda: [False, False])
    removed_bag: list[int] = part_field(INTS, default_factory=lambda: [-1, -1])
    box_bag: list[int] = part_field(INTS, default_factory=lambda: [-1, -1])


def setup(st: GunshiState, rng: random.Random) -> None:
    """The Advanced cards in the box; Modification 1 prepares three of them at random,
    Modification 2 asks each player for three (phase ``prepare``)."""
    o = st.options
    adv = advanced_codes(o["sanryaku"])
    for p in (RED, BLUE):
        st.inspiration.unused[p] = list(adv)
    if o["modification"] in (1, 2):
        # The opponent never sees which Advanced cards were prepared.
        for p in (RED, BLUE):
            st.inspiration.box_bag[p] = knowledge.new_bag(st, p, list(adv))
    if o["modification"] == 1:
        for p in (RED, BLUE):
            chosen = rng.sample(adv, 3)
            st.inspiration.prepared[p] = chosen
            st.inspiration.unused[p] = [c for c in adv if c not in chosen]
    elif o["modification"] == 2 and st.phase == "formation":
        st.phase = "prepare"
        custom_deck.start_picks(st, [RED] * 3 + [BLUE] * 3)


# ---------------------------------------------------------------- Modification 2: prepare
def legal_prepare(st: GunshiState) -> list[GunshiAction]:
    return [A("pick", c) for c in st.inspiration.unused[st.player]]


def do_prepare(st: GunshiState, a: GunshiAction) -> None:
    p = st.player
    st.inspiration.unused[p].remove(a.arg)
    st.inspiration.prepared[p].append(a.arg)
    st.emit([p], "prepare", say("You prepare {card}.", card=words.card(a.arg)), card=a.arg)
    st.emit(
        None,
        "prepared",
        say("{colour} prepares an Advanced card face down.", colour=words.colour(p)),
        seat=p,
    )
    custom_deck.next_picker(st)


# ---------------------------------------------------------------- Modification 3
def legal_mod3(st: GunshiState) -> list[GunshiAction]:
    mine = st.inspiration.m3[st.player]
    return [A("pick", c) for c in advanced_codes(st.options["sanryaku"]) if c not in mine]


def begin_mod3(st: GunshiState) -> None:
    """Modification 3 begins once the formations are complete: Red chooses first."""
    st.player = RED


def mod3_chosen(st: GunshiState) -> bool:
    """Both players have chosen their two cards (Blue chooses second): the phase is over."""
    return len(st.inspiration.m3[BLUE]) >= 2


def do_mod3(st: GunshiState, a: GunshiAction) -> None:
    p = st.player
    st.inspiration.m3[p].append(a.arg)
    st.emit([p], "m3_choice", say("You choose {card}.", card=words.card(a.arg)), card=a.arg)
    st.emit(
        None,
        "m3_chosen",
        say("{colour} chooses an Advanced card in secret.", colour=words.colour(p)),
        seat=p,
    )
    if len(st.inspiration.m3[p]) < 2:
        return
    if p == RED:
        st.player = BLUE
        return
    both = set(st.inspiration.m3[RED]) & set(st.inspiration.m3[BLUE])
    remaining = sorted(set(st.inspiration.m3[RED] + st.inspiration.m3[BLUE]) - both, key=card_order)
    st.inspiration.pool = [c for c in remaining for _ in range(2)]
    for q in (RED, BLUE):
        st.inspiration.unused[q] = [c for c in st.inspiration.unused[q] if c not in remaining]
    st.emit(
        None,
        "m3_reveal",
        _revealed(st.inspiration.m3[RED], st.inspiration.m3[BLUE], remaining),
        red=list(st.inspiration.m3[RED]),
        blue=list(st.inspiration.m3[BLUE]),
        pool=remaining,
    )


def _revealed(red: list[str], blue: list[str], usable: list[str]) -> Sentence:
    """Modification 3's reveal: the 2 cards each chose, and those left usable (the ones both
    chose cancel out, so 0, 2 or 4 are left)."""
    chose = {
        "red1": words.card(red[0]),
        "red2": words.card(red[1]),
        "blue1": words.card(blue[0]),
        "blue2": words.card(blue[1]),
    }
    left = {f"usable{i}": words.card(c) for i, c in enumerate(usable, 1)}
    if not usable:
        return say(
            "Revealed: Red chose {red1} and {red2}; Blue chose {blue1} and {blue2}; usable: none.",
            **chose,
        )
    if len(usable) == 2:
        return say(
            "Revealed: Red chose {red1} and {red2}; Blue chose {blue1} and {blue2}; usable: "
            "{usable1}, {usable2}.",
            **chose,
            **left,
        )
    return say(
        "Revealed: Red chose {red1} and {red2}; Blue chose {blue1} and {blue2}; usable: "
        "{usable1}, {usable2}, {usable3}, {usable4}.",
        **chose,
        **left,
    )


# ---------------------------------------------------------------- the Inspiration itself
def due(st: GunshiState) -> bool:
    """The Inspiration is offered: the variant, an invasion this turn, not used yet."""
    return bool(
        st.options["variant"] == "inspiration"
        and st.invader_spot.invaded_turn
        and not st.inspiration.swap_done[st.player]
    )


def offer(st: GunshiState) -> None:
    """After Units Follow Orders of a turn with an invasion: the Inspiration's decision, or,
    with no card to take, the Inspiration is used up."""
    st.step = "take"
    if not legal_take(st):
        st.step = "send"
        st.inspiration.swap_done[st.player] = True


def legal_take(st: GunshiState) -> list[GunshiAction]:
    """The Advanced cards the player may take (blind by position with Modification 1)."""
    p = st.player
    mod = st.options["modification"]
    if mod == 1:
        return [A("blind", str(i + 1)) for i in range(len(st.inspiration.prepared[p]))]
    if mod == 2:
        return [A("take", c) for c in st.inspiration.prepared[p]]
    return [A("take", c) for c in st.inspiration.pool]


def legal_remove(st: GunshiState) -> list[GunshiAction]:
    return [A("remove", c[0]) for c in st.cards.hand[st.player]]


def do_swap(st: GunshiState, a: GunshiAction) -> None:
    """Take an Advanced card (``take``/``blind``), then remove a card of the hand."""
    p = st.player
    if a.kind == "remove":
        # The opponent cannot tell which card left the hand: the hand is mixed.
        bid = knowledge.mix(st, p, st.cards.hand[p], with_known=True)
        take_card(cards.mix_hand(st, p, bid), a.arg)
        st.inspiration.removed[p].append(a.arg)
        st.inspiration.removed_bag[p] = bid
        knowledge.collect_garbage(st, p)
        st.emit(
            [p],
            "remove",
            say("You remove {card} from the game.", card=words.card(a.arg)),
            card=a.arg,
        )
        st.emit(
            None,
            "removed",
            say("{colour} removes a card from the game.", colour=words.colour(p)),
            seat=p,
        )
        st.inspiration.swap_done[p] = True
        st.step = "send"
        return
    if a.kind == "blind":
        code = st.inspiration.prepared[p].pop(int(a.arg) - 1)
        public = False
    elif st.options["modification"] == 2:
        st.inspiration.prepared[p].remove(a.arg)
        code = a.arg
        public = False
    else:
        st.inspiration.pool.remove(a.arg)
        code = a.arg
        public = True
    if public:
        cards.to_hand(st, p, (code, True, False))
    else:
        cards.to_hand(st, p, (code, False, False, st.inspiration.box_bag[p]))
    st.emit([p], "take", say("You take {card} into your hand.", card=words.card(code)), card=code)
    if public:
        st.emit(
            None,
            "taken",
            say("{colour} takes {card}.", colour=words.colour(p), card=words.card(code)),
            card=code,
            seat=p,
        )
    else:
        st.emit(
            None,
            "taken",
            say("{colour} takes an Advanced card.", colour=words.colour(p)),
            seat=p,
        )
    st.step = "remove"
