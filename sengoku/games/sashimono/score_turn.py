"""The Score turn: (a) score every bowed Sashimono (1 VP each), (b) look at N+1 and return
one, (c) return other Sashimono from play to hand, (d) one bonus action: Bakufu, Dojo,
Gennin or Gyorin."""

from __future__ import annotations

from typing import TYPE_CHECKING

import sengoku.games.sashimono.setup as setup
import sengoku.games.sashimono.training as training
import sengoku.games.sashimono.winning as winning
from sengoku.core.sentence import N_, Word, say
from sengoku.games.sashimono.decisions import (
    K_BONUS,
    K_DONE,
    K_PSLOT,
    Prompt,
    Question,
    Spec,
    Step,
    Task,
)
from sengoku.games.sashimono.pieces import SLOT_SHORT, SLOTS, listed

if TYPE_CHECKING:
    from sengoku.games.sashimono.state import SashimonoState

#: The four bonus actions of a Score turn, and their effects in the card language.
BONUS = (N_("Bakufu"), N_("Dojo"), N_("Gennin"), N_("Gyorin"))
BONUS_EFFECT: tuple[list[Spec], ...] = (
    [{"op": "bury", "from": "any", "draw": True}],
    [{"op": "train", "where": "any"}],
    [{"op": "flip", "side": "own", "where": "any", "face": "any", "count": 1},
     {"op": "draw", "what": "kumi", "count": 1}],
    [{"op": "rearrange", "where": "any"}],
)  # fmt: skip


def step_score(state: SashimonoState, task: Task) -> None:
    """Score VP, then Replace Scored Sashimono (look at N+1, return 1)."""
    seat = task.seat
    s = state.sides[seat]
    scored = [p for p in range(12) if s.slots[p] is not None and s.bowed[p]]
    for p in scored:
        c = s.slots[p]
        assert c is not None
        s.scored.append(c)
        s.slots[p] = None
        s.bowed[p] = False
        s.vp += 1
        state.emit("score", say("{side} scores {card} (now {vp} VP).", side=state.name_of(seat),
                                card=Word(state.card(c).name), vp=s.vp),
                   seat=seat, card=state.card(c).id)  # fmt: skip
    if not scored:
        state.emit(
            "score", say("{side} has no bowed Sashimono to score.", side=state.name_of(seat))
        )
        return
    if s.vp >= state.target:
        winning.win(state, seat, "vp")
        return
    n = len(scored)
    if len(s.sdeck) <= n:
        s.shand.extend(s.sdeck)
        state.emit(
            "draw",
            say(
                "{side} draws the last {count} Sashimono.",
                side=state.name_of(seat),
                count=len(s.sdeck),
            ),
        )
        s.sdeck = []
        return
    state.look.cards = s.sdeck[: n + 1]
    s.sdeck = s.sdeck[n + 1 :]
    state.look.owner = seat
    state.emit(
        "look",
        say("{side} looks at the top {count} Sashimono.", side=state.name_of(seat), count=n + 1),
    )
    cards = listed([Word(state.card(c).name) for c in state.look.cards])
    state.emit(
        "look",
        say("You look at {cards}.", cards=cards),
        [seat],
        cards=[state.card(c).id for c in state.look.cards],
    )
    setup.ask_return_looked(
        state, seat, 1, f"replace scored Sashimono: keep {n}, return 1 to the bottom"
    )


def step_return_sas(state: SashimonoState, task: Task) -> None:
    """Return Un-Scored Sashimono: ask for one to return to hand, or ``keep``."""
    seat = task.seat
    s = state.sides[seat]
    opts = [(K_PSLOT, p, f"return {SLOTS[p]}", SLOT_SHORT[p])
            for p in range(12) if s.slots[p] is not None]  # fmt: skip
    if not opts:
        return
    opts.append((K_DONE, 0, "keep", "keep"))
    state.ask(
        seat, Question.RETURN_SAS, N_("you may return un-scored Sashimono from play to hand"), opts
    )


def answer_return_sas(state: SashimonoState, prompt: Prompt, kind: int, arg: int) -> None:
    """One Sashimono from play back to hand; ask again."""
    seat = prompt.seat
    if kind == K_DONE:
        return
    s = state.sides[seat]
    c = s.slots[arg]
    assert c is not None
    s.slots[arg] = None
    s.bowed[arg] = False
    s.shand.append(c)
    state.emit(
        "return",
        say(
            "{side} returns {card} to hand.",
            side=state.name_of(seat),
            card=Word(state.card(c).name),
        ),
    )
    state.push(Task(Step.RETURN_SAS, seat=seat))


def step_bonus(state: SashimonoState, task: Task) -> None:
    """Bonus Action: ask for one of those that can do something, or none."""
    seat = task.seat
    s = state.sides[seat]
    opts = []
    if s.sdeck or s.shand or any(c is not None for c in s.slots):
        opts.append((K_BONUS, 0, "bonus Bakufu", "Bakufu"))
    if training.train_targets(state, seat, None):
        opts.append((K_BONUS, 1, "bonus Dojo", "Dojo"))
    if any(st is not None for st in s.cells):
        opts.append((K_BONUS, 2, "bonus Gennin", "Gennin"))
        opts.append((K_BONUS, 3, "bonus Gyorin", "Gyorin"))
    opts.append((K_DONE, 0, "no bonus", "none"))
    state.ask(
        seat,
        Question.BONUS,
        N_("you may take one bonus action: Bakufu, Dojo, Gennin, Gyorin"),
        opts,
    )


def answer_bonus(state: SashimonoState, prompt: Prompt, kind: int, arg: int) -> None:
    """Perform the chosen bonus action's effects."""
    seat = prompt.seat
    if kind == K_DONE:
        return
    state.emit(
        "bonus",
        say(
            "{side} takes the bonus action {bonus}.",
            side=state.name_of(seat),
            bonus=Word(BONUS[arg]),
        ),
    )
    state.push(*[Task(Step.OP, spec=dict(spec), actor=seat, line=None)
                 for spec in BONUS_EFFECT[arg]])  # fmt: skip
