"""A turn (rulebook: "How to Play"): the choice of an Action turn or a Score turn, and what
follows either: draw K+1 Kumi, play Kumi from hand into empty spaces, the end of the turn.
The two turn types are :mod:`.action_turn` and :mod:`.score_turn`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import sengoku.games.sashimono.kagemusha as kagemusha
from sengoku.core.sentence import N_, Word, say
from sengoku.games.sashimono.cards import KUMI_NAMES
from sengoku.games.sashimono.decisions import (
    K_DONE,
    K_HAND,
    K_PLACE,
    K_PLAY,
    K_TURN,
    Prompt,
    Question,
    Step,
    Task,
)
from sengoku.games.sashimono.pieces import CELLS, EVERYONE, KAGE, listed

if TYPE_CHECKING:
    from sengoku.games.sashimono.state import SashimonoState


@dataclass(slots=True)
class TurnOrder:
    """Whose turn it is and how many turns began (this module's ``step_turn`` counts them)."""

    # A class of its own, not a :class:`~sengoku.core.substate.Part`: this module is compiled
    # by mypyc, and a compiled class cannot subclass the core's Python class (nor use its
    # generated clone); the copy and the saved form are written out.

    seat: int = 0
    count: int = 0

    def clone(self) -> TurnOrder:
        return TurnOrder(self.seat, self.count)

    def to_json(self) -> dict[str, Any]:
        return {"turn_seat": self.seat, "turns": self.count}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> TurnOrder:
        return TurnOrder(int(data["turn_seat"]), int(data["turns"]))


#: The steps of a seat's turn, made once each: a ``Task`` is immutable (clones share them
#: already) and a Python class, slow to make from compiled code.
_SEAT_STEPS: dict[tuple[Step, int], Task] = {}


def seat_step(step: Step, seat: int) -> Task:
    """The step ``step`` of ``seat``'s turn: ``Task(step, seat=seat)``."""
    key = (step, seat)
    task = _SEAT_STEPS.get(key)
    if task is None:
        task = _SEAT_STEPS[key] = Task(step, seat=seat)
    return task


def step_turn(state: SashimonoState, task: Task) -> None:
    """A turn begins: the Kagemusha plays its own; a player chooses Action or Score."""
    seat = task.seat
    state.turn_order.seat = seat
    state.turn_order.count += 1
    state.ctx = {"seat": seat}
    if seat == KAGE:
        kagemusha.take_turn(state)
        return
    s = state.sides[seat]
    opts = []
    if s.shand and free_slots(state, seat):
        opts.append((K_TURN, 0, "action", "a"))
    opts.append((K_TURN, 1, "score", "s"))
    # A heading of the game log: whose turn, counted over both players from 1.
    name = state.name_of(seat)
    state.emit(
        "turn",
        say("{name}'s turn {turn}.", name=name, turn=state.turn_order.count),
        seat=seat,
        turn=state.turn_order.count,
        name=name,
    )
    rule = N_(
        "choose an Action turn or a Score turn (Score is mandatory with no Sashimono in hand)"
    )
    state.ask(seat, Question.TURN, rule, opts)


def answer_turn(state: SashimonoState, prompt: Prompt, kind: int, arg: int) -> None:
    """Action turn: ask for the Sashimono to play. Score turn: schedule its steps."""
    seat = prompt.seat
    after = [seat_step(Step.DRAW_KUMI, seat), seat_step(Step.PLACE, seat),
             seat_step(Step.END_TURN, seat)]  # fmt: skip
    if arg == 0:
        state.emit("turn_type", say("{side} takes an Action turn.", side=state.name_of(seat)))
        s = state.sides[seat]
        opts = [(K_PLAY, c, f"play {state.card(c).id}", state.card(c).id) for c in s.shand]
        state.ask(seat, Question.PLAY, N_("Action turn: play one Sashimono from your hand"), opts)
        state.push(seat_step(Step.ACTIONS, seat), *after)
    else:
        state.emit("turn_type", say("{side} takes a Score turn.", side=state.name_of(seat)))
        state.push(seat_step(Step.SCORE, seat), seat_step(Step.RETURN_SAS, seat),
                   seat_step(Step.BONUS, seat), *after)  # fmt: skip


def free_slots(state: SashimonoState, seat: int) -> list[int]:
    """The Sashimono spaces ``seat`` may play to (empty, not the Kagemusha's Army)."""
    s = state.sides[seat]
    army = state.sides[KAGE].army_pos if state.solo else -1
    return [p for p in range(12) if s.slots[p] is None and p != army]


def step_draw_kumi(state: SashimonoState, task: Task) -> None:
    """Draw Kumi Cards: K+1, K the empty spaces of the Sonae."""
    seat = task.seat
    s = state.sides[seat]
    k = sum(1 for st in s.cells if st is None)
    n = k + 1
    if state.solo and state.options["challenge_fewer_kumi"]:
        n -= 1
    draw_kumi(state, seat, n)


def draw_kumi(state: SashimonoState, seat: int, n: int) -> None:
    """``seat`` draws ``n`` Kumi (fewer when the deck runs short)."""
    s = state.sides[seat]
    if seat == KAGE:
        for _ in range(n):
            if not kagemusha.draw_kumi(state):
                return
        return
    got = s.deck[:n]
    s.deck = s.deck[n:]
    s.hand.extend(got)
    if len(got) == n:
        drew = say("{side} draws {count} Kumi.", side=state.name_of(seat), count=len(got))
    else:
        drew = say(
            "{side} draws {count} Kumi (the deck had only {count}).",
            side=state.name_of(seat),
            count=len(got),
        )
    state.emit("draw", drew, seat=seat, count=len(got))
    if got:
        cards = listed([Word(KUMI_NAMES[t]) for t in got])
        state.emit("draw", say("You draw {cards}.", cards=cards), [seat], cards=got)


def step_place(state: SashimonoState, task: Task) -> None:
    """Play Kumi Cards: you may play a Kumi from hand into an empty space."""
    seat = task.seat
    s = state.sides[seat]
    if not s.hand or all(st is not None for st in s.cells):
        return
    opts = [(K_HAND, i, f"kumi h{i + 1}", f"h{i + 1}") for i in range(len(s.hand))]
    opts.append((K_DONE, 0, "end", "end"))
    state.ask(seat, Question.PLACE, N_("you may play Kumi from hand into empty spaces"), opts,
              n=-1 if task.n is None else task.n)  # fmt: skip


def answer_place(state: SashimonoState, prompt: Prompt, kind: int, arg: int) -> None:
    """The Kumi chosen: ask for its space and face, or ``end``."""
    seat = prompt.seat
    if kind == K_DONE:
        return
    s = state.sides[seat]
    opts = []
    for i, st in enumerate(s.cells):
        if st is None:
            opts.append((K_PLACE, 2 * i, f"to {CELLS[i]} up", f"{CELLS[i]}^"))
            opts.append((K_PLACE, 2 * i + 1, f"to {CELLS[i]} hidden", f"{CELLS[i]}v"))
    state.ask(seat, Question.PLACE_AT, N_("play the Kumi into an empty space, face up or Hidden"), opts,
              hand=arg, n=prompt.n)  # fmt: skip


def answer_place_at(state: SashimonoState, prompt: Prompt, kind: int, arg: int) -> None:
    """The Kumi goes to the space, face up or Hidden; ask for the next."""
    seat = prompt.seat
    s = state.sides[seat]
    t = s.hand.pop(prompt.hand)
    idx, hidden = divmod(arg, 2)
    s.cells[idx] = t + ("v" if hidden else "^")
    s.known[idx] = 0 if hidden else EVERYONE
    if hidden:
        state.emit(
            "place",
            say("{side} plays a Hidden Kumi at {cell}.", side=state.name_of(seat), cell=CELLS[idx]),
            seat=seat,
            cell=CELLS[idx],
        )
        state.emit(
            "place",
            say("Your Hidden Kumi at {cell} is {kumi}.", cell=CELLS[idx], kumi=Word(KUMI_NAMES[t])),
            [seat],
            cell=CELLS[idx],
            kumi=t,
        )
    else:
        state.emit("place", say("{side} plays {kumi} face up at {cell}.", side=state.name_of(seat),
                                kumi=Word(KUMI_NAMES[t]), cell=CELLS[idx]),
                   seat=seat, cell=CELLS[idx], kumi=t)  # fmt: skip
    n = prompt.n
    if n > 1 or n < 0:
        state.push(Task(Step.PLACE, seat=seat, n=n - 1 if n > 0 else -1))


def step_end_turn(state: SashimonoState, task: Task) -> None:
    """The turn ends; the other seat (or the Kagemusha) takes the next."""
    seat = task.seat
    state.ctx = {}
    if state.solo:
        nxt = KAGE if seat == 0 else 0
    else:
        nxt = 1 - seat
    state.emit("end_turn", say("{side} ends the turn.", side=state.name_of(seat)))
    state.push(seat_step(Step.TURN, nxt))
