"""Setup (rulebook: "Setup"): each army's Sonae, decks and hand; each player looks at
the top 5 Sashimono and returns 2 to the bottom; who takes the first turn. Also the card
loader's check that no card is bowed in the setup position (:func:`setup_bows`)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from sengoku.core.sentence import N_, Word, say
from sengoku.core.stack import DecisionStack
from sengoku.games.sashimono.cards import KUMI_TYPES
from sengoku.games.sashimono.decisions import K_LOOK, Prompt, Question, Step, Task
from sengoku.games.sashimono.pieces import EVERYONE, KAGE, Side, listed, seat_bit

if TYPE_CHECKING:
    from sengoku.games.sashimono.cards import CardSet
    from sengoku.games.sashimono.state import SashimonoState


def setup(state: SashimonoState, seed: int) -> None:
    """Deal the game from ``seed`` and schedule the first steps (the position then runs)."""
    rng = random.Random(seed)
    cs = state.cs
    if state.solo:
        mine = state.options["army"]
        armies = [mine, "east" if mine == "west" else "west", "kage"]
    else:
        armies = ["west", "east"]
    for seat in range(2):
        side = Side(armies[seat])
        kumi = [t for t in KUMI_TYPES for _ in range(cs.kumi[t])]
        side.cells = list(cs.sonae)
        # the starting Sonae is printed in the rules: its Hidden Kumi are known to all
        side.known = [EVERYONE] * len(side.cells)
        for stack in cs.sonae:
            if stack:
                kumi.remove(stack[0])
        rng.shuffle(kumi)
        side.deck = kumi
        sdeck = cs.deck(side.army)
        rng.shuffle(sdeck)
        side.sdeck = sdeck
        state.sides.append(side)
    if state.solo:
        # The Kagemusha takes the other army's cards; side 1 is unused (no second seat).
        kage = state.sides[1]
        state.sides[1] = Side("none")
        kumi = [t for t in KUMI_TYPES for _ in range(cs.kumi[t])]
        line = []
        for t in KUMI_TYPES:
            kumi.remove(t)
            line.append(t + "^")
        rng.shuffle(kumi)
        kage.cells = line  # type: ignore[assignment]
        kage.known = []
        kage.deck = kumi
        if state.options["challenge_discard_five"]:
            kage.discard = kage.deck[:5]
            kage.deck = kage.deck[5:]
        kage.marker = kage.sdeck.pop(0)
        kage.sline = kage.sdeck[:3]
        kage.sdeck = kage.sdeck[3:]
        kage.sbowed = [False] * len(kage.sline)
        kage.army_pos = 0
        state.sides.append(kage)
    seats = [0] if state.solo else [0, 1]
    for seat in seats:
        side = state.sides[seat]
        side.hand = side.deck[:3]
        side.deck = side.deck[3:]
    # Each player looks at the top 5 Sashimono and returns 2 to the bottom (setup step 4).
    first = 0
    if state.solo and state.sides[0].army == "east":
        first = KAGE  # the West army takes the first turn: here, the Kagemusha
    state.push(*[Task(Step.SETUP_LOOK, seat=seat) for seat in seats], Task(Step.TURN, seat=first))
    state.emit("setup", say("Each army sets out its Sonae and draws 3 Kumi."))


def step_setup_look(state: SashimonoState, task: Task) -> None:
    """Setup step 4: the seat looks at the top 5 of its Sashimono deck."""
    seat = task.seat
    s = state.sides[seat]
    state.look.cards = s.sdeck[:5]
    s.sdeck = s.sdeck[5:]
    state.look.owner = seat
    state.emit("look", say("{side} looks at the top 5 Sashimono.", side=state.name_of(seat)))
    cards = listed([Word(state.card(c).name) for c in state.look.cards])
    state.emit(
        "look",
        say("You look at {cards}.", cards=cards),
        [seat],
        cards=[state.card(c).id for c in state.look.cards],
    )
    ask_return_looked(
        state, seat, 2, N_("setup: choose 2 of the 5 Sashimono to return to the bottom")
    )


def ask_return_looked(state: SashimonoState, seat: int, n: int, rule: str) -> None:
    """Ask ``seat`` to return one of the looked-at Sashimono to the bottom (``n`` to go)."""
    opts = [(K_LOOK, i, f"bottom L{i + 1}", f"L{i + 1}") for i in range(len(state.look.cards))]
    state.ask(seat, Question.LOOK_BOTTOM, rule, opts, n=n)


def answer_look_bottom(state: SashimonoState, prompt: Prompt, kind: int, arg: int) -> None:
    """One looked-at Sashimono to the bottom; after the last, the rest go to hand."""
    seat = prompt.seat
    s = state.sides[seat]
    card = state.look.cards.pop(arg)
    s.bottom("sas", [card], seat_bit(seat))
    state.emit(
        "bottom",
        say("{side} returns a Sashimono to the bottom of the deck.", side=state.name_of(seat)),
    )
    n = prompt.n - 1
    if n > 0 and state.look.cards:
        ask_return_looked(state, seat, n, prompt.rule)
        return
    s.shand.extend(state.look.cards)
    state.emit(
        "draw",
        say(
            "{side} draws {count} Sashimono.", side=state.name_of(seat), count=len(state.look.cards)
        ),
    )
    state.look.cards = []
    state.look.owner = -1


# ----------------------------------------------------------------------------- card checks


def setup_bows(cs: CardSet) -> list[tuple[int, str]]:
    """Cards of ``cs`` whose scoring condition holds before any play has made it so.

    The probe is the setup position of the duel and of the solo game (either army) just
    after the first Sashimono is played: the printed Sonae, 3 Kumi in hand, 2 Sashimono left
    in hand and one in play, and in the solo game the Kagemusha's starting Kumi line (T, K,
    N face up; "enemy" in your conditions). A card bowed there as the card just played, or
    as one of the Kagemusha's traps, is bowed without any play: a free VP (for the Kagemusha,
    one you could not prevent). The card loader refuses such a card.
    Returns (card index, where it holds) pairs.
    """
    from sengoku.games.sashimono.game import Sashimono  # the game imports this module
    from sengoku.games.sashimono.state import SashimonoState  # the position runs this module

    # The probe's positions never read their game, but a compiled position checks that it
    # is one (None would fail mypyc's type check): a game object without its set-up.
    game = Sashimono.__new__(Sashimono)

    found: list[tuple[int, str]] = []
    base = {"vp": 3, "cards": "", "challenge_corners": False, "challenge_six_sashimono": False,
            "challenge_abilities": False, "challenge_discard_five": False,
            "challenge_fewer_kumi": False, "challenge_train": False}  # fmt: skip
    for mode, army in (("duel", "west"), ("solo", "west"), ("solo", "east")):
        st = SashimonoState(game, {**base, "mode": mode, "army": army}, cs)
        st.setup(0)
        # A DecisionStack, not a list: compiled, the property takes its getter's type.
        st.prompt, st.tasks, st.look.cards, st.look.owner = None, DecisionStack(), [], -1
        where = "in the duel" if not st.solo else f"in the solo game as {army}"
        for seat in [0] if st.solo else [0, 1]:
            side = st.sides[seat]
            foe = st.enemy(seat)
            deck = cs.deck(side.army)
            for c in deck:
                side.shand = [d for d in deck if d != c][:2]
                side.slots = [c] + [None] * 11
                if cs.cards[c].score(st, seat, foe):
                    found.append((c, f"the moment it is played, in the setup position {where}"))
            side.shand, side.slots = deck[1:3], [deck[0]] + [None] * 11
        if st.solo:
            kage = st.sides[KAGE]
            for c in cs.deck(kage.army):
                kage.sline, kage.sbowed = [c], [False]
                if cs.cards[c].score(st, 0, KAGE):
                    found.append((c, f"as a Kagemusha trap, from the setup position {where}"))
    return found
