"""Phase 3: Battle. A turn: Units Follow Orders, Send New Commands, Lightning Command,
Re-Supply.

Rulebook, "Phase 3": the Lightning card and the 1st card of the Command Row resolve (the
cards' rules are in ``commands/``); then the player sends cards from the hand to the end of
the row, alternately face down and face up; may pay 6 for a Lightning Command; gains the
points of the last occupied position and draws up to 3. The Gunshi's Inspiration
(``inspiration.py``) comes before sending, after a turn with an invasion.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from mypy_extensions import mypyc_attr

import sengoku.games.gunshi.cards as cards
import sengoku.games.gunshi.inspiration as inspiration
import sengoku.games.gunshi.invasion as invasion
import sengoku.games.gunshi.knowledge as knowledge
import sengoku.games.gunshi.logistics as logistics
import sengoku.games.gunshi.words as words
from sengoku.core.sentence import Sentence, say
from sengoku.core.substate import SCALAR, TUPLE, TUPLES, Part, part_field
from sengoku.games.gunshi.actions import A, GunshiAction
from sengoku.games.gunshi.cards import Card
from sengoku.games.gunshi.commands import universal_rules
from sengoku.games.gunshi.data import CARDS, COLOUR, HAND_SIZE, LIGHTNING_COST, ROW_LIMIT

if TYPE_CHECKING:
    from sengoku.games.gunshi.state import GunshiState


@mypyc_attr(native_class=False)
@dataclass(slots=True)
class Turn(Part):
    """The turn in Phase 3: the cards still to resolve (Lightning card, then the 1st card),
    the card resolving, the cards sent so far this turn, and the turn number (counted from 1)."""

    queue: list[Card] = part_field(TUPLES, default_factory=list)
    cur: Card | None = part_field(TUPLE, default=None)
    sent: int = part_field(SCALAR, default=0)
    turn: int = part_field(SCALAR, default=0)


def legal(st: GunshiState) -> list[GunshiAction]:
    """The decision of the battle now: the command's, the Inspiration's, or sending."""
    if st.orders.cmd is not None:
        return universal_rules.legal(st, st.orders.cmd)
    if st.step == "take":
        return inspiration.legal_take(st)
    if st.step == "remove":
        return inspiration.legal_remove(st)
    return legal_send(st)


def do(st: GunshiState, a: GunshiAction) -> None:
    if st.orders.cmd is not None:
        universal_rules.do(st, st.orders.cmd, a)
        continue_turn(st)
    elif st.step in ("take", "remove"):
        inspiration.do_swap(st, a)
    else:
        do_send(st, a)


def start(st: GunshiState) -> None:
    """Phase 3 begins with turn 1."""
    st.battle.turn = 1
    begin_turn(st)


def set_aside(st: GunshiState) -> Card | None:
    """The resolving card leaves the turn without going to the deck (a Chain Trap lies beside
    the board); returns it."""
    card, st.battle.cur = st.battle.cur, None
    return card


def begin_turn(st: GunshiState) -> None:
    """Units Follow Orders: the Lightning card first, then the 1st card."""
    p = st.player
    # A heading for the log: the turns of the battle, counted from 1.
    st.emit(
        None,
        "turn",
        say("{colour}'s turn {turn}.", colour=words.colour(p), turn=st.battle.turn),
        seat=p,
        turn=st.battle.turn,
        name=COLOUR[p],
    )
    invasion.start_turn(st)
    st.battle.sent = 0
    st.battle.queue = cards.orders_of_turn(st, p)
    continue_turn(st)


def continue_turn(st: GunshiState) -> None:
    """Resolve queued cards until a decision is needed, then the later steps."""
    p = st.player
    while st.result is None and st.orders.cmd is None:
        if st.battle.cur is not None:
            finish_card(st)
            continue
        if not st.battle.queue:
            break
        card = st.battle.queue.pop(0)
        knowledge.consume(st, p, knowledge.bag_of(card), card[0])
        st.battle.cur = (card[0], True, False)
        st.emit(
            None,
            "resolve",
            say("{colour} resolves {card}.", colour=words.colour(p), card=words.card(card[0])),
            seat=p,
            card=card[0],
        )
        universal_rules.start_card(st, card[0])
    if st.result is not None or st.orders.cmd is not None:
        return
    if st.step == "send" and st.battle.sent == 0 and inspiration.due(st):
        inspiration.offer(st)


def finish_card(st: GunshiState) -> None:
    """A resolved card goes to the bottom of its owner's deck."""
    p = st.player
    card = st.battle.cur
    st.battle.cur = None
    if card is None:
        return
    cards.to_deck_bottom(st, p, card[0])


#: The actions of sending, made once (``A`` per card would build a key and look it up).
_SEND: Final[dict[str, GunshiAction]] = {code: A("send", code) for code in CARDS}
_END: Final = A("end")
_LIGHTNING: Final = A("lightning")


def legal_send(st: GunshiState) -> list[GunshiAction]:
    """Send New Commands (while the row has room), or end; a Lightning Command."""
    p = st.player
    out: list[GunshiAction] = []
    hands = st.cards
    room = len(hands.row[p]) + (hands.lightning[p] is not None) < ROW_LIMIT
    if room:
        send = _SEND
        out = [send[c[0]] for c in hands.hand[p]]
    if st.battle.sent > 0 or not out:
        out.append(_END)
        if st.logistics.points[p] >= LIGHTNING_COST and hands.row[p] and hands.lightning[p] is None:
            out.append(_LIGHTNING)
    return out


def do_send(st: GunshiState, a: GunshiAction) -> None:
    p = st.player
    if a.kind == "send":
        send(st, p, a.arg)
        return
    if a.kind == "lightning":
        logistics.pay(st, p, LIGHTNING_COST)
        cards.lightning_command(st, p)
        st.emit(
            None,
            "lightning",
            say(
                "{colour} pays {cost} points for a Lightning Command.",
                colour=words.colour(p),
                cost=LIGHTNING_COST,
            ),
            seat=p,
        )
    resupply(st)


def send(st: GunshiState, p: int, code: str) -> None:
    """A card from the hand to the end of the row, face down and face up alternately."""
    down = st.cards.face_down_next[p]
    hand = st.cards.hand[p]
    if down:
        # The opponent cannot tell which card left the hand: the hand is mixed.
        bid = knowledge.mix(st, p, hand, with_known=True)
        cards.take_card(cards.mix_hand(st, p, bid), code)
        cards.to_row(st, p, (code, False, False, bid))
        knowledge.collect_garbage(st, p)
    else:
        idx = cards.find_card(hand, code, prefer_known=True)
        if not hand[idx][1]:
            # No known copy: one of the unknown cards was this one.
            unknown = [i for i, c in enumerate(hand) if not c[1]]
            bid = knowledge.mix(st, p, [hand[i] for i in unknown], with_known=False)
            cards.mix_unknown(st, p, unknown, bid)
            knowledge.consume(st, p, bid, code)
        cards.play_from_hand(st, p, idx)
        cards.to_row(st, p, (code, True, True))
    st.battle.sent += 1
    pos = len(st.cards.row[p])
    if down:
        st.emit([p], "send", say("You send {card} face down.", card=words.card(code)), card=code)
        st.emit(
            [1 - p],
            "send",
            say(
                "{colour} sends a card face down to position {position}.",
                colour=words.colour(p),
                position=pos,
            ),
            position=pos,
        )
    else:
        st.emit(
            None,
            "send",
            say(
                "{colour} sends {card} face up to position {position}.",
                colour=words.colour(p),
                card=words.card(code),
                position=pos,
            ),
            card=code,
            position=pos,
        )


def resupply(st: GunshiState) -> None:
    """Re-Supply: points for the last occupied position, then draw up to 3; the turn passes."""
    p = st.player
    gain = len(st.cards.row[p])
    if gain == 0 and st.cards.lightning[p] is not None:
        gain = st.options["lightning_alone_resupply"]
    st.gain(p, gain)
    drawn = 0
    while len(st.cards.hand[p]) < HAND_SIZE and st.cards.deck[p]:
        card = cards.draw(st, p)
        drawn += 1
        st.emit([p], "draw", say("You draw {card}.", card=words.card(card[0])), card=card[0])
    st.emit(
        None,
        "resupply",
        _resupplied(p, gain, drawn),
        seat=p,
        gain=gain,
        drawn=drawn,
    )
    st.player = 1 - p
    st.battle.turn += 1
    st.step = "send"
    begin_turn(st)


def _resupplied(p: int, gain: int, drawn: int) -> Sentence:
    """The Re-Supply's sentence: "Red gains 1 point and draws 2 cards." (each count singular
    when it is 1)."""
    colour = words.colour(p)
    if gain == 1 and drawn == 1:
        return say(
            "{colour} gains {gain} point and draws {drawn} card.",
            colour=colour,
            gain=gain,
            drawn=drawn,
        )
    if gain == 1:
        return say(
            "{colour} gains {gain} point and draws {drawn} cards.",
            colour=colour,
            gain=gain,
            drawn=drawn,
        )
    if drawn == 1:
        return say(
            "{colour} gains {gain} points and draws {drawn} card.",
            colour=colour,
            gain=gain,
            drawn=drawn,
        )
    return say(
        "{colour} gains {gain} points and draws {drawn} cards.",
        colour=colour,
        gain=gain,
        drawn=drawn,
    )
